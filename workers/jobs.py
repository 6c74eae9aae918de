"""The worker jobs. Plain functions, safe to run late, twice, or after a crash:

* :func:`resolve_pending` -- if the game waits for a system resolution (all sealed orders are in),
  resolve it (reveal the orders). If not, do nothing.
* :func:`apply_timeout` -- if the step that began at ``step_version`` is still current and its
  deadline has passed, append ``DecisionTimedOut`` and the documented defaults.

Both append through :class:`service.engine.Engine` with an expected version, so a job racing a
player's command either wins cleanly or re-reads and re-decides; nothing is ever appended twice.

The worker (``workers.worker.CitadelWorker``) runs jobs in its own process without forking, so one
event loop and one runtime (connections, cached game states) serve every job of the process.
"""

from __future__ import annotations

import asyncio
import logging
import os

from domain.board import commands as cmd
from domain.board import decider
from domain.core.context import parse_rfc3339
from service.errors import ApiError
from service.logging_setup import configure_logging
from service.runtime import Runtime, build_runtime

configure_logging()
log = logging.getLogger("citadel.jobs")
SYSTEM = cmd.Actor(kind="system")

_loop: asyncio.AbstractEventLoop | None = None
_runtime: Runtime | None = None


def _run(job, *args):
    """Run an async job on this process's loop and runtime (created on first use)."""
    global _loop, _runtime
    if _loop is None or _loop.is_closed():
        _loop = asyncio.new_event_loop()
        _runtime = None
    if _runtime is None:
        _runtime = build_runtime()
    return _loop.run_until_complete(job(_runtime, *args))


async def _fault_injection_pause() -> None:
    """Test hook: ``CITADEL_FAULT_JOB_DELAY_S`` holds a job between its decision and its append, so
    a test can kill the worker mid-job. Unset in production."""
    delay = float(os.environ.get("CITADEL_FAULT_JOB_DELAY_S", "0") or 0)
    if delay:
        await asyncio.sleep(delay)


async def _resolve(rt: Runtime, game_id: str) -> str:
    game = await rt.engine.load(game_id)
    pending = rt.store.keys(game_id).pending
    if not decider.pending_system_work(game.state):
        await rt.redis.srem(pending, game_id)
        return f"nothing to resolve at version {game.version}"
    await _fault_injection_pause()
    try:
        await rt.engine.execute(game_id, SYSTEM, cmd.ResolvePending())
    except ApiError as e:
        if e.code not in ("nothing_pending", "wrong_phase"):
            raise
        result = "already resolved"
    else:
        result = "resolved"
    if not decider.pending_system_work((await rt.engine.load(game_id)).state):
        await rt.redis.srem(pending, game_id)
    return result


async def _timeout(rt: Runtime, game_id: str, step_version: int) -> str:
    game = await rt.engine.load(game_id)
    state = game.state
    if state.step_version != step_version or not state.deadline:
        return f"step moved on (now step_version {state.step_version})"
    deadline = parse_rfc3339(state.deadline)
    if deadline > rt.engine.clock():  # early (clock skew): try again at the deadline
        await rt.engine.scheduler.timeout_at(game_id, step_version, deadline)
        return "rescheduled"
    try:
        await rt.engine.execute(game_id, SYSTEM, cmd.ApplyTimeout(step_version=step_version))
    except ApiError as e:
        if e.code in ("timeout_void", "timeout_early"):
            return e.detail
        raise
    return "defaults applied"


def resolve_pending(game_id: str) -> str:
    result = _run(_resolve, game_id)
    log.info("resolve_pending %s: %s", game_id, result)
    return result


def apply_timeout(game_id: str, step_version: int) -> str:
    result = _run(_timeout, game_id, step_version)
    log.info("apply_timeout %s@%s: %s", game_id, step_version, result)
    return result
