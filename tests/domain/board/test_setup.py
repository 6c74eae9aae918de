"""Setup of a new board game (rules digest section 3, BG-SETUP-*; BG-ORDER-01).

Expected values are written out from the rules digest (``board-game.md`` section 3) and
``reference/board/setup.yaml``, not read from the domain's own data files, so a wrong data file
fails these tests.
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board.decider import create
from domain.board.orders import ORDER_TOKENS, TOKENS_PER_HOUSE, owned_tokens
from domain.board.state import Settings
from domain.board.supply import supply_barrels
from domain.board.victory import victory_points
from domain.core.errors import RuleViolation
from domain.core.rng import commit_seed
from tests.support.board_builders import created_game, make_ctx

ALL_COUNTS = (3, 4, 5, 6)

HOUSES_BY_COUNT = {
    3: {"stark", "lannister", "baratheon"},
    4: {"stark", "lannister", "baratheon", "greyjoy"},
    5: {"stark", "lannister", "baratheon", "greyjoy", "tyrell"},
    6: {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"},
}

FULL_TRACKS = {
    "iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
    "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
    "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"],
}

NEUTRAL_ALWAYS = {"kings_landing": 5, "the_eyrie": 6}
NEUTRAL_BY_COUNT = {
    3: dict(NEUTRAL_ALWAYS),
    4: {
        **NEUTRAL_ALWAYS,
        "oldtown": 3,
        "three_towers": 3,
        "dornish_marches": 3,
        "princes_pass": 3,
        "starfall": 3,
        "yronwood": 3,
        "the_boneway": 3,
        "storms_end": 4,
        "salt_shore": 3,
        "sunspear": 5,
    },
    5: {
        **NEUTRAL_ALWAYS,
        "three_towers": 3,
        "princes_pass": 3,
        "the_boneway": 3,
        "starfall": 3,
        "yronwood": 3,
        "salt_shore": 3,
        "sunspear": 5,
    },
    6: dict(NEUTRAL_ALWAYS),
}

BLOCKED_3P = {
    "pyke",
    "highgarden",
    "oldtown",
    "sunspear",
    "salt_shore",
    "yronwood",
    "starfall",
    "three_towers",
    "dornish_marches",
    "princes_pass",
    "the_boneway",
    "storms_end",
    "port_of_pyke",
    "port_of_oldtown",
    "port_of_sunspear",
    "port_of_storms_end",
}

STARTING_UNITS = {
    "stark": {
        "winterfell": {"knight": 1, "footman": 1},
        "white_harbor": {"footman": 1},
        "the_shivering_sea": {"ship": 1},
    },
    "lannister": {
        "lannisport": {"knight": 1, "footman": 1},
        "stoney_sept": {"footman": 1},
        "the_golden_sound": {"ship": 1},
        "port_of_lannisport": {"ship": 1},
    },
    "baratheon": {
        "dragonstone": {"knight": 1, "footman": 1},
        "kingswood": {"footman": 1},
        "shipbreaker_bay": {"ship": 2},
    },
    "greyjoy": {
        "pyke": {"knight": 1, "footman": 1},
        "greywater_watch": {"footman": 1},
        "ironmans_bay": {"ship": 1},
        "port_of_pyke": {"ship": 1},
    },
    "tyrell": {
        "highgarden": {"knight": 1, "footman": 1},
        "dornish_marches": {"footman": 1},
        "redwyne_straits": {"ship": 1},
    },
    "martell": {
        "sunspear": {"knight": 1, "footman": 1},
        "salt_shore": {"footman": 1},
        "sea_of_dorne": {"ship": 1},
    },
}

HOME = {
    "stark": "winterfell",
    "lannister": "lannisport",
    "baratheon": "dragonstone",
    "greyjoy": "pyke",
    "tyrell": "highgarden",
    "martell": "sunspear",
}

STARTING_SUPPLY = {"stark": 1, "lannister": 2, "baratheon": 2, "greyjoy": 2, "tyrell": 2, "martell": 2}
STARTING_VP = {"stark": 2, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1, "martell": 1}


def expected_units(player_count: int) -> dict[str, tuple[str, dict[str, int]]]:
    out = {}
    for house in HOUSES_BY_COUNT[player_count]:
        for area, units in STARTING_UNITS[house].items():
            if player_count == 3 and area == "port_of_lannisport":
                continue
            out[area] = (house, units)
    return out


# --- BG-SETUP-01 -------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_01_houses_by_player_count(player_count):
    state = created_game(player_count).state
    assert state.player_count == player_count
    assert len(state.houses_in_play) == player_count
    assert set(state.houses_in_play) == HOUSES_BY_COUNT[player_count]
    assert set(state.houses) == HOUSES_BY_COUNT[player_count]
    assert state.phase == "lobby" and state.step == "waiting_for_players"


@pytest.mark.parametrize("player_count", [0, 1, 2, 7, 8])
def test_BG_SETUP_01_invalid_player_count_rejected(player_count):
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=player_count, settings=Settings()), make_ctx())
    assert err.value.code == "invalid_player_count"
    assert err.value.rule == "BG-SETUP-01"


def test_game_created_commits_to_the_seed_not_the_seed_itself():
    """The seed stays secret: GameCreated carries sha256(seed) only (needed for BG-SETUP-02/03/04 fairness)."""
    (created,) = create(cmd.CreateGame(player_count=3, settings=Settings()), make_ctx(seed="s3cret"))
    assert created.seed_commitment == commit_seed("s3cret") != "s3cret"
    assert "s3cret" not in repr(created)


# --- BG-SETUP-06 --------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_06_neutral_forces_per_player_count(player_count):
    state = created_game(player_count).state
    neutral = {aid: a.neutral for aid, a in state.areas.items() if a.neutral}
    assert neutral == NEUTRAL_BY_COUNT[player_count]


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_06_blocked_areas_only_with_three_players(player_count):
    state = created_game(player_count).state
    blocked = {aid for aid, a in state.areas.items() if a.blocked}
    assert blocked == (BLOCKED_3P if player_count == 3 else set())
    # No unit, garrison or neutral force stands in an impassable area.
    for aid in blocked:
        a = state.areas[aid]
        assert a.house is None and not a.units and a.garrison == 0 and a.neutral == 0


# --- BG-SETUP-07 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "player_count, stars",
    [(3, [3, 2, 1]), (4, [3, 2, 1, 0]), (5, [3, 3, 2, 1, 0]), (6, [3, 3, 2, 1, 0, 0])],
)
def test_BG_SETUP_07_kings_court_stars(player_count, stars):
    """3-4 players use the overlay (3,2,1,0); 5-6 players the printed track (3,3,2,1,0,0),
    one entry per position in use."""
    state = created_game(player_count).state
    assert state.kings_court_stars == stars
    assert len(state.kings_court_stars) == len(state.tracks.kings_court)


# --- BG-SETUP-08/09 ------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_08_tracks_with_absent_houses_removed(player_count):
    state = created_game(player_count).state
    in_play = HOUSES_BY_COUNT[player_count]
    for track, full in FULL_TRACKS.items():
        assert getattr(state.tracks, track) == [h for h in full if h in in_play], track


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_09_raven_holder_is_kings_court_position_1(player_count):
    state = created_game(player_count).state
    assert state.raven_holder() == "lannister"  # Lannister leads King's Court in every base count
    assert state.turn_order()[0] == "baratheon"  # BG-COK-11: Iron Throne order is turn order


# --- BG-SETUP-10 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_10_starting_units(player_count):
    state = created_game(player_count).state
    expected = expected_units(player_count)
    actual = {
        aid: (a.house, {u: n for u, n in a.units.items() if n})
        for aid, a in state.areas.items()
        if any(a.units.values())
    }
    assert actual == expected
    # Areas without units have no owner.
    for aid, a in state.areas.items():
        if aid not in expected:
            assert a.house is None, aid


def test_BG_SETUP_10_three_players_leave_out_the_port_of_lannisport_ship():
    three = created_game(3).state.areas["port_of_lannisport"]
    assert three.house is None and not any(three.units.values())
    four = created_game(4).state.areas["port_of_lannisport"]
    assert four.house == "lannister" and four.units == {"ship": 1}


# --- BG-SETUP-11 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_11_garrisons_only_for_houses_in_play(player_count):
    state = created_game(player_count).state
    garrisons = {aid: a.garrison for aid, a in state.areas.items() if a.garrison}
    assert garrisons == {HOME[h]: 2 for h in HOUSES_BY_COUNT[player_count]}
    for house, home in HOME.items():
        if house not in HOUSES_BY_COUNT[player_count]:
            assert state.areas[home].garrison == 0


# --- BG-SETUP-12 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_12_supply_and_victory_points_derived_from_the_board(player_count):
    state = created_game(player_count).state
    for house in state.houses_in_play:
        assert state.houses[house].supply == STARTING_SUPPLY[house], house
        assert supply_barrels(state, house) == STARTING_SUPPLY[house], house
        assert victory_points(state, house) == STARTING_VP[house], house


def test_BG_SETUP_12_supply_barrels_are_derived_from_control():
    """The starting supply comes from the barrels a house controls, not from a per-house constant:
    a Stark Power token in Blackwater (2 barrels, BG-MAP-09) adds 2 to Stark's barrels and its
    castle-less area adds no victory point. (State mutated directly: no event places a token yet.)"""
    state = created_game(3).state
    state.areas["blackwater"].power_token = "stark"
    assert supply_barrels(state, "stark") == STARTING_SUPPLY["stark"] + 2
    assert victory_points(state, "stark") == STARTING_VP["stark"]
    state.areas["harrenhal"].power_token = "stark"  # a castle
    assert victory_points(state, "stark") == STARTING_VP["stark"] + 1


# --- BG-SETUP-13/14, BG-ORDER-01 ------------------------------------------------------------------


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_13_five_available_power(player_count):
    state = created_game(player_count).state
    assert {h: hs.power for h, hs in state.houses.items()} == {h: 5 for h in HOUSES_BY_COUNT[player_count]}


@pytest.mark.parametrize("player_count", ALL_COUNTS)
def test_BG_SETUP_14_seven_house_cards_in_hand(player_count):
    state = created_game(player_count).state
    for house, hs in state.houses.items():
        assert len(hs.hand) == 7 and len(set(hs.hand)) == 7, house
        assert hs.discards == []
    # The hands are each house's own cards: no card is in two hands.
    all_cards = [c for hs in state.houses.values() for c in hs.hand]
    assert len(all_cards) == len(set(all_cards))


def test_BG_SETUP_14_stark_hand_is_the_stark_deck():
    hand = set(created_game(3).state.houses["stark"].hand)
    assert hand == {
        "eddard_stark",
        "robb_stark",
        "roose_bolton",
        "greatjon_umber",
        "ser_rodrick_cassel",  # S&R spelling, as in reference/board/cards.yaml
        "the_blackfish",
        "catelyn_stark",
    }


def test_BG_ORDER_01_fifteen_tokens_five_special():
    owned = owned_tokens()
    assert TOKENS_PER_HOUSE == 15
    assert sum(owned.values()) == 15
    assert sum(n for t, n in owned.items() if ORDER_TOKENS[t].special) == 5
    assert sum(n for t, n in owned.items() if not ORDER_TOKENS[t].special) == 10
    assert dict(owned) == {
        "march_minus_1": 1,
        "march_0": 1,
        "march_plus_1_special": 1,
        "defense_plus_1": 2,
        "defense_plus_2_special": 1,
        "support_0": 2,
        "support_plus_1_special": 1,
        "raid": 2,
        "raid_special": 1,
        "consolidate_power": 2,
        "consolidate_power_special": 1,
    }


def test_BG_ORDER_01_token_types_and_bonuses():
    by_type = {}
    for t in ORDER_TOKENS.values():
        by_type.setdefault(t.type, []).extend([(t.bonus, t.special)] * t.copies)
    assert sorted(by_type["march"]) == [(-1, False), (0, False), (1, True)]
    assert sorted(by_type["defense"]) == [(1, False), (1, False), (2, True)]
    assert sorted(by_type["support"]) == [(0, False), (0, False), (1, True)]
    assert sorted(s for _, s in by_type["raid"]) == [False, False, True]
    assert sorted(s for _, s in by_type["consolidate_power"]) == [False, False, True]
