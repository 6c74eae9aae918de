"""BG-CP-01..04 and the mustering of a Special Consolidate Power (BG-MUSTER-01..05, 07)."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type

R = acmd.Recruit


def cp_scene(units, orders, **kw):
    sc = Position(6).setup(units, orders, **kw)
    sc.begin()
    return sc


def test_BG_CP_01_land_gives_one_plus_crowns():
    sc = cp_scene(
        {"kings_landing": ("baratheon", {"footman": 1})}, {"kings_landing": "consolidate_power"}, power={"baratheon": 0}
    )
    assert sc.decision().options.orders["kings_landing"].power == 3
    sc.run("baratheon", acmd.ResolveConsolidatePower(area="kings_landing"))
    assert sc.state.houses["baratheon"].power == 3


def test_BG_CP_02_sea_gives_nothing_port_gives_one_unless_enemy_ships_outside():
    sc = cp_scene(
        {
            "shipbreaker_bay": ("baratheon", {"ship": 1}),
            "port_of_dragonstone": ("baratheon", {"ship": 1}),
            "port_of_lannisport": ("lannister", {"ship": 1}),
            "the_golden_sound": ("greyjoy", {"ship": 1}),
        },
        {
            "shipbreaker_bay": "consolidate_power",
            "port_of_dragonstone": "consolidate_power_special",
            "port_of_lannisport": "consolidate_power",
            "the_golden_sound": "defense_plus_1",
        },
        power={"baratheon": 0, "lannister": 0},
    )
    opts = sc.decision("baratheon").options.orders
    assert opts["shipbreaker_bay"].power == 0 and opts["port_of_dragonstone"].power == 1
    sc.run("baratheon", acmd.ResolveConsolidatePower(area="port_of_dragonstone"))
    assert sc.state.houses["baratheon"].power == 1
    assert sc.decision("lannister").options.orders["port_of_lannisport"].power == 0


def test_BG_POWER_01_gains_stop_at_twenty_outside_the_pool():
    sc = cp_scene(
        {"kings_landing": ("baratheon", {"footman": 1})},
        {"kings_landing": "consolidate_power"},
        power={"baratheon": 18},
        tokens={"the_reach": "baratheon"},
    )
    sc.run("baratheon", acmd.ResolveConsolidatePower(area="kings_landing"))
    assert sc.state.houses["baratheon"].power == 19  # 19 + 1 token on the board = 20


def test_BG_CP_03_special_cp_may_muster_in_a_castle_area_instead():
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 1})}, {"winterfell": "consolidate_power_special"}, power={"stark": 0}
    )
    o = sc.decision().options.orders["winterfell"]
    assert o.may_muster and o.muster_points == 2
    out = sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="knight")]))
    assert sc.state.areas["winterfell"].units == {"footman": 1, "knight": 1}
    assert sc.state.houses["stark"].power == 0  # never both
    assert of_type(out, aev.ConsolidatedPower)[0].mustered


def test_BG_CP_03_regular_cp_or_no_castle_cannot_muster():
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 1}), "karhold": ("stark", {"footman": 1})},
        {"winterfell": "consolidate_power", "karhold": "consolidate_power_special"},
    )
    for area in ("winterfell", "karhold"):
        with pytest.raises(RuleViolation) as err:
            sc.run("stark", acmd.ResolveConsolidatePower(area=area, muster=[R(unit="footman")]))
        assert err.value.rule == "BG-CP-03"


def test_BG_CP_04_consolidate_power_orders_resolve_in_turn_order():
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 1}), "lannisport": ("lannister", {"footman": 1})},
        {"winterfell": "consolidate_power", "lannisport": "consolidate_power"},
    )
    assert sc.state.action.current_house == "lannister"
    sc.run("lannister", acmd.ResolveConsolidatePower(area="lannisport"))
    assert sc.state.action.current_house == "stark"


def test_BG_MUSTER_01_points_per_castle_level_and_only_in_that_area():
    sc = cp_scene({"white_harbor": ("stark", {"footman": 1})}, {"white_harbor": "consolidate_power_special"})
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", acmd.ResolveConsolidatePower(area="white_harbor", muster=[R(unit="knight")]))
    assert err.value.rule == "BG-MUSTER-01"
    sc.run("stark", acmd.ResolveConsolidatePower(area="white_harbor", muster=[R(unit="footman")]))
    assert sc.state.areas["white_harbor"].units == {"footman": 2}


def test_BG_MUSTER_02_upgrades_replace_a_footman():
    sc = cp_scene({"winterfell": ("stark", {"footman": 2})}, {"winterfell": "consolidate_power_special"})
    sc.run(
        "stark",
        acmd.ResolveConsolidatePower(
            area="winterfell", muster=[R(unit="knight", upgrade=True), R(unit="siege_engine", upgrade=True)]
        ),
    )
    assert sc.state.areas["winterfell"].units == {"knight": 1, "siege_engine": 1}


def test_BG_MUSTER_03_land_units_go_in_the_mustering_area():
    sc = cp_scene({"winterfell": ("stark", {"footman": 1})}, {"winterfell": "consolidate_power_special"})
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="footman", area="karhold")]))
    assert err.value.rule == "BG-MUSTER-03"


def test_BG_MUSTER_04_ships_go_to_a_free_adjacent_sea_or_the_port():
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 1}), "bay_of_ice": ("greyjoy", {"ship": 1})},
        {"winterfell": "consolidate_power_special"},
    )
    assert sc.decision().options.orders["winterfell"].ship_areas == ["port_of_winterfell", "the_shivering_sea"]
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="ship", area="bay_of_ice")]))
    sc.run(
        "stark",
        acmd.ResolveConsolidatePower(
            area="winterfell",
            muster=[R(unit="ship", area="port_of_winterfell"), R(unit="ship", area="the_shivering_sea")],
        ),
    )
    assert sc.state.areas["port_of_winterfell"].units == {"ship": 1}
    assert sc.state.areas["the_shivering_sea"].units == {"ship": 1}


def test_BG_MUSTER_05_supply_and_unit_limits():
    # Supply 0 allows armies 2, 2: a third unit in winterfell would make an army of 3.
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 2})}, {"winterfell": "consolidate_power_special"}, supply={"stark": 0}
    )
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="footman")]))
    assert err.value.rule == "BG-MUSTER-05"
    sc2 = cp_scene(
        {"winterfell": ("stark", {"footman": 1}), "karhold": ("stark", {"knight": 5})},
        {"winterfell": "consolidate_power_special"},
        supply={"stark": 6},
    )
    with pytest.raises(RuleViolation) as err:
        sc2.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="knight")]))
    assert err.value.rule == "BG-COMP-03"


def test_BG_MUSTER_07_special_cp_mustering_uses_only_that_area():
    sc = cp_scene(
        {"winterfell": ("stark", {"footman": 1}), "white_harbor": ("stark", {"footman": 1})},
        {"winterfell": "consolidate_power_special"},
    )
    sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="footman"), R(unit="footman")]))
    assert sc.state.areas["winterfell"].units == {"footman": 3}
    assert sc.state.areas["white_harbor"].units == {"footman": 1}
