"""The marks the append script leaves for the workers, and how a worker claims them.

* ``{pNN}:pending`` (a set): games whose step waits for a worker's resolution (all sealed inputs
  in, a phase to open). A resolve job removes the game once nothing is left to resolve.
* ``{pNN}:deadlines`` (a sorted set of ``game_id@step_version`` scored by epoch seconds): every
  deadline of every step. The workers' sweep *claims* the due ones: one atomic script picks the
  members whose time has come and moves their score ``lease_s`` into the future, so among all the
  workers exactly one enqueues the timeout job; if that job never completes (a crash, Redis down),
  the lease runs out and another sweep claims the deadline again. A timeout job removes its member
  when it is done (fired, or void because the step moved on).
"""

from __future__ import annotations

from typing import Any

from .event_store import DueTimeout
from .keys import deadlines_key, pending_key, to_archive_key

CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
return due
"""


class WorkMarks:
    """Reads and claims the marks of every partition (synchronous client: the worker's main loop)."""

    def __init__(self, redis: Any, partitions: int) -> None:
        self.redis = redis
        self.partitions = partitions
        self._claim = redis.register_script(CLAIM_LUA)

    def pending_games(self, partition: int) -> list[str]:
        return [g.decode() for g in self.redis.smembers(pending_key(partition))]

    def claim_due_deadlines(
        self, partition: int, now: float, lease_s: float, limit: int = 500
    ) -> list[tuple[str, int]]:
        """The deadlines of ``partition`` due at ``now``, claimed for ``lease_s`` seconds."""
        members = self._claim(keys=[deadlines_key(partition)], args=[repr(now), repr(now + lease_s), limit])
        return [DueTimeout.parse_member(m) for m in members]

    def claim_due_archives(self, partition: int, now: float, lease_s: float, limit: int = 16) -> list[str]:
        """The finished games of ``partition`` due to be archived at ``now`` (their end +
        ``CITADEL_ARCHIVE_AFTER_S``), claimed for ``lease_s`` seconds like deadlines are."""
        members = self._claim(keys=[to_archive_key(partition)], args=[repr(now), repr(now + lease_s), limit])
        return [m.decode() if isinstance(m, bytes) else str(m) for m in members]
