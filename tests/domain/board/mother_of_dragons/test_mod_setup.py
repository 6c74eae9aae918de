"""Mother of Dragons setup without Targaryen (rule digest ``mother-of-dragons.md`` §1-§2, MOD-SETUP-*).

Expected values are written out from the digest and ``reference/board/{setup.yaml,map_essos.yaml}``,
not read from the domain's data files, so a wrong data file fails these tests. A position is set up
by choosing the players' houses in turn (the choice itself is tested in
``test_mod_house_choice.py``).
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board.adjacency import adjacent, kind
from domain.board.board_data import areas_for
from domain.board.decider import create
from domain.board.mother_of_dragons import reorder_for_vassals
from domain.board.mustering import muster_points
from domain.board.state import BoardState, Settings
from domain.core.errors import RuleViolation
from tests.support.board_builders import ORGANIZER, created_game, make_ctx

MOD = Settings(expansion="mother_of_dragons")
SEVEN = {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn"}
FIXED = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "arryn", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "tyrell", "arryn", "baratheon", "greyjoy"],
}


def mod_game(players: list[str]) -> BoardState:
    """A Mother of Dragons game whose seats chose ``players``, in their choosing order (MOD-SETUP-01)."""
    game = created_game(len(players), settings=MOD)
    for i in range(len(players)):
        game.run(cmd.JoinGame(name=f"player{i + 1}"), cmd.Actor(kind="seat"))
    game.run(cmd.StartGame(), ORGANIZER)
    assert game.state is not None
    for seat_id, house in zip(list(game.state.house_choice_order), players):
        game.run(cmd.ChooseHouse(house=house), cmd.Actor(kind="seat", seat_id=seat_id))
    return game.state


def units(state: BoardState, house: str) -> dict[str, dict[str, int]]:
    return {a: dict(x.units) for a, x in state.areas.items() if x.house == house and x.units}


# --- MOD-SETUP-01 / MOD-VASSAL-01: player counts, houses, vassals ---------------------------------


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7])
def test_MOD_SETUP_01_three_to_seven_players_are_accepted(count: int) -> None:
    """MOD-SETUP-01: without Targaryen, 3 to 7 players; every one of the seven houses is in play."""
    game = created_game(count, settings=MOD)
    assert game.state is not None
    assert set(game.state.houses_in_play) == SEVEN


@pytest.mark.parametrize("count", [2, 8])
def test_MOD_SETUP_01_other_counts_are_refused(count: int) -> None:
    """MOD-SETUP-01: 8 players need Targaryen (part 2); fewer than 3 is no game."""
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=count, settings=MOD), make_ctx())
    assert err.value.code == "invalid_player_count"


def test_MOD_SETUP_01_and_MOD_VASSAL_01_every_unchosen_house_is_a_vassal() -> None:
    """MOD-SETUP-01 / MOD-VASSAL-01: each house no player chose is a vassal; Targaryen is not in it."""
    state = mod_game(["stark", "arryn", "greyjoy"])
    assert sorted(state.vassals) == ["baratheon", "lannister", "martell", "tyrell"]
    assert "targaryen" not in state.houses_in_play


def test_base_game_has_no_vassals_and_the_base_map() -> None:
    """Without the expansion nothing changes: no vassal, the Eyrie a neutral castle, no Vale."""
    game = created_game(4)
    assert game.state is not None
    assert game.state.vassals == []
    assert "the_vale_of_arryn" not in game.state.areas
    assert game.state.areas["the_eyrie"].neutral == 6


# --- MOD-SETUP-02 / MOD-DATA-01: House Arryn -------------------------------------------------------


def test_MOD_SETUP_02_and_MOD_DATA_01_arryn_takes_its_seven_house_cards() -> None:
    """MOD-SETUP-02 / MOD-DATA-01: a player takes 7 House cards; Arryn's are the MoD set."""
    state = mod_game(["arryn", "stark", "lannister"])
    assert sorted(state.houses["arryn"].hand) == sorted(
        [
            "lysa_arryn_mod",
            "bronze_yohn_royce_mod",
            "ser_vardis_egen",
            "harry_hardyng",
            "godric_borrell",
            "anya_waynwood",
            "robert_arryn",
        ]
    )
    assert len(state.houses["stark"].hand) == 7


def test_MOD_DATA_01_arryn_player_starting_units_and_supply() -> None:
    """MOD-DATA-01 / setup.yaml: Arryn as a player: 2 Knights in the Eyrie, a Ship in its port, a
    Knight in the Vale of Arryn; Supply 1."""
    state = mod_game(["arryn", "stark", "lannister"])
    assert units(state, "arryn") == {
        "the_eyrie": {"knight": 2},
        "port_of_the_eyrie": {"ship": 1},
        "the_vale_of_arryn": {"knight": 1},
    }
    assert state.houses["arryn"].supply == 1


# --- MOD-SETUP-03: the Eyrie and The Bite overlays --------------------------------------------------


