"""The workers' sweep: re-enqueue work that was appended but never enqueued.

The append script marks a game in the same atomic step as its events (``service/store/event_store.py``):
in its partition's ``pending`` set when a step waits for a worker's resolution, and in its
partition's ``deadlines`` sorted set when a step opened with a deadline. The API enqueues the jobs
right after the append; if it died in between, nothing would run them. Deadlines are not
scheduled anywhere else: the sweep is what fires them. So each worker sweeps both every
``CITADEL_SWEEP_S`` seconds (default 1) and once at start-up (which picks up what a dead worker
left): every pending game gets a resolve job (once per lease per worker), every due deadline that
this sweep claims (``service/store/marks.py``: exactly one worker claims it, for a lease) gets a
timeout job. Jobs are idempotent, so a game enqueued twice is resolved once; they remove the marks
when the work is done (or void). No deadline waits on RQ's scheduler lock or any single process.
"""

from __future__ import annotations

import logging
import time

from service.engine.dispatch import Scheduler
from service.store.config import Config
from service.store.marks import WorkMarks
from service.store.redis_client import event_store_redis_sync, queue_redis

log = logging.getLogger("citadel.sweep")
LEASE_S = 10.0
"""A claimed deadline is claimed again if its timeout job has not completed within this time."""


def sweep_once(
    cfg: Config, marks: WorkMarks, scheduler: Scheduler, recent: dict[str, float], now: float | None = None
) -> tuple[int, int]:
    """Enqueue a resolve job per pending game (once per lease per worker: ``recent``) and a timeout
    job per due deadline this sweep claimed; returns the counts."""
    now = time.time() if now is None else now
    resolves = timeouts = 0
    for p in range(cfg.partitions):
        for game_id in marks.pending_games(p):
            if now - recent.get(game_id, 0.0) < LEASE_S:
                continue
            recent[game_id] = now
            scheduler.resolve_now_sync(game_id)
            resolves += 1
        for game_id, step_version in marks.claim_due_deadlines(p, now, LEASE_S):
            scheduler.timeout_now_sync(game_id, step_version)
            timeouts += 1
    for game_id in [g for g, t in recent.items() if now - t >= LEASE_S]:
        del recent[game_id]
    return resolves, timeouts


class Sweeper:
    """Runs :func:`sweep_once` at most every ``cfg.sweep_s`` seconds when :meth:`tick` is called.

    The worker calls it from its main loop (no thread: RQ forks its scheduler process from the
    worker, and a fork while another thread holds a lock can leave the child stuck)."""

    def __init__(self, cfg: Config | None = None) -> None:
        self.cfg = cfg or Config.from_env()
        self.last = 0.0
        self._marks: WorkMarks | None = None
        self._scheduler: Scheduler | None = None
        self.recent: dict[str, float] = {}
        """Games this worker enqueued a resolve job for lately (pending sets are not leased in Redis)."""

    def tick(self) -> None:
        if time.monotonic() - self.last < self.cfg.sweep_s:
            return
        self.last = time.monotonic()
        if self._marks is None or self._scheduler is None:
            self._marks = WorkMarks(event_store_redis_sync(self.cfg), self.cfg.partitions)
            self._scheduler = Scheduler(queue_redis(self.cfg), self.cfg.queue_name)
        try:
            resolves, timeouts = sweep_once(self.cfg, self._marks, self._scheduler, self.recent)
        except Exception:  # a Redis hiccup must not stop the worker; the next tick retries
            log.exception("sweep failed; retrying")
            self._marks = self._scheduler = None
            return
        if resolves or timeouts:
            log.info("sweep enqueued %d resolve and %d timeout job(s)", resolves, timeouts)
