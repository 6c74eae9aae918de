"""The judge's console in the domain (domain/board/judge.py, docs/judge.md): each correction is one
public event with its author and reason; a rollback appends ``judge_rolled_back`` and the fold
re-derives the state as of its target (domain/core/rollback.py); the offline audit re-derives every
judge's batch (domain/board/replay.py) and rejects a tampered one.

A 3-player game is driven by random legal moves (tests/support/full_games.py), each batch a second
after the one before (so batches are told apart by their time, as in the service).
"""

from __future__ import annotations

import random
from datetime import timedelta

import msgspec
import pytest

from domain.board import judge as j
from domain.board import judge_events as jev
from domain.board.audit import audit
from domain.board.decider import decide, fold, house_of, rollback_target
from domain.board.game import GAME
from domain.board.replay import last_command_start
from domain.board.state import BoardState
from domain.core.commands import JUDGE, ORGANIZER, Actor
from domain.core.context import Context, parse_rfc3339
from domain.core.errors import GameError
from domain.core.rederive import Recorded
from domain.core.rollback import RollbackOutOfRange, refold
from tests.support.forgery import as_json, envelopes, forged, index_of
from tests.support.full_games import FullGame

_enc = msgspec.msgpack.Encoder()


class JudgedGame(FullGame):
    """A full game whose batches are a second apart, and that folds a judge's rollback."""

    def tick(self) -> None:
        """The next batch is decided (and sealed) a second after the one before."""
        self.ctx = Context(now=self.ctx.now + timedelta(seconds=1), seed=self.ctx.seed, game_id=self.ctx.game_id)

    def apply(self, events, now=None):
        if not any(rollback_target(e) is not None for e in events):
            return super().apply(events, now)
        self.batch_starts.append(len(self.events))
        self.batch_times.append(now or self.ctx.now)
        self.events.extend(events)
        self.state = refold(fold, rollback_target, self.events)
        self.batches += 1
        return events

    def run(self, command, actor):
        self.tick()
        return super().run(command, actor)

    def actor(self, house: str) -> Actor:
        seat = self.state.seat_of_house(house)
        return Actor(kind="seat", seat_id=seat.seat_id, generation=seat.generation)

    def judge(self, command) -> list:
        history = self.recorded()
        prepared = GAME.prepare_judge(self.state, history, command)
        return self.run(prepared, JUDGE)

    def recorded(self) -> list[Recorded]:
        return [
            Recorded(seq=env.seq, ts=parse_rfc3339(env.ts), event=e)
            for env, e in zip(self.envelopes(), self.events, strict=True)
        ]

    def steps(self, n: int, rng: random.Random) -> None:
        for _ in range(n):
            if self.state.phase == "ended":
                return
            self.tick()
            self.step(rng, timeout_rate=0)


def _restorable(state: BoardState) -> j.RestoreUnit:
    """A legal ``restore_unit``: a Footman into a land area the house already holds."""
    for house in state.houses_in_play:
        for area, a in sorted(state.areas.items()):
            if a.house == house and "ship" not in a.units:
                c = j.RestoreUnit(house=house, area=area, unit="footman", reason="knocked off the table")
                try:
                    decide(state, c, JUDGE, Context(now=parse_rfc3339("2026-01-01T00:00:00Z"), seed="", game_id="x"))
                except GameError:
                    continue
                return c
    raise AssertionError("no area to restore a unit to")


@pytest.fixture(scope="module")
def judged():
    """A game with every judge's action: set_power, restore_unit, replace_player, roll_back,
    undo_last_command; play goes on after each."""
    g = JudgedGame(3, "judge-actions")
    rng = random.Random(7)
    g.steps(12, rng)
    house = g.state.houses_in_play[0]
    g.judge(j.SetPower(house=house, power=3, reason="miscounted Power at the table"))
    g.steps(4, rng)
    g.judge(_restorable(g.state))
    g.judge(j.ReplacePlayer(seat_id="seat2", name="stand-in", reason="seat2 vanished"))
    g.steps(10, rng)
    target = g.batch_starts[-5]  # the end of a batch five batches ago
    before = refold(fold, rollback_target, g.events[:target])
    g.judge(j.RollBack(version=target, reason="an illegal march was accepted"))
    rolled_at = len(g.events)
    g.steps(8, rng)
    g.judge(j.UndoLastCommand(seat_id=g.state.seats[0].seat_id, reason="a misclick, by ruling"))
    g.steps(6, rng)
    return g, before, target, rolled_at