def test_MOD_SETUP_03_overlays_change_the_map() -> None:
    """MOD-SETUP-03 (map_essos.yaml): the Eyrie becomes Arryn's home Stronghold; The Vale of Arryn,
    The Bite and the Port of the Eyrie are added; White Harbor, Moat Cailin and The Twins border The
    Bite instead of The Narrow Sea."""
    state = mod_game(["stark", "lannister", "arryn"])
    facts = areas_for("mother_of_dragons")
    assert facts["the_eyrie"].castle == "stronghold" and facts["the_eyrie"].home_of == "arryn"
    assert muster_points("the_eyrie", "mother_of_dragons") == 2
    assert muster_points("the_eyrie") == 1  # the base board is untouched
    assert kind("the_bite") == "sea" and kind("the_vale_of_arryn") == "land"
    assert sorted(adjacent(state, "the_vale_of_arryn")) == [
        "the_eyrie",
        "the_fingers",
        "the_mountains_of_the_moon",
        "the_narrow_sea",
    ]
    for land in ("white_harbor", "moat_cailin", "the_twins"):
        assert "the_bite" in adjacent(state, land)
        assert "the_narrow_sea" not in adjacent(state, land)
    assert facts["port_of_white_harbor"].port_of is not None
    assert facts["port_of_white_harbor"].port_of.sea == "the_bite"
    assert adjacent(state, "port_of_the_eyrie") == ["the_eyrie", "the_narrow_sea"]


# --- MOD-SETUP-04 / MOD-SETUP-12 / MOD-DATA-02: units -----------------------------------------------


def test_MOD_SETUP_12_players_use_their_screen_vassals_their_setup_card() -> None:
    """MOD-SETUP-12 / MOD-SETUP-04 / MOD-DATA-02: the Baratheon vassal's card (the official example)
    and a player Stark's screen."""
    state = mod_game(["stark", "lannister", "greyjoy"])
    assert units(state, "baratheon") == {
        "blackwater_bay": {"ship": 1},
        "shipbreaker_bay": {"ship": 2},
        "dragonstone": {"knight": 2},
        "kingswood": {"footman": 1},
        "storms_end": {"footman": 1},
    }
    assert units(state, "stark") == {
        "winterfell": {"footman": 1, "knight": 1},
        "white_harbor": {"footman": 1},
        "the_shivering_sea": {"ship": 1},
    }


def test_MOD_DATA_02_arryn_and_stark_vassal_setup_cards() -> None:
    """MOD-DATA-02: the Arryn and Stark Vassal Setup cards."""
    state = mod_game(["lannister", "greyjoy", "baratheon"])
    assert units(state, "arryn") == {
        "the_eyrie": {"knight": 1},
        "port_of_the_eyrie": {"ship": 1},
        "the_bite": {"ship": 1},
        "the_narrow_sea": {"ship": 1},
        "the_vale_of_arryn": {"knight": 1, "footman": 1},
        "the_mountains_of_the_moon": {"knight": 1, "footman": 1},
    }
    assert units(state, "stark") == {
        "winterfell": {"footman": 2},
        "white_harbor": {"knight": 1},
        "the_shivering_sea": {"ship": 1},
        "moat_cailin": {"knight": 1},
        "karhold": {"footman": 1},
        "castle_black": {"footman": 1},
    }


# --- MOD-SETUP-05 / MOD-SETUP-08 / MOD-SETUP-15: threat, Supply, Power ------------------------------


def test_MOD_SETUP_05_wildling_threat_starts_at_2() -> None:
    """MOD-SETUP-05: the Threat token on 2."""
    assert mod_game(["stark", "lannister", "arryn"]).wildling_threat == 2


def test_MOD_SETUP_08_vassal_supply_is_4_players_per_screen() -> None:
    """MOD-SETUP-08: every vassal's Supply token starts on 4, whatever it controls; a player's as
    its screen shows (Lannister 2, Stark 1)."""
    state = mod_game(["stark", "lannister", "arryn"])
    for vassal in state.vassals:
        assert state.houses[vassal].supply == 4
    assert state.houses["lannister"].supply == 2
    assert state.houses["stark"].supply == 1


def test_MOD_SETUP_15_players_take_7_power_vassals_none() -> None:
    """MOD-SETUP-15: each player takes 7 Power; vassals none (and no House cards of their own,
    MOD-VASSAL-14)."""
    state = mod_game(["stark", "lannister", "arryn", "tyrell"])
    for house in ("stark", "lannister", "arryn", "tyrell"):
        assert state.houses[house].power == 7
    for vassal in ("baratheon", "greyjoy", "martell"):
        assert state.houses[vassal].power == 0
        assert state.houses[vassal].hand == []


# --- MOD-SETUP-09 / MOD-SETUP-10: the Influence tracks ----------------------------------------------


