"""The state of an auction: the fold of its events (:mod:`.evolve`). It holds no rules.

``version`` counts the events folded. ``step_version`` is the version of the event that opened the
current bidding round (its ``AuctionRoundBegan``): a timeout names it, and is void once another
round has begun. ``sealed`` holds the bids of the current round, which are hidden from everyone but
their bidder until the reveal (:mod:`.redaction`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

STARTING_COINS = 10
"""Every seat starts with 10 coins (AU-SETUP-02)."""

Phase = Literal["lobby", "bidding", "ended"]


class AuctionSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a game, fixed at creation."""

    rounds: Annotated[int, msgspec.Meta(ge=1, le=5)] = 3
    """How many rounds are auctioned (1 to 5)."""
    decision_timeout_s: Annotated[int, msgspec.Meta(ge=1, le=604800)] = 600
    """How long the seats have to bid in each round; then missing bids default to 0."""
    organizer_is_referee: bool = False
    """Tournament mode: the organizer may read the complete export while the game runs."""
    private: bool = False
    """A private game: never listed, and a seat is taken only with the organizer's invitation code."""


class Seat(msgspec.Struct):
    seat_id: str
    name: str


class RoundResult(msgspec.Struct, frozen=True):
    """A revealed round: every bid, who won the point and what it paid."""

    round: int
    bids: dict[str, int]
    winner: str
    price: int


class AuctionState(msgspec.Struct):
    game_id: str
    version: int
    player_count: int
    settings: AuctionSettings
    seed_commitment: str
    """sha256 of the secret seed (revealed when the game ends)."""
    phase: Phase = "lobby"
    round: int = 0
    """The current round, from 1 (0 in the lobby)."""
    deadline: str | None = None
    """RFC 3339 UTC: when the current round's missing bids default to 0."""
    step_version: int = 0
    seats: list[Seat] = []
    coins: dict[str, int] = {}
    points: dict[str, int] = {}
    sealed: dict[str, int] = {}
    """seat id -> its sealed bid in the current round. Hidden until the reveal."""
    results: list[RoundResult] = []
    """The rounds revealed so far (public)."""
    winner: str | None = None
    """The winner of the game, once it has ended."""

    def seat_ids(self) -> list[str]:
        """Every seat id, in seat order (``seat1``, ``seat2``, ...)."""
        return [s.seat_id for s in self.seats]

    def has_seat(self, seat_id: str) -> bool:
        return any(s.seat_id == seat_id for s in self.seats)

    def missing_bids(self) -> list[str]:
        """The seats that have not sealed a bid in this round, in seat order."""
        if self.phase != "bidding":
            return []
        return [s for s in self.seat_ids() if s not in self.sealed]
