"""Loading a game's state: snapshot + tail of its stream, never the whole stream on the hot path.

Each process keeps the states it used recently (an LRU of :class:`LoadedGame`). Loading a cached game
reads only the events after the cached version (usually none: one ``XRANGE`` round trip). A cold load
reads the latest snapshot and the tail after it. States are folded only forward and only with the
next sequence number, so concurrent loads in one process can never apply an event twice.

A game's kind is read from its stream (the tag of its first event) or from its snapshot; everything
after that goes through the game's :class:`~domain.core.game.Game`. The store knows no game: the
catalog of games (``domain.registry``) is handed in by whoever builds the repository, so the engine
and the projector share this code.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from domain.core.envelope import Envelope
from domain.core.game import Game
from domain.core.rollback import fold_at
from domain.core.upcast import EventCodec

from .event_store import EventStore
from .keys import Keys

DEFAULT_KIND = "board"
"""Snapshots written before games had kinds are board games."""


class Catalog(Protocol):
    """The games a repository can load (``domain.registry`` satisfies it)."""

    def get(self, kind: str) -> Game: ...

    def codec(self, kind: str) -> EventCodec: ...

    def kind_of_stream(self, first_event: bytes) -> str: ...


class Snapshot(msgspec.Struct):
    version: int
    head_hash: str
    state: msgspec.Raw
    """The state in msgpack, of the game's ``state_type``."""
    kind: str = DEFAULT_KIND


_msgpack = msgspec.msgpack.Encoder()
_snap_dec = msgspec.msgpack.Decoder(Snapshot)


class NeedsHistory(Exception):
    """A judge's rollback is among the events to fold, and the events before its target are not at
    hand: fold the game from its stream (:meth:`GameRepo.load_fresh`)."""


class LoadedGame:
    """One game's state in this process, with what folding and sealing need."""

    __slots__ = ("kind", "game", "codec", "state", "head_hash", "seed", "needs_check", "settling")

    def __init__(self, catalog: Catalog, kind: str, state: Any, head_hash: str) -> None:
        self.kind = kind
        self.game: Game = catalog.get(kind)
        self.codec: EventCodec = catalog.codec(kind)
        self.state = state
        self.head_hash = head_hash
        self.seed: str | None = None
        """The game's secret seed, cached once read (it never changes)."""
        self.needs_check = True
        """True until this process has appended to or re-read the game: commands then load first."""
        self.settling: asyncio.Future[bool] | None = None
        """Set while a batch is folded in but its append has not answered yet (see :meth:`settle`)."""

    @property
    def version(self) -> int:
        return int(self.state.version)

    @property
    def game_id(self) -> str:
        return str(self.state.game_id)

    def decode(self, env: Envelope) -> Any:
        """The event of a stored envelope, in the current types (upcast if older)."""
        return self.codec.decode(env.event, env.schema)

    def apply(self, envelopes: Iterable[Envelope], history: Sequence[Envelope] = ()) -> None:
        """Fold envelopes that come after the current version; skip ones already applied.

        A judge's rollback re-derives the state from the events before its target
        (domain/core/rollback.py): they are taken from ``history`` (the stream from its first
        event) and the envelopes folded before it; without them :class:`NeedsHistory` is raised."""
        seen: dict[int, Envelope] = {}
        for env in envelopes:
            if env.seq <= self.version:
                continue
            if env.seq != self.version + 1:
                raise RuntimeError(f"gap in stream: at {self.version}, got {env.seq}")
            event = self.decode(env)
            if self.game.rollback_target(event) is None:
                self.game.fold([event], self.state)
            else:
                self.state = self._rolled_back(env.seq, event, history, seen)
            seen[env.seq] = env
            self.head_hash = env.hash

    def _rolled_back(self, seq: int, event: Any, history: Sequence[Envelope], seen: dict[int, Envelope]) -> Any:
        by_seq = {e.seq: e for e in history if e.seq < seq} | seen
        if any(n not in by_seq for n in range(1, seq)):
            raise NeedsHistory(self.game_id)
        events = [self.decode(by_seq[n]) for n in range(1, seq)] + [event]
        return fold_at(self.game.fold, self.game.rollback_target, events, seq - 1, self.state)

    def begin_settling(self) -> None:
        """The engine folds a batch in *before* its append answers (so it can tell the append
        script what the workers must do next); until :meth:`settle`, readers of this process wait."""
        self.settling = asyncio.get_running_loop().create_future()

    def settle(self, stored: bool) -> None:
        """The append answered: ``stored`` False means the batch was not stored and this state must
        not be read again (the repository forgets it)."""
        if self.settling is not None and not self.settling.done():
            self.settling.set_result(stored)
        self.settling = None

    def snapshot(self) -> bytes:
        return _msgpack.encode(
            Snapshot(self.version, self.head_hash, msgspec.Raw(_msgpack.encode(self.state)), self.kind)
        )

    @classmethod
    def from_snapshot(cls, catalog: Catalog, raw: bytes) -> LoadedGame:
        snap = _snap_dec.decode(raw)
        state = msgspec.msgpack.decode(snap.state, type=catalog.get(snap.kind).state_type)
        return cls(catalog, snap.kind, state, snap.head_hash)

    @classmethod
    def from_first(cls, catalog: Catalog, first: Envelope) -> LoadedGame:
        kind = catalog.kind_of_stream(first.event)
        state = catalog.get(kind).fold([catalog.codec(kind).decode(first.event, first.schema)])
        return cls(catalog, kind, state, first.hash)


