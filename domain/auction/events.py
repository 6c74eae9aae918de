"""The auction's events: a tagged union of immutable msgspec Structs (``type`` is the tag).

Every tag starts with ``auction_`` so that no tag collides with another game's (an event stream is
read with its own game's union, but exports and logs mix them in tooling). Events are facts in the
past tense and are never rewritten; a change of shape raises :data:`SCHEMA_VERSION` and adds an
upcaster in :mod:`.upcasters`. Fields marked *hidden* are removed by :mod:`.redaction` for readers
who may not see them.
"""

from __future__ import annotations

import msgspec

from .state import AuctionSettings

SCHEMA_VERSION = 2
"""Schema 2 renamed ``AuctionBidSealed.value`` to ``amount`` (see :mod:`.upcasters`)."""


class Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class AuctionCreated(Event, frozen=True, tag="auction_created"):
    """An auction was created for ``player_count`` seats (AU-SETUP-01). Always the first event."""

    game_id: str
    player_count: int
    settings: AuctionSettings
    seed_commitment: str
    """sha256 of the secret seed; the seed is revealed when the game ends."""


class AuctionSeatJoined(Event, frozen=True, tag="auction_seat_joined"):
    seat_id: str
    name: str


class AuctionStarted(Event, frozen=True, tag="auction_started"):
    """Every seat is taken; each receives ``starting_coins`` (AU-SETUP-02)."""

    seats: list[str]
    starting_coins: int


class AuctionRoundBegan(Event, frozen=True, tag="auction_round_began"):
    """Bidding opened for ``round``; missing bids default to 0 at ``deadline`` (AU-TIME-01)."""

    round: int
    deadline: str


class AuctionBidSealed(Event, frozen=True, tag="auction_bid_sealed"):
    """A seat sealed (or amended) its bid for the current round (AU-BID-01).

    ``amount`` is hidden from every other seat and from spectators until the game ends (the round's
    final bids are made public by :class:`AuctionBidsRevealed`). ``by_default`` marks the 0 bid
    written for a seat that missed the deadline (AU-TIME-01).
    """

    seat_id: str
    amount: int | None
    """Hidden."""
    by_default: bool = False


class TieBreak(msgspec.Struct, frozen=True):
    """A tie for the highest bid, broken by the seeded draw ``ctx.rng(f"round/{n}").below(len(candidates))``."""

    candidates: list[str]
    """The tied seats, in seat order."""
    draw: int
    """Index into ``candidates`` of the seat that won the draw."""


class AuctionBidsRevealed(Event, frozen=True, tag="auction_bids_revealed"):
    """Every bid of ``round`` revealed at once; ``winner`` gains 1 point and pays ``price`` (AU-REVEAL-01)."""

    round: int
    bids: dict[str, int]
    winner: str
    price: int
    tie_break: TieBreak | None = None
    """The draw that broke a tie for the highest bid (AU-REVEAL-02), or None when there was none."""


class AuctionEnded(Event, frozen=True, tag="auction_ended"):
    """The last round was revealed; ``winner`` has the most points, then coins, then the lowest seat (AU-END-01)."""

    winner: str
    points: dict[str, int]
    coins: dict[str, int]


AuctionEvent = (
    AuctionCreated
    | AuctionSeatJoined
    | AuctionStarted
    | AuctionRoundBegan
    | AuctionBidSealed
    | AuctionBidsRevealed
    | AuctionEnded
)
