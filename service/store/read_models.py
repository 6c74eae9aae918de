"""The read models in Redis: their format, and writing and reading them idempotently.

A view is rendered as the JSON the API serves, but for the ``version`` field, rendered as
:data:`VERSION_MARK` and served as the projected version (:func:`stored_view`); beside each view (in
the projection's hash) is a digest of that JSON, so a projection writes only the views whose content
changed (an amended order changes one house's view, not the others'). The view is stored gzipped,
as the start of the gzip member the API sends (``service/store/view_gzip.py``); a view stored
before views were gzipped (its JSON with the mark) is still served (:class:`ProjectedView`), until
its game's next projection by an upgraded projector rewrites it. Log lines are a sorted set scored by
version. The projector (``projections/``) computes them; the HTTP layer reads them.

One Lua script writes a game's projection: the views that changed, the new log lines (a sorted set
scored by version) and the projected version, all at once, and only if the version moves forward and the game
was not archived (an archived game has no read models: its reads are derived from its archived
events, ``service/store/archive.py``). Applying
the same events twice therefore changes nothing, which is what lets a killed projector simply
re-process its pending feed entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.game import Game

from . import view_gzip
from .keys import Keys

PROJECT_LUA = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local newv = tonumber(ARGV[1])
if cur >= newv then return cur end
if redis.call('EXISTS', KEYS[3]) == 1 then return newv end
local nviews = tonumber(ARGV[2])
for i = 1, nviews do
  local a = 3 * i
  if ARGV[a + 2] == '' and redis.call('HGET', KEYS[1], 'h:' .. ARGV[a]) ~= ARGV[a + 1] then return -1 end
end
for i = 1, nviews do
  local a = 3 * i
  if ARGV[a + 2] ~= '' then
    redis.call('SET', KEYS[3 + i], ARGV[a + 2])
    redis.call('HSET', KEYS[1], 'h:' .. ARGV[a], ARGV[a + 1])
  end
end
local i = 3 + 3 * nviews
while i <= #ARGV do
  redis.call('ZADD', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
redis.call('HSET', KEYS[1], 'version', newv)
return newv
"""

VIEW_LUA = """
return {redis.call('GET', KEYS[1]), redis.call('HGET', KEYS[2], 'version')}
"""

VERSION_MARK = -1
"""The ``version`` a stored view body carries: the body is served with the projected version in its
place (:meth:`ProjectionStore.view_with_version`), so a view whose content did not change with a new
version need not be written again."""
_MARK = b'"version":-1'
MISMATCH = -1
""":meth:`ProjectionStore.write`'s answer when a view it was told is unchanged is not the one stored
(another projector wrote it, or the projection was cleared): nothing was written; send every body."""


def stored_view(view: msgspec.Struct) -> bytes:
    """A view as the projection renders it: its JSON with ``version`` set to :data:`VERSION_MARK`
    (every view names its version in a top-level ``version`` field; no other field is called that
    with a negative value). It is digested as it is (:func:`view_digest`) and stored gzipped
    (:meth:`ProjectionStore.write`)."""
    return _enc.encode(msgspec.structs.replace(view, version=VERSION_MARK))


def packed_view(body: bytes, level: int = view_gzip.LEVEL) -> bytes:
    """A rendered view (:func:`stored_view`) as it is stored: gzipped, without its version
    (:func:`service.store.view_gzip.pack`)."""
    return view_gzip.pack(body, _MARK, level)


def view_json(view: msgspec.Struct) -> bytes:
    """A view's JSON as the API serves it, folded or projected alike: its ``version`` member last
    (``service/store/view_gzip.py``: a projected view is stored without its version)."""
    version: int = getattr(view, "version")  # noqa: B009 (every view has one; the Struct type does not say)
    return view_gzip.version_last(stored_view(view), _MARK) + b"%d}" % version


def view_digest(body: bytes) -> str:
    """What is kept beside a stored view to tell whether a new rendering differs from it."""
    return hashlib.blake2b(body, digest_size=16).hexdigest()


class ProjectedView(msgspec.Struct, frozen=True):
    """A stored view as read with its game's projected version, ready to serve either way."""

    version: int
    stored: bytes

    def gzipped(self) -> bytes | None:
        """The view's JSON as a gzip member (``Content-Encoding: gzip``), from the stored bytes as
        they are; ``None`` for a view stored before views were gzipped."""
        if not view_gzip.is_packed(self.stored):
            return None
        return view_gzip.gzipped(self.stored, self.version)

    def json(self) -> bytes:
        """The view's JSON, for a client that does not take gzip (or a view stored unpacked)."""
        if view_gzip.is_packed(self.stored):
            return view_gzip.plain_json(self.stored, self.version)
        return self.stored.replace(_MARK, b'"version":%d' % self.version, 1)


class LogLine(msgspec.Struct):
    """One line of a game's public log."""

    seq: int
    ts: str
    text: str


def log_lines(game: Game, decoded: Iterable[tuple[Envelope, Any]], game_over: bool = False) -> list[LogLine]:
    """The public log lines of decoded events: the game's narrative of each event as a spectator sees it."""
    out = []
    for env, event in decoded:
        text = game.describe(game.redact_event(event, None, game_over=game_over))
        if text:
            out.append(LogLine(seq=env.seq, ts=env.ts, text=text))
    return out


_enc = msgspec.json.Encoder()
_line_dec = msgspec.json.Decoder(LogLine)


class ProjectionStore:
    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._project = redis.register_script(PROJECT_LUA)
        self._view = redis.register_script(VIEW_LUA)

    async def version(self, keys: Keys) -> int:
        v = await self.redis.hget(keys.proj, "version")
        return int(v) if v else 0

    async def write(
        self, keys: Keys, version: int, views: dict[str | None, tuple[str, bytes | None]], lines: list[LogLine]
    ) -> int:
        """Write a projection at ``version``: per reader, the digest of its view
        (:func:`view_digest` of :func:`stored_view`) and the body (:func:`stored_view`, stored
        gzipped: :func:`packed_view`), or ``None`` for a view the caller knows is
        stored already with that digest (it is then checked, not sent again). Returns the projected
        version, or :data:`MISMATCH` (nothing written) when a view said unchanged is not."""
        readers = list(views)
        args: list[Any] = [version, len(readers)]
        for r in readers:
            digest, body = views[r]
            args += [r or "", digest, packed_view(body) if body is not None else ""]
        for line in lines:
            args += [line.seq, _enc.encode(line)]
        return int(
            await self._project(keys=[keys.proj, keys.log, keys.archive, *(keys.view(r) for r in readers)], args=args)
        )

    async def clear(self, keys: Keys, readers: list[str | None]) -> None:
        await self.redis.delete(keys.proj, keys.log, *(keys.view(r) for r in readers))

    async def log(self, keys: Keys, after: int, limit: int) -> list[LogLine]:
        raw = await self.redis.zrangebyscore(keys.log, f"({after}", "+inf", start=0, num=limit)
        return [_line_dec.decode(x) for x in raw]

    async def view_with_version(self, keys: Keys, reader: str | None) -> ProjectedView | None:
        """The stored view of ``reader`` and the version it reflects, if any: read with the projected
        version in one atomic call; the version takes the :data:`VERSION_MARK`'s place when served."""
        raw, version = await self._view(keys=[keys.view(reader), keys.proj])
        if raw is None or version is None:
            return None
        return ProjectedView(int(version), raw)
