"""BG-ACT-01..05: the order of the Action phase, turns, and the clean-up."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from tests.support.action_positions import Position, acmd, ev, of_type

# 6 players: Iron Throne order baratheon, lannister, stark, martell, greyjoy, tyrell.


def test_planning_ends_at_the_threshold_and_the_system_opens_the_action_phase():
    sc = Position(6)
    assert (sc.state.phase, sc.state.step) == ("action", "awaiting_action_phase")
    out = sc.begin()
    assert isinstance(out[0], aev.ActionPhaseBegan)
    assert sc.state.action is not None and sc.state.deadline is not None


def test_BG_ACT_01_raids_then_marches_then_consolidate_power():
    sc = Position(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "lannisport": ("lannister", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
        },
        {"winterfell": "consolidate_power", "lannisport": "march_0", "karhold": "raid"},
    )
    sc.begin()
    assert sc.state.step == "resolve_raid" and sc.state.action.current_house == "stark"
    sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert sc.state.step == "resolve_march" and sc.state.action.current_house == "lannister"
    sc.run("lannister", acmd.ResolveMarch(area="lannisport"))
    assert sc.state.step == "resolve_consolidate_power" and sc.state.action.current_house == "stark"


def test_BG_ACT_02_one_order_at_a_time_in_turn_order_round_and_round():
    sc = Position(6).setup(
        {
            "karhold": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "lannisport": ("lannister", {"footman": 1}),
            "the_golden_sound": ("lannister", {"ship": 1}),
            "dragonstone": ("baratheon", {"footman": 1}),
        },
        {
            "karhold": "raid",
            "castle_black": "raid_special",
            "lannisport": "raid",
            "the_golden_sound": "raid_special",
            "dragonstone": "raid",
        },
    )
    sc.begin()
    seen = []
    while sc.state.step == "resolve_raid":
        house = sc.state.action.current_house
        seen.append(house)
        area = sc.decision(house).options.targets
        sc.run(house, acmd.ResolveRaid(area=sorted(area)[0]))
    # baratheon (1 raid) is skipped once it has none left; stark and lannister alternate.
    assert seen == ["baratheon", "lannister", "stark", "lannister", "stark"]


def test_BG_ACT_02_a_house_out_of_turn_is_refused():
    sc = Position(6).setup(
        {"karhold": ("stark", {"footman": 1}), "lannisport": ("lannister", {"footman": 1})},
        {"karhold": "raid", "lannisport": "raid"},
    )
    sc.begin()
    with pytest.raises(NotYourTurn):
        sc.run("stark", acmd.ResolveRaid(area="karhold"))


def test_BG_ACT_03_the_house_chooses_which_of_its_orders_to_resolve():
    sc = Position(6).setup(
        {"karhold": ("stark", {"footman": 1}), "castle_black": ("stark", {"footman": 1})},
        {"karhold": "raid", "castle_black": "raid"},
    )
    sc.begin()
    assert sorted(sc.decision("stark").options.targets) == ["castle_black", "karhold"]
    sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert "karhold" not in sc.state.orders and "castle_black" in sc.state.orders
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ResolveRaid(area="karhold"))  # already resolved


def test_BG_ACT_04_support_and_defense_orders_are_not_resolved_in_a_step():
    sc = Position(6).setup(
        {
            "karhold": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "winterfell": ("stark", {"footman": 1}),
        },
        {"karhold": "support_0", "castle_black": "defense_plus_1", "winterfell": "consolidate_power"},
    )
    sc.begin()
    sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell"))
    # Only the consolidate power was a turn; the clean-up removed the support and defense orders.
    assert sc.state.phase == "westeros"
    ended = of_type(sc.events, aev.ActionPhaseEnded)[-1]
    assert ended.removed_orders == {"castle_black": "defense_plus_1", "karhold": "support_0"}


def test_BG_ACT_04_a_support_order_backs_several_combats():
    sc = Position(6).setup(
        {
            "the_twins": ("stark", {"knight": 1}),
            "moat_cailin": ("stark", {"knight": 1}),
            "seagard": ("greyjoy", {"footman": 1}),
            "greywater_watch": ("greyjoy", {"footman": 1}),
            "the_fingers": ("lannister", {"footman": 1}),
        },
        {
            "the_twins": "march_0",
            "moat_cailin": "support_0",
            "seagard": "defense_plus_1",
            "greywater_watch": "defense_plus_1",
            "the_fingers": "consolidate_power",
        },
        hands={"greyjoy": ["dagmar_cleftjaw", "asha_greyjoy"]},
    )
    # moat_cailin (stark support) touches both seagard and greywater_watch.
    sc.begin()
    sc.run("stark", acmd.ResolveMarch(area="the_twins", moves={"seagard": {"knight": 1}}))
    assert sc.state.action.combat is not None
    assert "moat_cailin" in sc.state.orders


def test_BG_ACT_05_cleanup_removes_orders_stands_routed_units_resets_raven_and_blade():
    sc = Position(6).setup(
        {"karhold": ("stark", {"footman": 1}), "castle_black": ("stark", {"footman": 1})},
        {"karhold": "raid", "castle_black": "defense_plus_1"},
    )
    sc.state.raven_used = True
    sc.state.blade_used = True
    sc.begin()
    sc.state.action.routed = {"castle_black": {"footman": 1}}  # as if a retreat had routed it
    round_before = sc.state.round
    out = sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert isinstance(out[-1], ev.StepBegan)
    assert (out[-1].phase, out[-1].step, out[-1].round) == ("westeros", "awaiting_westeros_phase", round_before + 1)
    s = sc.state
    assert s.orders == {} and s.action is None and not s.raven_used and not s.blade_used
    assert (s.phase, s.step, s.round) == ("westeros", "awaiting_westeros_phase", round_before + 1)


def test_BG_ACT_05_after_round_10_the_game_stops_for_final_scoring():
    sc = Position(6).setup({"karhold": ("stark", {"footman": 1})}, {"karhold": "raid"})
    sc.state.round = 10
    sc.begin()
    sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert (sc.state.phase, sc.state.step, sc.state.round) == ("ended", "awaiting_final_scoring", 10)


def test_action_commands_outside_the_action_phase_are_wrong_phase():
    sc = Position(6)
    with pytest.raises(WrongPhase):
        sc.run("stark", acmd.ResolveRaid(area="winterfell"))


def test_the_public_log_narrates_the_action_phase():
    """Every player's Action-phase act leaves a sentence in the public log (narrative.describe)."""
    import random

    from domain.board.action import events as aev
    from domain.board.narrative import describe
    from domain.board.redaction import redact_event
    from tests.support import random_play as rp
    from tests.support.action_positions import Position
    from tests.support.invariants import make_checker

    narrated = (
        aev.RaidResolved,
        aev.MarchDeclared,
        aev.CombatBegan,
        aev.HouseCardsRevealed,
        aev.CombatDecided,
        aev.RetreatChosen,
        aev.ConsolidatedPower,
        aev.ActionPhaseBegan,
        aev.ActionPhaseEnded,
    )
    seen: set[type] = set()
    for seed in range(6):
        sc = Position(players=6, seed=f"log-{seed}")
        rng = random.Random(seed)
        for _ in range(4):  # a few rounds of random orders: marches and combats come up
            rp.play_action_phase(sc, rng, make_checker())
            if sc.state.phase != "westeros":
                break
            rp.next_planning(sc, rng)
            rp.play_planning(sc, rng)
        for e in sc.events:
            if isinstance(e, narrated):
                line = describe(redact_event(e, None))
                assert line, f"no log line for {type(e).__name__}"
                seen.add(type(e))
    assert {aev.MarchDeclared, aev.CombatDecided, aev.HouseCardsRevealed} <= seen
