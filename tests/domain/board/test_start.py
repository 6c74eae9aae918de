"""Joining and starting a game: BG-SETUP-02 (houses dealt to seats), BG-SETUP-03/04 (decks
shuffled), BG-SETUP-05 and BG-ROUND-02 (round 1 opens on Planning), and the lobby's guards."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import decide
from domain.core.errors import Forbidden, RuleViolation, WrongPhase
from tests.support.board_builders import ORGANIZER, SYSTEM, lobby_game, make_ctx, started_game

# BG-COMP-07 + reference/board/cards.yaml: Westeros decks I-III (10 cards each) and 9 wildling cards.
DECK_I = {"a_throne_of_blades": 2, "last_days_of_summer": 1, "mustering": 3, "supply": 3, "winter_is_coming": 1}
DECK_II = {
    "clash_of_kings": 3,
    "dark_wings_dark_words": 2,
    "game_of_thrones": 3,
    "last_days_of_summer": 1,
    "winter_is_coming": 1,
}
DECK_III = {
    "feast_for_crows": 1,
    "put_to_the_sword": 2,
    "rains_of_autumn": 1,
    "sea_of_storms": 1,
    "storm_of_swords": 1,
    "web_of_lies": 1,
    "wildlings_attack": 3,
}
WILDLING_CARDS = [
    "silence_at_the_wall",
    "preemptive_raid",
    "crow_killers",
    "rattleshirts_raiders",
    "massing_on_the_milkwater",
    "a_king_beyond_the_wall",
    "mammoth_riders",
    "the_horde_descends",
    "skinchanger_scout",
]


def start_events(player_count: int, seed: str) -> list[ev.Event]:
    game = lobby_game(player_count, seed=seed)
    return decide(game.state, cmd.StartGame(), ORGANIZER, make_ctx(seed=seed))


def deal(player_count: int, seed: str) -> dict[str, str]:
    started = start_events(player_count, seed)[0]
    assert isinstance(started, ev.GameStarted)
    return started.houses


# --- lobby -----------------------------------------------------------------------------------


def test_BG_SETUP_01_join_assigns_seats_in_order():
    game = lobby_game(4)
    assert [s.seat_id for s in game.state.seats] == ["seat1", "seat2", "seat3", "seat4"]
    assert [s.name for s in game.state.seats] == ["player1", "player2", "player3", "player4"]
    assert all(s.house is None for s in game.state.seats)


@pytest.mark.parametrize("player_count", [3, 6])
def test_BG_SETUP_01_joining_a_full_game_is_rejected(player_count):
    game = lobby_game(player_count)
    with pytest.raises(RuleViolation) as err:
        decide(game.state, cmd.JoinGame(name="late"), cmd.Actor(kind="seat"), game.ctx)
    assert err.value.code == "game_full"


def test_BG_SETUP_01_joining_a_started_game_is_rejected():
    game = started_game(3)
    with pytest.raises(WrongPhase) as err:
        decide(game.state, cmd.JoinGame(name="late"), cmd.Actor(kind="seat"), game.ctx)
    assert err.value.code == "game_started"


@pytest.mark.parametrize("actor", [cmd.Actor(kind="seat", seat_id="seat1"), SYSTEM])
def test_BG_SETUP_02_only_the_organizer_may_start(actor):
    game = lobby_game(3)
    with pytest.raises(Forbidden) as err:
        decide(game.state, cmd.StartGame(), actor, game.ctx)
    assert err.value.code == "forbidden"
    # ... and the organizer may.
    assert decide(game.state, cmd.StartGame(), ORGANIZER, game.ctx)


@pytest.mark.parametrize("seats", [0, 1, 3])
def test_BG_SETUP_01_02_starting_with_missing_seats_is_rejected(seats):
    game = lobby_game(4, seats=seats)
    with pytest.raises(RuleViolation) as err:
        decide(game.state, cmd.StartGame(), ORGANIZER, game.ctx)
    assert err.value.code == "seats_missing"


def test_BG_SETUP_02_starting_twice_is_rejected():
    game = started_game(3)
    with pytest.raises(WrongPhase) as err:
        decide(game.state, cmd.StartGame(), ORGANIZER, game.ctx)
    assert err.value.code == "game_started"


def test_BG_PLAN_01_orders_before_start_are_rejected():
    game = lobby_game(3)
    with pytest.raises(RuleViolation) as err:
        decide(game.state, cmd.AssignOrders(orders={}), cmd.Actor(kind="seat", seat_id="seat1"), game.ctx)
    assert err.value.code == "not_started"


# --- BG-SETUP-02: houses dealt to seats -----------------------------------------------------------


@pytest.mark.parametrize("player_count", [3, 4, 5, 6])
def test_BG_SETUP_02_every_seat_gets_a_distinct_house_in_play(player_count):
    game = started_game(player_count)
    houses = [s.house for s in game.state.seats]
    assert sorted(houses) == sorted(game.state.houses_in_play)
    started = next(e for e in game.events if isinstance(e, ev.GameStarted))
    assert started.houses == {s.seat_id: s.house for s in game.state.seats}


def test_BG_SETUP_02_same_seed_same_deal():
    for seed in ("alpha", "beta", "gamma"):
        assert start_events(6, seed) == start_events(6, seed)


def test_BG_SETUP_02_deal_depends_on_the_seed():
    deals = {tuple(sorted(deal(6, f"seed-{i}").items())) for i in range(20)}
    assert len(deals) > 1
    # Not always the printed order of houses in play either.
    game = lobby_game(6)
    in_order = tuple(zip([s.seat_id for s in game.state.seats], game.state.houses_in_play))
    assert any(d != in_order for d in deals)


def test_BG_SETUP_02_deal_depends_on_the_game_id():
    """The RNG stream is keyed by (seed, game id): the same seed in another game deals differently
    at least sometimes."""
    deals = set()
    for i in range(20):
        game = lobby_game(6, game_id=f"g{i}")
        started = decide(game.state, cmd.StartGame(), ORGANIZER, make_ctx(game_id=f"g{i}"))[0]
        deals.add(tuple(sorted(started.houses.items())))
    assert len(deals) > 1


# --- BG-SETUP-03/04: decks ------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", [3, 6])
def test_BG_SETUP_03_04_decks_are_permutations_of_the_card_lists(player_count):
    game = started_game(player_count)
    state = game.state
    assert len(state.wildling_deck) == 9
    assert sorted(state.wildling_deck) == sorted(WILDLING_CARDS)
    assert set(state.westeros_decks) == {"deck_i", "deck_ii", "deck_iii"}
    for deck, expected in (("deck_i", DECK_I), ("deck_ii", DECK_II), ("deck_iii", DECK_III)):
        assert len(state.westeros_decks[deck]) == 10, deck
        assert Counter(state.westeros_decks[deck]) == Counter(expected), deck


def test_BG_SETUP_03_04_decks_are_shuffled_and_deterministic():
    wild, decks = set(), {"deck_i": set(), "deck_ii": set(), "deck_iii": set()}
    for i in range(10):
        started = start_events(3, f"seed-{i}")[0]
        again = start_events(3, f"seed-{i}")[0]
        assert started.wildling_deck == again.wildling_deck
        assert started.westeros_decks == again.westeros_decks
        wild.add(tuple(started.wildling_deck))
        for d, cards in started.westeros_decks.items():
            decks[d].add(tuple(cards))
    assert len(wild) > 1
    assert all(len(orders) > 1 for orders in decks.values())


def test_BG_SETUP_03_wildling_threat_starts_at_2():
    assert started_game(4).state.wildling_threat == 2


def test_BG_SETUP_05_BG_ROUND_02_round_1_opens_on_planning():
    """No Westeros phase in round 1: start goes straight to Assign Orders with a deadline."""
    game = started_game(5)
    assert [type(e) for e in game.events[-2:]] == [ev.GameStarted, ev.StepBegan]
    s = game.state
    assert (s.phase, s.step, s.round) == ("planning", "assign_orders", 1)
    assert s.deadline == "2025-01-01T12:10:00.000Z"  # NOW + default 600 s
    assert s.planning.sequential is False
    assert s.orders == {} and s.planning.sealed == {}
