"""Mother of Dragons: a player who leaves (MOD-FLEX-01/02), the part that needs no vassal orders: while
the orders are being assigned, a player's house and units become a vassal; its Power goes to the Pool
and it gains none again, a Dominance token it held passes to the highest player, a Vassal Order set
is added for it, it can no longer win, and its seat sends no more commands."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board import planning, power
from domain.board.action import events as aev
from domain.board.audit import audit
from domain.board.decider import pending_system_work
from domain.board.decisions import pending_decisions
from domain.board.emitter import Emitter, copy_state
from domain.board.game import GAME
from domain.board.house_choice import chooser, free_houses
from domain.board.mother_of_dragons import vassal_order_sets
from domain.board.narrative import describe
from domain.board.planning import areas_needing_orders, commanders
from domain.board.sealed_inputs import RevealCheck, check_reveals
from domain.board.victory import seven_castles, standings
from domain.core.errors import Forbidden, RuleViolation, WrongPhase
from domain.core.rederive import Recorded
from tests.domain.board.mother_of_dragons.test_mod_house_choice import Table, _play_choices
from tests.support.action_positions import FILL, SYSTEM
from tests.support.board_builders import started_game
from tests.support.mod_positions import ModPosition


def leave(p: ModPosition, house: str, reason: str = "") -> list:
    return p.run(house, cmd.LeaveGame(reason=reason))


def reveals(p: ModPosition) -> RevealCheck:
    """The commit–reveal check of the position's events (domain/board/sealed_inputs.py)."""
    return check_reveals([Recorded(seq=i + 1, ts=p.ctx.now, event=e) for i, e in enumerate(p.events)])


def rechoose(p: ModPosition) -> list[tuple[str, str]]:
    """Review 2: each set holder commands the first vassal it may, until every vassal has a commander
    again; returns (commander, vassal) in the order chosen."""
    chosen = []
    while commanders.rechoosing(p.state):
        d = next(d for d in pending_decisions(p.state) if d.commands == ["command_vassal"])
        p.run(d.house, cmd.CommandVassal(vassal=d.options.vassals[0]))
        chosen.append((d.house, d.options.vassals[0]))
    return chosen


def test_MOD_FLEX_01_the_leavers_house_and_units_become_a_vassal() -> None:
    """MOD-FLEX-01: Stark's player leaves while orders are assigned: Stark is a vassal with all its
    units where they stood, its 7 Power back in the Pool; the log says so; it places no orders now."""
    p = ModPosition(reveal=False)
    units = {a: dict(x.units) for a, x in p.state.areas.items() if x.house == "stark"}
    top = [h for h in p.state.turn_order() if h != "stark"][0]
    events = leave(p, "stark", "called away")
    assert events == [
        mev.PlayerLeft(
            seat_id=p.state.seat_of_house("stark").seat_id,
            house="stark",
            power_to_pool=7,
            order_sets={top: 1},  # Review 2: a set for the new vassal, to the highest player
            reason="called away",
            deadline=p.ctx.deadline(p.state.settings.decision_timeout_s),
        )
    ]
    s = p.state
    assert "stark" in s.vassals and s.houses["stark"].power == 0 and power.pool(s, "stark") == 20
    assert {a: dict(x.units) for a, x in s.areas.items() if x.house == "stark"} == units
    assert describe(events[0]) == "The player of Stark left the game; Stark is now a vassal."
    assert [d.house for d in pending_decisions(s) if d.commands == ["command_vassal"]] == [top]
    assert "stark" not in {d.house for d in pending_decisions(s) if d.commands != ["command_vassal"]}
    assert s.houses["stark"].hand  # MOD-FLEX-02 (decided): it keeps its own House cards


def test_MOD_FLEX_01_sealed_orders_are_withdrawn_and_the_reveal_goes_on_without_them() -> None:
    """MOD-FLEX-02: the leaver's sealed orders are withdrawn (vassals place none of their own); the
    others' orders are revealed as usual."""
    p = ModPosition(players=5, reveal=False)
    houses = [h for h in p.state.turn_order() if h not in p.state.vassals]
    leaver = houses[-1]
    for h in houses:
        p.run(h, cmd.AssignOrders(orders=dict(zip(areas_needing_orders(p.state, h), FILL))))
    for vassal, commander in sorted(p.state.commanders.items()):  # MOD-VASSAL-08: none placed for them
        p.run(commander, cmd.AssignOrders(orders={}, for_vassal=vassal))
    orphans = sorted(v for v, c in p.state.commanders.items() if c == leaver)
    events = leave(p, leaver)
    assert events[0].withdrawn_orders and leaver not in p.state.planning.sealed
    assert sorted(events[0].withdrawn) == sorted([leaver, *orphans])
    # the vassals it commanded have no commander until they are chosen again (Review 2)
    assert not {v for v, c in p.state.commanders.items() if c == leaver}
    assert all(v not in p.state.commanders for v in orphans)
    assert not pending_system_work(p.state)  # the re-choice comes before the reveal
    rechoose(p)
    assert p.state.commanders.keys() >= {leaver, *orphans}
    for vassal in [leaver, *orphans]:  # MOD-VASSAL-08: the new commanders place none for them
        if vassal in planning.houses_still_to_submit(p.state):
            p.run(p.state.commanders[vassal], cmd.AssignOrders(orders={}, for_vassal=vassal))
    p.sys(cmd.ResolvePending(), SYSTEM)
    assert {o.house for o in p.state.orders.values()} == set(houses) - {leaver}
    assert not reveals(p).problems  # the withdrawn orders are never revealed, and need not be


