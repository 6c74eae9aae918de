"""Writing and reading read models in Redis, idempotently.

One Lua script writes a game's projection: every view, the new log lines (a sorted set scored by
version) and the projected version, all at once, and only if the version moves forward. Applying
the same events twice therefore changes nothing, which is what lets a killed projector simply
re-process its pending feed entries.
"""

from __future__ import annotations

import msgspec

from service.api_models import LogLine
from service.keys import Keys

PROJECT_LUA = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local newv = tonumber(ARGV[1])
if cur >= newv then return cur end
local nviews = tonumber(ARGV[2])
for i = 1, nviews do redis.call('SET', KEYS[2 + i], ARGV[2 + i]) end
local i = 3 + nviews
while i <= #ARGV do
  redis.call('ZADD', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
redis.call('HSET', KEYS[1], 'version', newv)
return newv
"""

_enc = msgspec.json.Encoder()
_line_dec = msgspec.json.Decoder(LogLine)


class ProjectionStore:
    def __init__(self, redis):
        self.redis = redis
        self._project = redis.register_script(PROJECT_LUA)

    async def version(self, keys: Keys) -> int:
        v = await self.redis.hget(keys.proj, "version")
        return int(v) if v else 0

    async def write(self, keys: Keys, version: int, views: dict[str | None, bytes], lines: list[LogLine]) -> int:
        readers = list(views)
        args: list = [version, len(readers), *(views[r] for r in readers)]
        for line in lines:
            args += [line.seq, _enc.encode(line)]
        return int(await self._project(keys=[keys.proj, keys.log, *(keys.view(r) for r in readers)], args=args))

    async def clear(self, keys: Keys, readers: list[str | None]) -> None:
        await self.redis.delete(keys.proj, keys.log, *(keys.view(r) for r in readers))

    async def view(self, keys: Keys, reader: str | None) -> bytes | None:
        return await self.redis.get(keys.view(reader))

    async def log(self, keys: Keys, after: int, limit: int) -> list[LogLine]:
        raw = await self.redis.zrangebyscore(keys.log, f"({after}", "+inf", start=0, num=limit)
        return [_line_dec.decode(x) for x in raw]
