"""Sealed bids are hidden from every other seat and from spectators until the reveal; after the
end of the game everything is public (domain/auction/redaction.py)."""

from __future__ import annotations

import msgspec

from domain.auction.game import GAME

from .table import Table, ev, of_type


def test_view_shows_a_sealed_bid_to_its_bidder_only():
    t = Table(3).start()
    t.bid(1, 7)
    for reader in ("seat2", "seat3", None):
        view = GAME.view(t.state, reader)
        s1 = view.seats[0]
        assert s1.has_bid and s1.bid is None
        assert b"7" not in msgspec.json.encode([s.bid for s in view.seats])
    own = GAME.view(t.state, "seat1")
    assert own.seats[0].bid == 7 and own.you == "seat1"


def test_bid_events_are_redacted_for_others_until_the_game_is_over():
    t = Table(2, rounds=1).start()
    [sealed] = t.bid(1, 7)
    assert GAME.redact_event(sealed, "seat1") is sealed
    for reader in ("seat2", None):
        hidden = GAME.redact_event(sealed, reader)
        assert hidden.amount is None and hidden.seat_id == "seat1"
        assert GAME.describe(hidden) == "seat1 sealed a bid."
    t.bid(1, 3)  # amended: the 7 never becomes public while the game runs
    t.bid(2, 2)
    revealed = of_type(t.resolve(), ev.AuctionBidsRevealed)[0]
    assert GAME.redact_event(revealed, None) is revealed and revealed.bids == {"seat1": 3, "seat2": 2}
    assert GAME.is_over(t.state)
    assert GAME.redact_event(sealed, None, game_over=True).amount == 7


def test_every_event_redacted_for_a_spectator_hides_every_bid_before_the_reveal():
    t = Table(3).start()
    t.bid(1, 9)
    t.bid(2, 8)
    public = [GAME.redact_event(e, None) for e in t.events]
    assert all(e.amount is None for e in of_type(public, ev.AuctionBidSealed))
    assert all(GAME.describe(e) for e in public)


def test_everything_is_public_after_the_end():
    t = Table(2, rounds=1).start()
    t.bid(1, 4)
    t.bid(2, 1)
    t.resolve()
    view = GAME.view(t.state, None)
    assert view.phase == "ended" and view.winner == "seat1"
    assert view.results[0].bids == {"seat1": 4, "seat2": 1}
    assert [GAME.redact_event(e, None, game_over=True) for e in t.events] == t.events
