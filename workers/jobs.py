"""The worker's work. Plain coroutines, safe to run late, twice, or after a crash:

* :func:`resolve_pending` -- the RQ job the API enqueues right after an append that left the game
  waiting for a system resolution (all sealed inputs are in): resolve it (e.g. reveal the orders).
  If nothing waits, do nothing.
* :func:`run_swept` -- what the worker's sweep found (``workers/sweep.py``): due deadlines it
  claimed and games left pending, run here, in this process, several games at a time on one event
  loop (no RQ job per deadline: enqueueing, dequeuing and book-keeping a job cost more CPU than
  applying the timeout).
* Follow-ups: when this worker's own append leaves a game waiting for a resolution (the defaults
  of a timeout complete the orders, so they must be revealed), the worker resolves it right after,
  itself (:class:`FollowUps`), instead of enqueueing a job for itself. The append script marked the
  game ``pending`` in Redis in the same atomic step, so a crash in between loses nothing: the next
  sweep of any worker picks it up.

Everything appends through :class:`service.engine.engine.Engine` with an expected version, so work
racing a player's command (or another worker) either wins cleanly or re-reads and re-decides;
nothing is ever appended twice. What to do is decided from the game's state through the
:class:`~domain.core.game.Game` protocol, never from error codes. Job names and settings live in
``service/engine/dispatch.py``.

The worker (``workers.worker.CitadelWorker``) runs all of it in its own process without forking, so
one event loop and one runtime (connections, cached game states) serve every job of the process.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from domain.core.commands import SYSTEM, ApplyTimeout, ResolvePending
from domain.core.context import parse_rfc3339
from domain.core.errors import GameError
from service.engine.runtime import Runtime, build_runtime
from service.store.archive import Archiver
from service.store.logs import configure_logging
from service.store.redis_client import STORE_UNREACHABLE, remember_cluster_nodes

configure_logging()
log = logging.getLogger("citadel.jobs")

SWEPT_CONCURRENCY = 16
"""How many swept games one worker works on at once (their Redis round trips overlap)."""


class Outcome(StrEnum):
    """How one piece of work ended; each sweep logs how many of each (``'defaults': 3``)."""

    RESOLVED = "resolved"
    """A pending resolution was appended (e.g. the orders revealed)."""
    NOTHING = "nothing"
    """Nothing waited for a resolution (another worker or the API's job was first)."""
    DEFAULTS = "defaults"
    """A deadline fired: the documented default actions were appended."""
    STEP_MOVED = "step"
    """The step the deadline belonged to had already ended."""
    EARLY = "early"
    """Not due yet by this worker's clock: put back for the sweep after the deadline."""
    CONFLICT = "conflict"
    """The timeout was refused because the step ended, or nothing was missing, in between."""
    FAILED = "failed"
    """An unexpected error, logged; the game's mark stays, so the next sweep tries again."""
    ARCHIVED = "archived"
    """A finished game was compacted into its archive (``service/store/archive.py``)."""


class Done(NamedTuple):
    outcome: Outcome
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.outcome}: {self.detail}" if self.detail else str(self.outcome)


class FollowUps:
    """The worker's dispatcher: the games its own appends left waiting for a resolution, resolved
    by this worker right after the work that caused them (see the module docstring)."""

    def __init__(self) -> None:
        self.games: dict[str, None] = {}

    async def resolve_now(self, game_id: str) -> None:
        self.games[game_id] = None

    def take(self) -> list[str]:
        games, self.games = list(self.games), {}
        return games


_loop: asyncio.AbstractEventLoop | None = None
_runtime: Runtime | None = None
_follow_ups = FollowUps()


T = TypeVar("T")


