"""Each decision states every constraint a client needs (issue 9): a March's supply limit
(BG-SUPPLY-06), the reach a neutral force needs (BG-MARCH-12), port room (BG-MAP-07), the Power
token only when every unit leaves (BG-MARCH-06); a mustering's upgradable Footmen (BG-MUSTER-02),
units left (BG-COMP-03), supply over all areas together (BG-MUSTER-05) and port room (BG-MAP-07).

Each test reads the options, applies the constraint *as the options' docstrings state it* (never the
server's own check), and shows the rules accept the command that respects it and refuse the one just
beyond it.
"""

from __future__ import annotations

import pytest

from domain.board import board_data
from domain.board.supply import SupplyLimit
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd
from tests.support.westeros_positions import Recruit, westeros

M = acmd.ResolveMarch
R = acmd.Recruit


def fits(limit: SupplyLimit, delta: dict[str, int]) -> bool:
    """The rule as :class:`SupplyLimit` states it: add ``delta`` to ``units``; the areas with 2+
    units, largest first, are at most ``len(allowed)`` and each no larger than its allowed size."""
    counts = dict(limit.units)
    for a, d in delta.items():
        counts[a] = counts.get(a, 0) + d
    armies = sorted((n for n in counts.values() if n >= 2), reverse=True)
    return len(armies) <= len(limit.allowed) and all(a <= b for a, b in zip(armies, limit.allowed))


def scene(units, orders, **kw) -> Position:
    sc = Position(6).setup(units, orders, **kw)
    sc.begin()
    return sc


# --- March ------------------------------------------------------------------------------------------


def supply_scene() -> Position:
    return scene(
        {"winterfell": ("stark", {"footman": 2}), "karhold": ("stark", {"footman": 2})},
        {"winterfell": "march_0"},
        supply={"stark": 1},
    )


def test_BG_SUPPLY_06_march_options_state_the_supply_limit_of_the_whole_declaration():
    opts = supply_scene().decision("stark").options
    assert opts.supply == SupplyLimit(allowed=[3, 2], units={"karhold": 2, "winterfell": 2})
    too_many, fine = {"winterfell": -2, "karhold": 2}, {"winterfell": -1, "karhold": 1}
    assert not fits(opts.supply, too_many) and fits(opts.supply, fine)
    with pytest.raises(RuleViolation) as err:
        supply_scene().run("stark", M(area="winterfell", moves={"karhold": {"footman": 2}}))
    assert err.value.code == "supply"
    sc = supply_scene()
    sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}}))
    assert sc.state.areas["karhold"].units == {"footman": 3}


def neutral_scene() -> Position:
    return scene(
        {
            "crackclaw_point": ("baratheon", {"knight": 1, "siege_engine": 1}),
            "blackwater": ("baratheon", {"footman": 1}),
        },
        {"crackclaw_point": "march_0", "blackwater": "support_0"},
        neutral={"kings_landing": 5},
    )


def test_BG_MARCH_12_march_options_state_what_a_neutral_force_needs():
    x = neutral_scene().decision("baratheon").options.orders["crackclaw_point"]
    force = x.neutral_forces["kings_landing"]
    # base: March +0 and the Footman supporting from Blackwater; a Siege Engine counts 4 against a castle.
    assert (force.strength, force.base, force.unit_strength) == (5, 1, {"knight": 2, "siege_engine": 4})
    assert x.neutral_strength == {"kings_landing": 5}

    def reach(units: dict[str, int]) -> int:
        return max(0, force.base + sum(n * force.unit_strength[u] for u, n in units.items()))

    assert reach({"knight": 1}) == 3 < 5 <= reach({"siege_engine": 1})
    with pytest.raises(RuleViolation) as err:
        neutral_scene().run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"knight": 1}}))
    assert err.value.code == "neutral_force_too_strong"
    sc = neutral_scene()
    sc.run("baratheon", M(area="crackclaw_point", moves={"kings_landing": {"siege_engine": 1}}))
    assert sc.state.areas["kings_landing"].units == {"siege_engine": 1}


def port_scene() -> Position:
    return scene(
        {
            "winterfell": ("stark", {"footman": 1}),
            "port_of_winterfell": ("stark", {"ship": 2}),
            "bay_of_ice": ("stark", {"ship": 2}),
        },
        {"bay_of_ice": "march_0"},
        supply={"stark": 2},
    )


def test_BG_MAP_07_march_options_state_the_room_left_in_a_port():
    x = port_scene().decision("stark").options.orders["bay_of_ice"]
    assert "port_of_winterfell" in x.ship_destinations and x.port_room == {"port_of_winterfell": 1}
    with pytest.raises(RuleViolation) as err:
        port_scene().run("stark", M(area="bay_of_ice", moves={"port_of_winterfell": {"ship": 2}}))
    assert err.value.code == "port_full"
    sc = port_scene()
    sc.run("stark", M(area="bay_of_ice", moves={"port_of_winterfell": {"ship": 1}}))
    assert sc.state.areas["port_of_winterfell"].units == {"ship": 3}


