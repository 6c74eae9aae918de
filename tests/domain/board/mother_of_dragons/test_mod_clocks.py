"""Time banks with Mother of Dragons (docs/clocks.md, domain/board/clocks.py): only players have
banks; a vassal's decisions are its commander's (MOD-VASSAL-08/09/13), so they run and charge the
commander's bank; the commanders' choice (MOD-VASSAL-03) runs the chooser's; a commander's bank that
runs out defaults its vassals' decisions with its own; the house choice (MOD-SETUP-01) runs no bank.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.clock_events import ClockCharged, ClockStarted
from domain.board.clock_times import MS
from domain.board.decider import create, fold
from domain.board.decisions import pending_decisions
from domain.board.game import GAME
from domain.board.house_choice import ChooseHouseOptions
from domain.board.scenario_schema import AreaSetup, Scenario
from domain.board.state import Settings
from domain.core.context import rfc3339
from domain.core.errors import RuleViolation
from tests.domain.board.test_clocks import ClockedFullGame, Timed, t
from tests.support.board_builders import ORGANIZER

DEAL = ["stark", "greyjoy", "arryn"]
"""Three players: baratheon, lannister, martell and tyrell are vassals (MOD-SETUP-01)."""


def mod(**kw: int) -> Settings:
    return Settings(expansion="mother_of_dragons", **kw)  # type: ignore[arg-type]


@dataclass
class Dealt(Timed):
    """A timed Mother of Dragons game created with a given deal (``seat_houses``)."""

    deal: tuple[str, ...] = tuple(DEAL)

    def __post_init__(self) -> None:
        created = create(
            cmd.CreateGame(player_count=self.players, settings=self.settings, seat_houses=list(self.deal)), self.ctx(0)
        )
        self._apply(created, t(0))
        for i in range(self.players):
            self.run(0, cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(0, cmd.StartGame(), ORGANIZER)

    def choose_commanders(self, at: float) -> None:
        """Each set holder in turn commands the first free vassal, one second apart."""
        while self.state.step == "choose_commanders":
            d = pending_decisions(self.state)[0]
            vassal = next(v for v in self.state.vassals if v not in self.state.commanders)
            self.run(at, cmd.CommandVassal(vassal=vassal), self.seat(d.house))
            at += 1


def test_only_players_have_banks_and_the_commander_choice_runs_the_choosers() -> None:
    """MOD-VASSAL-03 with banks: every player starts with the bank, no vassal has one; the opening
    commanders' choice runs the chooser's clock alone, charged when it chooses (with the increment),
    and the next chooser's clock starts then."""
    g = Dealt(mod(time_bank_s=60, increment_s=5))
    assert {h: c.bank_ms for h, c in g.state.clocks.items()} == {h: 60_000 for h in DEAL}
    first = pending_decisions(g.state)[0].house
    assert g.events[-1] == ClockStarted(houses=[first], at=rfc3339(t(0)))
    vassal = g.state.vassals[0]
    out = g.run(7, cmd.CommandVassal(vassal=vassal), g.seat(first))
    assert ClockCharged(house=first, used_ms=7_000, increment_ms=5_000, bank_ms=58_000) in out
    nxt = pending_decisions(g.state)[0].house
    started = [e for e in out if isinstance(e, ClockStarted)]
    assert started == [ClockStarted(houses=[nxt], at=rfc3339(t(7)))]
    assert all(h not in g.state.vassals for h in g.state.clocks)


