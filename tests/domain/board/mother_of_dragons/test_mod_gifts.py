"""Mother of Dragons: gifting Power (MOD-GIFT-01..03): a ``gift_power`` command at any time outside a
combat and in a combat's Call for Support, capped by the receiver's tokens in the Pool, refused with a
clear problem otherwise, in the log and the audit, and offered in the decisions as an option nobody
waits for."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.action import commands as acmd
from domain.board.audit import audit
from domain.board.game import GAME
from domain.board.gifts import GiftPowerOptions, gift_options
from domain.board.narrative import describe
from domain.board.planning import areas_needing_orders
from domain.board.power import pool
from domain.board.redaction import redact_event
from domain.board.westeros.state import Bidding, WesterosState
from domain.core.errors import RuleViolation, WrongPhase
from tests.domain.board.mother_of_dragons.test_mod_house_choice import Table, _play_choices
from tests.support.action_positions import FILL
from tests.support.board_builders import started_game
from tests.support.mod_positions import SEVEN, ModPosition, mod_north


def gift(p: ModPosition, giver: str, to: str, amount: int):
    return p.run(giver, cmd.GiftPower(to=to, amount=amount))


def test_MOD_GIFT_01_a_gift_moves_power_through_the_pool() -> None:
    """MOD-GIFT-01: in the Planning phase Stark gives 3 of its 7 Power to Arryn: Stark has 4, Arryn 10;
    the event is public and the log says so."""
    p = ModPosition(reveal=False)
    events = gift(p, "stark", "arryn", 3)
    assert events == [mev.PowerGifted(house="stark", to="arryn", amount=3, requested=3)]
    assert p.state.houses["stark"].power == 4 and p.state.houses["arryn"].power == 10
    assert pool(p.state, "stark") == 16 and pool(p.state, "arryn") == 10
    assert redact_event(events[0], "greyjoy") == events[0] and redact_event(events[0], None) == events[0]
    assert describe(events[0]) == "Stark gave 3 Power to Arryn."
    assert p.state.step == "assign_orders"  # nothing waits on it, nothing moves on


def test_MOD_GIFT_01_any_time_outside_a_combat() -> None:
    """MOD-GIFT-01: also in the Action phase, while another house is to resolve an order."""
    p = ModPosition()
    p.begin()
    assert p.state.phase == "action" and p.state.action.combat is None
    gift(p, "greyjoy", "tyrell", 2)
    assert p.state.houses["greyjoy"].power == 5 and p.state.houses["tyrell"].power == 9


def test_MOD_GIFT_02_in_a_combat_only_during_call_for_support() -> None:
    """MOD-GIFT-02: Stark attacks Arryn with Greyjoy's Support next door: Power may be given while
    support is called (by anyone), not once the House cards are being chosen."""
    sc = mod_north(
        extra={"castle_black": ("greyjoy", {"footman": 1})}, orders={"castle_black": "support_0"}, power={"stark": 7}
    )
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 1}}))
    assert sc.state.step == "declare_support"
    gift(sc, "arryn", "greyjoy", 2)  # a combatant buys support
    gift(sc, "tyrell", "stark", 1)  # an onlooker too
    assert sc.state.houses["greyjoy"].power == 9 and sc.state.houses["stark"].power == 8
    sc.run("greyjoy", acmd.DeclareSupport(side="defender"))
    assert sc.state.step == "choose_house_card"
    version = sc.state.version
    with pytest.raises(WrongPhase) as err:
        gift(sc, "stark", "greyjoy", 1)
    assert err.value.code == "gift_not_now" and err.value.rule == "MOD-GIFT-02"
    assert sc.state.version == version


def test_MOD_GIFT_03_capped_by_the_receivers_tokens_in_the_pool() -> None:
    """MOD-GIFT-03: Arryn holds 16 available and 2 on the board, so 2 of its 20 are in the Pool; a gift
    of 5 from Stark moves 2, and Stark keeps the other 3. With nothing left in the Pool the gift is
    refused."""
    p = ModPosition(reveal=False)
    p.state.houses["arryn"].power = 16  # mutated, as the position builder does (see its docstring)
    p.state.areas["the_fingers"].power_token = "arryn"
    p.state.areas["the_mountains_of_the_moon"].power_token = "arryn"
    assert pool(p.state, "arryn") == 2
    events = gift(p, "stark", "arryn", 5)
    assert events == [mev.PowerGifted(house="stark", to="arryn", amount=2, requested=5)]
    assert p.state.houses["stark"].power == 5 and p.state.houses["arryn"].power == 18
    assert "of 5 offered" in (describe(events[0]) or "")
    with pytest.raises(RuleViolation) as err:
        gift(p, "stark", "arryn", 1)
    assert err.value.code == "receiver_pool_empty" and err.value.rule == "MOD-GIFT-03"


@pytest.mark.parametrize(
    ("to", "amount", "code"),
    [("stark", 1, "gift_to_self"), ("arryn", 8, "not_enough_power"), ("targaryen", 1, "unknown_house")],
)
def test_MOD_GIFT_01_bad_gifts_are_refused_and_change_nothing(to: str, amount: int, code: str) -> None:
    """MOD-GIFT-01: to oneself, more than one has, or to a house not in the game: a clear 422."""
    p = ModPosition(reveal=False)
    version, power = p.state.version, p.state.houses["stark"].power
    with pytest.raises(RuleViolation) as err:
        gift(p, "stark", to, amount)
    assert err.value.code == code and err.value.kind == "invalid"
    assert p.state.version == version and p.state.houses["stark"].power == power


def test_MOD_GIFT_01_vassals_never_receive_power() -> None:
    """MOD-GIFT-01 with MOD-VASSAL-26: only player houses receive gifts."""
    p = ModPosition(players=4, reveal=False)
    giver = p.state.turn_order()[0]
    vassal = p.state.vassals[0]
    with pytest.raises(RuleViolation) as err:
        gift(p, giver, vassal, 1)
    assert err.value.code == "gift_to_vassal"
    opts = GAME.decisions(p.state, p.actor(giver).seat_id).decisions
    offers = [d.options for d in opts if isinstance(d.options, GiftPowerOptions)]
    assert offers and vassal not in offers[0].receivers


def test_MOD_GIFT_01_not_in_the_base_game() -> None:
    """MOD-GIFT-01 belongs to Mother of Dragons: the base game refuses the command."""
    g = started_game(4)
    houses = g.state.turn_order()
    with pytest.raises(RuleViolation) as err:
        g.run(cmd.GiftPower(to=houses[1], amount=1), g.actor(houses[0]))
    assert err.value.code == "gifts_not_offered"


def test_MOD_GIFT_01_decisions_offer_a_gift_nobody_waits_for() -> None:
    """The decisions list the gift as an option of the seat (receivers with the most each can take),
    without a deadline; the game does not wait on it (``waiting_for``, ``awaiting``)."""
    p = ModPosition(reveal=False)
    seat = p.actor("stark").seat_id
    out = GAME.decisions(p.state, seat)
    gifts = [d for d in out.decisions if d.commands == ["gift_power"]]
    assert len(gifts) == 1 and gifts[0].deadline is None
    opts = gifts[0].options
    assert isinstance(opts, GiftPowerOptions)
    assert opts.receivers == {h: 7 for h in p.state.turn_order() if h != "stark"}
    assert all(w.kind != "gift_power" for w in out.waiting_for)
    p.run("stark", cmd.AssignOrders(orders=dict(zip(areas_needing_orders(p.state, "stark"), FILL))))
    assert seat not in GAME.awaiting(p.state)  # its orders are in: the game waits on others only
    assert [d.commands for d in GAME.decisions(p.state, seat).decisions] == [["assign_orders"], ["gift_power"]]


def test_MOD_GIFT_02_no_gift_offered_during_a_combat_outside_call_for_support() -> None:
    """MOD-GIFT-02: once the House cards are being chosen, no seat is offered a gift."""
    sc = mod_north()
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 1}}))
    assert sc.state.step == "choose_house_card"
    seat = sc.actor("tyrell").seat_id
    assert not [d for d in GAME.decisions(sc.state, seat).decisions if d.commands == ["gift_power"]]


def test_an_export_with_gifts_audits_clean() -> None:
    """The audit reads a gift back from its event (the amount asked for) and re-derives it."""
    t = Table(4, seed="gift-audit")
    _play_choices(t)
    s = t.state
    assert s is not None
    giver, receiver = [h for h in s.turn_order() if h not in s.vassals][:2]
    seat = s.seat_of_house(giver)
    assert seat is not None
    t.run(cmd.GiftPower(to=receiver, amount=4), t.seat(seat.seat_id))
    envs = t.envelopes()
    report = audit(envs, t.ctx.seed)
    assert report.rules_ok and report.divergence is None, report.problems
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    # a forged gift (more than the giver has) does not re-derive
    t.batches[-1] = ([mev.PowerGifted(house=giver, to=receiver, amount=9, requested=9)], t.batches[-1][1])
    bad = audit(t.envelopes(), t.ctx.seed)
    assert not bad.rules_ok and bad.divergence is not None


def test_MOD_GIFT_01_power_sealed_in_a_bid_cannot_be_given() -> None:
    """Derived (docs/mother-of-dragons.md): Stark has 7 Power and a sealed Clash of Kings bid of 5, so
    it may give 2 at most; a sealed bid never exceeds its bidder's Power at the reveal. The position
    is mutated into the bidding (as the position builder documents)."""
    p = ModPosition(reveal=False)
    p.state.phase, p.state.step = "westeros", "bid"
    p.state.westeros = WesterosState(
        bidding=Bidding(kind="clash_of_kings", houses=list(SEVEN), track="iron_throne", sealed={"stark": 5})
    )
    offer = gift_options(p.state, "stark")
    assert offer is not None and set(offer.receivers.values()) == {2}
    with pytest.raises(RuleViolation) as err:
        gift(p, "stark", "arryn", 3)
    assert err.value.code == "not_enough_power" and "sealed in your bid" in str(err.value)
    gift(p, "stark", "arryn", 2)
    assert p.state.houses["stark"].power == 5 and p.state.houses["arryn"].power == 9
