"""The auction's player command and create body (the engine's own commands are in
:mod:`domain.core.commands`: JoinGame, StartGame, ResolvePending, ApplyTimeout)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .state import AuctionSettings


class PlaceBid(msgspec.Struct, frozen=True, tag_field="type", tag="place_bid", forbid_unknown_fields=True):
    """Seal (or amend) your bid for the current round: 0 up to your coins (AU-BID-01).

    ``{"type": "place_bid", "amount": 3}``. You may send it again to amend your bid until every
    seat has bid; then the bids are revealed at once.
    """

    amount: Annotated[int, msgspec.Meta(ge=0, le=1000)]


AuctionCommand = PlaceBid
"""The union of the auction's player commands (it has only one)."""


class AuctionCreateBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/games`` for an auction: ``kind`` is required (the board game is the default kind)."""

    kind: Literal["auction"]
    player_count: Annotated[int, msgspec.Meta(ge=2, le=4)]
    """2 to 4 seats (AU-SETUP-01)."""
    settings: AuctionSettings = msgspec.field(default_factory=AuctionSettings)
