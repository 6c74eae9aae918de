"""Webhook subscriptions, their deliveries and the outbox the workers work from (docs/webhooks.md).

Keys (each operation touches one key, or one partition's feed, so Redis Cluster is fine):

* ``citadel:webhook:sub:<id>`` -- a :class:`Subscription` (with its secret: never served again);
  ``citadel:webhooks:scope:<game or tournament id>`` -- the set of its subscriptions.
* ``citadel:webhooks:watched`` -- the games some subscription follows (a tournament's: all its
  tables); ``citadel:webhooks:cursor`` -- per watched game, the version up to which its events were
  turned into deliveries.
* ``{pNN}:feed`` consumer group ``webhooks`` -- created on a partition's feed when a game of it is
  first watched (``citadel:webhooks:partitions`` lists those partitions): the workers read the
  appends from it, so the engine and the projector never do anything for webhooks.
* ``citadel:webhook:delivery:<id>`` -- a :class:`Delivery`: the exact body sent on every attempt, its
  status, attempts and last error; ``citadel:webhook:log:<subscription>`` -- the newest
  :data:`LOG_LENGTH` deliveries of a subscription (the delivery log of the API);
  ``citadel:webhooks:due`` -- deliveries scored by their next attempt (epoch seconds), claimed by one
  worker at a time with a lease, like deadlines (``service/store/marks.py``).

A delivery's id is derived from (subscription, game, event number, topic), and it is created with
``SET NX``: reading the same appends twice (two workers, a crash before the acknowledgement) never
creates a delivery twice.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import msgspec

from .keys import feed_key

GROUP = "webhooks"
LOG_LENGTH = 1000
DELIVERY_TTL_S = 7 * 24 * 3600
"""A delivery (and so its line in the log) is kept for a week after it was created."""
WATCHED = "citadel:webhooks:watched"
PARTITIONS = "citadel:webhooks:partitions"
CURSOR = "citadel:webhooks:cursor"
DUE = "citadel:webhooks:due"

Status = Literal["pending", "delivered", "failed"]


def sub_key(subscription_id: str) -> str:
    return f"citadel:webhook:sub:{subscription_id}"


def scope_key(scope_id: str) -> str:
    return f"citadel:webhooks:scope:{scope_id}"


def delivery_key(delivery_id: str) -> str:
    return f"citadel:webhook:delivery:{delivery_id}"


def log_key(subscription_id: str) -> str:
    return f"citadel:webhook:log:{subscription_id}"


def delivery_id(subscription_id: str, game_id: str, seq: int, topic: str) -> str:
    digest = hashlib.sha256(f"{subscription_id}|{game_id}|{seq}|{topic}".encode()).hexdigest()
    return "d_" + digest[:32]


class Subscription(msgspec.Struct, frozen=True):
    subscription_id: str
    scope: Literal["game", "tournament"]
    scope_id: str
    url: str
    events: list[str]
    created: str
    secret: str


class Delivery(msgspec.Struct):
    delivery_id: str
    subscription_id: str
    event: str
    """The topic (``turn_start``, ``phase_end``, ``combat_resolved``, ``game_end``)."""
    game_id: str
    seq: int
    created: str
    payload: msgspec.Raw
    """The JSON body sent on every attempt, byte for byte."""
    status: Status = "pending"
    attempts: int = 0
    last_error: str | None = None
    last_status: int | None = None
    next_attempt_at: str | None = None
    delivered_at: str | None = None


_enc = msgspec.json.Encoder()
_sub = msgspec.json.Decoder(Subscription)
_delivery = msgspec.json.Decoder(Delivery)

CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
return due
"""


