"""Mother of Dragons Sea Order tokens (MOD-SEA-01, 02, 04, 05; MOD-SEA-03 as far as no Iron Bank is
in play): each house's 3 sea tokens are placed like any order, sea tokens on land are removed after
the Messenger Raven, before the first order resolves, and at sea or in a port they work as ordinary
orders."""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board.action import events as aev
from domain.board.decisions import AssignOrdersOptions, pending_decisions
from domain.board.strength import initial_strength
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type
from tests.support.board_builders import started_game
from tests.support.mod_positions import ModPosition

SEA_TOKENS = {"sea_march_minus_1", "sea_support", "iron_bank"}
STARK = {"the_shivering_sea": "sea_march_minus_1", "white_harbor": "sea_support", "winterfell": "iron_bank"}
GREYJOY = {
    "greywater_watch": "defense_plus_1",
    "ironmans_bay": "sea_support",
    "port_of_pyke": "iron_bank",
    "pyke": "sea_march_minus_1",
}


def planning() -> ModPosition:
    return ModPosition(reveal=False)


def test_MOD_SEA_05_each_house_has_18_tokens_with_its_3_sea_tokens() -> None:
    """MOD-SEA-05 / MOD-SETUP-02: every player house may place its 15 ordinary tokens and its 3 Sea
    Order tokens (one copy of each); the base game knows no sea token."""
    p = planning()
    for d in pending_decisions(p.state):
        opts = d.options
        assert isinstance(opts, AssignOrdersOptions)
        assert sum(opts.tokens.values()) == 18
        assert {t: opts.tokens[t] for t in SEA_TOKENS} == {t: 1 for t in SEA_TOKENS}
    base = started_game(4)
    house = base.state.turn_order()[0]
    opts = pending_decisions(base.state)[0].options
    assert isinstance(opts, AssignOrdersOptions) and sum(opts.tokens.values()) == 15
    area = next(iter(opts.areas))
    with pytest.raises(RuleViolation) as err:
        base.submit(house, {area: "sea_support"})
    assert err.value.code == "unknown_order"


def test_MOD_SEA_05_planning_rules_apply_to_sea_tokens() -> None:
    """MOD-SEA-05: one copy of each sea token, and every area with units still needs an order."""
    p = planning()
    version = p.state.version
    with pytest.raises(RuleViolation) as err:
        p.run("stark", cmd.AssignOrders(orders={**STARK, "winterfell": "sea_support"}))
    assert err.value.rule == "BG-ORDER-01"
    with pytest.raises(RuleViolation) as err:
        p.run("stark", cmd.AssignOrders(orders={"the_shivering_sea": "sea_support"}))
    assert err.value.code == "orders_incomplete"
    assert p.state.version == version


def test_MOD_SEA_04_no_sea_token_is_special() -> None:
    """MOD-SEA-04: none of the sea tokens is a special order, so a house with no King's Court star
    (Greyjoy, last on the track) may place all three."""
    p = planning()
    opts = next(d.options for d in pending_decisions(p.state) if d.house == "greyjoy")
    assert isinstance(opts, AssignOrdersOptions)
    assert opts.special_limit == 0 and not SEA_TOKENS & set(opts.special_tokens)
    p.run("greyjoy", cmd.AssignOrders(orders=GREYJOY))
    assert p.state.planning.sealed["greyjoy"] == GREYJOY


def test_MOD_SEA_02_sea_tokens_on_land_are_removed_before_any_order_resolves() -> None:
    """MOD-SEA-01/02: at the start of the Action phase the sea tokens in land areas (Stark's in White
    Harbor and Winterfell, Greyjoy's in Pyke) are removed with no effect; those at sea and in a port
    stay."""
    p = ModPosition(orders={"stark": STARK, "greyjoy": GREYJOY})
    events = p.begin()
    removed = {(e.area, e.order) for e in of_type(events, aev.OrderRemoved) if e.reason == "MOD-SEA-02"}
    assert removed == {("white_harbor", "sea_support"), ("winterfell", "iron_bank"), ("pyke", "sea_march_minus_1")}
    orders = {a: o.order for a, o in p.state.orders.items()}
    assert orders["the_shivering_sea"] == "sea_march_minus_1"
    assert orders["ironmans_bay"] == "sea_support" and orders["port_of_pyke"] == "iron_bank"
    assert not {"white_harbor", "winterfell", "pyke"} & set(orders)
    # removed before the first step opened: the raid step's first order is not one of them
    began = [type(e).__name__ for e in events]
    assert began.index("OrderRemoved") < began.index("OrderTurnBegan")