class GameNotFound(Exception):
    pass


CONTENDED_CHECKS = 16
"""After another process appended to a game first, this many commands of it read the stream's tail
before deciding (each tail that brings others' events starts the count again)."""


class GameRepo:
    def __init__(self, store: EventStore, catalog: Catalog, cache_size: int = 4096, snapshot_every: int = 64) -> None:
        self.store = store
        self.catalog = catalog
        self.cache: OrderedDict[str, LoadedGame] = OrderedDict()
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every
        self.contended: OrderedDict[str, int] = OrderedDict()
        """Games other processes also write to (see :meth:`lost_race`): game id -> checks left."""

    def lost_race(self, game_id: str) -> None:
        """Another process appended to this game before us: our cached state was behind. With
        several API processes, a game's players often reach different processes, and deciding on
        the cache first would then lose most appends, each costing a failed append and a cold load
        (snapshot plus tail). Instead its next commands read the tail first (one cheap ``XRANGE``,
        usually bringing the other process's events) until it has been quiet a while."""
        self.contended[game_id] = CONTENDED_CHECKS
        self.contended.move_to_end(game_id)
        if len(self.contended) > self.cache_size:
            self.contended.popitem(last=False)

    def read_first(self, game_id: str) -> bool:
        """Should a command of this game read the stream's tail before deciding (it is contended)?"""
        return game_id in self.contended

    def _tail_seen(self, game_id: str, others_wrote: bool) -> None:
        left = self.contended.get(game_id)
        if left is None:
            return
        if others_wrote:
            self.contended[game_id] = CONTENDED_CHECKS
        elif left <= 1:
            del self.contended[game_id]
        else:
            self.contended[game_id] = left - 1

    async def load(self, game_id: str) -> LoadedGame:
        keys = self.store.keys(game_id)
        game = self.cache.get(game_id)
        if game is not None and game.settling is not None and not await asyncio.shield(game.settling):
            game = None  # the batch folded into it was not stored: read the stream again
        if game is not None:
            self.cache.move_to_end(game_id)
            try:
                tail = await self.store.read(keys, game.version)
                game.apply(tail)
                self._tail_seen(game_id, bool(tail))
                return game
            except NeedsHistory:
                game = None  # a judge's rollback in the tail: fold from the stream
        try:
            game = await self._cold_load(keys)
        except NeedsHistory:
            game = await self.load_fresh(game_id)
        self.cache[game_id] = game
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return game

    def peek(self, game_id: str) -> LoadedGame | None:
        """The cached state, possibly behind the stream (no I/O)."""
        return self.cache.get(game_id)

    async def _cold_load(self, keys: Keys) -> LoadedGame:
        raw = await self.store.redis.get(keys.snapshot)
        if raw:
            game = LoadedGame.from_snapshot(self.catalog, raw)
            tail = await self.store.read(keys, game.version)
        else:
            tail = await self.store.read(keys, 0)
            if not tail:
                raise GameNotFound(keys.game_id)
            game = LoadedGame.from_first(self.catalog, tail[0])
        game.apply(tail)
        return game

    async def load_fresh(self, game_id: str) -> LoadedGame:
        """Fold from the stream alone (no cache, no snapshot): used by audits, rebuilds and tests."""
        keys = self.store.keys(game_id)
        envs = await self.store.read(keys, 0)
        if not envs:
            raise GameNotFound(game_id)
        game = LoadedGame.from_first(self.catalog, envs[0])
        game.apply(envs, history=envs)
        return game

    async def load_at(self, game_id: str, version: int) -> LoadedGame:
        """The game as it stood at ``version``: its first ``version`` events folded through the
        game's own fold (no cache, no snapshot; ``version`` at most the current one)."""
        envs = await self.store.read(self.store.keys(game_id), 0, count=version)
        if not envs:
            raise GameNotFound(game_id)
        game = LoadedGame.from_first(self.catalog, envs[0])
        game.apply(envs[:version], history=envs)
        return game

    def forget(self, game_id: str, restore: bytes | None = None) -> None:
        """Drop the cached state (it holds a batch that was not stored); with ``restore`` (a
        :meth:`LoadedGame.snapshot` taken before the batch) cache that state instead, so the next
        load reads only the tail the other process wrote rather than loading cold."""
        old = self.cache.pop(game_id, None)
        if restore is not None:
            game = LoadedGame.from_snapshot(self.catalog, restore)
            game.seed = old.seed if old is not None else None
            self.cache[game_id] = game

    async def maybe_snapshot(self, game: LoadedGame, previous_version: int) -> None:
        """Write a snapshot when the version crosses a multiple of ``snapshot_every``."""
        if game.version // self.snapshot_every == previous_version // self.snapshot_every:
            return
        await self.store.redis.set(self.store.keys(game.game_id).snapshot, game.snapshot())
