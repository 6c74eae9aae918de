"""Hand work to the RQ workers: resolve a step now, or fire a timeout at a deadline.

The one place that names the jobs and their settings (:data:`RESOLVE`, :data:`TIMEOUT`). Jobs are
plain functions in :mod:`workers.jobs`, named here by their import path so that this layer does
not import the workers above it. Every job is harmless when late or repeated: the resolve job acts
only if the game still waits for a resolution, the timeout job only if the step that set its
deadline is still current (its ``step_version``), and both append with an expected version. A
back-up resolve job runs ``resolve_retry_s`` later, so a worker killed mid-job loses nothing; the
workers' sweep (``workers/sweep.py``) re-enqueues what an API process appended but died before
enqueueing.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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

    async def timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None: ...


class Scheduler:
    """Enqueues the jobs on one RQ queue."""

    def __init__(self, queue_redis: Any, queue_name: str, resolve_retry_s: int) -> None:
        self.queue = Queue(queue_name, connection=queue_redis)
        self.resolve_retry_s = resolve_retry_s

    def _enqueue(self, spec: JobSpec, *args: Any) -> None:
        self.queue.enqueue(spec.func, *args, result_ttl=spec.result_ttl, failure_ttl=spec.failure_ttl)

    def resolve_now_sync(self, game_id: str) -> None:
        self._enqueue(RESOLVE, game_id)
        self.queue.enqueue_in(
            timedelta(seconds=self.resolve_retry_s),
            RESOLVE.func,
            game_id,
            result_ttl=RESOLVE.result_ttl,
            failure_ttl=RESOLVE.failure_ttl,
        )

    def timeout_at_sync(self, game_id: str, step_version: int, deadline: datetime) -> None:
        # RQ keeps whole seconds: round up, or the job runs before its deadline and must reschedule
        at = datetime.fromtimestamp(math.ceil(deadline.timestamp()), UTC)
        self.queue.enqueue_at(
            at,
            TIMEOUT.func,
            game_id,
            step_version,
            result_ttl=TIMEOUT.result_ttl,
            failure_ttl=TIMEOUT.failure_ttl,
        )

    def timeout_now_sync(self, game_id: str, step_version: int) -> None:
        self._enqueue(TIMEOUT, game_id, step_version)

    async def resolve_now(self, game_id: str) -> None:
        await asyncio.to_thread(self.resolve_now_sync, game_id)

    async def timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None:
        await asyncio.to_thread(self.timeout_at_sync, game_id, step_version, deadline)


class NullScheduler:
    """For tools that replay or rebuild: schedules nothing."""

    async def resolve_now(self, game_id: str) -> None:
        pass

    async def timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None:
        pass
