"""The Citadel RQ worker: an in-process RQ worker that first re-enqueues work a dead worker left behind.

A worker killed mid-job leaves its job "started" until RQ notices (about a minute), and the back-up
job waits for the scheduler lock of the dead worker to expire. So on start-up this worker reads each
partition's ``pending`` set (games waiting for a resolution; the API adds a game there before it
enqueues the job, the job removes it once resolved) and enqueues a resolve job for each. Resolve jobs
are idempotent, so a game enqueued twice is resolved once.

Run: ``rq worker --with-scheduler --worker-class workers.worker.CitadelWorker -u $CITADEL_QUEUE_URL citadel``.
"""

from __future__ import annotations

import logging

from rq import SimpleWorker

from service.config import Config
from service.keys import pending_key
from service.redis_client import event_store_redis_sync, queue_redis
from service.scheduler import Scheduler

log = logging.getLogger("citadel.worker")


def recover_pending(cfg: Config | None = None) -> int:
    cfg = cfg or Config.from_env()
    r = event_store_redis_sync(cfg)
    sched = Scheduler(queue_redis(cfg), cfg.queue_name, cfg.resolve_retry_s)
    n = 0
    try:
        for p in range(cfg.partitions):
            for game_id in r.smembers(pending_key(p)):
                sched.queue.enqueue("workers.jobs.resolve_pending", game_id.decode(), result_ttl=60, failure_ttl=3600)
                n += 1
    finally:
        r.close()
    return n


class CitadelWorker(SimpleWorker):
    """Runs jobs in-process (no fork per job): the jobs keep one event loop and runtime, which
    takes a job from ~100 ms to ~1 ms. Jobs never crash the process (errors are caught by RQ); a
    supervisor (k8s, ``citadel run``) restarts it if it dies."""

    def work(self, *args, **kwargs):
        n = recover_pending()
        if n:
            log.warning("re-enqueued %d pending resolution(s) left by a previous worker", n)
        return super().work(*args, **kwargs)
