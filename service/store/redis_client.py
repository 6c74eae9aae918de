"""Redis connections for the event store (plain or Cluster) and for RQ (always plain)."""

from __future__ import annotations

import contextlib
from typing import Any

import redis
import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.cluster import RedisCluster

from .config import Config


def event_store_redis(cfg: Config) -> Any:
    """Async client for the event store; a RedisCluster client when ``CITADEL_CLUSTER=1``."""
    if cfg.cluster:
        return AsyncRedisCluster.from_url(cfg.redis_url)
    return aioredis.from_url(cfg.redis_url, max_connections=256)


STORE_UNREACHABLE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.RedisClusterException,  # e.g. no reachable startup node, slot not covered
    redis.exceptions.ClusterError,  # CLUSTERDOWN, MASTERDOWN, "TTL exhausted" while slots move
    redis.exceptions.TryAgainError,
)
"""What a store that is down or failing over raises: the API answers 503 ``store_unavailable``
with ``Retry-After`` for each of them, never 500; workers and the projector reconnect."""


def blocking_reads_redis(cfg: Config, seeds: list[tuple[str, int]] | None = None) -> Any:
    """A separate pool for blocking reads (SSE, long-polls): a crowd of open streams can never take
    the connections that commands need. On a Cluster, ``seeds`` are the nodes to discover the slot
    map from (default: the node ``REDIS_URL`` names)."""
    if cfg.cluster:
        if seeds:
            return AsyncRedisCluster(startup_nodes=[ClusterNode(host, port) for host, port in seeds])
        return AsyncRedisCluster.from_url(cfg.redis_url)
    return aioredis.from_url(cfg.redis_url, max_connections=cfg.max_streams + 8)


class BlockingReads:
    """``XREAD BLOCK`` on the blocking-reads client, replaced when its store is unreachable.

    A Cluster client that lost a master kept routing to the dead node (seen: 80 s of 503s on the
    event streams after a failover), while a new one reads the slot map afresh. The new one is
    seeded from every node the long-lived command client has discovered, not from ``REDIS_URL``
    alone: when the node that URL names is the master that died, a client seeded from it alone
    cannot start at all (seen in CI: a 500 on a long-poll after the failover)."""

    def __init__(self, cfg: Config, commands: Any) -> None:
        self.cfg = cfg
        self.commands = commands
        self.client: Any = blocking_reads_redis(cfg)

    def _known_nodes(self) -> list[tuple[str, int]]:
        if not self.cfg.cluster:
            return []
        return [(n.host, n.port) for n in self.commands.get_nodes()]

    async def xread(self, streams: dict[str, str], count: int, block: int) -> Any:
        """Read; on a store error replace the client, then let the error go on (the caller
        answers 503 and the client's retry reaches the new one)."""
        try:
            return await self.client.xread(streams, count=count, block=block)
        except STORE_UNREACHABLE:
            old, self.client = self.client, blocking_reads_redis(self.cfg, self._known_nodes())
            with contextlib.suppress(Exception):
                await old.aclose()
            raise

    async def aclose(self) -> None:
        await self.client.aclose()


def event_store_redis_sync(cfg: Config) -> Any:
    if cfg.cluster:
        return RedisCluster.from_url(cfg.redis_url)
    return redis.Redis.from_url(cfg.redis_url)


def queue_redis(cfg: Config) -> redis.Redis:
    return redis.Redis.from_url(cfg.queue_url)
