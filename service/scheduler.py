"""Hand work to the RQ workers: resolve a step now, or fire a timeout at a deadline.

Jobs are plain functions in :mod:`workers.jobs`. Every job is harmless when late or repeated: the
resolve job acts only if the game still waits for a resolution, the timeout job only if the step that
set its deadline is still current (its ``step_version``), and both append with an expected version.
A back-up resolve job runs ``resolve_retry_s`` later, so a worker killed mid-job loses nothing.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from rq import Queue


class Scheduler:
    def __init__(self, queue_redis, queue_name: str, resolve_retry_s: int):
        self.queue = Queue(queue_name, connection=queue_redis)
        self.resolve_retry_s = resolve_retry_s

    def _resolve_now(self, game_id: str) -> None:
        self.queue.enqueue("workers.jobs.resolve_pending", game_id, result_ttl=60, failure_ttl=3600)
        self.queue.enqueue_in(
            timedelta(seconds=self.resolve_retry_s),
            "workers.jobs.resolve_pending",
            game_id,
            result_ttl=60,
            failure_ttl=3600,
        )

    def _timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None:
        self.queue.enqueue_at(
            deadline.astimezone(UTC),
            "workers.jobs.apply_timeout",
            game_id,
            step_version,
            result_ttl=60,
            failure_ttl=3600,
        )

    def _resolve_later(self, game_id: str, seconds: float) -> None:
        self.queue.enqueue_in(
            timedelta(seconds=seconds), "workers.jobs.resolve_pending", game_id, result_ttl=60, failure_ttl=3600
        )

    async def resolve_now(self, game_id: str) -> None:
        await asyncio.to_thread(self._resolve_now, game_id)

    async def resolve_later(self, game_id: str, seconds: float) -> None:
        await asyncio.to_thread(self._resolve_later, game_id, seconds)

    async def timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None:
        await asyncio.to_thread(self._timeout_at, game_id, step_version, deadline)


class NullScheduler:
    """For tools that replay or rebuild: schedules nothing."""

    async def resolve_now(self, game_id: str) -> None:
        pass

    async def resolve_later(self, game_id: str, seconds: float) -> None:
        pass

    async def timeout_at(self, game_id: str, step_version: int, deadline: datetime) -> None:
        pass