def test_MOD_FLEX_02_a_dominance_token_passes_to_the_highest_player() -> None:
    """MOD-FLEX-02 / MOD-VASSAL-21: Lannister, first on King's Court, leaves; the Messenger Raven goes to
    Stark, the next player on the track. Greyjoy leaves the Blade to Tyrell."""
    p = ModPosition(reveal=False)
    assert p.state.raven_holder() == "lannister" and p.state.blade_holder() == "greyjoy"
    leave(p, "lannister")
    leave(p, "greyjoy")
    assert p.state.tracks.kings_court[0] == "lannister" and p.state.raven_holder() == "stark"
    assert p.state.blade_holder() == "tyrell"


def test_MOD_FLEX_02_a_vassal_order_set_for_the_new_vassal() -> None:
    """MOD-FLEX-02: "from the next Planning phase, a new Vassal Order set is needed for it": the deal of
    MOD-VASSAL-02 then counts one set per vassal, the leaver's included; the leaver holds none."""
    p = ModPosition(players=4, reveal=False)
    top = p.state.turn_order()[0]
    leave(p, top)
    assert top not in p.state.vassal_order_sets
    dealt = vassal_order_sets(p.state.tracks.iron_throne, p.state.vassals)
    assert sum(dealt.values()) == 4 and top not in dealt


def test_MOD_FLEX_02_the_leaver_gains_no_power_and_cannot_win() -> None:
    """MOD-FLEX-02 with MOD-VASSAL-26 and MOD-VASSAL-28: no Power ever comes to the new vassal, and it is neither in
    the standings nor able to win."""
    p = ModPosition(reveal=False)
    leave(p, "arryn")
    em = Emitter(p.state, p.ctx)
    assert power.gain(em, "arryn", 3, "test") == 0 and not em.events
    for area in ("the_eyrie", "the_vale_of_arryn", "crackclaw_point", "harrenhal", "winterfell", "pyke", "highgarden"):
        p.state.areas[area].power_token = "arryn"  # mutated: seven castles for the vassal
        p.state.areas[area].units, p.state.areas[area].house = {}, None
    assert not seven_castles(p.state)
    as_player = copy_state(p.state)
    as_player.vassals = [h for h in as_player.vassals if h != "arryn"]
    assert seven_castles(as_player)  # the same board wins for a player
    assert "arryn" not in [x.house for x in standings(p.state)]


def test_MOD_FLEX_01_the_seat_sends_no_more_commands() -> None:
    p = ModPosition(reveal=False)
    leave(p, "stark")
    with pytest.raises(Forbidden) as err:
        p.run("stark", cmd.GiftPower(to="arryn", amount=1))
    assert err.value.code == "seat_left"
    seat = p.state.seat_of_house("stark").seat_id
    assert GAME.reader_of(p.state, seat) is None  # it reads as the public does: no more hidden Stark hand


def test_MOD_FLEX_01_refusals() -> None:
    """Not in the base game; not before the game runs (the house choice); not the last two players."""
    g = started_game(4)
    with pytest.raises(RuleViolation) as err:
        g.run(cmd.LeaveGame(), g.actor(g.state.turn_order()[0]))
    assert err.value.code == "leave_not_offered"
    t = Table(4, seed="leave-early")
    seat = chooser(t.state)
    t.run(cmd.ChooseHouse(house=free_houses(t.state)[0]), t.seat(seat))
    version = t.state.version
    with pytest.raises(WrongPhase) as werr:
        t.run(cmd.LeaveGame(), t.seat(seat))
    assert werr.value.code == "leave_not_now" and t.state.version == version
    three = ModPosition(players=3, reveal=False)
    first = [h for h in three.state.turn_order() if h not in three.state.vassals]
    leave(three, first[0])
    with pytest.raises(RuleViolation) as err:
        leave(three, first[1])
    assert err.value.code == "last_players"


def test_MOD_FLEX_01_in_sequential_placement_the_next_house_places() -> None:
    """BG-PLAN-05 with MOD-FLEX-01: when the house whose turn it is to place leaves, the next one gets
    its step (a fresh deadline)."""
    p = ModPosition(reveal=False)
    p.state.planning.sequential = True  # mutated, as the position builder documents
    first = p.state.turn_order()[0]
    events = leave(p, first)
    assert events[-1].step == "assign_orders" and events[-1].sequential
    placing = [d.house for d in pending_decisions(p.state) if d.commands == ["assign_orders"]]
    assert placing == [p.state.turn_order()[1]]


def test_an_export_with_a_leaver_audits_clean() -> None:
    t = Table(4, seed="leave-audit")
    _play_choices(t)
    while t.state.step == "choose_commanders":  # MOD-VASSAL-03
        d = pending_decisions(t.state)[0]
        t.run(cmd.CommandVassal(vassal=d.options.vassals[0]), t.seat(d.seat_id))
    s = t.state
    leaver = [h for h in s.turn_order() if h not in s.vassals][0]
    t.run(cmd.LeaveGame(reason="gone"), t.seat(s.seat_of_house(leaver).seat_id))
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.rules_ok and report.divergence is None, report.problems
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    assert not [e for e in t.all_events() if isinstance(e, aev.OrderRemoved)]
