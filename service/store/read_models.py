"""The read models in Redis: their format, and writing and reading them idempotently.

Views are stored as the JSON the API serves (each carries its ``version``); log lines as a sorted
set scored by version. The projector (``projections/``) computes them; the HTTP layer reads them.

One Lua script writes a game's projection: every view, the new log lines (a sorted set scored by
version) and the projected version, all at once, and only if the version moves forward and the game
was not archived (an archived game has no read models: its reads are derived from its archived
events, ``service/store/archive.py``). Applying
the same events twice therefore changes nothing, which is what lets a killed projector simply
re-process its pending feed entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.game import Game

from .keys import Keys

PROJECT_LUA = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local newv = tonumber(ARGV[1])
if cur >= newv then return cur end
if redis.call('EXISTS', KEYS[3]) == 1 then return newv end
local nviews = tonumber(ARGV[2])
for i = 1, nviews do redis.call('SET', KEYS[3 + i], ARGV[2 + i]) end
local i = 3 + nviews
while i <= #ARGV do
  redis.call('ZADD', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
redis.call('HSET', KEYS[1], 'version', newv)
return newv
"""


class LogLine(msgspec.Struct):
    """One line of a game's public log."""

    seq: int
    ts: str
    text: str


class _Versioned(msgspec.Struct):
    version: int


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

    async def version(self, keys: Keys) -> int:
        v = await self.redis.hget(keys.proj, "version")
        return int(v) if v else 0

    async def write(self, keys: Keys, version: int, views: dict[str | None, bytes], lines: list[LogLine]) -> int:
        readers = list(views)
        args: list[Any] = [version, len(readers), *(views[r] for r in readers)]
        for line in lines:
            args += [line.seq, _enc.encode(line)]
        return int(
            await self._project(keys=[keys.proj, keys.log, keys.archive, *(keys.view(r) for r in readers)], args=args)
        )

    async def clear(self, keys: Keys, readers: list[str | None]) -> None:
        await self.redis.delete(keys.proj, keys.log, *(keys.view(r) for r in readers))

    async def view(self, keys: Keys, reader: str | None) -> bytes | None:
        return await self.redis.get(keys.view(reader))

    async def log(self, keys: Keys, after: int, limit: int) -> list[LogLine]:
        raw = await self.redis.zrangebyscore(keys.log, f"({after}", "+inf", start=0, num=limit)
        return [_line_dec.decode(x) for x in raw]

    async def view_with_version(self, keys: Keys, reader: str | None) -> tuple[int, bytes] | None:
        """The stored view of ``reader`` and the version it reflects, if any."""
        raw = await self.redis.get(keys.view(reader))
        if raw is None:
            return None
        return msgspec.json.decode(raw, type=_Versioned).version, raw
