"""The lobby index: which public games exist, in which status, newest first (``GET /v1/games``).

A read model like the views, written by the projector (``projections/projector.py``) when a game's
lobby facts change (created, a seat taken, started, ended) and rebuilt by ``citadel rebuild``.
Private games are never written here.

**One slot for the whole index.** Every key carries the hash tag ``{lobby}``, so the index lives in
one Redis Cluster slot: one script moves a game between its lists atomically, and one script reads a
page across several lists. A game's events live in its partition's slot (``{pNN}``), which a script
may not touch together with ``{lobby}``; so the projector writes the index with a script of its own,
guarded by the game's version (only forward, like the views), after the game's read models and
before it acknowledges the feed entry: a projector killed in between writes it again on restart.
The cost is one small write per lobby change of a game (a few per game, never one per move), and a
page read is one script on one node. ``docs/architecture.md`` says why this beats an index per
partition.

Keys:

* ``{lobby}:entries`` -- hash: game id -> the entry's JSON (:class:`LobbyEntry`);
* ``{lobby}:at`` -- hash: game id -> ``"<version> <bucket>"`` (what the guard and a move need);
* ``{lobby}:idx:<bucket>`` and ``{lobby}:idx:<bucket>:<kind>`` -- sorted sets, every score 0, member
  ``<13 digits: 9999999999999 - created ms>:<game id>``: lexical order is newest first, and a member
  is a unique, exclusive cursor (``ZRANGE ... BYLEX (cursor + LIMIT``).

Buckets: ``free`` (open, a seat free), ``full`` (open, every seat taken), ``running``, ``ended``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.context import parse_rfc3339

Bucket = Literal["free", "full", "running", "ended"]
BUCKETS: tuple[Bucket, ...] = ("free", "full", "running", "ended")
TAG = "{lobby}"
ENTRIES = f"{TAG}:entries"
AT = f"{TAG}:at"
_MS_CEILING = 9_999_999_999_999
CURSOR_PATTERN = r"^[0-9]{13}:g_[0-9a-f]{32}$"


def index_key(bucket: str, kind: str | None = None) -> str:
    return f"{TAG}:idx:{bucket}" + (f":{kind}" if kind else "")


class LobbyEntry(msgspec.Struct, frozen=True):
    """A public game as the lobby lists it."""

    game_id: str
    kind: str
    status: Literal["open", "running", "ended"]
    seats_taken: int
    seats_total: int
    created_at: str
    """RFC 3339 UTC: when the game was created (its first event)."""
    version: int
    """The game's version when this entry last changed."""

    @property
    def bucket(self) -> Bucket:
        if self.status == "open":
            return "free" if self.seats_taken < self.seats_total else "full"
        return self.status

    @property
    def member(self) -> str:
        return member_of(self.game_id, self.created_at)


def member_of(game_id: str, created_at: str) -> str:
    ms = int(parse_rfc3339(created_at).timestamp() * 1000)
    return f"{_MS_CEILING - ms:013d}:{game_id}"


WRITE_LUA = """
local prev = redis.call('HGET', KEYS[2], ARGV[1])
local newv = tonumber(ARGV[3])
local bucket = ARGV[4]
if prev then
  local pv, pb = string.match(prev, '^(%d+) (%a+)$')
  if tonumber(pv) >= newv then return 0 end
  if pb ~= bucket then
    local i = tonumber(string.match(ARGV[6], pb .. '=(%d+)'))
    redis.call('ZREM', KEYS[i], ARGV[5])
    redis.call('ZREM', KEYS[i + 4], ARGV[5])
  end
end
local j = tonumber(string.match(ARGV[6], bucket .. '=(%d+)'))
redis.call('ZADD', KEYS[j], 0, ARGV[5])
redis.call('ZADD', KEYS[j + 4], 0, ARGV[5])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ' ' .. bucket)
return 1
"""
"""KEYS: entries, at, the four bucket lists, the four bucket lists of the game's kind. ARGV: game id,
entry JSON, version, bucket, member, ``free=3 full=4 running=5 ended=6`` (each bucket's KEYS index)."""

PAGE_LUA = """
local limit = tonumber(ARGV[2])
local from = '-'
if ARGV[1] ~= '' then from = '(' .. ARGV[1] end
local all = {}
for i = 2, #KEYS do
  local got = redis.call('ZRANGE', KEYS[i], from, '+', 'BYLEX', 'LIMIT', 0, limit + 1)
  for _, m in ipairs(got) do all[#all + 1] = m end
end
table.sort(all)
local out = {}
local n = math.min(#all, limit + 1)
for i = 1, n do
  out[#out + 1] = all[i]
  out[#out + 1] = redis.call('HGET', KEYS[1], string.sub(all[i], 15)) or ''
end
return out
"""
"""KEYS: entries, then the lists to merge. ARGV: the cursor (a member, exclusive; empty: from the
newest), the page size. Answers member, entry pairs: at most ``limit + 1`` (one more tells that a
next page exists)."""

_SLOTS = " ".join(f"{b}={3 + i}" for i, b in enumerate(BUCKETS))
_dec = msgspec.json.Decoder(LobbyEntry)
_enc = msgspec.json.Encoder()


class Page(msgspec.Struct, frozen=True):
    entries: list[LobbyEntry]
    next_cursor: str | None


class LobbyIndex:
    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._write = redis.register_script(WRITE_LUA)
        self._page = redis.register_script(PAGE_LUA)

    async def write(self, entry: LobbyEntry) -> bool:
        """Record ``entry`` unless the index holds this game at its version or a later one."""
        keys = [ENTRIES, AT, *(index_key(b) for b in BUCKETS), *(index_key(b, entry.kind) for b in BUCKETS)]
        args = [entry.game_id, _enc.encode(entry), entry.version, entry.bucket, entry.member, _SLOTS]
        return bool(await self._write(keys=keys, args=args))

    async def page(self, buckets: list[Bucket], kind: str | None, cursor: str | None, limit: int) -> Page:
        """Newest first, after ``cursor``, across ``buckets`` (of ``kind`` only, when given)."""
        if not buckets:
            return Page(entries=[], next_cursor=None)
        keys = [ENTRIES, *(index_key(b, kind) for b in buckets)]
        raw = await self._page(keys=keys, args=[cursor or "", limit])
        pairs = [(raw[i].decode(), raw[i + 1]) for i in range(0, len(raw), 2)]
        more = len(pairs) > limit
        pairs = pairs[:limit]
        entries = [_dec.decode(e) for _, e in pairs if e]
        return Page(entries=entries, next_cursor=pairs[-1][0] if more and pairs else None)

    async def clear(self) -> None:
        """Delete the whole index (``citadel rebuild`` writes it again)."""
        kinds = {_dec.decode(e).kind for e in (await self.redis.hgetall(ENTRIES)).values()}
        keys = [ENTRIES, AT, *(index_key(b) for b in BUCKETS)]
        keys += [index_key(b, k) for b in BUCKETS for k in kinds]
        await self.redis.delete(*keys)
