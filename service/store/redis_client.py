"""Redis connections for the event store (plain or Cluster) and for RQ (always plain)."""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.cluster import RedisCluster

from .config import Config


def event_store_redis(cfg: Config) -> Any:
    """Async client for the event store; a RedisCluster client when ``CITADEL_CLUSTER=1``."""
    if cfg.cluster:
        return AsyncRedisCluster.from_url(cfg.redis_url)
    return aioredis.from_url(cfg.redis_url, max_connections=256)


def blocking_reads_redis(cfg: Config) -> Any:
    """A separate pool for blocking reads (SSE, long-polls): a crowd of open streams can never take
    the connections that commands need."""
    if cfg.cluster:
        return AsyncRedisCluster.from_url(cfg.redis_url)
    return aioredis.from_url(cfg.redis_url, max_connections=cfg.max_streams + 8)


def event_store_redis_sync(cfg: Config) -> Any:
    if cfg.cluster:
        return RedisCluster.from_url(cfg.redis_url)
    return redis.Redis.from_url(cfg.redis_url)


def queue_redis(cfg: Config) -> redis.Redis:
    return redis.Redis.from_url(cfg.queue_url)
