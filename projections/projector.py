"""The projector: a consumer in the ``projector`` group of every partition feed.

Each feed entry says "game G reached version V". For every game named in a batch the projector
folds the game's new events (from its own cache, or snapshot + tail), writes all its read models in
one idempotent script, and only then acknowledges the entries. If it is killed mid-batch, the
entries stay pending: on restart it first re-reads its own pending entries, and any projector also
claims entries that another consumer left pending for longer than ``claim_idle_ms``. Re-applying
an entry is harmless because the write only moves forward.

The projector only projects: lost job dispatches are the workers' sweep's business (workers/sweep.py).
It reads games from their streams through ``service.store`` and knows them through the registry's
:class:`~domain.core.game.Game` protocol.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
from collections import OrderedDict
from typing import Any

from domain import registry
from service.store.config import Config
from service.store.event_store import EventStore
from service.store.feeds import PROJECTOR_GROUP
from service.store.games import GameNotFound, GameRepo, LoadedGame, NeedsHistory
from service.store.keys import Keys, feed_key
from service.store.lobby import LobbyEntry, LobbyIndex
from service.store.logs import configure_logging
from service.store.read_models import MISMATCH, ProjectionStore
from service.store.readiness import ReadyFile
from service.store.redis_client import STORE_UNREACHABLE, event_store_redis

from .read_models import changed_views, log_lines

log = logging.getLogger("citadel.projector")
GROUP = PROJECTOR_GROUP
STORE_DOWN: tuple[type[Exception], ...] = (*STORE_UNREACHABLE, ConnectionError)
"""What a Redis restart or failover raises; the projector waits and reconnects instead of exiting."""


DIGESTS_KEPT = 20_000
"""Games whose view digests a projector keeps (an LRU); a game it forgot has all its views sent once."""


class Projector:
    def __init__(
        self,
        cfg: Config,
        redis: Any,
        consumer: str | None = None,
        claim_idle_ms: int = 30_000,
        batch: int = 1000,
    ) -> None:
        self.cfg = cfg
        self.redis = redis
        self.store = EventStore(redis, cfg.partitions, archive_after_s=cfg.archive_after_s)
        self.repo = GameRepo(self.store, registry, snapshot_every=cfg.snapshot_every)
        self.projections = ProjectionStore(redis)
        self.lobby = LobbyIndex(redis)
        self.listed: dict[str, tuple[str, int]] = {}
        """Per game, the lobby facts (status, seats taken) this projector last wrote to the lobby index."""
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.claim_idle_ms = claim_idle_ms
        self.batch = batch
        self.feeds = [feed_key(p) for p in range(cfg.partitions)]
        self.ready_file = ReadyFile.from_env()
        """Written while Redis answers, removed while it does not (``service/store/readiness.py``)."""
        self.stopping = False
        self.projected = 0
        self.done: dict[str, int] = {}
        """Projected version per game, as last written or read by this projector."""
        self.digests: OrderedDict[str, dict[str | None, str]] = OrderedDict()
        """Per game (the last :data:`DIGESTS_KEPT` projected), the digest of each view this projector
        last wrote: a view whose new rendering has the same digest is not sent again."""
        self.views_written = 0
        self.views_skipped = 0
        self.coalesce_s = float(os.environ.get("CITADEL_PROJECTOR_COALESCE_MS", "200")) / 1000
        self.ack_delay = float(os.environ.get("CITADEL_FAULT_ACK_DELAY_S", "0") or 0)

    async def ensure_groups(self) -> None:
        for feed in self.feeds:
            try:
                await self.redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
            except Exception as e:  # BUSYGROUP: already there
                if "BUSYGROUP" not in str(e):
                    raise

    async def project_game(self, game_id: str) -> int:
        """Bring one game's read models up to its stream's version. Idempotent."""
        keys = Keys(game_id, self.cfg.partitions)
        done = self.done.get(game_id)
        if done is None:
            done = await self.projections.version(keys)
        game = self.repo.peek(game_id)
        if game is not None and game.version == done:
            # the usual case: one read gives both the new events and the state's tail
            new_envs = await self.store.read(keys, done)
            try:
                game.apply(new_envs)
            except NeedsHistory:  # a judge's rollback: fold the game from its stream
                self.repo.forget(game_id)
                game = await self.repo.load(game_id)
        else:
            try:
                game = await self.repo.load(game_id)
            except GameNotFound:
                return 0
            new_envs = [e for e in await self.store.read(keys, done) if e.seq <= game.version]
        if done >= game.version:
            self.done[game_id] = done
            if game_id not in self.listed:  # a restart after the views but before the lobby was written
                await self.list_game(game, keys)
            return done
        lines = log_lines(game, new_envs)
        known = self.digests.pop(game_id, {})
        rendered, digests = changed_views(game, known)
        v = await self.projections.write(keys, game.version, rendered, lines)
        if v == MISMATCH:  # another projector wrote some view, or the projection was cleared: send all
            rendered, digests = changed_views(game, {})
            v = await self.projections.write(keys, game.version, rendered, lines)
        sent = sum(body is not None for _, body in rendered.values())
        self.views_written += sent
        self.views_skipped += len(rendered) - sent
        self.digests[game_id] = digests
        if len(self.digests) > DIGESTS_KEPT:
            self.digests.popitem(last=False)
        await self.list_game(game, keys)
        self.done[game_id] = v
        self.projected += 1
        return v

    async def list_game(self, game: LoadedGame, keys: Keys) -> None:
        """Write the game's entry in the lobby index (``service/store/lobby.py``) when its lobby facts
        changed since this projector last wrote them: a few writes per game, never one per move.
        Private games are never listed."""
        info = game.game.lobby(game.state)
        facts = (info.status, info.seats_taken)
        if info.private or self.listed.get(game.game_id) == facts:
            return
        first = await self.store.read(keys, 0, count=1)
        if not first:
            return
        entry = LobbyEntry(
            game_id=game.game_id,
            kind=game.kind,
            status=info.status,
            seats_taken=info.seats_taken,
            seats_total=info.seats_total,
            created_at=first[0].ts,
            version=game.version,
        )
        await self.lobby.write(entry)
        self.listed[game.game_id] = facts

    async def handle(self, feed: str, entries: list[Any]) -> None:
        games = {}
        for _entry_id, fields in entries:
            if fields:
                games[fields[b"g"].decode()] = True
        for game_id in games:
            await self.project_game(game_id)
        if entries:
            if self.ack_delay:  # test hook: widen the window between projecting and acknowledging
                await asyncio.sleep(self.ack_delay)
            await self.redis.xack(feed, GROUP, *[eid for eid, _ in entries])

    async def recover(self) -> None:
        """Re-process our own pending entries, then claim entries other consumers abandoned."""
        for feed in self.feeds:
            while True:
                res = await self.redis.xreadgroup(GROUP, self.consumer, {feed: "0"}, count=self.batch)
                entries = res[0][1] if res else []
                if not entries:
                    break
                await self.handle(feed, entries)
            start = "0-0"
            while True:
                nxt, claimed, *_ = await self.redis.xautoclaim(
                    feed, GROUP, self.consumer, self.claim_idle_ms, start_id=start, count=self.batch
                )
                if claimed:
                    await self.handle(feed, claimed)
                if nxt in (b"0-0", "0-0"):
                    break
                start = nxt

    async def step(self, block_ms: int = 1000) -> int:
        """Read and handle one batch from every feed; returns the number of entries handled."""
        n = 0
        if self.cfg.cluster:  # feeds live in different slots: one call per feed
            for feed in self.feeds:
                res = await self.redis.xreadgroup(GROUP, self.consumer, {feed: ">"}, count=self.batch, block=10)
                for f, entries in res or []:
                    await self.handle(f.decode() if isinstance(f, bytes) else f, entries)
                    n += len(entries)
            if not n:
                await asyncio.sleep(block_ms / 10_000)
            return n
        res = await self.redis.xreadgroup(
            GROUP, self.consumer, {f: ">" for f in self.feeds}, count=self.batch, block=block_ms
        )
        for f, entries in res or []:
            await self.handle(f.decode() if isinstance(f, bytes) else f, entries)
            n += len(entries)
        if n and self.coalesce_s:
            # let appends accumulate: several versions of a busy game then cost one projection
            await asyncio.sleep(self.coalesce_s)
        return n

    async def run(self) -> None:
        """Project until stopped. A Redis restart or failover never ends it: it waits with backoff
        (0.2 s doubling to 5 s), then re-creates its groups and re-reads what it left pending."""
        backoff = 0.0
        while not self.stopping:
            try:
                if backoff:
                    await asyncio.sleep(backoff)
                await self._run_connected()
            except STORE_DOWN as e:
                self.ready_file.not_ready()
                backoff = min(5.0, backoff * 2 or 0.2)
                log.warning("event store unreachable (%s); retrying in %.1f s", e, backoff)
                self.repo.cache.clear()  # the store may have lost what was not yet persisted
                self.done.clear()

    async def _run_connected(self) -> None:
        await self.ensure_groups()
        await self.recover()
        log.info("projector %s running over %d partitions", self.consumer, len(self.feeds))
        idle_rounds = 0
        while not self.stopping:
            n = await self.step()
            self.ready_file.ready()
            idle_rounds = 0 if n else idle_rounds + 1
            if idle_rounds and idle_rounds % 30 == 0:
                await self.recover()  # pick up entries abandoned by dead peers


async def main_async(consumer: str | None = None) -> None:
    configure_logging()
    cfg = Config.from_env()
    r = event_store_redis(cfg)
    p = Projector(cfg, r, consumer=consumer or os.environ.get("CITADEL_PROJECTOR_NAME"))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: setattr(p, "stopping", True))
    try:
        await p.run()
    finally:
        await r.aclose()


def main() -> None:
    asyncio.run(main_async())


if __name__ == "__main__":
    main()
