"""Wiring: build the event store, repository, scheduler and engine from the configuration."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import redis.exceptions

from domain import registry
from service.store.config import Config
from service.store.event_store import EventStore
from service.store.games import GameRepo
from service.store.read_models import ProjectionStore
from service.store.redis_client import blocking_reads_redis, event_store_redis, event_store_redis_sync, queue_redis

from . import tokens
from .dispatch import Dispatcher, Scheduler
from .engine import Engine
from .signing import SigningKeys


@dataclass
class Runtime:
    cfg: Config
    redis: Any
    store: EventStore
    repo: GameRepo
    engine: Engine
    secret: bytes
    projections: ProjectionStore
    signing: SigningKeys
    blocking: Any = None
    """Redis client for blocking reads (SSE and long-polls), with its own pool."""
    open_streams: int = 0

    async def blocking_read(self, streams: dict[str, str], count: int, block: int) -> Any:
        """``XREAD`` on the blocking-reads client. When its store is unreachable the client is
        replaced before the error goes on (the caller answers 503): a Cluster client that lost a
        master kept routing to the dead node (seen: 80 s of 503s on the event streams after a
        failover), while a new one reads the slot map afresh."""
        try:
            return await self.blocking.xread(streams, count=count, block=block)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            old, self.blocking = self.blocking, blocking_reads_redis(self.cfg)
            with contextlib.suppress(Exception):
                await old.aclose()
            raise

    async def close(self) -> None:
        await self.redis.aclose()
        if self.blocking is not None:
            await self.blocking.aclose()


def build_runtime(cfg: Config | None = None, scheduler: Dispatcher | None = None) -> Runtime:
    cfg = cfg or Config.from_env()
    r = event_store_redis(cfg)
    sync = event_store_redis_sync(cfg)
    try:
        secret = tokens.load_or_create_secret(sync, cfg.secret)
    finally:
        sync.close()
    store = EventStore(r, cfg.partitions)
    repo = GameRepo(store, registry, snapshot_every=cfg.snapshot_every)
    sched = scheduler or Scheduler(queue_redis(cfg), cfg.queue_name)
    return Runtime(
        cfg=cfg,
        redis=r,
        store=store,
        repo=repo,
        engine=Engine(store, repo, sched, secret, kinds=cfg.games),
        secret=secret,
        projections=ProjectionStore(r),
        signing=SigningKeys(r, cfg.signing_key),
        blocking=blocking_reads_redis(cfg),
    )