def test_MOD_VASSAL_08_a_vassals_orders_run_and_charge_its_commanders_bank() -> None:
    """MOD-VASSAL-08/09: in Assign Orders a commander's one clock runs while its own or its vassal's
    orders are awaited; its own orders in, the clock restarts for the vassal's, and placing the
    vassal's orders (``for_vassal``) charges the commander's bank, with the increment."""
    g = Dealt(mod(time_bank_s=600, increment_s=2, decision_timeout_s=900))
    g.choose_commanders(1)
    assert g.state.step == "assign_orders"
    commander, vassal = next((c, v) for v, c in sorted(g.state.commanders.items()))
    assert g.state.clocks[commander].since is not None and vassal not in g.state.clocks
    out = g.submit(30, commander)  # its own orders: charged, and running again for the vassal's
    own = next(e for e in out if isinstance(e, ClockCharged))
    assert own.house == commander and own.increment_ms == 2_000
    assert g.state.clocks[commander].since == rfc3339(t(30))
    d = next(d for d in pending_decisions(g.state) if d.house == vassal)
    assert d.seat_id == g.state.seat_of_house(commander).seat_id and d.for_vassal == vassal
    out = g.run(
        45, cmd.AssignOrders(orders={}, for_vassal=vassal), g.seat(commander)
    )  # MOD-VASSAL-08: a vassal may place none
    charged = [e for e in out if isinstance(e, ClockCharged)]
    assert charged == [
        ClockCharged(house=commander, used_ms=15_000, increment_ms=2_000, bank_ms=own.bank_ms - 15_000 + 2_000)
    ]
    assert not [e for e in out if isinstance(e, ClockCharged) and e.house == vassal]


def test_MOD_VASSAL_08_a_commanders_bank_running_out_defaults_its_vassals_orders() -> None:
    """Every order is in but one vassal's: the game's deadline is its commander's bank's end, not
    the step's; at it the vassal's orders get their default (MOD-VASSAL-08: none), logged as the
    vassal's timeout, and the commander is charged up to its bank's end only and is out of time."""
    g = Dealt(mod(time_bank_s=20, decision_timeout_s=600))
    g.choose_commanders(1)
    commander, vassal = next((c, v) for v, c in sorted(g.state.commanders.items()))
    for h in DEAL:
        g.submit(3, h)
    for v, c in sorted(g.state.commanders.items()):
        if v != vassal:
            g.run(3, cmd.AssignOrders(orders={}, for_vassal=v), g.seat(c))
    assert [d.house for d in pending_decisions(g.state) if getattr(d.options, "submitted", None) is None] == [vassal]
    left = g.state.clocks[commander].bank_ms
    assert g.state.clocks[commander].since == rfc3339(t(3))
    assert GAME.deadline(g.state).at == rfc3339(t(3) + left * MS)  # long before the step's 600 s
    out = g.timeout(3 + left / 1000 + 0.7)  # the worker ran 0.7 s late
    assert out[0] == ev.DecisionTimedOut(step="assign_orders", houses=[vassal])
    assert any(isinstance(e, ev.OrdersSubmitted) and e.house == vassal and e.by_default for e in out)
    assert ClockCharged(house=commander, used_ms=left, increment_ms=0, bank_ms=0, out_of_time=True) in out
    assert g.state.clocks[commander].out_of_time
    assert not [e for e in out if isinstance(e, ClockCharged) and e.house != commander]


def test_an_out_of_time_commanders_vassal_decisions_default_as_soon_as_they_open() -> None:
    """Out of time is final: once the first chooser's bank ran out (its commander choice defaulted),
    its own and its vassals' orders are due the moment Assign Orders opens, and one timeout then
    defaults them all while the other players decide on."""
    g = Dealt(mod(time_bank_s=2, decision_timeout_s=600))
    first = pending_decisions(g.state)[0].house
    out = g.timeout(2.5)
    assert any(isinstance(e, mev.VassalCommanderChosen) and e.by_default and e.house == first for e in out)
    assert g.state.clocks[first].out_of_time
    at = 2.6
    while g.state.step == "choose_commanders":
        d = pending_decisions(g.state)[0]
        vassal = next(v for v in g.state.vassals if v not in g.state.commanders)
        g.run(at, cmd.CommandVassal(vassal=vassal), g.seat(d.house))
    assert g.state.step == "assign_orders"
    mine = {first} | {v for v, c in g.state.commanders.items() if c == first}
    assert len(mine) > 1
    for d in pending_decisions(g.state):
        if d.house in mine:
            assert d.deadline == rfc3339(t(at))
    assert GAME.deadline(g.state).at == rfc3339(t(at))
    out = g.timeout(at + 0.5)
    assert set(out[0].houses) == mine  # type: ignore[attr-defined]
    assert g.state.step == "assign_orders"  # the other players' orders are still theirs to give


