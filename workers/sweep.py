"""The workers' sweep: fire every due deadline and finish every resolution nobody finished.

The append script marks a game in the same atomic step as its events (``service/store/event_store.py``):
in its partition's ``pending`` set when a step waits for a worker's resolution, and in its
partition's ``deadlines`` sorted set when a step opened with a deadline or its deadline moved (a
time bank started or stopped, the clocks resumed: docs/clocks.md). The API enqueues a resolve
job right after its append; if it died in between, nothing else would run it. Deadlines are not
scheduled anywhere else: the sweep is what fires them. So each worker sweeps both every
``CITADEL_SWEEP_S`` seconds (default 1) and once at start-up (which picks up what a dead worker
left): it claims up to :data:`CLAIM_BATCH` due deadlines (``service/store/marks.py``: exactly one
worker claims each, for a :data:`LEASE_S` lease) and takes the games that stayed pending past a
short grace (the API's resolve job was lost), and works on them itself, at once
(``workers.jobs.run_swept``). While a sweep
claimed a full batch, the next one follows without waiting, so a burst of deadlines is worked off
as fast as the worker can apply them, oldest first. Work is idempotent and clears the marks when
done (or void); a worker that dies mid-batch leaves its claims to expire, and another worker's sweep
claims them again. No deadline waits on RQ's scheduler lock or on any single process.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import NamedTuple

from service.store.config import Config
from service.store.feeds import trim_acknowledged
from service.store.marks import WorkMarks
from service.store.readiness import ReadyFile
from service.store.redis_client import event_store_redis_sync

from .jobs import Outcome, run_archive, run_swept

log = logging.getLogger("citadel.sweep")
LEASE_S = 10.0
"""A claimed deadline is claimed again if it was not cleared within this time; a pending game taken
by a worker is taken again by it after this time."""
PENDING_GRACE_S = 2.0
"""A pending game is the API's job's to resolve for this long before a sweep takes it."""
CLAIM_BATCH = 64
"""Deadlines claimed per sweep, shared evenly among the partitions: small enough that a batch is
done well within its lease, large enough to keep the worker's concurrent work busy."""

ARCHIVE_BATCH = 16
"""Finished games archived per sweep, at most (``service/store/archive.py``)."""

Work = Callable[[list[str], list[tuple[str, int]]], Counter[Outcome]]
ArchiveWork = Callable[[list[str]], Counter[Outcome]]


class Swept(NamedTuple):
    pending: int
    due: int
    full: bool
    """A partition had more due deadlines than this sweep claimed: sweep again at once."""
    outcome: Counter[Outcome]


def take_pending(pending_now: set[str], seen: dict[str, float], now: float) -> list[str]:
    """The pending games this worker should resolve itself: those it has seen pending for
    :data:`PENDING_GRACE_S` (the API's own job normally resolves a game at once) and not taken
    within a :data:`LEASE_S`. ``seen`` (game -> when first seen, or when taken) is updated."""
    for game_id in [g for g in seen if g not in pending_now]:
        del seen[game_id]
    taken = []
    for game_id in pending_now:
        first = seen.setdefault(game_id, now)
        if now - first >= PENDING_GRACE_S:
            taken.append(game_id)
            seen[game_id] = now + LEASE_S - PENDING_GRACE_S
    return sorted(taken)