def test_a_rollback_re_derives_the_state_as_of_its_target(judged):
    g, before, target, rolled_at = judged
    after = refold(fold, rollback_target, g.events[:rolled_at])
    rolled = g.events[rolled_at - 1]
    assert isinstance(rolled, jev.JudgeRolledBack) and rolled.version == target
    assert after.version == rolled_at  # versions keep counting events
    for field in ("phase", "step", "round", "areas", "houses", "tracks", "orders", "planning", "action", "westeros"):
        assert _enc.encode(getattr(after, field)) == _enc.encode(getattr(before, field)), field
    # what is kept from before the rollback: the seats' holders (seat2 stays replaced)
    assert next(s for s in after.seats if s.seat_id == "seat2").generation == 1
    assert after.step_version == rolled_at  # the reopened step is the rollback's: old timeouts are void


def test_every_judge_event_carries_its_author_and_reason_and_is_public(judged):
    g, *_ = judged
    judged_events = [e for e in g.events if isinstance(e, jev.JUDGE_EVENTS)]
    assert {type(e) for e in judged_events} == {
        jev.JudgePowerSet,
        jev.JudgeUnitRestored,
        jev.SeatReplaced,
        jev.JudgeRolledBack,
    }
    assert any(isinstance(e, jev.JudgeRolledBack) and e.undone_seat == "seat1" for e in judged_events)
    for e in judged_events:
        assert e.author == "judge" and e.reason
        assert GAME.redact_event(e, None) is e  # nothing hidden from spectators
        assert GAME.describe(e) and e.reason in GAME.describe(e)


def test_an_export_with_every_judge_action_audits_clean(judged):
    g, *_ = judged
    report = audit(g.envelopes(), g.ctx.seed)
    assert report.chain_ok and report.rules_ok, (report.problems, report.divergence)
    # commit–reveal: a reveal after a rollback opens the commitments outstanding at its target
    assert report.commitments_ok and report.reveals_opened and not report.problems, report.problems
    assert report.rederived_through == len(g.events)
    assert _enc.encode(report.final_state) == _enc.encode(g.state)
    without_seed = audit(g.envelopes(), None)
    assert without_seed.rules_ok and without_seed.rederived_through == len(g.events), without_seed.divergence


def test_a_tampered_judge_event_is_rejected(judged):
    g, *_ = judged
    events = as_json(g.envelopes())

    def previous(evs):
        evs[index_of(evs, "judge_power_set")]["event"]["previous"] += 1

    bad = forged(events, previous)
    report = audit(envelopes(bad), g.ctx.seed)
    at = index_of(bad, "judge_power_set") + 1
    assert not report.rules_ok and report.divergence.startswith(f"event {at} (re-running SetPower)")

    def beyond(evs):  # BG-POWER-01: more Power than a house owns
        evs[index_of(evs, "judge_power_set")]["event"]["power"] = 21

    report = audit(envelopes(forged(events, beyond)), g.ctx.seed)
    assert not report.rules_ok and "SetPower refused" in report.divergence, report.divergence

    def elsewhere(evs):  # the rollback moved: what follows no longer follows from it
        evs[index_of(evs, "judge_rolled_back")]["event"]["version"] -= 1

    report = audit(envelopes(forged(events, elsewhere)), g.ctx.seed)
    assert not report.rules_ok, report

    def other_deadline(evs):
        evs[index_of(evs, "judge_rolled_back")]["event"]["deadline"] = "2030-01-01T00:00:00.000Z"

    report = audit(envelopes(forged(events, other_deadline)), g.ctx.seed)
    at = index_of(events, "judge_rolled_back") + 1
    assert not report.rules_ok and report.divergence.startswith(f"event {at} (re-running RollBack)")


def test_a_rollback_into_the_middle_of_a_batch_or_a_false_undo_is_rejected(judged):
    g, *_ = judged
    events = as_json(g.envelopes())
    i = index_of(events, "judge_rolled_back")
    target = events[i]["event"]["version"]
    mid = next(k for k in range(target - 1, 1, -1) if events[k - 1]["ts"] == events[k]["ts"])  # inside a batch

    def into_a_batch(evs):
        evs[i]["event"]["version"] = mid

    report = audit(envelopes(forged(events, into_a_batch)), g.ctx.seed)
    assert not report.rules_ok and report.divergence.startswith(f"event {i + 1}"), report.divergence

    j = index_of(events, "judge_rolled_back", lambda e: e.get("undone_seat") is not None)

    def other_seat(evs):  # the same rollback, said to undo another seat's last command
        evs[j]["event"]["undone_seat"] = "seat3" if evs[j]["event"]["undone_seat"] != "seat3" else "seat2"

    report = audit(envelopes(forged(events, other_seat)), g.ctx.seed)
    assert not report.rules_ok and report.divergence.startswith(f"event {j + 1}"), report.divergence