def test_MOD_SETUP_01_the_house_choice_runs_no_bank_and_the_banks_start_after_it() -> None:
    """MOD-SETUP-01: a seat has no house (so no bank) while it chooses; the choice is bounded by the
    step's deadline only. After the last choice every player has the full bank, no vassal has one,
    and the commanders' chooser's clock runs."""
    g = Timed(mod(time_bank_s=30, decision_timeout_s=600))
    assert g.state.clocks == {} and GAME.deadline(g.state).at == rfc3339(t(600))
    at = 0.0
    for seat_id in list(g.state.house_choice_order):
        at += 100  # far beyond any bank: no bank runs
        opts = pending_decisions(g.state)[0].options
        assert isinstance(opts, ChooseHouseOptions)
        g.run(at, cmd.ChooseHouse(house=opts.houses[-1]), cmd.Actor(kind="seat", seat_id=seat_id))
    assert sorted(g.state.clocks) == sorted(s.house for s in g.state.seats)
    assert all(c.bank_ms == 30_000 and not c.out_of_time for c in g.state.clocks.values())
    chooser = pending_decisions(g.state)[0].house
    assert g.events[-1] == ClockStarted(houses=[chooser], at=rfc3339(t(at)))
    assert not [e for e in g.events if isinstance(e, ClockCharged)]


def test_a_mod_game_with_banks_audits_clean_and_refolds_byte_for_byte() -> None:
    g = Dealt(mod(time_bank_s=20, increment_s=1, decision_timeout_s=600))
    g.choose_commanders(1)
    for i, h in enumerate(DEAL):
        g.submit(5 + i, h)
    g.timeout(60)  # the vassals' orders: their commanders' banks ran out
    report = audit(g.envelopes(), g.seed)
    assert report.chain_ok and report.rules_ok, (report.problems, report.divergence)
    assert report.rederived_through == len(g.events)
    refolded = fold([msgspec.json.decode(msgspec.json.encode(e), type=ev.BoardEvent) for e in g.events])
    assert msgspec.msgpack.encode(refolded) == msgspec.msgpack.encode(g.state)


@pytest.mark.parametrize("players", [3, 5])
def test_a_complete_mod_game_on_short_banks_runs_banks_out_and_audits_clean(players: int) -> None:
    """Across every phase (commanders, simultaneous orders with vassals', bids, vassal combats) a
    bank that runs out defaults its house and its vassals alone, then at once; the game ends with a
    player winning, the fold equals a refold and the audit re-derives every clock event."""
    game = ClockedFullGame(players, f"mod-clocked-{players}", mod(time_bank_s=40, increment_s=1, decision_timeout_s=8))
    rng = random.Random(players)
    for _ in range(60_000):
        if game.state.phase == "ended" and game.state.step == "game_over":
            break
        game.step(rng)
    assert game.state.phase == "ended" and game.state.winner not in game.state.vassals
    assert not set(game.state.clocks) & set(game.state.vassals)
    ran_out = {e.house for e in game.events if isinstance(e, ClockCharged) and e.out_of_time}
    assert ran_out
    vassal_defaults = [
        e for e in game.events if isinstance(e, ev.DecisionTimedOut) and any(h in game.state.vassals for h in e.houses)
    ]
    assert vassal_defaults
    assert any(isinstance(e, mev.VassalCommanderChosen) for e in game.events)
    assert game.same_as_refold()
    report = audit(game.envelopes(), game.ctx.seed)
    assert report.chain_ok and report.rules_ok and report.seed_ok, (report.problems, report.divergence)
    assert report.rederived_through == len(game.events)


