"""Whole games, and replay determinism: the state is a pure fold of the events."""

from __future__ import annotations

import msgspec
import pytest

from domain.auction.game import GAME
from domain.core.upcast import EventCodec

from .table import Table, ev

EVENTS = msgspec.json.Decoder(list[GAME.event_type])


def whole_game(player_count: int, rounds: int) -> Table:
    t = Table(player_count, rounds=rounds).start()
    for r in range(rounds):
        if r == 1:
            t.bid(1, 1)
            t.timeout()
            continue
        amounts = [(r + i) % 4 for i in range(player_count)]
        amounts[-1] = amounts[0]  # a tie now and then
        t.play_round(*amounts)
    return t


@pytest.mark.parametrize("player_count, rounds", [(2, 1), (2, 3), (3, 5), (4, 2)])
def test_a_whole_game_plays_to_the_end(player_count, rounds):
    t = whole_game(player_count, rounds)
    assert GAME.is_over(t.state) and t.state.version == len(t.events)
    assert len(t.state.results) == rounds
    assert sum(t.state.points.values()) == rounds
    assert all(isinstance(t.events[i], ev.AuctionSeatJoined) for i in range(1, player_count + 1))
    assert isinstance(t.events[-1], ev.AuctionEnded)


@pytest.mark.parametrize("player_count, rounds", [(2, 3), (3, 5), (4, 2)])
def test_folding_the_same_events_twice_gives_identical_bytes(player_count, rounds):
    t = whole_game(player_count, rounds)
    once = msgspec.msgpack.encode(GAME.fold(list(t.events)))
    again = msgspec.msgpack.encode(GAME.fold(list(t.events)))
    assert once == again == msgspec.msgpack.encode(t.state)
    stored = EVENTS.decode(msgspec.json.encode(t.events))
    assert msgspec.msgpack.encode(GAME.fold(stored)) == once


def test_the_state_survives_a_snapshot_and_the_stream_names_its_kind():
    t = whole_game(3, 2)
    snapshot = msgspec.msgpack.encode(t.state)
    assert msgspec.msgpack.decode(snapshot, type=GAME.state_type) == t.state
    assert t.events[0].__struct_config__.tag == GAME.creation_event == "auction_created"


def test_playing_the_same_game_twice_gives_the_same_events():
    assert msgspec.json.encode(whole_game(4, 3).events) == msgspec.json.encode(whole_game(4, 3).events)


def test_event_tags_are_the_auctions_own():
    tags = {t.__struct_config__.tag for t in GAME.event_type.__args__}
    assert all(isinstance(tag, str) and tag.startswith("auction_") for tag in tags)


def test_the_upcaster_reads_a_schema_1_sealed_bid():
    codec = EventCodec(GAME.event_type, GAME.schema_version, GAME.upcasters)
    raw = b'{"type": "auction_bid_sealed", "seat_id": "seat2", "value": 4, "by_default": false}'
    assert codec.decode(raw, 1) == ev.AuctionBidSealed(seat_id="seat2", amount=4)
    hidden = b'{"type": "auction_bid_sealed", "seat_id": "seat2", "value": null}'
    assert codec.decode(hidden, 1) == ev.AuctionBidSealed(seat_id="seat2", amount=None)
    other = b'{"type": "auction_round_began", "round": 2, "deadline": "2026-01-01T12:10:00.000Z"}'
    assert codec.decode(other, 1) == ev.AuctionRoundBegan(round=2, deadline="2026-01-01T12:10:00.000Z")
    current = msgspec.json.encode(ev.AuctionBidSealed(seat_id="seat1", amount=3))
    assert codec.decode(current, GAME.schema_version) == ev.AuctionBidSealed(seat_id="seat1", amount=3)
