"""Time banks and the judge's pause (docs/clocks.md, domain/board/clocks.py): the accounting.

A house's clock runs from the batch that opens its decision to the batch that ends it; the time is
charged from the batches' own timestamps (``ctx.now``), written into ``clock_charged`` events, so the
fold and the offline audit need no clock. A bank that runs out defaults that house's decisions only,
and from then on at once; a pause stops every deadline and bank, and the resume moves them.
These are the server's documented policies (no rule of the board game covers clocks).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.audit import audit
from domain.board.clock_events import ClockCharged, ClocksPaused, ClocksResumed, ClockStarted
from domain.board.decider import create, decide, fold, pending_system_work
from domain.board.decisions import pending_decisions
from domain.board.game import GAME
from domain.board.state import BoardState, Settings
from domain.core.commands import PauseClocks, ResumeClocks
from domain.core.context import Context, parse_rfc3339, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import Forbidden, WrongPhase
from domain.core.hashing import GENESIS
from tests.support.board_builders import NOW, ORGANIZER, SYSTEM, simple_orders
from tests.support.full_games import FullGame

_json = msgspec.json.Encoder()


def t(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


@dataclass
class Timed:
    """A game whose every batch is decided at a chosen time (as the server stamps it)."""

    settings: Settings
    players: int = 3
    seed: str = "clocks-seed"
    events: list[ev.Event] = field(default_factory=list)
    batches: list[tuple[int, datetime]] = field(default_factory=list)
    state: BoardState | None = None

    def __post_init__(self) -> None:
        self._apply(create(cmd.CreateGame(player_count=self.players, settings=self.settings), self.ctx(0)), t(0))
        for i in range(self.players):
            self.run(0, cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(0, cmd.StartGame(), ORGANIZER)

    def ctx(self, at: float) -> Context:
        return Context(now=t(at), seed=self.seed, game_id="g-clocks")

    def _apply(self, events: list[ev.Event], now: datetime) -> list[ev.Event]:
        self.batches.append((len(self.events), now))
        self.state = fold(events, self.state)
        self.events.extend(events)
        return events

    def run(self, at: float, command: object, actor: cmd.Actor) -> list[ev.Event]:
        return self._apply(decide(self.state, command, actor, self.ctx(at)), t(at))

    def seat(self, house: str) -> cmd.Actor:
        return cmd.Actor(kind="seat", seat_id=self.state.seat_of_house(house).seat_id)

    def submit(self, at: float, house: str) -> list[ev.Event]:
        return self.run(at, cmd.AssignOrders(orders=simple_orders(self.state, house)), self.seat(house))

    def timeout(self, at: float) -> list[ev.Event]:
        return self.run(at, cmd.ApplyTimeout(step_version=self.state.step_version), SYSTEM)

    def envelopes(self) -> list[Envelope]:
        prev, out = GENESIS, []
        starts = dict(self.batches)
        now = t(0)
        for n, e in enumerate(self.events):
            now = starts.get(n, now)
            env = seal(n + 1, rfc3339(now), ev.SCHEMA_VERSION, prev, _json.encode(e))
            prev = env.hash
            out.append(env)
        return out


def houses(g: Timed) -> list[str]:
    return g.state.turn_order()


def test_every_house_starts_with_its_bank_and_its_clock_runs_from_the_start():
    g = Timed(Settings(time_bank_s=60))
    assert {h: c.bank_ms for h, c in g.state.clocks.items()} == {h: 60_000 for h in houses(g)}
    assert g.events[-1] == ClockStarted(houses=houses(g), at=rfc3339(t(0)))
    assert all(c.since == rfc3339(t(0)) for c in g.state.clocks.values())


def test_no_bank_no_clock_events():
    g = Timed(Settings())
    assert g.state.clocks == {}
    out = g.submit(3, houses(g)[0])
    assert not any(isinstance(e, ClockCharged | ClockStarted) for e in out)


def test_an_answer_is_charged_the_time_since_its_decision_opened_plus_the_increment():
    g = Timed(Settings(time_bank_s=60, increment_s=5))
    first = houses(g)[0]
    out = g.submit(12.345, first)
    assert out[-1] == ClockCharged(house=first, used_ms=12_345, increment_ms=5_000, bank_ms=52_655)
    assert g.state.clocks[first].since is None  # sealed orders in: no longer awaited
    others = [h for h in houses(g) if h != first]
    assert all(g.state.clocks[h].since == rfc3339(t(0)) for h in others)


def test_the_deadline_is_the_earliest_bank_end_and_only_that_house_is_defaulted():
    g = Timed(Settings(time_bank_s=10, decision_timeout_s=600))
    a, b, c = houses(g)
    g.submit(3, a)
    g.submit(4, b)
    # c's bank ends at t+10, long before the step's 600 s deadline
    assert GAME.deadline(g.state).at == rfc3339(t(10))
    assert next(d.deadline for d in pending_decisions(g.state) if d.house == c) == rfc3339(t(10))
    with pytest.raises(WrongPhase) as early:
        g.timeout(9.9)
    assert early.value.code == "timeout_early"
    out = g.timeout(11.5)  # the worker ran 1.5 s late: charged up to the bank's end only
    assert out[0] == ev.DecisionTimedOut(step="assign_orders", houses=[c])
    assert isinstance(out[1], ev.OrdersSubmitted) and out[1].by_default and out[1].house == c
    assert ClockCharged(house=c, used_ms=10_000, increment_ms=0, bank_ms=0, out_of_time=True) in out
    assert g.state.clocks[c].out_of_time and g.state.clocks[c].bank_ms == 0


def test_a_step_deadline_before_the_bank_ends_defaults_every_late_house_and_charges_each():
    g = Timed(Settings(time_bank_s=100, decision_timeout_s=30))
    a, b, c = houses(g)
    g.submit(10, a)
    out = g.timeout(31)
    assert out[0] == ev.DecisionTimedOut(step="assign_orders", houses=[b, c])
    charged = {e.house: e for e in out if isinstance(e, ClockCharged)}
    assert charged[b] == ClockCharged(house=b, used_ms=30_000, increment_ms=0, bank_ms=70_000)
    assert charged[c].bank_ms == 70_000 and not g.state.clocks[c].out_of_time


def test_a_house_out_of_time_is_defaulted_as_soon_as_its_next_decision_opens():
    g = Timed(Settings(time_bank_s=5, decision_timeout_s=600))
    a, b, c = houses(g)
    g.submit(1, a)
    g.submit(2, b)
    g.timeout(5.2)  # c's bank ran out: its orders are the defaults
    assert pending_system_work(g.state)
    g.run(5.5, cmd.ResolvePending(), SYSTEM)  # orders revealed; the raven holder decides
    waiting = [d.house for d in pending_decisions(g.state)]
    assert waiting, g.state.step
    if c in waiting:  # c's decision defaults at the moment it opened
        assert GAME.deadline(g.state).at == rfc3339(t(5.5))
    else:  # another house's bank still runs: its own deadline is since + bank
        h = waiting[0]
        assert GAME.deadline(g.state).at == rfc3339(t(5.5) + timedelta(milliseconds=g.state.clocks[h].bank_ms))


def test_pause_holds_every_deadline_and_bank_and_resume_moves_them():
    g = Timed(Settings(time_bank_s=20, decision_timeout_s=60))
    a, b, c = houses(g)
    step_deadline = g.state.deadline
    g.run(5, PauseClocks(reason="a player's connection dropped"), ORGANIZER)
    assert g.events[-1] == ClocksPaused(by="organizer", reason="a player's connection dropped", at=rfc3339(t(5)))
    assert GAME.deadline(g.state) is None
    assert all(d.deadline is None for d in pending_decisions(g.state))
    view = GAME.view(g.state, None)
    assert view.paused is not None and view.paused.reason == "a player's connection dropped"
    assert all(cl.runs_out_at is None for cl in view.clocks)
    for refused in (
        lambda: g.submit(30, a),
        lambda: g.timeout(100),
        lambda: g.run(31, PauseClocks(reason="again"), ORGANIZER),
    ):
        with pytest.raises(WrongPhase) as e:
            refused()
        assert e.value.code == "clocks_paused"
    out = g.run(65, ResumeClocks(reason="reconnected"), ORGANIZER)
    moved = rfc3339(t(60 + 60))
    assert out == [
        ClocksResumed(by="organizer", reason="reconnected", at=rfc3339(t(65)), paused_ms=60_000, deadline=moved)
    ]
    assert step_deadline == rfc3339(t(60)) and g.state.deadline == moved
    assert all(c_.since == rfc3339(t(60)) for c_ in g.state.clocks.values())
    assert GAME.deadline(g.state).at == rfc3339(t(80))  # the banks' ends, moved by the 60 s pause
    out = g.submit(67, a)  # 2 s before the pause, 2 s after: 7 s charged
    assert out[-1] == ClockCharged(house=a, used_ms=7_000, increment_ms=0, bank_ms=13_000)


def test_only_a_judge_pauses_and_only_a_running_game():
    g = Timed(Settings(time_bank_s=20))
    with pytest.raises(Forbidden):
        g.run(1, PauseClocks(reason="mine"), g.seat(houses(g)[0]))
    with pytest.raises(WrongPhase) as e:
        g.run(1, ResumeClocks(reason="not paused"), ORGANIZER)
    assert e.value.code == "clocks_running"
    lobby = fold(create(cmd.CreateGame(player_count=3, settings=Settings()), g.ctx(0)))
    with pytest.raises(WrongPhase) as e:
        decide(lobby, PauseClocks(reason="early"), ORGANIZER, g.ctx(0))
    assert e.value.code == "clocks_not_running"


def test_a_game_that_paused_resumed_and_ran_a_bank_out_audits_clean_and_refolds_byte_for_byte():
    g = Timed(Settings(time_bank_s=8, increment_s=2, decision_timeout_s=600))
    a, b, c = houses(g)
    g.submit(1.5, a)
    g.run(2, PauseClocks(reason="judge call"), ORGANIZER)
    g.run(40, ResumeClocks(reason="resolved"), ORGANIZER)
    g.submit(41, b)
    g.timeout(46.5)  # c: 2 s before the pause + 6 s after = its 8 s bank
    assert g.state.clocks[c].out_of_time
    g.run(47, cmd.ResolvePending(), SYSTEM)
    report = audit(g.envelopes(), g.seed)
    assert report.chain_ok and report.rules_ok, (report.problems, report.divergence)
    assert report.rederived_through == len(g.events)
    refolded = fold([msgspec.json.decode(_json.encode(e), type=ev.BoardEvent) for e in g.events])
    assert msgspec.msgpack.encode(refolded) == msgspec.msgpack.encode(g.state)


def test_a_forged_charge_is_a_divergence():
    g = Timed(Settings(time_bank_s=60))
    g.submit(7, houses(g)[0])
    envs = g.envelopes()
    forged_events = [msgspec.json.decode(e.event) for e in envs]
    i = next(k for k, e in enumerate(forged_events) if e["type"] == "clock_charged")
    forged_events[i]["used_ms"] = 1
    forged_events[i]["bank_ms"] = 59_999
    prev, out = GENESIS, []
    for env, e in zip(envs, forged_events):
        s = seal(env.seq, env.ts, env.schema, prev, _json.encode(e))
        prev = s.hash
        out.append(s)
    report = audit(out, g.seed)
    assert report.chain_ok and not report.rules_ok
    assert report.divergence is not None and report.divergence.startswith(f"event {i + 1}")


class ClockedFullGame(FullGame):
    """A complete random game where time passes: each batch is decided a random 0-3 s after the
    last, and whenever the game's deadline (a bank's end or the step's) has passed, the worker's
    timeout runs instead of an answer, as the sweep would."""

    def __init__(self, players: int, seed: str, settings: Settings) -> None:
        self.now = NOW
        super().__init__(players, seed, settings)

    def run(self, command, actor):
        ctx = Context(now=self.now, seed=self.ctx.seed, game_id=self.ctx.game_id)
        return self.apply(decide(self.state, command, actor, ctx), self.now)

    def step(self, rng, timeout_rate: float = 0.0) -> None:
        self.now += timedelta(milliseconds=rng.randrange(0, 3000))
        s = self.state
        due = GAME.deadline(s)
        if not pending_system_work(s) and due is not None and parse_rfc3339(due.at) <= self.now:
            self.run(cmd.ApplyTimeout(step_version=s.step_version), SYSTEM)
            return
        super().step(rng, timeout_rate=0.0)


def test_a_complete_game_on_short_banks_runs_banks_out_and_audits_clean():
    """Across every phase (simultaneous orders, bids and House cards, sequential turns) a bank
    that runs out defaults its house alone, then at once; the game still ends, every invariant
    holds, the fold equals a refold, and the audit re-derives every clock event."""
    game = ClockedFullGame(3, "clocked-full", Settings(time_bank_s=40, increment_s=1, decision_timeout_s=8))
    rng = random.Random(7)
    for _ in range(40_000):
        if game.state.phase == "ended" and game.state.step == "game_over":
            break
        game.step(rng)
    assert game.state.phase == "ended"
    out = [e for e in game.events if isinstance(e, ClockCharged) and e.out_of_time]
    assert out, "no bank ran out"
    assert all(c.out_of_time and c.bank_ms == 0 for h, c in game.state.clocks.items() if h in {e.house for e in out})
    bank_only = [e for e in game.events if isinstance(e, ev.DecisionTimedOut) and len(e.houses) == 1]
    assert bank_only
    assert game.same_as_refold()
    report = audit(game.envelopes(), game.ctx.seed)
    assert report.chain_ok and report.rules_ok and report.seed_ok, (report.problems, report.divergence)
    assert report.rederived_through == len(game.events)


def test_a_pause_holds_the_systems_resolution_too_until_the_resume():
    g = Timed(Settings(time_bank_s=30))
    for i, house in enumerate(houses(g)):
        g.submit(1 + i, house)
    assert pending_system_work(g.state)  # every order is in: the worker would reveal them
    g.run(4, PauseClocks(reason="dispute over an order"), ORGANIZER)
    assert not pending_system_work(g.state)
    with pytest.raises(WrongPhase) as e:
        g.run(5, cmd.ResolvePending(), SYSTEM)
    assert e.value.code == "clocks_paused"
    g.run(9, ResumeClocks(reason="ruled"), ORGANIZER)
    assert pending_system_work(g.state)
    out = g.run(9.5, cmd.ResolvePending(), SYSTEM)
    assert any(isinstance(e, ev.OrdersRevealed) for e in out)


def test_an_answer_after_the_bank_ran_out_is_taken_but_the_flag_has_fallen():
    """The workers apply a bank's default within about a second; an answer in between is accepted
    (as after a step's deadline), and the house is out of time all the same, with no increment."""
    g = Timed(Settings(time_bank_s=5, increment_s=10))
    first = houses(g)[0]
    out = g.submit(5.8, first)
    assert out[-1] == ClockCharged(house=first, used_ms=5_800, increment_ms=0, bank_ms=0, out_of_time=True)
    assert g.state.clocks[first].out_of_time
