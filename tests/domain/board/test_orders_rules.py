"""Order tokens in play (BG-ORDER-02..07): what each type does, and where a used token goes.

Each test sets up a position (``tests/support/action_positions.py``) where the order matters and
checks the outcome through ``decide``/``fold``; BG-ORDER-01 (the token set) is in test_setup.py and
BG-ORDER-08 with the combat clean-up (test_combat.py, BG-COMBAT-28).
"""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.board.commands import AssignOrders
from domain.board.power import pool
from domain.core.errors import RuleViolation
from tests.support.action_positions import acmd, of_type
from tests.support.combat_helpers import attack, north
from tests.support.rounds import to_next_planning
from tests.support.westeros_positions import WesterosPosition


def initial(sc) -> dict[str, int]:
    """Initial combat strength as offered with the House card choice (BG-COMBAT-07/08)."""
    return sc.decision("stark").options.strength


@pytest.mark.parametrize(("march", "bonus"), [("march_minus_1", -1), ("march_0", 0), ("march_plus_1_special", 1)])
def test_BG_ORDER_02_the_march_number_is_added_to_the_attackers_strength(march, bonus):
    sc = north(att={"knight": 1, "footman": 1}, march=march)
    attack(sc)
    assert initial(sc) == {"stark": 3 + bonus, "lannister": 1}


def test_BG_ORDER_02_march_lets_the_units_move():
    sc = north(att={"knight": 1, "footman": 1}, dfn={"footman": 1})
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"castle_black": {"footman": 1}}))
    assert sc.state.areas["castle_black"].units == {"footman": 1}
    assert sc.state.areas["winterfell"].units == {"knight": 1}


def test_BG_ORDER_03_defense_counts_only_in_the_attacked_area():
    """Lannister's Defense +1 in karhold counts when karhold is attacked; its Defense +2 in the
    neighbouring castle_black adds nothing to that combat."""
    sc = north(
        defense="defense_plus_1",
        extra={"castle_black": ("lannister", {"footman": 1})},
        orders={"castle_black": "defense_plus_2_special"},
    )
    attack(sc)
    assert initial(sc) == {"stark": 2, "lannister": 1 + 1}


def test_BG_ORDER_03_no_defense_order_no_bonus():
    sc = north()
    attack(sc)
    assert initial(sc) == {"stark": 2, "lannister": 1}


@pytest.mark.parametrize(
    ("side", "stark", "lannister"), [("attacker", 2 + 2, 1), ("defender", 2, 1 + 2), ("none", 2, 1)]
)
def test_BG_ORDER_04_support_goes_to_the_side_its_house_chooses_special_adds_one(side, stark, lannister):
    """Baratheon's footman in castle_black (next to karhold) with Support +1 backs either combatant,
    or nobody: footman 1 + the special token's +1."""
    sc = north(extra={"castle_black": ("baratheon", {"footman": 1})}, orders={"castle_black": "support_plus_1_special"})
    attack(sc)
    sc.run("baratheon", acmd.DeclareSupport(side=side))
    assert initial(sc) == {"stark": stark, "lannister": lannister}


def test_BG_ORDER_04_support_for_its_own_house_and_only_next_to_the_combat():
    """Stark's own Support in castle_black counts for Stark; a Support order not adjacent to karhold
    (moat_cailin) is never asked and adds nothing."""
    sc = north(
        extra={"castle_black": ("stark", {"knight": 1}), "moat_cailin": ("baratheon", {"footman": 1})},
        orders={"castle_black": "support_0", "moat_cailin": "support_plus_1_special"},
    )
    attack(sc)
    assert sc.state.action.combat.support_queue == []
    assert initial(sc) == {"stark": 2 + 2, "lannister": 1}


def test_BG_ORDER_05_raid_removes_one_adjacent_enemy_order():
    """Stark's Raid in castle_black may remove Lannister's Support in karhold (adjacent), not the
    Support in white_harbor (not adjacent) nor Stark's own Support in winterfell."""
    sc = WesterosPosition(6).setup(
        {
            "castle_black": ("stark", {"footman": 1}),
            "winterfell": ("stark", {"footman": 1}),
            "karhold": ("lannister", {"footman": 1}),
            "white_harbor": ("lannister", {"footman": 1}),
        },
        {"castle_black": "raid", "winterfell": "support_0", "karhold": "support_0", "white_harbor": "support_0"},
    )
    sc.begin()
    assert sc.decision("stark").options.targets == {"castle_black": ["karhold"]}
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ResolveRaid(area="castle_black", target="white_harbor"))
    out = sc.run("stark", acmd.ResolveRaid(area="castle_black", target="karhold"))
    raided = [e for e in of_type(out, aev.OrderRemoved) if e.reason != "BG-RAID-04"]
    assert [(e.area, e.house) for e in raided] == [("karhold", "lannister")]
    # The raid was the last order to resolve: the clean-up removed the two untouched Supports.
    assert of_type(out, aev.ActionPhaseEnded)[0].removed_orders == {
        "winterfell": "support_0",
        "white_harbor": "support_0",
    }


def test_BG_ORDER_06_consolidate_power_gives_power():
    """Consolidate Power in winterfell (1 crown): 1 + 1 Power from the Pool."""
    sc = WesterosPosition(6).setup({"winterfell": ("stark", {"footman": 1})}, {"winterfell": "consolidate_power"})
    sc.state.houses["stark"].power = 0
    sc.begin()
    before = pool(sc.state, "stark")
    sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell"))
    assert sc.state.houses["stark"].power == 2 and pool(sc.state, "stark") == before - 2


def test_BG_ORDER_07_resolved_and_removed_tokens_return_for_the_next_planning():
    """Stark resolves its March +1 (the one special March token), its Special Raid removes nothing,
    and its only Special Support is raided away by Lannister. In the next Planning phase all three
    tokens are offered again and may be placed."""
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
            "bay_of_ice": ("lannister", {"ship": 1}),
        },
        {
            "winterfell": "march_plus_1_special",
            "castle_black": "support_plus_1_special",
            "karhold": "raid_special",
            "bay_of_ice": "raid",
        },
        tracks={"kings_court": ["stark", "lannister", "martell", "baratheon", "tyrell", "greyjoy"]},
    )
    sc.begin()
    while sc.state.phase == "action":
        house, step = sc.state.action.current_house, sc.state.step
        if step == "resolve_raid" and house == "lannister":
            sc.run(house, acmd.ResolveRaid(area="bay_of_ice", target="castle_black"))
        elif step == "resolve_raid":
            sc.run(house, acmd.ResolveRaid(area="karhold"))
        else:
            sc.run(house, acmd.ResolveMarch(area="winterfell", moves={"the_stony_shore": {"footman": 1}}))
    removed = {e.order for e in of_type(sc.events, aev.OrderRemoved) if e.house == "stark"}
    assert removed == {"march_plus_1_special", "support_plus_1_special", "raid_special"}
    to_next_planning(sc, ("last_days_of_summer", "last_days_of_summer", "sea_of_storms"))  # no Raids now
    opts = sc.decision("stark").options
    assert {"march_plus_1_special", "support_plus_1_special"} <= set(opts.special_tokens)
    assert opts.tokens["march_plus_1_special"] == 1 and opts.tokens["support_plus_1_special"] == 1
    sc.run(
        "stark",
        AssignOrders(
            orders={
                "the_stony_shore": "march_plus_1_special",
                "castle_black": "support_plus_1_special",
                "karhold": "defense_plus_2_special",
            }
        ),
    )
    assert sc.state.planning.sealed["stark"]["the_stony_shore"] == "march_plus_1_special"