def test_MOD_SEA_02_a_sea_token_the_raven_puts_on_land_is_removed_too() -> None:
    """MOD-SEA-02: the removal comes after the Messenger Raven: a sea token swapped onto land by the
    Raven holder (Lannister) is removed like the others."""
    p = ModPosition(raven=cmd.RavenReplaceOrder(area="lannisport", new_order="sea_support"))
    assert p.state.orders["lannisport"].order == "sea_support"
    events = p.begin()
    assert [(e.area, e.reason) for e in of_type(events, aev.OrderRemoved)] == [("lannisport", "MOD-SEA-02")]


def sea_scene(units, orders) -> ModPosition:
    sc = ModPosition().setup(units, orders, garrisons={})
    sc.begin()
    return sc


def test_MOD_SEA_01_a_sea_march_moves_ships_with_its_minus_1() -> None:
    """MOD-SEA-01/04: a Sea March -1 at sea resolves as a March: the Ships move; against a defender its
    -1 counts (1 Ship - 1 = 0 against 1 Ship + Defense +1)."""
    sc = sea_scene(
        {"the_shivering_sea": ("stark", {"ship": 2}), "the_narrow_sea": ("arryn", {"ship": 1})},
        {"the_shivering_sea": "sea_march_minus_1", "the_narrow_sea": "defense_plus_1"},
    )
    assert sc.state.step == "resolve_march" and sc.state.action.current_house == "stark"
    sc.run("stark", acmd.ResolveMarch(area="the_shivering_sea", moves={"the_narrow_sea": {"ship": 1}}))
    combat = sc.state.action.combat
    assert combat is not None and combat.march_order == "sea_march_minus_1"
    assert initial_strength(sc.state, combat) == {"stark": 0, "arryn": 2}


def test_MOD_SEA_01_a_sea_support_backs_a_land_combat_with_its_ships() -> None:
    """MOD-SEA-01/04: a Sea Support +0 at sea supports an adjacent combat like a Support order."""
    sc = sea_scene(
        {
            "winterfell": ("stark", {"knight": 1}),
            "white_harbor": ("arryn", {"footman": 1}),
            "the_bite": ("arryn", {"ship": 2}),
        },
        {"winterfell": "march_0", "white_harbor": "defense_plus_1", "the_bite": "sea_support"},
    )
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"white_harbor": {"knight": 1}}))
    combat = sc.state.action.combat
    assert combat is not None
    assert initial_strength(sc.state, combat) == {"stark": 2, "arryn": 1 + 1 + 2}


def test_MOD_SEA_03_the_iron_bank_order_can_be_raided_without_power() -> None:
    """MOD-SEA-03 (Review 2 "MOD-SEA-05 without Targaryen"): the Iron Bank order may be raided, and the
    raider steals no Power."""
    sc = sea_scene(
        {"the_shivering_sea": ("stark", {"ship": 1}), "the_narrow_sea": ("greyjoy", {"ship": 1})},
        {"the_shivering_sea": "raid", "the_narrow_sea": "iron_bank"},
    )
    power = {h: sc.state.houses[h].power for h in ("stark", "greyjoy")}
    assert sc.decision("stark").options.targets == {"the_shivering_sea": ["the_narrow_sea"]}
    events = sc.run("stark", acmd.ResolveRaid(area="the_shivering_sea", target="the_narrow_sea"))
    assert "the_narrow_sea" not in sc.state.orders
    assert not of_type(events, aev.PowerGained) and not of_type(events, aev.PowerSpent)
    assert {h: sc.state.houses[h].power for h in power} == power


def test_MOD_SEA_03_an_unraided_iron_bank_order_does_nothing_and_leaves_at_clean_up() -> None:
    """Review 2 "MOD-SEA-05 without Targaryen": without the Iron Bank no step resolves the order; it
    leaves with the other orders at the clean-up."""
    sc = sea_scene({"bay_of_ice": ("greyjoy", {"ship": 1})}, {"bay_of_ice": "iron_bank"})
    ended = [e for e in sc.events if isinstance(e, aev.ActionPhaseEnded)]
    assert ended and ended[-1].removed_orders == {"bay_of_ice": "iron_bank"}
    assert sc.state.phase == "westeros"


def test_base_game_unchanged_by_sea_orders() -> None:
    """The base game places and resolves its 15 tokens exactly as before (no MOD-SEA removal)."""
    sc = Position(6)
    events = sc.begin()
    assert not [e for e in of_type(events, aev.OrderRemoved) if e.reason == "MOD-SEA-02"]
