"""Wiring: build the event store, repository, scheduler and engine from the configuration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain import registry
from service.store.config import Config
from service.store.event_store import EventStore
from service.store.games import GameRepo
from service.store.read_models import ProjectionStore
from service.store.redis_client import BlockingReads, event_store_redis, event_store_redis_sync, queue_redis

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
    blocking: BlockingReads | None = None
    """Blocking reads (SSE and long-polls), on their own pool."""
    open_streams: int = 0

    async def blocking_read(self, streams: dict[str, str], count: int, block: int) -> Any:
        """``XREAD`` on the blocking-reads pool (:class:`BlockingReads`)."""
        if self.blocking is None:
            self.blocking = BlockingReads(self.cfg, self.redis)
        return await self.blocking.xread(streams, count=count, block=block)

    async def close(self) -> None:
        await self.store.close()
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
    store = EventStore(
        r, cfg.partitions, cfg.wait_replicas, cfg.wait_timeout_ms, cfg.archive_after_s, pipeline=cfg.append_pipeline
    )
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
        blocking=BlockingReads(cfg, r),
    )
