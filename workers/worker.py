"""The Citadel RQ worker: an in-process RQ worker that also sweeps for work nobody enqueued.

Run: ``rq worker --worker-class workers.worker.CitadelWorker -u $CITADEL_QUEUE_URL citadel``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rq import SimpleWorker
from rq.exceptions import StopRequested
from rq.worker import WorkerStatus

from .sweep import Sweeper
from .webhooks import WebhookSweep

log = logging.getLogger("citadel.worker")


class CitadelWorker(SimpleWorker):
    """Runs jobs in-process (no fork per job): the jobs keep one event loop and runtime, which
    takes a job from ~100 ms to ~1 ms. Jobs never crash the process (errors are caught by RQ); a
    supervisor (k8s, ``citadel run``) restarts it if it dies. Between jobs, and at least every
    ``CITADEL_SWEEP_S`` seconds while idle, its :class:`~workers.sweep.Sweeper` fires due deadlines
    and finishes resolutions an API process appended but did not enqueue (and, at start-up, what a
    dead worker left behind), and its :class:`~workers.webhooks.WebhookSweep` turns the appends of
    watched games into webhook deliveries and enqueues the due ones. While it works on them the worker is *busy*: a warm shutdown (SIGTERM)
    waits for the batch, then stops."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sweeper = Sweeper(busy=self._busy)  # before RQ's __init__, which reads dequeue_timeout
        self.webhooks = WebhookSweep(self.sweeper.cfg)
        super().__init__(*args, **kwargs)

    @contextmanager
    def _busy(self) -> Iterator[None]:
        previous = self.get_state()
        self.set_state(WorkerStatus.BUSY)
        try:
            yield
        finally:
            self.set_state(previous)

    @property
    def dequeue_timeout(self) -> int:
        """Wake at least every sweep period when idle (RQ's default waits minutes)."""
        return max(1, min(int(super().dequeue_timeout), math.ceil(self.sweeper.cfg.sweep_s)))

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        super().heartbeat(timeout, pipeline)
        if pipeline is None:
            self.sweeper.tick()
            self.webhooks.tick()  # appends of watched games -> deliveries; due deliveries -> jobs
            if self._stop_requested:  # SIGTERM arrived during the sweep's work: stop now it is done
                raise StopRequested()