def test_a_mod_scenario_with_banks_needs_the_players_houses() -> None:
    """MOD-SETUP-01: a Mother of Dragons position (banks or not) names its players' houses; without
    them it is 422 ``invalid_scenario`` (test_mod_scenarios.py has the positions that load)."""
    ctx = Dealt(mod(time_bank_s=60)).ctx(0)
    sc = Scenario(areas={"winterfell": AreaSetup(house="stark")})
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=mod(time_bank_s=60), scenario=sc), ctx)
    assert err.value.code == "invalid_scenario" and err.value.rule == "MOD-SETUP-01"


def test_players_leaving_a_game_on_short_banks_keep_the_clocks_consistent() -> None:
    """MOD-FLEX-01/02 with banks: players leave (and the timeout policy makes some leave) while banks
    run and run out; a leaver's clock stops and never runs again (its house, now a vassal, runs its
    new commander's), the game ends with a player winning, the fold equals a refold and the audit
    re-derives every clock event."""
    game = ClockedFullGame(
        5,
        "mod-clocked-leavers",
        mod(time_bank_s=40, increment_s=1, decision_timeout_s=8, vassal_after_missed_deadlines=3),
    )
    game.leave_rate = 0.004
    rng = random.Random(11)
    for _ in range(60_000):
        if game.state.phase == "ended" and game.state.step == "game_over":
            break
        game.step(rng)
    s = game.state
    assert s.phase == "ended" and s.winner not in s.vassals
    left = [e.house for e in game.events if isinstance(e, mev.PlayerLeft)]
    assert left
    for house in left:
        assert s.clocks[house].since is None
        i = next(k for k, e in enumerate(game.events) if isinstance(e, mev.PlayerLeft) and e.house == house)
        assert not [e for e in game.events[i + 1 :] if isinstance(e, ClockStarted) and house in e.houses]
    assert game.same_as_refold()
    report = audit(game.envelopes(), game.ctx.seed)
    assert report.chain_ok and report.rules_ok and report.seed_ok, (report.problems, report.divergence)
    assert report.rederived_through == len(game.events)


def test_MOD_FLEX_02_a_choosers_bank_running_out_defaults_the_commander_choice_made_again() -> None:
    """MOD-FLEX-02 (Review 2) with banks: a player leaves while the orders are assigned; commanders are
    chosen again at once, on the chooser's bank; when that bank runs out before the step's deadline,
    the choice gets its default (the free vassal highest on the track) and the chooser is out of time."""
    g = Dealt(mod(time_bank_s=20, decision_timeout_s=600), players=4, deal=("stark", "greyjoy", "arryn", "lannister"))
    g.choose_commanders(1)
    leaver = next(c for c in sorted(set(g.state.commanders.values())))
    for h in g.deal:
        if h != leaver:
            g.submit(3, h)
    for v, c in sorted(g.state.commanders.items()):
        if c != leaver:
            g.run(3, cmd.AssignOrders(orders={}, for_vassal=v), g.seat(c))
    out = g.run(5, cmd.LeaveGame(reason="gone"), g.seat(leaver))
    assert any(isinstance(e, mev.PlayerLeft) for e in out)
    chooser = pending_decisions(g.state)[0]
    assert chooser.commands == ["command_vassal"] and chooser.house != leaver
    assert g.state.clocks[chooser.house].since == rfc3339(t(5)) and g.state.clocks[leaver].since is None
    left = g.state.clocks[chooser.house].bank_ms
    assert GAME.deadline(g.state).at == rfc3339(t(5) + left * MS)
    out = g.timeout(5 + left / 1000 + 0.2)
    assert any(isinstance(e, mev.VassalCommanderChosen) and e.by_default and e.house == chooser.house for e in out)
    assert ClockCharged(house=chooser.house, used_ms=left, increment_ms=0, bank_ms=0, out_of_time=True) in out
