"""Loading a game's state: snapshot + tail of its stream, never the whole stream on the hot path.

Each process keeps the states it used recently (an LRU of ``LoadedGame``). Loading a cached game
reads only the events after the cached version (usually none: one ``XRANGE`` round trip). A cold load
reads the latest snapshot and the tail after it. States are folded only forward and only with the
next sequence number, so concurrent loads in one process can never apply an event twice.
"""

from __future__ import annotations

from collections import OrderedDict

import msgspec

from domain.board import decider
from domain.board.events import BoardEvent
from domain.board.state import BoardState
from domain.core.envelope import Envelope
from domain.core.hashing import GENESIS

from .event_store import EventStore
from .keys import Keys

event_decoder = msgspec.json.Decoder(BoardEvent)
event_encoder = msgspec.json.Encoder()


class Snapshot(msgspec.Struct):
    version: int
    head_hash: str
    state: BoardState


_snap_enc = msgspec.msgpack.Encoder()
_snap_dec = msgspec.msgpack.Decoder(Snapshot)


class LoadedGame:
    __slots__ = ("state", "head_hash", "seed", "needs_check")

    def __init__(self, state: BoardState, head_hash: str):
        self.state = state
        self.head_hash = head_hash
        self.seed: str | None = None
        """The game's secret seed, cached once read (it never changes)."""
        self.needs_check = True
        """True until this process has appended to or re-read the game: commands then load first."""

    @property
    def version(self) -> int:
        return self.state.version

    def apply(self, envelopes: list[Envelope]) -> None:
        """Fold envelopes that come after the current version; skip ones already applied."""
        for env in envelopes:
            if env.seq <= self.state.version:
                continue
            if env.seq != self.state.version + 1:
                raise RuntimeError(f"gap in stream: at {self.state.version}, got {env.seq}")
            decider.fold([event_decoder.decode(env.event)], self.state)
            self.head_hash = env.hash


class GameNotFound(Exception):
    pass


class GameRepo:
    def __init__(self, store: EventStore, cache_size: int = 4096, snapshot_every: int = 64):
        self.store = store
        self.cache: OrderedDict[str, LoadedGame] = OrderedDict()
        self.cache_size = cache_size
        self.snapshot_every = snapshot_every

    async def load(self, game_id: str) -> LoadedGame:
        keys = self.store.keys(game_id)
        game = self.cache.get(game_id)
        if game is not None:
            self.cache.move_to_end(game_id)
            game.apply(await self.store.read(keys, game.version))
            return game
        game = await self._cold_load(keys)
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
            snap = _snap_dec.decode(raw)
            game = LoadedGame(snap.state, snap.head_hash)
            tail = await self.store.read(keys, snap.version)
        else:
            tail = await self.store.read(keys, 0)
            if not tail:
                raise GameNotFound(keys.game_id)
            first = event_decoder.decode(tail[0].event)
            state = decider.fold([first])
            game = LoadedGame(state, tail[0].hash)
        game.apply(tail)
        return game

    async def load_fresh(self, game_id: str) -> LoadedGame:
        """Fold from the stream alone (no cache, no snapshot): used by audits and tests."""
        keys = self.store.keys(game_id)
        envs = await self.store.read(keys, 0)
        if not envs:
            raise GameNotFound(game_id)
        state = decider.fold(event_decoder.decode(e.event) for e in envs)
        return LoadedGame(state, envs[-1].hash)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id, None)

    async def maybe_snapshot(self, game: LoadedGame, previous_version: int) -> None:
        """Write a snapshot when the version crosses a multiple of ``snapshot_every``."""
        if game.version // self.snapshot_every == previous_version // self.snapshot_every:
            return
        keys = self.store.keys(game.state.game_id)
        blob = _snap_enc.encode(Snapshot(game.version, game.head_hash, game.state))
        await self.store.redis.set(keys.snapshot, blob)


def genesis_hash() -> str:
    return GENESIS
