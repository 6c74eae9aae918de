"""The map and control (BG-MAP-02..06, BG-MAP-08): icons, who controls an area, home areas, neutral
forces. BG-MAP-07 (ports) is tested with marches and the Westeros phase, BG-MAP-09 with the setup.

Expected board facts are written out here from the rules digest (section 2), not read from the
domain's data, so a wrong data file fails.
"""

from __future__ import annotations

import pytest

from domain.board import board_data
from domain.board.action import events as aev
from domain.board.control import controller
from domain.board.mustering import muster_areas, muster_points
from domain.board.supply import supply_barrels
from domain.board.victory import victory_points
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type
from tests.support.board_builders import started_game
from tests.support.combat_helpers import cards

M = acmd.ResolveMarch

STRONGHOLDS = {
    "winterfell",
    "seagard",
    "pyke",
    "riverrun",
    "lannisport",
    "kings_landing",
    "dragonstone",
    "highgarden",
    "oldtown",
    "sunspear",
}
CASTLES = {
    "white_harbor",
    "moat_cailin",
    "flints_finger",
    "the_eyrie",
    "harrenhal",
    "crackclaw_point",
    "storms_end",
    "the_reach",
    "starfall",
    "yronwood",
}
HOMES = {
    "stark": "winterfell",
    "lannister": "lannisport",
    "baratheon": "dragonstone",
    "greyjoy": "pyke",
    "tyrell": "highgarden",
    "martell": "sunspear",
}


def scene(units, orders=None, players=6, **kw):
    sc = Position(players).setup(units, orders or {}, **kw)
    return sc


def test_BG_MAP_02_castle_and_stronghold_icons_muster_and_count_for_victory():
    facts = board_data.areas()
    assert {a for a, f in facts.items() if f.castle == "stronghold"} == STRONGHOLDS
    assert {a for a, f in facts.items() if f.castle == "castle"} == CASTLES
    assert {muster_points(a) for a in STRONGHOLDS} == {2} and {muster_points(a) for a in CASTLES} == {1}
    assert muster_points("karhold") == 0
    # Victory counts the castle/stronghold areas a house controls, nothing else.
    sc = scene(
        {
            "winterfell": ("stark", {"footman": 1}),
            "white_harbor": ("stark", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
        }
    )
    assert victory_points(sc.state, "stark") == 2
    assert muster_areas(sc.state, "stark") == ["white_harbor", "winterfell"]


def test_BG_MAP_02_supply_barrels_and_crowns_are_0_to_2_per_land_area():
    facts = board_data.areas()
    land = [f for f in facts.values() if f.kind == "land"]
    assert len(land) == 38
    assert {f.supply for f in land} == {0, 1, 2} and {f.power for f in land} == {0, 1, 2}
    assert all(f.supply == 0 and f.power == 0 and f.castle == "none" for f in facts.values() if f.kind != "land")
    # Barrels count for the areas controlled (lannisport 2 + blackwater 2 + the_reach 0).
    sc = scene(
        {
            "lannisport": ("lannister", {"footman": 1}),
            "blackwater": ("lannister", {"footman": 1}),
            "the_reach": ("lannister", {"footman": 1}),
        }
    )
    assert supply_barrels(sc.state, "lannister") == 4


def test_BG_MAP_03_control_by_units_by_a_power_token_or_the_home_area():
    sc = scene({"karhold": ("stark", {"footman": 1})}, tokens={"castle_black": "stark"}, garrisons={})
    s = sc.state
    assert controller(s, "karhold") == "stark"  # a unit
    assert controller(s, "castle_black") == "stark"  # a Power token
    assert controller(s, "winterfell") == "stark"  # the home area, empty
    assert controller(s, "white_harbor") is None  # none of the three
    # Units beat an enemy token and an enemy home: whoever has units there controls it.
    s.areas["castle_black"].power_token = "lannister"
    s.areas["winterfell"].house, s.areas["winterfell"].units = "lannister", {"footman": 1}
    assert controller(s, "castle_black") == "lannister" and controller(s, "winterfell") == "lannister"


def test_BG_MAP_04_seas_are_controlled_by_ships_only_and_never_take_a_power_token():
    sc = scene(
        {"bay_of_ice": ("stark", {"ship": 1}), "port_of_winterfell": ("stark", {"ship": 1})},
        {"bay_of_ice": "march_0", "port_of_winterfell": "march_minus_1"},
        power={"stark": 5},
    )
    s = sc.state
    assert controller(s, "bay_of_ice") == "stark" and controller(s, "port_of_winterfell") == "stark"
    assert controller(s, "the_shivering_sea") is None and controller(s, "port_of_white_harbor") is None
    sc.begin()
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="bay_of_ice", moves={"sunset_sea": {"ship": 1}}, leave_power_token=True))
    assert err.value.rule == "BG-MARCH-06"
    sc.run("stark", M(area="bay_of_ice", moves={"sunset_sea": {"ship": 1}}))
    assert controller(sc.state, "bay_of_ice") is None and sc.state.areas["bay_of_ice"].power_token is None
    assert controller(sc.state, "sunset_sea") == "stark"


