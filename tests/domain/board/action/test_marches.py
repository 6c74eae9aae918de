"""BG-MARCH-01..13, ship transport, ports (BG-MAP-07) and supply (BG-SUPPLY-01/02/05/06)."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.board.adjacency import transport_reachable
from domain.board.control import controller
from domain.board.supply import armies_legal
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type

M = acmd.ResolveMarch


def march_scene(units, orders, **kw):
    sc = Position(6).setup(units, orders, **kw)
    sc.begin()
    return sc


def test_BG_MARCH_01_units_may_split_among_several_destinations():
    sc = march_scene({"winterfell": ("stark", {"footman": 2, "knight": 1})}, {"winterfell": "march_0"})
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "castle_black": {"knight": 1}}))
    a = sc.state.areas
    assert a["karhold"].units == {"footman": 1} and a["castle_black"].units == {"knight": 1}
    assert a["winterfell"].units == {"footman": 1}
    assert "winterfell" not in sc.state.orders


def test_BG_MARCH_02_a_march_that_moves_nothing_is_removed():
    sc = march_scene({"winterfell": ("stark", {"footman": 1})}, {"winterfell": "march_0"})
    out = sc.run("stark", M(area="winterfell"))
    assert of_type(out, aev.OrderRemoved)[0].reason == "BG-MARCH-08"
    assert sc.state.areas["winterfell"].units == {"footman": 1}


def test_BG_MARCH_03_land_units_to_land_ships_to_sea():
    sc = march_scene(
        {"winterfell": ("stark", {"footman": 1}), "the_shivering_sea": ("stark", {"ship": 1})},
        {"winterfell": "march_0", "the_shivering_sea": "march_minus_1"},
    )
    with pytest.raises(RuleViolation):
        sc.run("stark", M(area="winterfell", moves={"the_shivering_sea": {"footman": 1}}))
    with pytest.raises(RuleViolation):
        sc.run("stark", M(area="the_shivering_sea", moves={"karhold": {"ship": 1}}))
    sc.run("stark", M(area="the_shivering_sea", moves={"the_narrow_sea": {"ship": 1}}))
    assert sc.state.areas["the_narrow_sea"].units == {"ship": 1}


def test_BG_MARCH_04_at_most_one_destination_may_start_a_fight():
    sc = march_scene(
        {
            "winterfell": ("stark", {"footman": 2}),
            "karhold": ("greyjoy", {"footman": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1", "castle_black": "defense_plus_1"},
    )
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "castle_black": {"footman": 1}}))
    assert err.value.rule == "BG-MARCH-04"
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "white_harbor": {"footman": 1}}))
    assert sc.state.areas["white_harbor"].units == {"footman": 1}  # the move happened before the fight
    assert sc.state.action.combat.area == "karhold"


def test_BG_MARCH_05_entering_an_enemy_token_only_area_returns_the_token():
    sc = march_scene(
        {"winterfell": ("stark", {"footman": 1})},
        {"winterfell": "march_0"},
        tokens={"karhold": "greyjoy"},
        power={"greyjoy": 3},
    )
    out = sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}}))
    assert not of_type(out, aev.CombatBegan)
    assert of_type(out, aev.PowerTokenRemoved)[0].reason == "BG-MARCH-05"
    assert sc.state.areas["karhold"].power_token is None and controller(sc.state, "karhold") == "stark"
    assert sc.state.houses["greyjoy"].power == 3  # back to the Pool, not to Greyjoy


def test_BG_MARCH_06_leaving_a_power_token_keeps_control():
    sc = march_scene({"karhold": ("stark", {"footman": 1})}, {"karhold": "march_0"}, power={"stark": 2})
    assert sc.decision().options.orders["karhold"].may_leave_power_token
    with pytest.raises(RuleViolation):
        sc.run("stark", M(area="karhold", moves={}, leave_power_token=True))  # units stay
    sc.run("stark", M(area="karhold", moves={"winterfell": {"footman": 1}}, leave_power_token=True))
    assert sc.state.areas["karhold"].power_token == "stark" and sc.state.houses["stark"].power == 1
    assert controller(sc.state, "karhold") == "stark"


def test_BG_MARCH_06_no_token_needed_in_the_home_area_nor_at_sea():
    sc = march_scene(
        {"winterfell": ("stark", {"footman": 1}), "bay_of_ice": ("stark", {"ship": 1})},
        {"winterfell": "march_0", "bay_of_ice": "march_minus_1"},
    )
    opts = sc.decision().options.orders
    assert not opts["winterfell"].may_leave_power_token and not opts["bay_of_ice"].may_leave_power_token


def test_BG_MARCH_07_BG_SUPPLY_05_a_march_may_not_break_supply():
    # Supply 1: armies 3, 2. Stark has 2 in winterfell and 2 in karhold; merging into 4 is illegal.
    sc = march_scene(
        {"winterfell": ("stark", {"footman": 2}), "karhold": ("stark", {"footman": 2})},
        {"winterfell": "march_0"},
        supply={"stark": 1},
    )
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 2}}))
    assert err.value.code == "supply"
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}}))
    assert sc.state.areas["karhold"].units == {"footman": 3}


def test_BG_SUPPLY_01_single_units_are_not_armies():
    assert armies_legal([1, 1, 1, 1, 1, 1], 0)
    assert not armies_legal([2, 2, 2], 0)


def test_BG_SUPPLY_02_armies_fit_the_table_largest_first():
    assert armies_legal([4, 3, 2, 2, 2], 6)
    assert not armies_legal([4, 4], 6)
    assert armies_legal([3, 2], 1) and not armies_legal([3, 3], 1)
    assert not armies_legal([3, 2, 2], 1)


def test_BG_SUPPLY_06_the_attack_counts_in_the_attacked_area():
    """Supply 5 allows armies of 4, 3, 2, 2. Stark has 4 in winterfell, 3 in castle_black and 2 each
    in white_harbor and widows_watch. Attacking karhold with 2 and keeping 2 home makes five armies
    (3, 2, 2, 2, 2) once the attackers count in karhold: refused. Counted at their origin (winterfell
    still 4) it would wrongly pass."""
    sc = march_scene(
        {
            "winterfell": ("stark", {"footman": 2, "knight": 2}),
            "castle_black": ("stark", {"footman": 3}),
            "white_harbor": ("stark", {"footman": 2}),
            "widows_watch": ("stark", {"knight": 2}),
            "karhold": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1"},
        supply={"stark": 5},
    )
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="winterfell", moves={"karhold": {"knight": 2}}))
    assert (err.value.rule, err.value.code) == ("BG-SUPPLY-06", "supply")
    assert sc.state.action.combat is None and sc.state.areas["winterfell"].units == {"footman": 2, "knight": 2}
    sc.run("stark", M(area="winterfell", moves={"karhold": {"knight": 2, "footman": 1}}))  # 3 go, 1 stays
    assert sc.state.action.combat.units == {"knight": 2, "footman": 1}


def test_BG_SUPPLY_06_attackers_leave_their_origin_for_the_check():
    """Supply 1 allows armies of 3 and 2. Stark has 3 in winterfell, 2 in white_harbor, 1 in
    castle_black. One footman attacks karhold, one joins castle_black, one stays: counted in karhold
    the armies are 2 and 2 (legal); counted at winterfell they would be 2, 2 and 2 (refused)."""
    sc = march_scene(
        {
            "winterfell": ("stark", {"footman": 3}),
            "white_harbor": ("stark", {"footman": 2}),
            "castle_black": ("stark", {"footman": 1}),
            "karhold": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1"},
        supply={"stark": 1},
    )
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "castle_black": {"footman": 1}}))
    assert sc.state.action.combat.units == {"footman": 1} and sc.state.action.combat.area == "karhold"
    assert sc.state.areas["castle_black"].units == {"footman": 2}


def test_BG_SUPPLY_06_every_move_of_the_march_is_checked_at_declaration():
    # Supply 0 (2, 2): 2 in winterfell, 2 in castle_black. One attacks, one joins castle_black (3).
    sc = march_scene(
        {
            "winterfell": ("stark", {"footman": 2}),
            "castle_black": ("stark", {"footman": 2}),
            "karhold": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1", "castle_black": "defense_plus_1"},
        supply={"stark": 0},
    )
    with pytest.raises(RuleViolation):
        sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "castle_black": {"footman": 1}}))
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 2}}))
    assert sc.state.action.combat.units == {"footman": 2}


def test_BG_MARCH_08_the_march_order_stays_until_the_combat_is_over():
    sc = march_scene(
        {"winterfell": ("stark", {"knight": 2}), "karhold": ("greyjoy", {"footman": 1})},
        {"winterfell": "march_0", "karhold": "defense_plus_1"},
        hands={"stark": ["eddard_stark"], "greyjoy": ["dagmar_cleftjaw"]},
    )
    sc.run("stark", M(area="winterfell", moves={"karhold": {"knight": 2}}))
    assert "winterfell" in sc.state.orders
    sc.run("stark", acmd.ChooseHouseCard(card="eddard_stark"))
    sc.run("greyjoy", acmd.ChooseHouseCard(card="dagmar_cleftjaw"))
    if sc.state.step == "use_blade":
        sc.run("greyjoy", acmd.UseBlade(use=False))
    assert "winterfell" not in sc.state.orders and sc.state.action is None or "winterfell" not in sc.state.orders


def test_BG_MARCH_09_ship_transport_highgarden_to_sunspear():
    sc = march_scene(
        {
            "highgarden": ("tyrell", {"footman": 1, "knight": 1}),
            "redwyne_straits": ("tyrell", {"ship": 1}),
            "west_summer_sea": ("tyrell", {"ship": 1}),
            "east_summer_sea": ("tyrell", {"ship": 1}),
        },
        {"highgarden": "march_0"},
        garrisons={},
    )
    assert "sunspear" in transport_reachable(sc.state, "tyrell", "highgarden")
    assert "sunspear" in sc.decision().options.orders["highgarden"].land_destinations
    sc.run("tyrell", M(area="highgarden", moves={"sunspear": {"footman": 1}, "starfall": {"knight": 1}}))
    assert sc.state.areas["sunspear"].units == {"footman": 1}
    assert sc.state.areas["starfall"].units == {"knight": 1}


def test_BG_MARCH_09_a_gap_in_the_chain_or_another_houses_ships_do_not_transport():
    sc = march_scene(
        {
            "highgarden": ("tyrell", {"footman": 1}),
            "redwyne_straits": ("tyrell", {"ship": 1}),
            "west_summer_sea": ("martell", {"ship": 1}),
            "east_summer_sea": ("tyrell", {"ship": 1}),
        },
        {"highgarden": "march_0"},
    )
    assert "sunspear" not in transport_reachable(sc.state, "tyrell", "highgarden")
    with pytest.raises(RuleViolation):
        sc.run("tyrell", M(area="highgarden", moves={"sunspear": {"footman": 1}}))


def test_BG_MARCH_10_transport_does_not_count_for_support():
    from domain.board.adjacency import can_support

    sc = march_scene({"highgarden": ("tyrell", {"footman": 1}), "redwyne_straits": ("tyrell", {"ship": 1})}, {})
    assert not can_support(sc.state, "highgarden", "the_arbor")


def test_BG_MARCH_11_ships_are_never_transported_and_land_units_never_stop_at_sea():
    sc = march_scene(
        {"highgarden": ("tyrell", {"footman": 1}), "redwyne_straits": ("tyrell", {"ship": 2})},
        {"highgarden": "march_0", "redwyne_straits": "march_0"},
    )
    assert "redwyne_straits" not in sc.decision().options.orders["highgarden"].land_destinations
    assert "west_summer_sea" in sc.decision().options.orders["redwyne_straits"].ship_destinations
    assert "east_summer_sea" not in sc.decision().options.orders["redwyne_straits"].ship_destinations


def test_BG_MARCH_12_neutral_force_needs_enough_strength():
    sc = march_scene({"crackclaw_point": ("baratheon", {"knight": 2})}, {"crackclaw_point": "march_0"})
    # King's Landing neutral 5 is restored (setup cleared neutral forces).
    sc.state.areas["kings_landing"].neutral = 5
    with pytest.raises(RuleViolation) as err:
        sc.run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"knight": 2}}))
    assert err.value.rule == "BG-MARCH-12"


def test_BG_MARCH_12_neutral_force_beaten_with_support_leaves_the_game():
    sc = march_scene(
        {"crackclaw_point": ("baratheon", {"knight": 2}), "blackwater": ("baratheon", {"footman": 1})},
        {"crackclaw_point": "march_plus_1_special", "blackwater": "support_0"},
        neutral={"kings_landing": 5},
    )
    sc.run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"knight": 2}}))
    assert sc.state.areas["kings_landing"].neutral == 0
    assert sc.state.areas["kings_landing"].units == {"knight": 2}
    assert of_type(sc.events, aev.NeutralForceRemoved)


def test_BG_MARCH_12_other_houses_may_add_support_against_a_neutral_force():
    sc = march_scene(
        {"crackclaw_point": ("baratheon", {"knight": 2}), "blackwater": ("stark", {"footman": 1})},
        {"crackclaw_point": "march_0", "blackwater": "support_plus_1_special"},
        neutral={"kings_landing": 5},
    )
    sc.run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"knight": 2}}))
    d = sc.decision("stark")
    assert d.options.sides == ["attacker", "none"]
    sc.run("stark", acmd.DeclareSupport(side="attacker"))
    assert sc.state.areas["kings_landing"].units == {"knight": 2}


def test_BG_MARCH_12_a_refused_support_leaves_the_marchers_home():
    sc = march_scene(
        {"crackclaw_point": ("baratheon", {"knight": 2}), "blackwater": ("stark", {"footman": 1})},
        {"crackclaw_point": "march_0", "blackwater": "support_plus_1_special"},
        neutral={"kings_landing": 5},
    )
    sc.run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"knight": 2}}))
    sc.run("stark", acmd.DeclareSupport(side="none"))
    assert sc.state.areas["kings_landing"].neutral == 5
    assert sc.state.areas["crackclaw_point"].units == {"knight": 2}


def test_BG_MAP_07_ports_hold_three_ships_and_open_only_to_the_land_controller():
    sc = march_scene(
        {
            "ironmans_bay": ("greyjoy", {"ship": 2}),
            "port_of_pyke": ("greyjoy", {"ship": 2}),
            "pyke": ("greyjoy", {"footman": 1}),
            "the_golden_sound": ("lannister", {"ship": 1}),
        },
        {"ironmans_bay": "march_0", "the_golden_sound": "march_0"},
    )
    # Lannister first (turn order): it does not control pyke, so the port is closed to it.
    assert "port_of_pyke" not in sc.decision("lannister").options.orders["the_golden_sound"].ship_destinations
    sc.run("lannister", M(area="the_golden_sound"))
    with pytest.raises(RuleViolation) as err:
        sc.run("greyjoy", M(area="ironmans_bay", moves={"port_of_pyke": {"ship": 2}}))
    assert err.value.code == "port_full"
    sc.run("greyjoy", M(area="ironmans_bay", moves={"port_of_pyke": {"ship": 1}}))
    assert sc.state.areas["port_of_pyke"].units == {"ship": 3}


def test_BG_MAP_07_taking_the_land_area_removes_enemy_port_ships_and_offers_replacement():
    sc = march_scene(
        {
            "greywater_watch": ("stark", {"footman": 2}),
            "port_of_pyke": ("greyjoy", {"ship": 2}),
            "ironmans_bay": ("stark", {"ship": 1}),
        },
        {"greywater_watch": "march_0", "port_of_pyke": "consolidate_power"},
        tokens={"pyke": "greyjoy"},
        garrisons={},
        supply={"stark": 6},
    )
    sc.run("stark", M(area="greywater_watch", moves={"pyke": {"footman": 2}}))
    assert sc.state.areas["port_of_pyke"].units == {}
    assert "port_of_pyke" not in sc.state.orders
    d = sc.decision("stark")
    assert d.options.max == 2 and sc.state.step == "replace_port_ships"
    sc.run("stark", acmd.ReplacePortShips(count=2))
    assert sc.state.areas["port_of_pyke"].units == {"ship": 2} and sc.state.areas["port_of_pyke"].house == "stark"


def test_BG_MAP_07_orphaned_port_ships_are_destroyed():
    sc = march_scene(
        {"white_harbor": ("stark", {"footman": 1}), "port_of_white_harbor": ("stark", {"ship": 1})},
        {"white_harbor": "march_0", "port_of_white_harbor": "support_0"},
    )
    out = sc.run("stark", M(area="white_harbor", moves={"widows_watch": {"footman": 1}}))
    assert of_type(out, aev.UnitsDestroyed)[0].reason == "BG-MAP-07"
    assert sc.state.areas["port_of_white_harbor"].units == {}
    assert "port_of_white_harbor" not in sc.state.orders


def test_BG_MARCH_13_conquering_an_enemy_home_area_removes_its_garrison():
    sc = march_scene(
        {"castle_black": ("greyjoy", {"knight": 2}), "karhold": ("greyjoy", {"knight": 1})},
        {"castle_black": "march_plus_1_special", "karhold": "support_plus_1_special"},
        hands={"greyjoy": ["euron_crows_eye"], "stark": ["ser_rodrick_cassel"]},
        supply={"greyjoy": 6},
    )
    assert sc.state.areas["winterfell"].garrison == 2
    sc.run("greyjoy", M(area="castle_black", moves={"winterfell": {"knight": 2}}))
    assert sc.state.action.combat.defender == "stark"  # a garrison alone still defends
    sc.run("greyjoy", acmd.ChooseHouseCard(card="euron_crows_eye"))
    sc.run("stark", acmd.ChooseHouseCard(card="ser_rodrick_cassel"))
    sc.run("greyjoy", acmd.UseBlade(use=False))
    assert sc.state.areas["winterfell"].garrison == 0
    assert sc.state.areas["winterfell"].units == {"knight": 2}
    assert controller(sc.state, "winterfell") == "greyjoy"


def test_BG_COMBAT_23_routed_units_cannot_march():
    sc = march_scene({"winterfell": ("stark", {"footman": 2})}, {"winterfell": "march_0"})
    sc.state.action.routed = {"winterfell": {"footman": 1}}
    assert sc.decision().options.orders["winterfell"].units == {"footman": 1}
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 2}}))
    assert err.value.rule == "BG-COMBAT-23"