def routed_scene(routed: dict[str, int]) -> Position:
    sc = scene({"karhold": ("stark", {"footman": 2})}, {"karhold": "march_0"}, power={"stark": 2})
    if routed:
        sc.state.action.routed = {"karhold": routed}
    return sc


def test_BG_MARCH_06_no_power_token_is_offered_where_routed_units_must_stay():
    x = routed_scene({"footman": 1}).decision("stark").options.orders["karhold"]
    assert x.units == {"footman": 1} and not x.may_leave_power_token
    with pytest.raises(RuleViolation) as err:  # every standing unit leaves, the routed one stays
        routed_scene({"footman": 1}).run(
            "stark", M(area="karhold", moves={"winterfell": {"footman": 1}}, leave_power_token=True)
        )
    assert err.value.rule == "BG-MARCH-06"
    assert routed_scene({}).decision("stark").options.orders["karhold"].may_leave_power_token


# --- mustering (Consolidate Power, BG-CP-03) ------------------------------------------------------------------


def cp_scene() -> Position:
    return scene(
        {"winterfell": ("stark", {"footman": 1}), "karhold": ("stark", {"siege_engine": 2})},
        {"winterfell": "consolidate_power_special"},
        supply={"stark": 2},
    )


def test_BG_MUSTER_02_consolidate_options_state_the_footmen_that_may_be_upgraded_and_units_left():
    o = cp_scene().decision("stark").options
    x = o.orders["winterfell"]
    assert (x.muster_points, x.footmen) == (2, 1)
    limits = board_data.setup().houses["stark"].unit_limits
    assert o.units_left == {
        "footman": limits["footman"] - 1,
        "knight": limits["knight"],
        "ship": limits["ship"],
        "siege_engine": 0,
    }
    assert o.supply == SupplyLimit(allowed=[3, 2, 2], units={"karhold": 2, "winterfell": 1})
    two_upgrades = [R(unit="knight", upgrade=True), R(unit="knight", upgrade=True)]
    with pytest.raises(RuleViolation) as err:  # 2 points, but only 1 Footman stands there
        cp_scene().run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=two_upgrades))
    assert err.value.rule == "BG-MUSTER-02"
    with pytest.raises(RuleViolation) as err:  # no Siege Engine left (units_left 0)
        cp_scene().run(
            "stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="siege_engine", upgrade=True)])
        )
    assert err.value.rule == "BG-COMP-03"
    sc = cp_scene()
    sc.run(
        "stark",
        acmd.ResolveConsolidatePower(area="winterfell", muster=[R(unit="knight", upgrade=True), R(unit="footman")]),
    )
    assert sc.state.areas["winterfell"].units == {"knight": 1, "footman": 1}


# --- mustering (Westeros) -------------------------------------------------------------------------------


def mustering(units, **kw):
    sc = westeros(6, ("mustering", "last_days_of_summer", "sea_of_storms"), units=units, **kw)
    sc.begin_westeros()
    while sc.state.westeros.musterers[0] != "stark":
        sc.muster(sc.state.westeros.musterers[0], {})
    return sc


def supply_muster():
    return mustering(
        {
            "winterfell": ("stark", {"footman": 2}),
            "white_harbor": ("stark", {"footman": 2}),
            "karhold": ("stark", {"footman": 1}),
        },
        supply={"stark": 1},
    )


def test_BG_MUSTER_05_muster_options_state_the_supply_limit_of_all_areas_together():
    o = supply_muster().decision("stark").options
    assert o.supply == SupplyLimit(allowed=[3, 2], units={"karhold": 1, "white_harbor": 2, "winterfell": 2})
    assert not fits(o.supply, {"winterfell": 1, "white_harbor": 1}) and fits(o.supply, {"winterfell": 1})
    with pytest.raises(RuleViolation) as err:
        supply_muster().muster(
            "stark", {"winterfell": [Recruit(unit="footman")], "white_harbor": [Recruit(unit="footman")]}
        )
    assert err.value.code == "supply"
    sc = supply_muster()
    sc.muster("stark", {"winterfell": [Recruit(unit="footman")]})
    assert sc.state.areas["winterfell"].units == {"footman": 3}


def port_muster():
    return mustering(
        {"winterfell": ("stark", {"footman": 1}), "port_of_winterfell": ("stark", {"ship": 2})}, supply={"stark": 2}
    )


def test_BG_MAP_07_muster_options_state_the_room_left_in_the_port():
    o = port_muster().decision("stark").options
    x = o.areas["winterfell"]
    assert (x.footmen, x.port_room) == (1, {"port_of_winterfell": 1})
    two = [Recruit(unit="ship", area="port_of_winterfell"), Recruit(unit="ship", area="port_of_winterfell")]
    with pytest.raises(RuleViolation) as err:
        port_muster().muster("stark", {"winterfell": two})
    assert err.value.rule == "BG-MAP-07"
    sc = port_muster()
    sc.muster("stark", {"winterfell": two[:1]})
    assert sc.state.areas["port_of_winterfell"].units == {"ship": 3}
