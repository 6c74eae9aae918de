"""Applying events to the state: ``evolve(state, event)`` and ``fold(events, state)``.

No rules live here, only bookkeeping: every event is a fact that :mod:`.rules` already decided, so
``evolve`` never refuses one from a valid stream. ``fold`` counts the events in ``state.version``
(once per event, like :func:`domain.board.decider.fold`).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .state import AuctionState, RoundResult, Seat


def evolve(state: AuctionState | None, event: ev.Event) -> AuctionState:
    """Apply one event. Mutates and returns ``state`` (a fresh one for ``AuctionCreated``)."""
    if isinstance(event, ev.AuctionCreated):
        return AuctionState(
            game_id=event.game_id,
            version=0,
            player_count=event.player_count,
            settings=event.settings,
            seed_commitment=event.seed_commitment,
        )
    assert state is not None, "an auction stream starts with AuctionCreated"
    match event:
        case ev.AuctionSeatJoined():
            state.seats.append(Seat(seat_id=event.seat_id, name=event.name))
        case ev.AuctionStarted():
            state.coins = {s: event.starting_coins for s in event.seats}
            state.points = {s: 0 for s in event.seats}
        case ev.AuctionRoundBegan():
            state.phase = "bidding"
            state.round = event.round
            state.deadline = event.deadline
            state.sealed = {}
            state.step_version = state.version + 1  # this event's own version (fold counts it next)
        case ev.AuctionBidSealed():
            state.sealed[event.seat_id] = event.amount if event.amount is not None else 0
        case ev.AuctionBidsRevealed():
            state.points[event.winner] += 1
            state.coins[event.winner] -= event.price
            state.results.append(
                RoundResult(round=event.round, bids=dict(event.bids), winner=event.winner, price=event.price)
            )
            state.sealed = {}
            state.deadline = None
        case ev.AuctionEnded():
            state.phase = "ended"
            state.winner = event.winner
            state.deadline = None
        case _:
            raise ValueError(f"unhandled event {event!r}")
    return state


def fold(events: Iterable[ev.Event], state: AuctionState | None = None) -> AuctionState | None:
    """The state after ``events`` (``version`` is the count of events applied)."""
    for e in events:
        state = evolve(state, e)
        state.version += 1
    return state
