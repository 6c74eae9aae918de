"""The workers' sweep: re-enqueue work that was appended but never enqueued.

The append script marks a game in the same atomic step as its events (``service/store/event_store.py``):
in its partition's ``pending`` set when a step waits for a worker's resolution, and in its
partition's ``deadlines`` sorted set when a step opened with a deadline. The API enqueues the jobs
right after the append; if it died in between, nothing would run them. So each worker sweeps both
every ``CITADEL_SWEEP_S`` seconds (and once at start-up, which picks up what a dead worker left): every pending game gets a resolve job,
every deadline past due (by more than a grace period, so the scheduled job normally runs first)
gets a timeout job. Jobs are idempotent, so a game enqueued twice is resolved once. Jobs remove
the marks when the work is done (or void).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from service.engine.dispatch import Scheduler
from service.store.config import Config
from service.store.event_store import DueTimeout
from service.store.keys import deadlines_key, pending_key
from service.store.redis_client import event_store_redis_sync, queue_redis

log = logging.getLogger("citadel.sweep")
GRACE_S = 2.0
"""A deadline this far past due without being fired counts as lost."""


def sweep_once(cfg: Config, store_redis: Any, scheduler: Scheduler, now: float | None = None) -> tuple[int, int]:
    """Enqueue a resolve job per pending game and a timeout job per lost deadline; returns the counts."""
    now = time.time() if now is None else now
    resolves = timeouts = 0
    for p in range(cfg.partitions):
        for game_id in store_redis.smembers(pending_key(p)):
            scheduler.resolve_now_sync(game_id.decode())
            resolves += 1
        for member in store_redis.zrangebyscore(deadlines_key(p), "-inf", now - GRACE_S, start=0, num=500):
            game_id, step_version = DueTimeout.parse_member(member)
            scheduler.timeout_now_sync(game_id, step_version)
            timeouts += 1
    return resolves, timeouts


class Sweeper:
    """Runs :func:`sweep_once` at most every ``cfg.sweep_s`` seconds when :meth:`tick` is called.

    The worker calls it from its main loop (no thread: RQ forks its scheduler process from the
    worker, and a fork while another thread holds a lock can leave the child stuck)."""

    def __init__(self, cfg: Config | None = None) -> None:
        self.cfg = cfg or Config.from_env()
        self.last = 0.0
        self._store: Any = None
        self._scheduler: Scheduler | None = None

    def tick(self) -> None:
        if time.monotonic() - self.last < self.cfg.sweep_s:
            return
        self.last = time.monotonic()
        if self._store is None or self._scheduler is None:
            self._store = event_store_redis_sync(self.cfg)
            self._scheduler = Scheduler(queue_redis(self.cfg), self.cfg.queue_name, self.cfg.resolve_retry_s)
        try:
            resolves, timeouts = sweep_once(self.cfg, self._store, self._scheduler)
        except Exception:  # a Redis hiccup must not stop the worker; the next tick retries
            log.exception("sweep failed; retrying")
            self._store = self._scheduler = None
            return
        if resolves or timeouts:
            log.info("sweep enqueued %d resolve and %d timeout job(s)", resolves, timeouts)
