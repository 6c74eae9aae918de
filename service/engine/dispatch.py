"""Hand work to the RQ workers: resolve a step now.

The one place that names the jobs and their settings (:data:`RESOLVE`). Jobs are plain functions
in :mod:`workers.jobs`, named here by their import path so that this layer does not import the
workers above it. The resolve job is harmless when late or repeated: it acts only if the game still
waits for a resolution, and appends with an expected version. The API enqueues it right after its
append; every deadline, and every resolution that an API did not enqueue, is picked up by the
workers' sweep (``workers/sweep.py``) from the marks the append script leaves
(``service/store/marks.py``) and worked on by the sweeping worker itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from rq import Queue


@dataclass(frozen=True)
class JobSpec:
    """A job's function (import path) and how long RQ keeps it: ``result_ttl`` after it succeeded
    (0: its hash is deleted at once), ``failure_ttl`` after it failed, ``ttl`` while it waits in the
    queue (None: until a worker takes it)."""

    func: str
    result_ttl: int = 60
    failure_ttl: int = 3600
    ttl: int | None = None


RESOLVE = JobSpec("workers.jobs.resolve_pending", result_ttl=0, failure_ttl=3600, ttl=600)
"""``resolve_pending(game_id)``: send ``ResolvePending`` if the game waits for it. Its result is
worth nothing once it ran (the game's stream says what happened), so its job hash is deleted as
soon as it succeeds: a finished game leaves no RQ key behind (docs/memory.md). A job nobody took
within ``ttl`` is dropped by RQ: the workers' sweep resolves any game left pending anyway."""
DELIVER_WEBHOOK = JobSpec("workers.webhooks.deliver", result_ttl=60, failure_ttl=24 * 3600)
"""``deliver(delivery_id)``: one attempt of one webhook delivery; enqueued by the workers' webhook
sweep for each due delivery (``workers/webhooks.py``), never by the API or the projector."""
JOBS = (RESOLVE, DELIVER_WEBHOOK)
"""Every job. Deadlines have none: the workers' sweep fires them itself (``workers/sweep.py``)."""


class Dispatcher(Protocol):
    async def resolve_now(self, game_id: str) -> None: ...


class Scheduler:
    """Enqueues the jobs on one RQ queue. Deadlines are not scheduled with RQ: the append script
    records each one in its partition's ``deadlines`` set and the workers' sweep fires it
    (``workers/sweep.py``), so no deadline waits on RQ's scheduler or on any single process."""

    def __init__(self, queue_redis: Any, queue_name: str) -> None:
        self.queue = Queue(queue_name, connection=queue_redis)

    def _enqueue(self, spec: JobSpec, *args: Any) -> None:
        self.queue.enqueue(spec.func, *args, result_ttl=spec.result_ttl, failure_ttl=spec.failure_ttl, ttl=spec.ttl)

    def resolve_now_sync(self, game_id: str) -> None:
        self._enqueue(RESOLVE, game_id)

    async def resolve_now(self, game_id: str) -> None:
        await asyncio.to_thread(self.resolve_now_sync, game_id)

    def deliver_webhook_sync(self, delivery_id: str) -> None:
        self._enqueue(DELIVER_WEBHOOK, delivery_id)


class NullScheduler:
    """For tools that replay or rebuild: schedules nothing."""

    async def resolve_now(self, game_id: str) -> None:
        pass
