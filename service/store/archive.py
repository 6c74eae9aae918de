"""Finished games, compacted: one compressed archive key instead of the stream and its read models.

A finished 6-player game kept about 1.6 MB of Redis: its events stream (~400 B an event), the
idempotency answers of its commands, its log, a view per reader, a snapshot. Once it has ended
nothing more is appended, everything in it is public, and it is read far less often. So
``CITADEL_ARCHIVE_AFTER_S`` (default 600 s) after its end (the append of the ending batch marks it
in its partition's ``to_archive`` sorted set, :func:`service.store.keys.to_archive_key`), a worker's
sweep compacts it (:meth:`Archiver.archive`):

* the stream is read page by page (``XRANGE ... COUNT``), each entry's stored envelope bytes
  (its field ``e``, exactly as appended) are joined by newlines and compressed (zlib, level 9)
  into the hash ``{pNN}:game:<id>:archive`` (``v``: the version, ``z``: the compressed envelopes);
* in one atomic script, only if the stream is still at that version and nothing was archived: the
  archive is written, and the stream, the idempotency answers, the log, every reader's view and the
  projected version are deleted (the snapshot and the seed stay: a cold load is the snapshot plus
  the tail from the archive, and the export reveals the seed).

The archive keeps the exact envelopes, so their hash chain, the signed head of an export and the
verifier's re-derivation are what they were. :meth:`service.store.event_store.EventStore.read`
serves an archived game's events from it (decompressed once per process, kept in a small LRU);
so the views, the log, the export and the event streams of an archived game are served by the
same endpoints, derived from its events as for a game whose projection is behind. An archived game
takes no more events: the append script answers ``archived`` (a reused creation key gets
``game_exists``, a judge's action ``game_archived``).
"""

from __future__ import annotations

import zlib
from typing import Any

from .keys import Keys

PAGE = 1000
"""Stream entries read per ``XRANGE`` while archiving."""

ARCHIVE_LUA = """
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('ZREM', KEYS[7], ARGV[3])
  return 'done'
end
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 'moved' end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'z', ARGV[2])
for i = 1, #KEYS do
  if i ~= 2 and i ~= 7 then redis.call('DEL', KEYS[i]) end
end
redis.call('ZREM', KEYS[7], ARGV[3])
return 'archived'
"""


def pack(entries: list[bytes]) -> bytes:
    """The archive's ``z``: the envelopes' stored JSON, one a line, compressed. JSON written by
    msgspec never holds a raw newline, so the lines split back exactly."""
    return zlib.compress(b"\n".join(entries), 9)


def unpack(blob: bytes) -> list[bytes]:
    """The stored envelope bytes of every event, oldest first."""
    raw = zlib.decompress(blob)
    return raw.split(b"\n") if raw else []


class Archiver:
    """Compacts finished games (async client: the worker's event loop)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._archive = redis.register_script(ARCHIVE_LUA)

    async def archive(self, keys: Keys, version: int, readers: list[str | None]) -> str:
        """Archive the game at ``version`` (see the module docstring); ``readers``: whose views to
        drop. Returns ``archived``, ``done`` (it already was) or ``moved`` (the stream is not at
        ``version``: nothing changed)."""
        entries: list[bytes] = []
        start = "1-0"
        while True:
            page = await self.redis.xrange(keys.events, min=start, max="+", count=PAGE)
            entries += [fields[b"e"] for _, fields in page]
            if len(page) < PAGE:
                break
            start = f"{len(entries) + 1}-0"
        if len(entries) != version:
            return "done" if await self.redis.exists(keys.archive) else "moved"
        result = await self._archive(
            keys=[
                keys.events,
                keys.archive,
                keys.idem,
                keys.log,
                keys.proj,
                keys.view(None),
                keys.to_archive,
                *(keys.view(r) for r in readers if r is not None),
            ],
            args=[version, pack(entries), keys.game_id],
        )
        return result.decode() if isinstance(result, bytes) else str(result)

    async def unmark(self, keys: Keys) -> None:
        """The game is no longer over (a judge rolled its end back): nothing to archive."""
        await self.redis.zrem(keys.to_archive, keys.game_id)
