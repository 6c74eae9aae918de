"""Hand work to the RQ workers: resolve a step now, or fire a timeout at a deadline.

The one place that names the jobs and their settings (:data:`RESOLVE`, :data:`TIMEOUT`). Jobs are
plain functions in :mod:`workers.jobs`, named here by their import path so that this layer does
not import the workers above it. Every job is harmless when late or repeated: the resolve job acts
only if the game still waits for a resolution, the timeout job only if the step that set its
deadline is still current (its ``step_version``), and both append with an expected version.
The API enqueues a resolve job right after its append; every deadline, and every resolution that
an API or a worker did not finish, is picked up by the workers' sweep (``workers/sweep.py``) from
the marks the append script leaves (``service/store/marks.py``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from rq import Queue


@dataclass(frozen=True)
class JobSpec:
    """A job's function (import path) and how long RQ keeps its result and its failure."""

    func: str
    result_ttl: int = 60
    failure_ttl: int = 3600


RESOLVE = JobSpec("workers.jobs.resolve_pending")
"""``resolve_pending(game_id)``: send ``ResolvePending`` if the game waits for it."""
TIMEOUT = JobSpec("workers.jobs.apply_timeout")
"""``apply_timeout(game_id, step_version)``: send ``ApplyTimeout`` if that step is still current."""
JOBS = (RESOLVE, TIMEOUT)


class Dispatcher(Protocol):
    async def resolve_now(self, game_id: str) -> None: ...


class Scheduler:
    """Enqueues the jobs on one RQ queue. Deadlines are not scheduled with RQ: the append script
    records each one in its partition's ``deadlines`` set and the workers' sweep fires it
    (``workers/sweep.py``), so no deadline waits on RQ's scheduler or on any single process."""

    def __init__(self, queue_redis: Any, queue_name: str) -> None:
        self.queue = Queue(queue_name, connection=queue_redis)

    def _enqueue(self, spec: JobSpec, *args: Any) -> None:
        self.queue.enqueue(spec.func, *args, result_ttl=spec.result_ttl, failure_ttl=spec.failure_ttl)

    def resolve_now_sync(self, game_id: str) -> None:
        self._enqueue(RESOLVE, game_id)

    def timeout_now_sync(self, game_id: str, step_version: int) -> None:
        self._enqueue(TIMEOUT, game_id, step_version)

    async def resolve_now(self, game_id: str) -> None:
        await asyncio.to_thread(self.resolve_now_sync, game_id)


class NullScheduler:
    """For tools that replay or rebuild: schedules nothing."""

    async def resolve_now(self, game_id: str) -> None:
        pass
