"""Time banks (chess clocks) and the judge's pause: the accounting, pure (docs/clocks.md).

With ``settings.time_bank_s`` every house has a bank. Its clock runs while the game waits on a
decision of that house (the house is in the decisions' ``waiting_for``): from the batch that opened
the decision to the batch that ends it. ``decide`` appends, after the events of every batch,

* a ``clock_charged`` for each house whose decision ended in the batch (it answered, a default was
  applied, or the decision went away): the time it ran, ``ctx.now - since``, is taken from its bank;
  a house that answered itself in time gets ``increment_s`` back (Fischer);
* a ``clock_started`` for the houses the game now waits on (their clocks run from ``ctx.now``).

A house's own deadline is the earlier of the step's deadline (``decision_timeout_s``) and the moment
its bank runs out (``since + bank``); the game's deadline (what the workers fire) is the earliest of
them. When a house's bank runs out, the timeout applies the documented defaults to that house's
pending decisions only; the house is then *out of time* for the rest of the game: its bank stays 0,
so each of its later decisions is defaulted as soon as the workers see it (within the sweep's period).
That is the tournament rule: a flag that falls is never raised again, and the game goes on.

While the clocks are paused (a judge's ``pause_clocks``) the game has no deadline, no bank runs and
no decision or resolution is accepted; ``resume_clocks`` moves the step's deadline and every running
clock's start by the paused time, so nobody loses or gains time by the pause.

With Mother of Dragons only the players have banks, made once their houses are known (at the
start with a given deal, after the last house choice otherwise: the house choice itself runs on
``decision_timeout_s`` alone, as no seat has a house yet). A vassal has none: the game waiting on a
vassal's decision runs its commander's bank, who decides for it (MOD-VASSAL-08/09/13/24,
:func:`~.clock_times.bank_owner`), and the commander's answer for it (``for_vassal``) is its own answer
(charged, with the increment). In a simultaneous step a commander's one clock runs while any of its
own or its vassals' decisions is awaited. The commanders' choice runs the bank of the set holder who
chooses. When a commander's bank runs out, its vassals' pending decisions get their defaults with its
own. A vassal still without a commander, or a house whose player left, runs no bank.

Everything here reads ``ctx.now`` (the batch's timestamp, as the envelopes record it, to the
millisecond) and writes what it computed into events: the fold (:mod:`.evolve`) only applies them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..core.commands import Actor, PauseClocks, ResumeClocks, may_keep_clocks
from ..core.context import Context, parse_rfc3339, rfc3339
from ..core.errors import Forbidden, WrongPhase
from . import events as ev
from .clock_events import ClockCharged, ClocksPaused, ClocksResumed, ClockStarted
from .clock_times import MS, bank_owner, effective_deadline, house_deadline, houses_due
from .decisions import pending_decisions
from .emitter import copy_state
from .evolve import fold
from .state import BoardState

__all__ = ["awaited", "clock_events", "effective_deadline", "houses_due", "now_of", "pause", "resume"]


def now_of(ctx: Context) -> datetime:
    """The batch's time to the millisecond, as its envelopes record it (so the audit, deciding at
    the recorded timestamp, computes the same charges)."""
    return parse_rfc3339(rfc3339(ctx.now))


def awaited(state: BoardState) -> list[str]:
    """The banks the game waits on now (each once, in turn order): those that run for the
    ``waiting_for`` of the decisions (:func:`~.clock_times.bank_owner`: a vassal's decision runs its
    commander's); sealed orders already submitted are amendable, not awaited."""
    out: list[str] = []
    for d in pending_decisions(state):
        owner = bank_owner(state, d.house)
        if getattr(d.options, "submitted", None) is None and owner is not None and owner not in out:
            out.append(owner)
    return out


def clock_events(before: BoardState, batch: list[ev.Event], actor: Actor, ctx: Context) -> list[ev.Event]:
    """The clock events that follow ``batch`` (decided on ``before``): charges, then starts. None
    without time banks, and none once the game has ended."""
    after = fold(batch, copy_state(before))
    assert after is not None, "a batch folds onto a state"
    if not after.clocks or after.phase == "ended":
        return []
    now = now_of(ctx)
    defaulted = {
        owner
        for e in batch
        if isinstance(e, ev.DecisionTimedOut)
        for h in e.houses
        if (owner := bank_owner(before, h)) is not None
    }
    actor_house = None
    if actor.kind == "seat" and actor.seat_id is not None:
        seat = before.seat(actor.seat_id)
        actor_house = seat.house if seat is not None else None
    waiting = awaited(after)
    out: list[ev.Event] = []
    restarted: list[str] = []
    for house in after.houses_in_play:
        clock = before.clocks.get(house)
        if clock is None or clock.since is None:
            continue
        answered = house == actor_house and house not in defaulted
        if house in waiting and not answered and house not in defaulted:
            continue  # still on the same decision: its clock keeps running
        since = parse_rfc3339(clock.since)
        end = now
        if house in defaulted:
            limit = house_deadline(before, house)
            end = min(now, limit) if limit is not None else now
        used = max(0, (end - since) // MS)
        left = clock.bank_ms - used
        ran_out = not clock.out_of_time and left <= 0
        increment = after.settings.increment_s * 1000 if answered and not (clock.out_of_time or ran_out) else 0
        out.append(
            ClockCharged(
                house=house, used_ms=used, increment_ms=increment, bank_ms=max(0, left) + increment, out_of_time=ran_out
            )
        )
        if house in waiting:
            restarted.append(house)
    started = [h for h in waiting if h in restarted or (h in after.clocks and after.clocks[h].since is None)]
    if started:
        out.append(ClockStarted(houses=started, at=rfc3339(now)))
    return out


def pause(state: BoardState, command: PauseClocks, actor: Actor, ctx: Context) -> list[ev.Event]:
    """A judge pauses the clocks (docs/clocks.md): refused when already paused, before the start or
    after the end."""
    _check_keeper(state, actor)
    if state.paused is not None:
        raise WrongPhase("the clocks are already paused", code="clocks_paused")
    return [ClocksPaused(by=actor.kind, reason=command.reason, at=rfc3339(now_of(ctx)))]


def resume(state: BoardState, command: ResumeClocks, actor: Actor, ctx: Context) -> list[ev.Event]:
    """A judge resumes the clocks: the step's deadline (and, in the fold, every running clock) moves
    by the paused time."""
    _check_keeper(state, actor)
    if state.paused is None:
        raise WrongPhase("the clocks are not paused", code="clocks_running")
    now = now_of(ctx)
    paused = max(timedelta(0), now - parse_rfc3339(state.paused.at))
    deadline = rfc3339(parse_rfc3339(state.deadline) + paused) if state.deadline is not None else None
    return [
        ClocksResumed(by=actor.kind, reason=command.reason, at=rfc3339(now), paused_ms=paused // MS, deadline=deadline)
    ]


def _check_keeper(state: BoardState, actor: Actor) -> None:
    if not may_keep_clocks(actor):
        raise Forbidden("only a judge (today: the organizer) may pause or resume the clocks")
    if state.phase in ("lobby", "ended"):
        raise WrongPhase("the clocks run only while the game does", code="clocks_not_running")


def refuse_while_paused(state: BoardState) -> None:
    """While paused the game takes no decision, timeout or resolution (only ``resume_clocks``)."""
    if state.paused is not None:
        raise WrongPhase(
            f"the clocks are paused ({state.paused.reason}); the game resumes when a judge resumes them",
            code="clocks_paused",
        )
