"""Mother of Dragons: vassals in the Westeros phase and the end of the game: bids at 0
(MOD-VASSAL-19), Dominance tokens (MOD-VASSAL-20/21), no wildling bids (MOD-VASSAL-22), supply
(MOD-VASSAL-23/24), mustering only at home (MOD-VASSAL-25), neither winning nor losing
(MOD-VASSAL-28), the vassal cards' values (MOD-VASSAL-29).

Each test sets up a position on a 4-player game (baratheon, lannister, stark, martell; vassals
greyjoy, tyrell, arryn) and runs the rule on it.
"""

from __future__ import annotations

from domain.board import victory
from domain.board.action.commands import UnitCounts
from domain.board.action.house_cards import all_cards
from domain.board.decider import acting_house
from domain.board.decisions import pending_decisions
from domain.board.emitter import Emitter
from domain.board.mother_of_dragons import vassal_deck
from domain.board.mustering import muster_areas
from domain.board.state import AreaState, BoardState
from domain.board.supply import supply_ok
from domain.board.westeros import bidding, reconcile, wildlings
from domain.board.westeros import commands as wcmd
from domain.board.westeros import events as wev
from domain.board.westeros.cards import holder
from domain.board.westeros.decisions import ReconcileOptions
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


def test_MOD_VASSAL_23_24_a_vassal_over_its_supply_reconciles_by_its_commander() -> None:
    """MOD-VASSAL-23: a Supply card adjusts a vassal's Supply from its barrels (greyjoy: 4 at the
    setup, 2 now); over its limit, its commander chooses the units to destroy (MOD-VASSAL-24: a
    vassal's choice is its commander's)."""
    game = commanded()
    s = game.state
    assert s is not None and s.commanders["greyjoy"] == "baratheon"
    s.areas["greywater_watch"] = AreaState(house="greyjoy", units={"footman": 2})  # a 4th army of 2
    em = in_westeros(s, game)
    reconcile.adjust_all(em, "BG-WCARD-01")
    adjusted = next(e for e in em.events if isinstance(e, wev.SupplyAdjusted))
    assert adjusted.supply["greyjoy"] == 2 and em.state.houses["greyjoy"].supply == 2
    mine = [d for d in pending_decisions(em.state) if d.house == "greyjoy"]
    assert len(mine) == 1 and mine[0].for_vassal == "greyjoy" and mine[0].seat_id == game.seat_id_of("baratheon")
    assert isinstance(mine[0].options, ReconcileOptions)
    losses = wcmd.ReconcileArmies(units={"greywater_watch": UnitCounts(footman=1)}, for_vassal="greyjoy")
    assert acting_house(em.state, game.actor("baratheon"), losses) == "greyjoy"
    reconcile.reconcile(em, "greyjoy", {"greywater_watch": {"footman": 1}})
    assert em.state.areas["greywater_watch"].units == {"footman": 1}
    assert supply_ok(em.state, "greyjoy")


def test_MOD_VASSAL_29_the_vassal_cards_strengths_and_icons() -> None:
    """MOD-VASSAL-29: the seven vassal House cards' printed strength and icons count in combat (their
    texts are not built yet, docs/mother-of-dragons.md)."""
    cards = all_cards()
    printed = {c: (cards[c].strength, cards[c].swords, cards[c].fortifications) for c in vassal_deck()}
    assert printed == {
        "varys": (0, 0, 0),
        "syrio_forel": (1, 0, 0),
        "jaqen_h_ghar": (1, 0, 0),
        "janos_slynt": (2, 2, 1),
        "jon_connington": (2, 0, 0),
        "beric_dondarrion": (3, 0, 0),
        "bronn": (4, 0, 0),
    }
