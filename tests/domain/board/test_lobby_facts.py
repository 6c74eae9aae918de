"""What the lobby and the turns stream read of a board game through the ``Game`` protocol:
``lobby(state)`` (status, seats, private) and ``awaiting(state)`` (the seats a decision waits on)."""

from __future__ import annotations

from domain.board.game import GAME
from domain.board.state import Settings
from domain.core.game import LobbyInfo
from tests.support.board_builders import created_game, lobby_game, simple_orders, started_game


def test_lobby_facts_follow_the_game_from_creation_to_the_start():
    assert GAME.lobby(created_game(4).state) == LobbyInfo(status="open", seats_taken=0, seats_total=4)
    assert GAME.lobby(lobby_game(4, seats=2).state) == LobbyInfo(status="open", seats_taken=2, seats_total=4)
    assert GAME.lobby(lobby_game(4).state).seats_taken == 4
    started = GAME.lobby(started_game(4).state)
    assert started.status == "running" and started.seats_taken == started.seats_total == 4


def test_a_private_game_says_so():
    assert GAME.lobby(created_game(3, settings=Settings(private=True)).state).private
    assert not GAME.lobby(created_game(3).state).private


def test_every_seat_is_awaited_for_its_orders_until_it_submits_them():
    """BG-PLAN-03: every house places its orders at once, in secret; a seat whose sealed orders are
    in (still amendable) is no longer waited on."""
    game = started_game(3)
    assert sorted(GAME.awaiting(game.state)) == ["seat1", "seat2", "seat3"]
    first = game.state.turn_order()[0]
    game.submit(first, simple_orders(game.state, first))
    assert game.seat_id_of(first) not in GAME.awaiting(game.state)
    assert len(GAME.awaiting(game.state)) == 2
    assert GAME.awaiting(created_game(3).state) == [], "nobody decides before the start"
