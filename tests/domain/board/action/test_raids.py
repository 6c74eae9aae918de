"""BG-RAID-01..05: Raid orders."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type


def raid_scene(units, orders, **kw):
    sc = Position(6).setup(units, orders, **kw)
    sc.begin()
    return sc


def test_BG_RAID_01_regular_raid_removes_support_raid_or_cp_but_not_defense_or_march():
    sc = raid_scene(
        {
            "karhold": ("stark", {"footman": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
            "winterfell": ("greyjoy", {"footman": 1}),
            "widows_watch": ("greyjoy", {"footman": 1}),
        },
        {"karhold": "raid", "castle_black": "support_0", "winterfell": "defense_plus_1", "widows_watch": "march_0"},
    )
    assert sc.decision("stark").options.targets == {"karhold": ["castle_black"]}
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ResolveRaid(area="karhold", target="winterfell"))
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ResolveRaid(area="karhold", target="widows_watch"))
    sc.run("stark", acmd.ResolveRaid(area="karhold", target="castle_black"))
    assert "castle_black" not in sc.state.orders and "karhold" not in sc.state.orders


def test_BG_RAID_01_special_raid_also_removes_defense():
    sc = raid_scene(
        {"karhold": ("stark", {"footman": 1}), "winterfell": ("greyjoy", {"footman": 1})},
        {"karhold": "raid_special", "winterfell": "defense_plus_1"},
    )
    sc.run("stark", acmd.ResolveRaid(area="karhold", target="winterfell"))
    assert "winterfell" not in sc.state.orders


def test_BG_RAID_01_own_orders_cannot_be_raided():
    sc = raid_scene(
        {"karhold": ("stark", {"footman": 1}), "winterfell": ("stark", {"footman": 1})},
        {"karhold": "raid", "winterfell": "support_0"},
    )
    assert sc.decision("stark").options.targets == {"karhold": []}


def test_BG_RAID_02_land_raids_only_adjacent_land():
    # winterfell touches the_shivering_sea and bay_of_ice; a land raid cannot reach them.
    sc = raid_scene(
        {
            "winterfell": ("stark", {"footman": 1}),
            "the_shivering_sea": ("greyjoy", {"ship": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "raid", "the_shivering_sea": "support_0", "castle_black": "support_0"},
    )
    assert sc.decision("stark").options.targets == {"winterfell": ["castle_black"]}


def test_BG_RAID_02_sea_raids_adjacent_sea_land_and_port():
    sc = raid_scene(
        {
            "ironmans_bay": ("stark", {"ship": 1}),
            "port_of_pyke": ("greyjoy", {"ship": 1}),
            "pyke": ("greyjoy", {"footman": 1}),
            "the_golden_sound": ("lannister", {"ship": 1}),
        },
        {"ironmans_bay": "raid", "port_of_pyke": "consolidate_power", "pyke": "support_0", "the_golden_sound": "raid"},
    )
    targets = sc.decisions("lannister")[0].options.targets  # lannister raids first (turn order)
    assert targets == {"the_golden_sound": ["ironmans_bay"]}
    sc.run("lannister", acmd.ResolveRaid(area="the_golden_sound"))
    assert sc.decision("stark").options.targets == {"ironmans_bay": ["port_of_pyke", "pyke"]}


def test_BG_RAID_02_port_raids_only_its_sea():
    sc = raid_scene(
        {
            "port_of_pyke": ("greyjoy", {"ship": 1}),
            "ironmans_bay": ("stark", {"ship": 1}),
            "pyke": ("lannister", {"footman": 1}),
            "the_golden_sound": ("lannister", {"ship": 1}),
        },
        {"port_of_pyke": "raid", "ironmans_bay": "support_0", "pyke": "support_0", "the_golden_sound": "support_0"},
    )
    assert sc.decision("greyjoy").options.targets == {"port_of_pyke": ["ironmans_bay"]}


def test_BG_RAID_02_ship_transport_does_not_make_areas_adjacent_for_raids():
    sc = raid_scene(
        {
            "highgarden": ("tyrell", {"footman": 1}),
            "redwyne_straits": ("tyrell", {"ship": 1}),
            "west_summer_sea": ("tyrell", {"ship": 1}),
            "east_summer_sea": ("tyrell", {"ship": 1}),
            "sunspear": ("martell", {"footman": 1}),
        },
        {
            "highgarden": "raid_special",
            "sunspear": "support_0",
            "redwyne_straits": "support_0",
            "west_summer_sea": "support_0",
            "east_summer_sea": "support_0",
        },
    )
    assert "sunspear" not in sc.decision("tyrell").options.targets["highgarden"]


def test_BG_RAID_03_raiding_consolidate_power_moves_one_power():
    sc = raid_scene(
        {"karhold": ("stark", {"footman": 1}), "winterfell": ("greyjoy", {"footman": 1})},
        {"karhold": "raid", "winterfell": "consolidate_power_special"},
        power={"stark": 3, "greyjoy": 4},
    )
    out = sc.run("stark", acmd.ResolveRaid(area="karhold", target="winterfell"))
    assert sc.state.houses["stark"].power == 4 and sc.state.houses["greyjoy"].power == 3
    gained = of_type(out, aev.PowerGained)[0]
    assert (gained.house, gained.amount, gained.reason) == ("stark", 1, "BG-RAID-03")


def test_BG_RAID_03_raided_house_with_no_power_loses_nothing():
    sc = raid_scene(
        {"karhold": ("stark", {"footman": 1}), "winterfell": ("greyjoy", {"footman": 1})},
        {"karhold": "raid", "winterfell": "consolidate_power"},
        power={"stark": 3, "greyjoy": 0},
    )
    sc.run("stark", acmd.ResolveRaid(area="karhold", target="winterfell"))
    assert sc.state.houses["stark"].power == 4 and sc.state.houses["greyjoy"].power == 0


def test_BG_RAID_04_a_raid_with_no_target_is_simply_removed():
    sc = raid_scene({"karhold": ("stark", {"footman": 1})}, {"karhold": "raid"})
    out = sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert of_type(out, aev.RaidResolved)[0].target_area is None
    assert of_type(out, aev.OrderRemoved)[0].reason == "BG-RAID-04"


def test_BG_RAID_05_a_raided_raid_does_nothing():
    sc = raid_scene(
        {
            "dragonstone": ("baratheon", {"footman": 1}),
            "the_narrow_sea": ("baratheon", {"ship": 1}),
            "crackclaw_point": ("stark", {"footman": 1}),
            "the_eyrie": ("stark", {"footman": 1}),
        },
        {
            "the_narrow_sea": "raid",
            "dragonstone": "consolidate_power",
            "crackclaw_point": "raid",
            "the_eyrie": "defense_plus_1",
        },
    )
    # Baratheon (first in turn order) raids Stark's raid; Stark then has no raid left: step ends.
    sc.run("baratheon", acmd.ResolveRaid(area="the_narrow_sea", target="crackclaw_point"))
    assert "crackclaw_point" not in sc.state.orders
    assert sc.state.step == "resolve_consolidate_power"