def test_only_the_judge_may_act_and_a_replaced_token_is_refused(judged):
    g, *_ = judged
    s = g.state
    ctx = g.ctx
    c = j.SetPower(house=s.houses_in_play[0], power=1, reason="r")
    for actor in (ORGANIZER, Actor(kind="seat", seat_id="seat1"), Actor(kind="system")):
        with pytest.raises(GameError) as e:
            decide(s, c, actor, ctx)
        assert e.value.code == "judge_only" and e.value.kind == "forbidden"
    seat2 = next(x for x in s.seats if x.seat_id == "seat2")
    with pytest.raises(GameError) as e:
        house_of(s, Actor(kind="seat", seat_id="seat2", generation=0))
    assert e.value.code == "token_replaced"
    assert house_of(s, Actor(kind="seat", seat_id="seat2", generation=1)) == seat2.house


def test_judge_refusals_name_their_rule():
    g = JudgedGame(3, "judge-refusals")
    s = g.state
    house = s.houses_in_play[0]

    def refused(command) -> GameError:
        with pytest.raises(GameError) as e:
            GAME.decide(s, GAME.prepare_judge(s, g.recorded(), command), JUDGE, g.ctx)
        return e.value

    assert refused(j.SetPower(house=house, power=21, reason="r")).rule == "BG-POWER-01"  # 20 tokens a house
    assert refused(j.SetPower(house="nobody", power=1, reason="r")).code == "unknown_house"
    assert refused(j.RollBack(version=1, reason="r")).code == "rollback_out_of_range"  # before the start
    assert refused(j.RollBack(version=s.version, reason="r")).code == "rollback_out_of_range"  # not before now
    assert refused(j.UndoLastCommand(seat_id="seat1", reason="r")).code == "nothing_to_undo"
    sea = next(a for a, x in s.areas.items() if a.endswith("_sea") or "sea" in a)
    assert refused(j.RestoreUnit(house=house, area=sea, unit="footman", reason="r")).code == "unit_not_allowed_here"
    enemy = next(a for a, x in s.areas.items() if x.house not in (None, house) and x.units)
    assert refused(j.RestoreUnit(house=house, area=enemy, unit="footman", reason="r")).code == "area_taken"


def test_a_rollback_to_a_version_not_before_it_is_a_corrupt_stream():
    g = JudgedGame(3, "judge-corrupt")
    bad = jev.JudgeRolledBack(version=len(g.events) + 5, author="judge", reason="r", holders={})
    with pytest.raises(RollbackOutOfRange):
        refold(fold, rollback_target, [*g.events, bad])


def test_an_undo_never_returns_to_events_a_rollback_undid():
    g = JudgedGame(3, "judge-undo-after-rollback")
    g.steps(20, random.Random(3))
    target = g.batch_starts[-4]
    g.judge(j.RollBack(version=target, reason="replay the last batches"))
    history = g.recorded()
    for seat in g.state.seats:
        start = last_command_start(g.state, history, seat.seat_id)
        assert start is None or start <= target, (seat.seat_id, start, target)


def _naive(events):
    """The definition, folded the slow way: at a rollback, the fold of the events before its target."""
    state = None
    for i, e in enumerate(events):
        t = rollback_target(e)
        if t is not None:
            state = _naive(events[:t])
            state.version = i
        state = fold([e], state)
    return state


def test_nested_rollbacks_fold_as_defined_and_audit_clean():
    g = JudgedGame(3, "judge-nested")
    rng = random.Random(11)
    g.steps(15, rng)
    first = g.batch_starts[-3]
    g.judge(j.RollBack(version=first, reason="one"))
    g.steps(6, rng)
    g.judge(j.RollBack(version=g.batch_starts[-2], reason="after the first rollback"))
    g.steps(4, rng)
    g.judge(j.RollBack(version=first + 1 if first + 1 in g.batch_starts else first, reason="into the undone past"))
    g.steps(4, rng)
    assert _enc.encode(refold(fold, rollback_target, g.events)) == _enc.encode(_naive(g.events))
    report = audit(g.envelopes(), g.ctx.seed)
    assert report.rules_ok and not report.problems, (report.divergence, report.problems)
    assert _enc.encode(report.final_state) == _enc.encode(g.state)
