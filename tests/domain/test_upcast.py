"""Stored events tolerate what this code does not know (domain/core/upcast.py): a newer writer's
extra fields are dropped on read, at the top of an event and inside nested structs, instead of
failing the whole stream during a rolling deploy; an older schema goes through the game's upcasters."""

from __future__ import annotations

import msgspec
import pytest

from domain import registry
from domain.board import events as ev
from domain.core.upcast import EventCodec, UpcastError


def test_unknown_fields_of_a_newer_writer_are_dropped_not_fatal():
    codec = registry.codec("board")
    raw = b'{"type":"seat_joined","seat_id":"seat1","name":"Ada","avatar":"x.png"}'
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(raw, type=ev.BoardEvent)  # the strict types alone refuse it
    assert codec.decode(raw, ev.SCHEMA_VERSION) == ev.SeatJoined(seat_id="seat1", name="Ada")


def test_unknown_fields_inside_nested_structs_are_dropped_too():
    codec = registry.codec("board")
    raw = (
        b'{"type":"game_created","game_id":"g","player_count":3,"seed_commitment":"c",'
        b'"settings":{"decision_timeout_s":5,"new_option":true},"source":"v9"}'
    )
    created = codec.decode(raw, ev.SCHEMA_VERSION)
    assert isinstance(created, ev.GameCreated)
    assert created.settings.decision_timeout_s == 5


def test_a_wrong_type_is_still_an_error():
    codec = registry.codec("board")
    with pytest.raises(msgspec.ValidationError):
        codec.decode(b'{"type":"seat_joined","seat_id":1,"name":"Ada"}', ev.SCHEMA_VERSION)


def test_an_older_schema_goes_through_the_upcasters_and_a_missing_step_is_reported():
    codec = EventCodec(ev.BoardEvent, 3, {1: lambda e: {**e, "name": e.pop("nick")}})
    old = b'{"type":"seat_joined","seat_id":"seat1","nick":"Ada"}'
    with pytest.raises(UpcastError):
        codec.decode(old, 1)  # no upcaster from schema 2 to 3
    codec.upcasters[2] = lambda e: e
    assert codec.decode(old, 1) == ev.SeatJoined(seat_id="seat1", name="Ada")


def test_the_auction_games_schema_1_events_read_as_schema_2():
    """The test game's real schema history (domain/auction/upcasters.py): ``value`` became ``amount``."""
    codec = registry.codec("auction")
    event = codec.decode(b'{"type":"auction_bid_sealed","seat_id":"seat1","value":7,"by_default":false}', 1)
    assert event.amount == 7
