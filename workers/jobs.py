"""The worker jobs. Plain functions, safe to run late, twice, or after a crash:

* :func:`resolve_pending` -- if the game waits for a system resolution (all sealed inputs are in),
  resolve it (e.g. reveal the orders). If not, do nothing.
* :func:`apply_timeout` -- if the step that began at ``step_version`` is still current and its
  deadline has passed, append the documented defaults.

Both append through :class:`service.engine.engine.Engine` with an expected version, so a job racing
a player's command either wins cleanly or re-reads and re-decides; nothing is ever appended twice.
They decide what to do from the game's state through the :class:`~domain.core.game.Game`
protocol, never from error codes. Their names and settings live in ``service/engine/dispatch.py``.

The worker (``workers.worker.CitadelWorker``) runs jobs in its own process without forking, so one
event loop and one runtime (connections, cached game states) serve every job of the process.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

import redis.exceptions

from domain.core.commands import SYSTEM, ApplyTimeout, ResolvePending
from domain.core.context import parse_rfc3339
from domain.core.errors import GameError
from service.engine.runtime import Runtime, build_runtime
from service.store.logs import configure_logging

configure_logging()
log = logging.getLogger("citadel.jobs")

_loop: asyncio.AbstractEventLoop | None = None
_runtime: Runtime | None = None


def _run(job: Callable[..., Awaitable[str]], *args: Any) -> str:
    """Run an async job on this process's loop and runtime (created on first use)."""
    global _loop, _runtime
    if _loop is None or _loop.is_closed():
        _loop = asyncio.new_event_loop()
        _runtime = None
    if _runtime is None:
        _runtime = build_runtime()
    try:
        return _loop.run_until_complete(job(_runtime, *args))
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
        # Redis restarted or failed over: drop the runtime (its pooled connections are dead) so the
        # next job connects afresh; this job failed, and the sweep enqueues its work again, since
        # the game's mark stays until the work is done (workers/sweep.py).
        _runtime = None
        raise


async def _fault_injection_pause() -> None:
    """Test hook: ``CITADEL_FAULT_JOB_DELAY_S`` holds a job between its decision and its append, so
    a test can kill the worker mid-job. Unset in production."""
    delay = float(os.environ.get("CITADEL_FAULT_JOB_DELAY_S", "0") or 0)
    if delay:
        await asyncio.sleep(delay)


async def _resolve(rt: Runtime, game_id: str) -> str:
    keys = rt.store.keys(game_id)
    game = await rt.engine.load(game_id)
    if not game.game.pending_system_work(game.state):
        await rt.store.resolved(keys)
        return f"nothing to resolve at version {game.version}"
    await _fault_injection_pause()
    try:
        await rt.engine.execute(game_id, SYSTEM, ResolvePending())
    except GameError as e:
        if e.kind != "conflict":  # resolved by another job in between: the state says so below
            raise
    game = await rt.engine.load(game_id)
    if not game.game.pending_system_work(game.state):
        await rt.store.resolved(keys)
    return f"resolved, now at version {game.version}"


async def _timeout(rt: Runtime, game_id: str, step_version: int) -> str:
    keys = rt.store.keys(game_id)
    game = await rt.engine.load(game_id)
    deadline = game.game.deadline(game.state)
    if deadline is None or deadline.step_version != step_version:
        await rt.store.timeout_done(keys, step_version)
        return f"step moved on (now version {game.version})"
    due = parse_rfc3339(deadline.at)
    if due > rt.engine.clock():  # early (clocks differ): the next sweep after the deadline fires it
        await rt.store.timeout_due_at(keys, step_version, due.timestamp())
        return "early: left to the sweep"
    try:
        await rt.engine.execute(game_id, SYSTEM, ApplyTimeout(step_version=step_version))
    except GameError as e:
        if e.kind != "conflict":  # the step ended in between, or nothing was missing
            raise
        await rt.store.timeout_done(keys, step_version)
        return e.detail
    await rt.store.timeout_done(keys, step_version)
    return "defaults applied"


def resolve_pending(game_id: str) -> str:
    result = _run(_resolve, game_id)
    log.info("resolve_pending %s: %s", game_id, result)
    return result


def apply_timeout(game_id: str, step_version: int) -> str:
    result = _run(_timeout, game_id, step_version)
    log.info("apply_timeout %s@%s: %s", game_id, step_version, result)
    return result
