"""A table for auction tests: drives ``GAME.create/decide/fold`` with a fixed Context whose clock
the test moves, and keeps every event (the stream) and the folded state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.auction import events as ev
from domain.auction.commands import AuctionCreateBody, PlaceBid
from domain.auction.game import GAME
from domain.auction.state import AuctionSettings, AuctionState
from domain.core.commands import ORGANIZER, SYSTEM, Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from domain.core.context import Context, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.hashing import GENESIS

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SEED = "s"
GAME_ID = "g_test"


def seat(n: int) -> Actor:
    return Actor(kind="seat", seat_id=f"seat{n}")


class Table:
    def __init__(self, player_count: int = 2, rounds: int = 3, seed: str = SEED, timeout_s: int = 600) -> None:
        self.now = T0
        self.seed = seed
        body = AuctionCreateBody(
            kind="auction",
            player_count=player_count,
            settings=AuctionSettings(rounds=rounds, decision_timeout_s=timeout_s),
        )
        self.events: list[Any] = GAME.create(body, self.ctx)
        self.state: AuctionState = GAME.fold(self.events)

    @property
    def ctx(self) -> Context:
        return Context(now=self.now, seed=self.seed, game_id=GAME_ID)

    def run(self, command: object, actor: Actor) -> list[Any]:
        before = msgspec.msgpack.encode(self.state)
        new = GAME.decide(self.state, command, actor, self.ctx)
        assert msgspec.msgpack.encode(self.state) == before, "decide must not mutate the state"
        self.events += new
        GAME.fold(new, self.state)
        return new

    def seat_all(self) -> Table:
        for i in range(self.state.player_count):
            self.run(JoinGame(name=f"player{i + 1}"), Actor(kind="seat"))
        return self

    def start(self) -> Table:
        self.seat_all()
        self.run(StartGame(), ORGANIZER)
        return self

    def bid(self, n: int, amount: int) -> list[Any]:
        return self.run(PlaceBid(amount=amount), seat(n))

    def resolve(self) -> list[Any]:
        assert GAME.pending_system_work(self.state)
        return self.run(ResolvePending(), SYSTEM)

    def play_round(self, *amounts: int) -> list[Any]:
        for i, a in enumerate(amounts, start=1):
            self.bid(i, a)
        return self.resolve()

    def timeout(self) -> list[Any]:
        d = GAME.deadline(self.state)
        assert d is not None
        self.now = self.now + timedelta(seconds=self.state.settings.decision_timeout_s)
        return self.run(ApplyTimeout(step_version=d.step_version), SYSTEM)

    def envelopes(self, events: list[Any] | None = None) -> list[Envelope]:
        """The stream as stored: sealed in a hash chain."""
        out: list[Envelope] = []
        prev = GENESIS
        for seq, e in enumerate(self.events if events is None else events, start=1):
            env = seal(seq, rfc3339(self.now), GAME.schema_version, prev, msgspec.json.encode(e))
            out.append(env)
            prev = env.hash
        return out


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


__all__ = ["Table", "seat", "of_type", "ev", "T0", "SEED", "GAME_ID"]
