"""Per-client limits kept in the event store's Redis, so every API replica shares them.

* :meth:`RateLimits.take` -- a token bucket: one atomic Lua script per request (one round trip)
  reads and refills the bucket by Redis' own clock (``TIME``, never a replica's), takes a token if
  there is one, and sets an expiry of the time the bucket needs to refill, so idle clients' keys
  vanish (memory is bounded by the clients active in the last ``burst / rate`` seconds, in Redis,
  and nothing per client in the API processes).
* :meth:`RateLimits.claim_stream` / :meth:`release_stream` -- a counter of a client's open streams:
  an atomic ``INCR`` refused beyond the cap, with an expiry as a safety net (an API process that
  dies with streams open cannot lock the client out for longer than ``ttl``); open streams refresh it.

Key placement (each script touches exactly one key, so any key works on Redis Cluster; the hash
tag only chooses the slot): a game identity's keys carry the game's partition tag ``{pNN}``, so the
check lands on the shard that already serves the game and spreads like the games do; an address's
keys carry the partition tag its address hashes to, so anonymous traffic spreads over the same
slots instead of piling onto one ``{rl}`` slot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .keys import partition_of, tag

TAKE_LUA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i = 1, #KEYS do
  local rate = tonumber(ARGV[3 * i - 2]) / 1000
  local burst = tonumber(ARGV[3 * i - 1])
  local v = redis.call('HMGET', KEYS[i], 't', 'ts')
  local tokens = tonumber(v[1])
  local ts = tonumber(v[2])
  if tokens == nil or ts == nil then
    tokens = burst
    ts = now
  end
  tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
  local ok = 0
  if tokens >= 1 then
    tokens = tokens - 1
    ok = 1
  end
  redis.call('HSET', KEYS[i], 't', tostring(tokens), 'ts', tostring(now))
  redis.call('PEXPIRE', KEYS[i], ARGV[3 * i])
  out[2 * i - 1] = ok
  out[2 * i] = tostring(tokens)
end
return out
"""
"""Token buckets, one per key (``ARGV``: rate per second, burst, expiry in ms for each key).
Taking from several buckets in one call lets concurrent requests share one round trip."""

MAX_BATCH = 256

CLAIM_LUA = """
local n = redis.call('INCR', KEYS[1])
if n > tonumber(ARGV[1]) then
  n = redis.call('DECR', KEYS[1])
  if n <= 0 then redis.call('DEL', KEYS[1]) end
  return 0
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

RELEASE_LUA = """
local n = redis.call('DECR', KEYS[1])
if n <= 0 then redis.call('DEL', KEYS[1]) end
return n
"""


@dataclass(frozen=True, slots=True)
class Client:
    """Who a limit counts: a role in a game (``game_id`` set) or a client address."""

    game_id: str | None
    name: str

    def key(self, what: str, partitions: int) -> str:
        if self.game_id is not None:
            return f"{tag(partition_of(self.game_id, partitions))}:{what}:game:{self.game_id}:{self.name}"
        return f"{tag(partition_of(self.name, partitions))}:{what}:addr:{self.name}"

    def __str__(self) -> str:
        return f"{self.game_id}:{self.name}" if self.game_id is not None else self.name


@dataclass(frozen=True, slots=True)
class Taken:
    allowed: bool
    remaining: float


_Waiting = tuple[str, float, int, int, "asyncio.Future[Taken]"]


class RateLimits:
    """The checks of requests that arrive together (in one turn of the event loop) go to Redis as one
    script call: each request costs at most one round trip, and under load a fraction of one. On
    Redis Cluster a call only holds keys of one hash tag (one slot)."""

    def __init__(self, redis: Any, partitions: int, cluster: bool = False) -> None:
        self.partitions = partitions
        self.cluster = cluster
        self._waiting: dict[str, list[_Waiting]] = {}
        self._calls: set[asyncio.Task[None]] = set()
        self._take = redis.register_script(TAKE_LUA)
        self._claim = redis.register_script(CLAIM_LUA)
        self._release = redis.register_script(RELEASE_LUA)
        self._redis = redis

    async def take(self, client: Client, per_second: float, burst: int) -> Taken:
        """Take one token from ``client``'s bucket (refilled at ``per_second`` up to ``burst``)."""
        ttl_ms = int(burst / per_second * 1000) + 1000
        key = client.key("rl", self.partitions)
        group = key[: key.index("}") + 1] if self.cluster else ""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Taken] = loop.create_future()
        batch = self._waiting.get(group)
        if batch is None or len(batch) >= MAX_BATCH:
            batch = self._waiting[group] = []
            loop.call_soon(self._send, group, batch)
        batch.append((key, float(per_second), burst, ttl_ms, fut))
        return await fut

    def _send(self, group: str, batch: list[_Waiting]) -> None:
        if self._waiting.get(group) is batch:
            del self._waiting[group]
        task = asyncio.ensure_future(self._call(batch))
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _call(self, batch: list[_Waiting]) -> None:
        args: list[Any] = []
        for _, rate, burst, ttl_ms, _ in batch:
            args += [repr(rate), burst, ttl_ms]
        try:
            out = await self._take(keys=[w[0] for w in batch], args=args)
        except Exception as e:  # e.g. Redis down: each request answers 503 store_unavailable
            for *_, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return
        except BaseException:
            for *_, fut in batch:
                fut.cancel()
            raise
        for i, (*_, fut) in enumerate(batch):
            if not fut.done():
                fut.set_result(Taken(bool(int(out[2 * i])), float(out[2 * i + 1])))

    async def claim_stream(self, client: Client, cap: int, ttl_s: int) -> bool:
        """Count one more open stream for ``client``; False (nothing counted) beyond ``cap``."""
        return bool(int(await self._claim(keys=[client.key("streams", self.partitions)], args=[cap, ttl_s])))

    async def refresh_stream(self, client: Client, ttl_s: int) -> None:
        """Keep a long-lived stream's count from expiring while it is open."""
        await self._redis.expire(client.key("streams", self.partitions), ttl_s)

    async def release_stream(self, client: Client) -> None:
        await self._release(keys=[client.key("streams", self.partitions)])
