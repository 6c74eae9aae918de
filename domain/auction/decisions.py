"""Pending decisions: who must bid now, up to how much, by when, and what happens if not.

A client never has to guess: ``GET /v1/games/{id}/decisions`` returns :class:`AuctionDecisionsOut`
for the caller. While a round is open every seat that has not bid is waited for; a seat that has
bid still gets its decision (it may amend) until every bid is in.
"""

from __future__ import annotations

import msgspec

from .rules import DEFAULT_TEXT
from .state import AuctionState


class BidDecision(msgspec.Struct):
    """Send ``{"type": "place_bid", "amount": n}`` with ``0 <= n <= max_amount``."""

    seat_id: str
    kind: str
    """Always ``"place_bid"``."""
    commands: list[str]
    """Command ``type`` values that answer this decision."""
    round: int
    max_amount: int
    """Your coins: the most you may bid."""
    submitted: int | None
    """Your sealed bid so far (amendable until every seat has bid), or None."""
    deadline: str | None
    default: str
    """What happens at the deadline if you have not bid."""


class AuctionDecisionsOut(msgspec.Struct):
    game_id: str
    version: int
    phase: str
    step: str
    """``lobby``, ``place_bids`` (a round is open), ``reveal`` (every bid is in) or ``ended``."""
    decisions: list[BidDecision]
    """What you must decide now (empty if nothing)."""
    waiting_for: list[str]
    """The seat ids that still have to bid."""


def step_of(state: AuctionState) -> str:
    if state.phase != "bidding":
        return state.phase
    return "place_bids" if state.missing_bids() else "reveal"


def decisions_for(state: AuctionState, seat_id: str | None) -> AuctionDecisionsOut:
    """The decisions of ``seat_id`` (None: a spectator, who has none) and whom the game waits for."""
    waiting = state.missing_bids()
    decisions = []
    if waiting and seat_id is not None and state.has_seat(seat_id):
        decisions.append(
            BidDecision(
                seat_id=seat_id,
                kind="place_bid",
                commands=["place_bid"],
                round=state.round,
                max_amount=state.coins.get(seat_id, 0),
                submitted=state.sealed.get(seat_id),
                deadline=state.deadline,
                default=DEFAULT_TEXT,
            )
        )
    return AuctionDecisionsOut(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        step=step_of(state),
        decisions=decisions,
        waiting_for=waiting,
    )
