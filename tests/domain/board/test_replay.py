"""Replay determinism: the state is a pure fold of the events (event sourcing; BG-SETUP-02/03/04
outcomes are read from events, never re-rolled)."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import fold
from tests.support.board_builders import ORDERS_4P, Game, revealed_game, simple_orders, started_game

EVENT_LIST = msgspec.json.Decoder(list[ev.BoardEvent])


def encode_state(state) -> bytes:
    return msgspec.json.encode(state)


def full_planning(player_count: int, ending: str) -> Game:
    game = revealed_game(player_count, overrides=ORDERS_4P if player_count == 4 else None)
    holder = game.actor("lannister")
    if ending == "peek_bottom":
        game.run(cmd.RavenPeekWildling(), holder)
        game.run(cmd.RavenPlaceWildling(to_bottom=True), holder)
    elif ending == "replace":
        area = sorted(a for a, o in game.state.orders.items() if o.house == "lannister")[0]
        game.run(cmd.RavenReplaceOrder(area=area, new_order="raid_special"), holder)
    elif ending == "timeout":
        game.timeout()
    return game


GAMES = [(3, "peek_bottom"), (4, "replace"), (5, "timeout"), (6, "peek_bottom")]


@pytest.mark.parametrize("player_count, ending", GAMES)
def test_BG_SETUP_02_04_folding_twice_gives_identical_bytes(player_count, ending):
    game = full_planning(player_count, ending)
    first = encode_state(fold(game.events))
    second = encode_state(fold(game.events))
    assert first == second
    # ... and the same as the state built step by step while the commands were decided.
    assert encode_state(game.state) == first
    assert fold(game.events).version == len(game.events)


@pytest.mark.parametrize("player_count, ending", GAMES)
def test_BG_SETUP_02_04_events_roundtrip_through_json(player_count, ending):
    game = full_planning(player_count, ending)
    wire = msgspec.json.encode(game.events)
    decoded = EVENT_LIST.decode(wire)
    assert decoded == game.events
    assert [type(e) for e in decoded] == [type(e) for e in game.events]
    assert msgspec.json.encode(decoded) == wire
    assert encode_state(fold(decoded)) == encode_state(fold(game.events))


def test_BG_PLAN_07_each_event_roundtrips_alone_with_its_tag():
    game = full_planning(4, "peek_bottom")
    tags = set()
    for e in game.events:
        raw = msgspec.json.encode(e)
        tags.add(msgspec.json.decode(raw)["type"])
        assert msgspec.json.decode(raw, type=ev.BoardEvent) == e
    assert {
        "game_created",
        "seat_joined",
        "game_started",
        "step_began",
        "orders_submitted",
        "orders_revealed",
        "raven_wildling_peeked",
        "raven_wildling_placed",
    } <= tags


def test_BG_PLAN_07_folding_does_not_mutate_the_events():
    """Evolve copies what it keeps: replaying after a fold that moved the wildling card to the
    bottom must start from the original deck again."""
    game = full_planning(4, "peek_bottom")
    before = msgspec.json.encode(game.events)
    fold(game.events)
    fold(game.events)
    assert msgspec.json.encode(game.events) == before


def test_BG_PLAN_06_prefix_folds_match_the_intermediate_states():
    """Folding any prefix of the log gives the state the game had at that version."""
    game = started_game(3)
    snapshots = {len(game.events): encode_state(game.state)}
    for house in game.state.turn_order():
        game.submit(house, simple_orders(game.state, house))
        snapshots[len(game.events)] = encode_state(game.state)
    game.reveal()
    snapshots[len(game.events)] = encode_state(game.state)
    for n, snapshot in snapshots.items():
        assert encode_state(fold(game.events[:n])) == snapshot, n


def test_BG_SETUP_02_03_04_same_commands_same_seed_same_log():
    a = full_planning(5, "peek_bottom")
    b = full_planning(5, "peek_bottom")
    assert msgspec.json.encode(a.events) == msgspec.json.encode(b.events)
