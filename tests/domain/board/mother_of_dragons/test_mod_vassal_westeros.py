"""Mother of Dragons: vassals in the Westeros phase and the end of the game: bids at 0
(MOD-VASSAL-19), Dominance tokens (MOD-VASSAL-20/21), no wildling bids (MOD-VASSAL-22), mustering
only at home (MOD-VASSAL-25), neither winning nor losing (MOD-VASSAL-28).

Each test sets up a position on a 4-player game (baratheon, lannister, stark, martell; vassals
greyjoy, tyrell, arryn) and runs the rule on it.
"""

from __future__ import annotations

from domain.board import victory
from domain.board.emitter import Emitter
from domain.board.mustering import muster_areas
from domain.board.state import AreaState, BoardState
from domain.board.westeros import bidding, wildlings
from domain.board.westeros import events as wev
from domain.board.westeros.cards import holder
from tests.support.board_builders import Game, mod_game

FOUR = ["baratheon", "lannister", "stark", "martell"]


def commanded() -> Game:
    game = mod_game(FOUR)
    for _ in range(3):
        game.timeout()
    assert game.state is not None and game.state.step == "assign_orders"
    return game


def in_westeros(state: BoardState, game: Game) -> Emitter:
    em = Emitter(state, game.ctx)
    em.emit(wev.WesterosPhaseBegan(round=2))
    return em


def test_MOD_VASSAL_19_vassals_bid_zero_on_the_tracks() -> None:
    """MOD-VASSAL-19: vassals stay on the tracks and always bid 0: their bids are sealed at once and
    only the players are waited on."""
    game = commanded()
    assert game.state is not None
    em = in_westeros(game.state, game)
    bidding.begin_track(em, "iron_throne")
    began = next(e for e in em.events if isinstance(e, wev.BiddingBegan))
    assert {"greyjoy", "tyrell", "arryn"} <= set(began.houses)
    sealed = {e.house: e.amount for e in em.events if isinstance(e, wev.BidSubmitted)}
    assert sealed == {"greyjoy": 0, "tyrell": 0, "arryn": 0}
    assert sorted(bidding.houses_to_bid(em.state)) == sorted(FOUR)


def test_MOD_VASSAL_21_a_vassal_on_top_never_holds_the_dominance_token() -> None:
    """MOD-VASSAL-20/21: a vassal at the top of a track takes no Dominance token: the highest player
    house below it holds the Iron Throne, the Blade or the Raven (and breaks bid ties)."""
    game = commanded()
    s = game.state
    assert s is not None and s.tracks is not None
    s.tracks.iron_throne = ["greyjoy", "tyrell", "stark", "baratheon", "lannister", "martell", "arryn"]
    s.tracks.fiefdoms = ["arryn", "martell", "greyjoy", "stark", "tyrell", "baratheon", "lannister"]
    s.tracks.kings_court = ["tyrell", "lannister", "stark", "martell", "arryn", "baratheon", "greyjoy"]
    assert s.throne_holder() == "stark" and holder(s, "iron_throne") == "stark"
    assert s.blade_holder() == "martell" and holder(s, "fiefdoms") == "martell"
    assert s.raven_holder() == "lannister" and holder(s, "kings_court") == "lannister"


def test_MOD_VASSAL_22_vassals_do_not_bid_against_the_wildlings() -> None:
    """MOD-VASSAL-22: only the players bid against a wildling attack; a vassal is never the highest
    or lowest bidder."""
    game = commanded()
    assert game.state is not None
    em = in_westeros(game.state, game)
    wildlings.begin_attack(em, 6, wildlings.bidders(em.state), "BG-WCARD-09")
    began = next(e for e in em.events if isinstance(e, wev.WildlingAttackBegan))
    assert began.houses == ["baratheon", "lannister", "stark", "martell"]
    assert sorted(bidding.houses_to_bid(em.state)) == sorted(FOUR)


def test_MOD_VASSAL_25_a_vassal_musters_only_in_its_home_area() -> None:
    """MOD-VASSAL-25: a Westeros-card mustering gives a vassal its home area only, and nothing once it
    no longer controls it; a player musters in every castle it controls."""
    game = commanded()
    s = game.state
    assert s is not None
    s.areas["seagard"] = AreaState(house="greyjoy", units={"footman": 1})  # a castle greyjoy holds
    assert muster_areas(s, "greyjoy") == ["pyke"]
    s.areas["pyke"] = AreaState(house="stark", units={"footman": 1}, garrison=0)
    assert muster_areas(s, "greyjoy") == []
    assert "pyke" in muster_areas(s, "stark")


def test_MOD_VASSAL_28_a_vassal_neither_wins_nor_loses() -> None:
    """MOD-VASSAL-28: seven castles held by a vassal do not end the game; the final standings rank
    the players only."""
    game = commanded()
    s = game.state
    assert s is not None
    castles = ["highgarden", "oldtown", "the_reach", "sunspear", "starfall", "yronwood", "seagard"]
    for area in castles:
        s.areas[area] = AreaState(house="tyrell", units={"footman": 1}, garrison=s.areas[area].garrison)
    assert not victory.seven_castles(s)
    s.vassals.remove("tyrell")
    assert victory.seven_castles(s)  # the same board with tyrell a player would end the game
    s.vassals.append("tyrell")
    assert [st.house for st in victory.standings(s)] != [] and all(st.house in FOUR for st in victory.standings(s))