def _run(job: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run async work, then its follow-ups, on this process's loop and runtime (created on first
    use)."""
    global _loop, _runtime
    if _loop is None or _loop.is_closed():
        _loop = asyncio.new_event_loop()
        _runtime = None
    if _runtime is None:
        _runtime = build_runtime(scheduler=_follow_ups)
    try:
        result = _loop.run_until_complete(job(_runtime, *args))
        _loop.run_until_complete(_resolve_follow_ups(_runtime))
        return result
    except STORE_UNREACHABLE:
        # Redis restarted or failed over: drop the runtime (its pooled connections are dead) so the
        # next job connects afresh; this job failed, and the sweep enqueues its work again, since
        # the game's mark stays until the work is done (workers/sweep.py). The new runtime's clients
        # start from every Cluster node this one knew, not from REDIS_URL's alone (it may be the dead one).
        remember_cluster_nodes(_runtime.redis)
        _runtime = None
        raise


async def _fault_injection_pause() -> None:
    """Test hook: ``CITADEL_FAULT_JOB_DELAY_S`` holds a job between its decision and its append, so
    a test can kill the worker mid-job. Unset in production."""
    delay = float(os.environ.get("CITADEL_FAULT_JOB_DELAY_S", "0") or 0)
    if delay:
        await asyncio.sleep(delay)


async def _resolve(rt: Runtime, game_id: str) -> Done:
    keys = rt.store.keys(game_id)
    game = await rt.engine.load(game_id)
    if not game.game.pending_system_work(game.state):
        await rt.store.resolved(keys)
        return Done(Outcome.NOTHING, f"at version {game.version}")
    await _fault_injection_pause()
    try:
        await rt.engine.execute(game_id, SYSTEM, ResolvePending())
    except GameError as e:
        if e.kind != "conflict":  # resolved by another job in between: the state says so below
            raise
    game = await rt.engine.load(game_id)
    if not game.game.pending_system_work(game.state):
        await rt.store.resolved(keys)
    return Done(Outcome.RESOLVED, f"now at version {game.version}")


async def _timeout(rt: Runtime, game_id: str, step_version: int) -> Done:
    keys = rt.store.keys(game_id)
    game = await rt.engine.load(game_id)
    deadline = game.game.deadline(game.state)
    if deadline is None or deadline.step_version != step_version:
        await rt.store.timeout_done(keys, step_version)
        return Done(Outcome.STEP_MOVED, f"now version {game.version}")
    due = parse_rfc3339(deadline.at)
    if due > rt.engine.clock():  # early (clocks differ): the next sweep after the deadline fires it
        await rt.store.timeout_due_at(keys, step_version, due.timestamp())
        return Done(Outcome.EARLY, "left to the sweep")
    try:
        await rt.engine.execute(game_id, SYSTEM, ApplyTimeout(step_version=step_version))
    except GameError as e:
        if e.kind != "conflict":  # the step ended in between, or nothing was missing
            raise
        await _deadline_handled(rt, game_id, step_version, deadline.at)
        return Done(Outcome.CONFLICT, e.detail)
    await _deadline_handled(rt, game_id, step_version, deadline.at)
    return Done(Outcome.DEFAULTS)


async def _deadline_handled(rt: Runtime, game_id: str, step_version: int, fired_at: str) -> None:
    """Clear the step's deadline mark, or set it to the step's next deadline when the step goes on
    with another one (a time bank ran out for one house of a simultaneous step while the others
    still decide, docs/clocks.md): the append marked that deadline under the same member, which a
    plain removal here would lose. ``fired_at``: the deadline this work fired."""
    keys = rt.store.keys(game_id)
    game = await rt.engine.load(game_id)
    deadline = game.game.deadline(game.state)
    if deadline is not None and deadline.step_version == step_version and deadline.at != fired_at:
        await rt.store.timeout_due_at(keys, step_version, parse_rfc3339(deadline.at).timestamp())
    else:
        await rt.store.timeout_done(keys, step_version)


async def _resolve_follow_ups(rt: Runtime) -> None:
    """Resolve the games this worker's own appends left pending, until none is left."""
    while games := _follow_ups.take():
        await _many(rt, [(_resolve, (g,)) for g in games])


async def _many(rt: Runtime, work: list[tuple[Callable[..., Awaitable[Done]], tuple[Any, ...]]]) -> list[Done]:
    """Run each ``(coroutine function, args)`` with the runtime, :data:`SWEPT_CONCURRENCY` at a time.
    A failure of one game is logged and left to the next sweep (its mark stays); a lost connection
    stops the batch (the runtime is rebuilt, the marks are still there)."""
    gate = asyncio.Semaphore(SWEPT_CONCURRENCY)

    async def one(fn: Callable[..., Awaitable[Done]], args: tuple[Any, ...]) -> Done:
        async with gate:
            try:
                return await fn(rt, *args)
            except STORE_UNREACHABLE:
                raise
            except Exception:
                log.exception("%s%s failed; the next sweep tries again", fn.__name__, args)
                return Done(Outcome.FAILED)

    return list(await asyncio.gather(*(one(fn, args) for fn, args in work)))


async def _swept(rt: Runtime, pending: list[str], due: list[tuple[str, int]]) -> Counter[Outcome]:
    results = await _many(rt, [(_timeout, d) for d in due] + [(_resolve, (g,)) for g in pending])
    return Counter(r.outcome for r in results)


def run_swept(pending: list[str], due: list[tuple[str, int]]) -> Counter[Outcome]:
    """Resolve the ``pending`` games and fire the ``due`` deadlines (game id, step version) the
    sweep found, in this process; returns how many ended each way (:class:`Outcome`)."""
    return _run(_swept, pending, due)


async def _archive(rt: Runtime, game_id: str) -> Done:
    """Compact a finished game (``service/store/archive.py``); a game that is no longer over (a
    judge rolled its end back) loses its mark instead."""
    keys = rt.store.keys(game_id)
    archiver = Archiver(rt.redis)
    game = await rt.engine.load(game_id)
    if not game.game.is_over(game.state):
        await archiver.unmark(keys)
        return Done(Outcome.NOTHING, f"not over at version {game.version}")
    result = await archiver.archive(keys, game.version, list(game.game.readers(game.state)))
    return Done(Outcome.ARCHIVED if result != "moved" else Outcome.CONFLICT, result)


async def _archive_all(rt: Runtime, game_ids: list[str]) -> Counter[Outcome]:
    results = await _many(rt, [(_archive, (g,)) for g in game_ids])
    return Counter(r.outcome for r in results)


def run_archive(game_ids: list[str]) -> Counter[Outcome]:
    """Archive the finished games the sweep claimed (``workers/sweep.py``), in this process."""
    return _run(_archive_all, game_ids)


def resolve_pending(game_id: str) -> str:
    """The RQ job ``service.engine.dispatch.RESOLVE``."""
    result = _run(_resolve, game_id)
    log.info("resolve_pending %s: %s", game_id, result)
    return str(result)