@pytest.mark.parametrize(("house", "home"), sorted(HOMES.items()))
def test_BG_MAP_05_each_house_controls_its_empty_home_area(house, home):
    assert board_data.areas()[home].home_of == house
    assert {a for a, f in board_data.areas().items() if f.home_of == house} == {home}
    sc = scene({}, garrisons={})
    assert controller(sc.state, home) == house


def test_BG_MAP_05_the_home_area_is_lost_to_an_enemy_and_regained_by_the_owner():
    """Lannister walks into Stark's empty Winterfell (no garrison) and takes it; when Stark's units
    enter it again, Stark controls it again."""
    sc = scene(
        {"castle_black": ("lannister", {"footman": 1}), "karhold": ("stark", {"footman": 1})},
        {"castle_black": "march_0", "karhold": "march_0"},
        garrisons={},
        tracks={"iron_throne": ["lannister", "stark", "baratheon", "martell", "greyjoy", "tyrell"]},
    )
    assert controller(sc.state, "winterfell") == "stark" and victory_points(sc.state, "stark") == 1
    sc.begin()
    out = sc.run("lannister", M(area="castle_black", moves={"winterfell": {"footman": 1}}))
    assert not of_type(out, aev.CombatBegan)  # an empty, ungarrisoned home area is simply entered
    assert controller(sc.state, "winterfell") == "lannister" and victory_points(sc.state, "stark") == 0
    out = sc.run("stark", M(area="karhold", moves={"winterfell": {"footman": 1}}))
    assert of_type(out, aev.CombatBegan)  # Lannister's footman is there: Stark must fight for it
    cards(sc, stark="eddard_stark", lannister="cersei_lannister")  # 1+4 vs 1+0, 2 swords: none left
    assert sc.state.areas["winterfell"].house == "stark"
    assert controller(sc.state, "winterfell") == "stark" and victory_points(sc.state, "stark") == 1


def test_BG_MAP_05_a_house_not_in_play_has_no_home_area():
    sc = scene({}, players=4, garrisons={})
    assert controller(sc.state, "highgarden") is None  # Tyrell is not in a 4-player game
    assert controller(sc.state, "pyke") == "greyjoy"


def test_BG_MAP_06_other_starting_areas_need_units_or_a_token():
    """Stark's footman leaves White Harbor (a starting area, not home) without a token: nobody
    controls it and Stark loses its castle; leaving Winterfell empty keeps it Stark's."""
    sc = scene(
        {"white_harbor": ("stark", {"footman": 1}), "winterfell": ("stark", {"knight": 1})},
        {"white_harbor": "march_0", "winterfell": "march_minus_1"},
        garrisons={},
    )
    assert victory_points(sc.state, "stark") == 2
    sc.begin()
    sc.run("stark", M(area="white_harbor", moves={"widows_watch": {"footman": 1}}))
    assert controller(sc.state, "white_harbor") is None and victory_points(sc.state, "stark") == 1
    sc.run("stark", M(area="winterfell", moves={"castle_black": {"knight": 1}}))
    assert controller(sc.state, "winterfell") == "stark" and victory_points(sc.state, "stark") == 1


def test_BG_MAP_06_at_setup_only_home_areas_are_controlled_without_units():
    game = started_game(6)
    s = game.state
    for aid in s.areas:
        a = s.areas[aid]
        if not any(a.units.values()) and a.power_token is None:
            owner = controller(s, aid)
            assert owner is None or HOMES[owner] == aid, aid


def test_BG_MAP_08_a_neutral_force_area_is_uncontrolled_and_must_be_beaten_to_enter():
    sc = scene(
        {"kingswood": ("baratheon", {"knight": 1, "footman": 1})},
        {"kingswood": "march_0"},
        neutral={"kings_landing": 5},
    )
    assert controller(sc.state, "kings_landing") is None
    sc.begin()
    with pytest.raises(RuleViolation) as err:  # 2 + 1 < 5: BG-MARCH-12
        sc.run("baratheon", M(area="kingswood", moves={"kings_landing": {"knight": 1, "footman": 1}}))
    assert err.value.code == "neutral_force_too_strong"
    assert sc.state.areas["kings_landing"].neutral == 5 and controller(sc.state, "kings_landing") is None


def test_BG_MAP_08_neutral_forces_are_placed_at_setup():
    s = started_game(6).state
    assert {a: x.neutral for a, x in s.areas.items() if x.neutral} == {"kings_landing": 5, "the_eyrie": 6}
    assert all(controller(s, a) is None for a in ("kings_landing", "the_eyrie"))