class WebhookStore:
    """The API's side (asynchronous client): subscribe, list, read the delivery log."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def subscribe(self, sub: Subscription, games: dict[str, tuple[int, int]]) -> None:
        """Store ``sub`` and watch ``games`` (game id -> (partition, current version)): their events
        from the current version on become deliveries."""
        await self.watch(games)
        await self.redis.set(sub_key(sub.subscription_id), _enc.encode(sub))
        await self.redis.sadd(scope_key(sub.scope_id), sub.subscription_id)

    async def has_subscriptions(self, scope_id: str) -> bool:
        return bool(await self.redis.scard(scope_key(scope_id)))

    async def watch(self, games: dict[str, tuple[int, int]]) -> None:
        """Turn the events of ``games`` (game id -> (partition, current version)) from their current
        version on into deliveries (for the subscriptions of each game and of its tournament)."""
        for game_id, (partition, version) in games.items():
            await self.redis.hsetnx(CURSOR, game_id, version)
            try:
                await self.redis.xgroup_create(feed_key(partition), GROUP, id="$", mkstream=True)
            except Exception as e:  # noqa: BLE001 - BUSYGROUP: the partition is read already
                if "BUSYGROUP" not in str(e):
                    raise
            await self.redis.sadd(PARTITIONS, partition)
            await self.redis.sadd(WATCHED, game_id)

    async def subscriptions(self, scope_id: str) -> list[Subscription]:
        ids = sorted(x.decode() for x in await self.redis.smembers(scope_key(scope_id)))
        out = []
        for sid in ids:
            raw = await self.redis.get(sub_key(sid))
            if raw:
                out.append(_sub.decode(raw))
        return out

    async def subscription(self, subscription_id: str) -> Subscription | None:
        raw = await self.redis.get(sub_key(subscription_id))
        return _sub.decode(raw) if raw else None

    async def unsubscribe(self, sub: Subscription) -> None:
        """No new deliveries for it; deliveries already made stay in its log until they expire."""
        await self.redis.srem(scope_key(sub.scope_id), sub.subscription_id)
        await self.redis.delete(sub_key(sub.subscription_id))

    async def deliveries(self, subscription_id: str, limit: int) -> list[Delivery]:
        """The newest deliveries first."""
        ids = await self.redis.lrange(log_key(subscription_id), 0, limit - 1)
        out = []
        for did in ids:
            raw = await self.redis.get(delivery_key(did.decode()))
            if raw:
                out.append(_delivery.decode(raw))
        return out


class WebhookOutbox:
    """The workers' side (synchronous client, the worker's main loop and its jobs)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._claim = redis.register_script(CLAIM_LUA)

    # -- turning appends into deliveries --------------------------------------------------------

    def partitions(self) -> list[int]:
        return sorted(int(p) for p in self.redis.smembers(PARTITIONS))

    def read_feed(
        self, partition: int, consumer: str, count: int, reclaim_idle_ms: int
    ) -> list[tuple[bytes, str, int]]:
        """New appends of ``partition`` for this consumer, and those another consumer read but never
        acknowledged for ``reclaim_idle_ms`` (a worker that died): ``(entry id, game id, version)``."""
        key = feed_key(partition)
        out: list[tuple[bytes, str, int]] = []
        claimed = self.redis.xautoclaim(key, GROUP, consumer, reclaim_idle_ms, start_id="0-0", count=count)
        entries = list(claimed[1])
        for _, items in self.redis.xreadgroup(GROUP, consumer, {key: ">"}, count=count) or []:
            entries.extend(items)
        for entry_id, fields in entries:
            if fields:
                out.append((entry_id, fields[b"g"].decode(), int(fields[b"v"])))
        return out

    def ack(self, partition: int, entry_ids: list[bytes]) -> None:
        if entry_ids:
            self.redis.xack(feed_key(partition), GROUP, *entry_ids)

    def watched(self, game_ids: list[str]) -> list[str]:
        if not game_ids:
            return []
        flags = self.redis.smismember(WATCHED, game_ids)
        return [g for g, f in zip(game_ids, flags) if f]

    def cursor(self, game_id: str) -> int | None:
        raw = self.redis.hget(CURSOR, game_id)
        return int(raw) if raw is not None else None

    def advance(self, game_id: str, version: int) -> None:
        self.redis.hset(CURSOR, game_id, version)

    def subscriptions(self, scope_ids: list[str]) -> list[Subscription]:
        out = []
        for scope_id in scope_ids:
            for sid in sorted(x.decode() for x in self.redis.smembers(scope_key(scope_id))):
                raw = self.redis.get(sub_key(sid))
                if raw:
                    out.append(_sub.decode(raw))
        return out

    def add(self, delivery: Delivery, now: float) -> bool:
        """Create a delivery due now, unless it exists; True when created."""
        if not self.redis.set(delivery_key(delivery.delivery_id), _enc.encode(delivery), nx=True, ex=DELIVERY_TTL_S):
            return False
        self.redis.zadd(DUE, {delivery.delivery_id: now})
        self.redis.lpush(log_key(delivery.subscription_id), delivery.delivery_id)
        self.redis.ltrim(log_key(delivery.subscription_id), 0, LOG_LENGTH - 1)
        return True

    # -- delivering -----------------------------------------------------------------------------

    def claim_due(self, now: float, lease_s: float, limit: int) -> list[str]:
        """Deliveries due at ``now``, claimed for ``lease_s`` seconds (another worker claims them
        again after that if nothing recorded their attempt)."""
        return [m.decode() for m in self._claim(keys=[DUE], args=[repr(now), repr(now + lease_s), limit])]

    def delivery(self, delivery_id: str) -> Delivery | None:
        raw = self.redis.get(delivery_key(delivery_id))
        return _delivery.decode(raw) if raw else None

    def subscription(self, subscription_id: str) -> Subscription | None:
        raw = self.redis.get(sub_key(subscription_id))
        return _sub.decode(raw) if raw else None

    def record(self, delivery: Delivery, next_at: float | None) -> None:
        """Save an attempt's outcome; ``next_at``: when to try again (None: done, or given up)."""
        self.redis.set(delivery_key(delivery.delivery_id), _enc.encode(delivery), xx=True, keepttl=True)
        if next_at is None:
            self.redis.zrem(DUE, delivery.delivery_id)
        else:
            self.redis.zadd(DUE, {delivery.delivery_id: next_at})
