"""The game log: one human sentence per public event (describe the *redacted* event)."""

from __future__ import annotations

from . import events as ev


def describe(event: ev.Event) -> str | None:
    """A sentence for the public log, or None if the event is not worth a line."""
    match event:
        case ev.AuctionCreated():
            return (
                f"A {event.player_count}-seat auction of {event.settings.rounds} rounds was created "
                f"(seed commitment {event.seed_commitment[:12]}...)."
            )
        case ev.AuctionSeatJoined():
            return f"{event.name} took {event.seat_id}."
        case ev.AuctionStarted():
            return f"The auction started: every seat has {event.starting_coins} coins."
        case ev.AuctionRoundBegan():
            return f"Round {event.round}: bids are open until {event.deadline}."
        case ev.AuctionBidSealed():
            if event.by_default:  # the documented default is public; the amount is not needed
                return f"{event.seat_id} missed the deadline: its bid is 0 by default."
            amount = f" of {event.amount}" if event.amount is not None else ""
            return f"{event.seat_id} sealed a bid{amount}."
        case ev.AuctionBidsRevealed():
            bids = ", ".join(f"{s} {a}" for s, a in event.bids.items())
            tie = ""
            if event.tie_break is not None:
                tie = f" after a draw among {', '.join(event.tie_break.candidates)}"
            return f"Round {event.round} revealed ({bids}): {event.winner} wins the point{tie} and pays {event.price}."
        case ev.AuctionEnded():
            return f"The auction is over: {event.winner} wins with {event.points[event.winner]} points."
    return None
