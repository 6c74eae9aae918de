"""The one place the auction's hidden information is filtered, per reader.

Hidden in this game: a sealed bid (AU-BID-01). Until its round is revealed only its bidder sees
it; every other seat and every spectator sees only *that* the seat has bid. The reveal
(:class:`~.events.AuctionBidsRevealed`) makes the round's final bids public. A sealed-bid event
stays redacted in the stream after the reveal (an amended bid is never shown to others) until the
game ends; then everything is public.

A *reader* is a seat id (the reader of a seat is the seat itself) or ``None`` (a spectator, or an
organizer who does not play). Every view and every streamed or exported event passes through
:func:`view_for` or :func:`redact_event`; nothing else reads hidden fields.
"""

from __future__ import annotations

import msgspec

from . import events as ev
from .state import AuctionSettings, AuctionState, RoundResult

Reader = str | None


def redact_event(event: ev.Event, reader: Reader, *, game_over: bool = False) -> ev.Event:
    """The event as ``reader`` may see it (the same object when nothing is hidden from it)."""
    if game_over:
        return event
    if isinstance(event, ev.AuctionBidSealed) and event.seat_id != reader and event.amount is not None:
        return msgspec.structs.replace(event, amount=None)
    return event


class SeatView(msgspec.Struct):
    seat_id: str
    name: str
    coins: int | None
    """None before the game starts."""
    points: int | None
    has_bid: bool
    """Whether the seat has sealed a bid in the current round (public)."""
    bid: int | None
    """The seat's sealed bid: shown to the seat itself only (and to everyone once the game is over)."""


class AuctionView(msgspec.Struct):
    game_id: str
    version: int
    phase: str
    round: int
    deadline: str | None
    step_version: int
    player_count: int
    settings: AuctionSettings
    seed_commitment: str
    seats: list[SeatView]
    results: list[RoundResult]
    """Every revealed round (public)."""
    winner: str | None
    you: str | None
    """The reader's seat id, or None for a spectator."""


def view_for(state: AuctionState, reader: Reader) -> AuctionView:
    """The state as ``reader`` may see it."""
    over = state.phase == "ended"
    started = bool(state.coins)
    return AuctionView(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        round=state.round,
        deadline=state.deadline,
        step_version=state.step_version,
        player_count=state.player_count,
        settings=state.settings,
        seed_commitment=state.seed_commitment,
        seats=[
            SeatView(
                seat_id=s.seat_id,
                name=s.name,
                coins=state.coins.get(s.seat_id) if started else None,
                points=state.points.get(s.seat_id) if started else None,
                has_bid=s.seat_id in state.sealed,
                bid=state.sealed.get(s.seat_id) if (over or s.seat_id == reader) else None,
            )
            for s in state.seats
        ],
        results=list(state.results),
        winner=state.winner,
        you=reader if reader is not None and state.has_seat(reader) else None,
    )