def sweep_once(
    cfg: Config,
    marks: WorkMarks,
    work: Work,
    seen: dict[str, float],
    now: float | None = None,
    archive: ArchiveWork | None = None,
) -> Swept:
    """Claim due deadlines (:data:`CLAIM_BATCH` in all, oldest first in each partition) and take the
    pending games left to the sweep (:func:`take_pending`), hand them to ``work``; then, with
    ``archive``, claim the finished games due to be archived (:data:`ARCHIVE_BATCH` at most) and
    hand them to it. Say what was taken and how the work ended."""
    now = time.time() if now is None else now
    per_partition = max(1, CLAIM_BATCH // cfg.partitions)
    pending_now: set[str] = set()
    due: list[tuple[str, int]] = []
    full = False
    for p in range(cfg.partitions):
        pending_now.update(marks.pending_games(p))
        claimed = marks.claim_due_deadlines(p, now, LEASE_S, per_partition)
        full = full or len(claimed) == per_partition
        due.extend(claimed)
    pending = take_pending(pending_now, seen, now)
    outcome = work(pending, due) if pending or due else Counter()
    if archive is not None:
        finished: list[str] = []
        for p in range(cfg.partitions):
            finished += marks.claim_due_archives(p, now, LEASE_S, ARCHIVE_BATCH - len(finished))
            if len(finished) >= ARCHIVE_BATCH:
                break
        if finished:
            outcome += archive(finished)
    return Swept(len(pending), len(due), full, outcome)


class Sweeper:
    """Runs :func:`sweep_once` at most every ``cfg.sweep_s`` seconds when :meth:`tick` is called,
    and again at once while the last sweep claimed a full batch.

    The worker calls it from its main loop (no thread: a fork while another thread holds a lock can
    leave the child stuck, and the jobs' event loop belongs to the main thread)."""

    def __init__(
        self,
        cfg: Config | None = None,
        work: Work = run_swept,
        busy: Callable[[], AbstractContextManager[object]] = nullcontext,
        archive: ArchiveWork = run_archive,
    ) -> None:
        self.cfg = cfg or Config.from_env()
        self.work = work
        self.archive = archive
        self.busy = busy
        """Held while working (the worker marks itself busy, so a warm shutdown waits for the batch)."""
        self.last = 0.0
        self.trimmed = 0.0
        """When this worker last trimmed the feeds (monotonic seconds)."""
        self._marks: WorkMarks | None = None
        self.ready_file = ReadyFile.from_env()
        """The worker's readiness: written after each sweep that reached Redis, removed after one that
        did not (``service/store/readiness.py``)."""
        self.seen: dict[str, float] = {}
        """Pending games this worker saw, and when (pending sets are not leased in Redis)."""

    def tick(self) -> None:
        if time.monotonic() - self.last < self.cfg.sweep_s:
            return
        while True:
            self.last = time.monotonic()
            try:
                if self._marks is None:  # (re)connecting may fail too: the store is still failing over
                    self._marks = WorkMarks(event_store_redis_sync(self.cfg), self.cfg.partitions)
                swept = sweep_once(self.cfg, self._marks, self._busy_work, self.seen, archive=self._busy_archive)
            except Exception:  # a Redis hiccup must not stop the worker; the next tick retries
                log.exception("sweep failed; retrying")
                self.ready_file.not_ready()
                self._marks = None
                return
            self.ready_file.ready()
            if swept.pending or swept.due or swept.outcome:
                log.info(
                    "sweep: %d pending game(s), %d due deadline(s): %s",
                    swept.pending,
                    swept.due,
                    {str(k): n for k, n in swept.outcome.items()},
                )
            if time.monotonic() - self.trimmed >= self.cfg.feed_trim_s:
                self.trim_feeds()
            if not swept.full:
                return

    def trim_feeds(self) -> int:
        """Trim every partition feed by what every consumer group acknowledged (every
        ``CITADEL_FEED_TRIM_S``); a failure is logged and retried at the next trim."""
        self.trimmed = time.monotonic()
        if self._marks is None:
            return 0
        try:
            return sum(trim_acknowledged(self._marks.redis, p) for p in range(self.cfg.partitions))
        except Exception:  # a Redis hiccup must not stop the worker
            log.exception("trimming the feeds failed; retrying in %.0f s", self.cfg.feed_trim_s)
            return 0

    def _busy_work(self, pending: list[str], due: list[tuple[str, int]]) -> Counter[Outcome]:
        with self.busy():
            return self.work(pending, due)

    def _busy_archive(self, game_ids: list[str]) -> Counter[Outcome]:
        with self.busy():
            return self.archive(game_ids)