def test_MOD_SETUP_09_seven_players_keep_the_fixed_orders() -> None:
    """MOD-SETUP-09: with no vassal the tracks are the fixed orders; King's Court stars 3,3,2,1,0,0,0
    (MOD-DATA-03 without position 8)."""
    state = mod_game(sorted(SEVEN))
    assert state.tracks is not None
    assert state.tracks.iron_throne == FIXED["iron_throne"]
    assert state.tracks.fiefdoms == FIXED["fiefdoms"]
    assert state.tracks.kings_court == FIXED["kings_court"]
    assert state.kings_court_stars == [3, 3, 2, 1, 0, 0, 0]


def test_MOD_SETUP_09_vassals_in_the_top_three_go_to_the_bottom() -> None:
    """MOD-SETUP-09: players Stark, Arryn, Greyjoy. Iron Throne has vassals Baratheon and Lannister
    on top: all vassals move to the bottom in their relative order. Fiefdoms: Tyrell and Martell in
    the top three. King's Court: Lannister on top."""
    state = mod_game(["stark", "arryn", "greyjoy"])
    assert state.tracks is not None
    assert state.tracks.iron_throne == ["stark", "greyjoy", "arryn", "baratheon", "lannister", "martell", "tyrell"]
    assert state.tracks.fiefdoms == ["greyjoy", "arryn", "stark", "tyrell", "martell", "baratheon", "lannister"]
    assert state.tracks.kings_court == ["stark", "arryn", "greyjoy", "lannister", "martell", "tyrell", "baratheon"]


def test_MOD_SETUP_09_a_track_without_vassals_on_top_is_unchanged() -> None:
    """MOD-SETUP-09: the re-ordering applies only when a vassal is in the first three spaces."""
    order = FIXED["iron_throne"]
    assert reorder_for_vassals(order, {"greyjoy", "tyrell", "arryn", "martell"}) == order
    assert reorder_for_vassals(order, {"stark"}) == [h for h in order if h != "stark"] + ["stark"]


@pytest.mark.parametrize(
    "players",
    [["stark", "arryn", "greyjoy"], ["martell", "tyrell", "arryn", "greyjoy"], ["arryn", "tyrell", "greyjoy"]],
)
def test_MOD_SETUP_10_no_vassal_holds_a_dominance_token_at_setup(players: list[str]) -> None:
    """MOD-SETUP-10: the top of each track, which holds its Dominance token, is a player house."""
    state = mod_game(players)
    assert state.tracks is not None
    for track in (state.tracks.iron_throne, state.tracks.fiefdoms, state.tracks.kings_court):
        assert track[0] in players
    assert state.raven_holder() in players and state.blade_holder() in players


# --- MOD-SETUP-11: Vassal Order sets -----------------------------------------------------------------


def test_MOD_SETUP_11_one_set_per_vassal_to_the_highest_players() -> None:
    """MOD-SETUP-11: 5 players, 2 vassals: the two highest players on the Iron Throne get a set."""
    state = mod_game(["stark", "lannister", "baratheon", "arryn", "greyjoy"])
    assert state.tracks is not None
    assert state.tracks.iron_throne[:3] == ["baratheon", "lannister", "stark"]
    assert state.vassal_order_sets == {"baratheon": 1, "lannister": 1}


def test_MOD_SETUP_11_three_players_top_player_takes_two_sets() -> None:
    """MOD-SETUP-11: 3 players and 4 vassals: the top Iron Throne player starts with two sets."""
    state = mod_game(["stark", "lannister", "baratheon"])
    assert state.vassal_order_sets == {"baratheon": 2, "lannister": 1, "stark": 1}


# --- MOD-SETUP-13 / MOD-GEN-03: garrisons and neutral forces ---------------------------------------


def test_MOD_SETUP_13_garrisons_in_every_home_and_only_kings_landing_neutral() -> None:
    """MOD-SETUP-13 / MOD-GEN-03: each house's Garrison (players' and vassals') in its home area, the
    Eyrie's of strength 4 (MOD-DATA-01 review); King's Landing keeps its neutral force (5), every
    other neutral token stays in the box (the Eyrie has none)."""
    state = mod_game(["stark", "lannister", "arryn"])
    garrisons = {a: x.garrison for a, x in state.areas.items() if x.garrison}
    assert garrisons == {
        "winterfell": 2,
        "pyke": 2,
        "lannisport": 2,
        "dragonstone": 2,
        "highgarden": 2,
        "sunspear": 2,
        "the_eyrie": 4,
    }
    assert {a: x.neutral for a, x in state.areas.items() if x.neutral} == {"kings_landing": 5}
    assert not any(x.blocked for x in state.areas.values())


def test_MOD_GEN_03_three_players_block_no_area() -> None:
    """MOD-GEN-03 with the Review 2 note on BG-SETUP-10: vassals replace absent houses, so a
    3-player game blocks no area and Lannister's port ship is placed."""
    state = mod_game(["stark", "lannister", "baratheon"])
    assert state.areas["port_of_lannisport"].units == {"ship": 1}
    assert state.areas["pyke"].house == "greyjoy"
