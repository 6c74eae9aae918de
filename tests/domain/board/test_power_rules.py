"""Power tokens (BG-POWER-02..05) and the Dominance tokens' timing and the Blade (BG-COK-07, BG-COK-09).

Every gain is taken from the house's Pool and every spend returns to it (the Pool is derived:
20 - available - on the board, :func:`domain.board.power.pool`), so each test checks both sides.
"""

from __future__ import annotations

import pytest

from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.commands import AssignOrders
from domain.board.control import controller
from domain.board.planning import areas_needing_orders
from domain.board.power import pool, tokens_on_board
from domain.board.redaction import redact_event, view_for
from domain.board.victory import victory_points
from domain.core.errors import RuleViolation
from tests.support.action_positions import ALL_HOUSES, acmd, of_type
from tests.support.combat_helpers import attack, cards, fight, north
from tests.support.rounds import to_next_action, to_next_planning
from tests.support.westeros_positions import WesterosPosition, westeros, wev

M = acmd.ResolveMarch


def power_and_pool(sc, house):
    return sc.state.houses[house].power, pool(sc.state, house)


# --- BG-POWER-02: ways to gain Power ------------------------------------------------------------


def test_BG_POWER_02_consolidate_power_and_raiding_it_take_power_from_the_pool():
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "karhold": ("greyjoy", {"footman": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
        },
        {"winterfell": "consolidate_power", "karhold": "raid", "castle_black": "consolidate_power"},
        power={"stark": 2, "greyjoy": 1},
        tracks={"iron_throne": ["greyjoy", "stark", "lannister", "baratheon", "martell", "tyrell"]},
    )
    sc.begin()
    sc.run("greyjoy", acmd.ResolveRaid(area="karhold", target="winterfell"))  # +1 Greyjoy, -1 Stark
    assert power_and_pool(sc, "greyjoy") == (2, 18) and power_and_pool(sc, "stark") == (1, 19)
    sc.run("greyjoy", acmd.ResolveConsolidatePower(area="castle_black"))  # 1 + 1 crown
    assert power_and_pool(sc, "greyjoy") == (4, 16)


def test_BG_POWER_02_game_of_thrones_gives_power_from_the_pool():
    sc = westeros(
        6,
        ("last_days_of_summer", "game_of_thrones", "sea_of_storms"),
        units={"winterfell": ("stark", {"footman": 1}), "karhold": ("stark", {"footman": 1})},
        power={"stark": 1},
    )
    before = power_and_pool(sc, "stark")
    sc.begin_westeros()
    assert power_and_pool(sc, "stark") == (before[0] + 2, before[1] - 2)


def test_BG_POWER_02_a_card_effect_gives_power_tywin():
    sc = north(a="lannister", d="stark", att={"knight": 2}, power={"lannister": 0}, no_blade=True)
    fight(sc, "tywin_lannister", "catelyn_stark", attacker="lannister", defender="stark")
    assert power_and_pool(sc, "lannister") == (2, 18)


# --- BG-POWER-03: ways to spend Power -------------------------------------------------------------


def test_BG_POWER_03_bids_go_to_the_pool():
    sc = westeros(3, ("last_days_of_summer", "clash_of_kings", "sea_of_storms"), power={"stark": 5})
    sc.begin_westeros()
    sc.bids({"stark": 4, "lannister": 0, "baratheon": 0})
    assert power_and_pool(sc, "stark") == (1, 19)


def test_BG_POWER_03_leaving_a_control_token_moves_power_to_the_board_not_the_pool():
    sc = WesterosPosition(6).setup({"karhold": ("stark", {"footman": 1})}, {"karhold": "march_0"}, power={"stark": 3})
    sc.begin()
    sc.run("stark", M(area="karhold", moves={"castle_black": {"footman": 1}}, leave_power_token=True))
    assert sc.state.houses["stark"].power == 2 and tokens_on_board(sc.state, "stark") == 1
    assert pool(sc.state, "stark") == 17


def test_BG_POWER_03_a_card_cost_goes_to_the_pool_aeron():
    sc = north(a="greyjoy", att={"knight": 1}, no_blade=True, power={"greyjoy": 3})
    fight(sc, "aeron_damphair", "the_hound", attacker="greyjoy")
    sc.run("greyjoy", acmd.ChooseAbility(choice="euron_crows_eye"))
    assert power_and_pool(sc, "greyjoy") == (1, 19)


# --- BG-POWER-04: open Power, secret bids ------------------------------------------------------------


def test_BG_POWER_04_available_power_is_public_bids_are_secret_until_revealed():
    sc = westeros(3, ("last_days_of_summer", "clash_of_kings", "sea_of_storms"), power={"stark": 4, "lannister": 2})
    for reader in (None, "lannister", "baratheon"):
        powers = {h.house: h.power for h in view_for(sc.state, reader).houses}
        assert powers["stark"] == 4 and powers["lannister"] == 2
    sc.begin_westeros()
    out = sc.bid("stark", 3)
    bid = of_type(out, wev.BidSubmitted)[0]
    assert redact_event(bid, "stark").amount == 3
    assert redact_event(bid, "lannister").amount is None and redact_event(bid, None).amount is None
    for reader in (None, "lannister"):  # the sealed bid does not show as Power already spent
        view = view_for(sc.state, reader)
        assert {h.house: h.power for h in view.houses}["stark"] == 4
        assert view.westeros.bidding.submitted == ["stark"] and view.westeros.bidding.bids == {}
    assert view_for(sc.state, "stark").westeros.bidding.bids == {"stark": 3}  # its own, before the reveal
    out = sc.bids({"lannister": 1, "baratheon": 0})
    revealed = of_type(out, wev.BidsRevealed)[0]
    assert redact_event(revealed, "lannister").bids == {"stark": 3, "lannister": 1, "baratheon": 0}
    assert {h.house: h.power for h in view_for(sc.state, "baratheon").houses}["stark"] == 1


# --- BG-POWER-05: Power tokens on the board ----------------------------------------------------------


def test_BG_POWER_05_a_token_keeps_control_and_takes_no_order():
    sc = WesterosPosition(6).setup(
        {"winterfell": ("stark", {"knight": 1})},
        {"winterfell": "march_0"},
        tokens={"white_harbor": "stark"},
    )
    assert controller(sc.state, "white_harbor") == "stark" and victory_points(sc.state, "stark") == 2
    sc.begin()
    sc.run("stark", M(area="winterfell"))
    to_next_planning(sc)
    assert "white_harbor" not in areas_needing_orders(sc.state, "stark")
    with pytest.raises(RuleViolation):
        sc.run("stark", AssignOrders(orders={"winterfell": "march_0", "white_harbor": "defense_plus_1"}))
    sc.run("stark", AssignOrders(orders={"winterfell": "march_0"}))
    assert controller(sc.state, "white_harbor") == "stark"


def test_BG_POWER_05_a_token_has_no_strength():
    sc = north(tokens={"karhold": "lannister"})
    attack(sc)
    assert sc.decision("stark").options.strength["lannister"] == 1  # the footman only


def test_BG_POWER_05_an_enemy_entering_sends_the_token_to_the_pool():
    sc = north(att={"knight": 2}, dfn={"footman": 1}, tokens={"karhold": "lannister", "castle_black": "lannister"})
    before = pool(sc.state, "lannister")
    sc.run("stark", M(area="winterfell", moves={"castle_black": {"knight": 1}, "karhold": {"knight": 1}}))
    assert sc.state.areas["castle_black"].power_token is None and controller(sc.state, "castle_black") == "stark"
    assert pool(sc.state, "lannister") == before + 1
    cards(sc, stark="eddard_stark", lannister="cersei_lannister")  # Stark wins karhold
    assert sc.state.areas["karhold"].power_token is None and controller(sc.state, "karhold") == "stark"
    assert pool(sc.state, "lannister") == before + 2
    removed = [(e.area, e.reason) for e in of_type(sc.events, aev.PowerTokenRemoved)]
    assert removed == [("castle_black", "BG-MARCH-05"), ("karhold", "BG-COMBAT-24")]


# --- BG-COK-07: a Dominance token changes hands as soon as its track is resolved ---------------------


def test_BG_COK_07_each_dominance_token_moves_when_its_own_track_is_resolved():
    sc = westeros(3, ("last_days_of_summer", "clash_of_kings", "sea_of_storms"))
    sc.begin_westeros()
    # Before: Iron Throne baratheon, Fiefdoms stark (Blade), King's Court lannister (Raven).
    sc.bids({"stark": 2, "lannister": 1, "baratheon": 0})
    assert sc.state.tracks.iron_throne[0] == "stark"  # the Iron Throne token already moved
    assert sc.state.blade_holder() == "stark" and sc.state.raven_holder() == "lannister"
    sc.bids({"stark": 0, "lannister": 2, "baratheon": 1})
    assert sc.state.blade_holder() == "lannister"  # the Blade moved before King's Court is bid for
    assert sc.state.raven_holder() == "lannister"
    assert [d.commands for d in sc.decisions()] == [["bid"]] * 3
    sc.bids({"stark": 0, "lannister": 1, "baratheon": 2})
    assert sc.state.raven_holder() == "baratheon"


# --- BG-COK-09: the Valyrian Steel Blade, once per round -----------------------------------------------


def blade_offers(sc) -> int:
    return sum(1 for e in sc.events if isinstance(e, ev.StepBegan) and e.step == "use_blade")


def test_BG_COK_09_the_blade_once_per_round_used_until_the_clean_up():
    """Stark holds the Blade (Fiefdoms 1) and fights twice in round 1: the Blade is offered in the
    first combat only and stays used. The clean-up turns it back, and it is offered again in the
    first combat of round 2."""
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"knight": 1}),
            "white_harbor": ("stark", {"knight": 1}),
            "karhold": ("lannister", {"footman": 1}),
            "moat_cailin": ("lannister", {"footman": 1}),
            "seagard": ("lannister", {"footman": 1}),
        },
        {
            "winterfell": "march_0",
            "white_harbor": "march_0",
            "karhold": "defense_plus_1",
            "moat_cailin": "defense_plus_1",
            "seagard": "defense_plus_1",
        },
        garrisons={},
        supply={h: 6 for h in ALL_HOUSES},
        tracks={"fiefdoms": ["stark", "greyjoy", "tyrell", "martell", "baratheon", "lannister"]},
    )
    sc.begin()
    attack(sc)
    cards(sc, stark="greatjon_umber", lannister="cersei_lannister")
    assert sc.decision().commands == ["use_blade"]
    sc.run("stark", acmd.UseBlade(use=True))
    assert of_type(sc.events, aev.CombatDecided)[-1].strength["stark"] == 2 + 2 + 1
    assert sc.state.blade_used  # turned to its used side
    sc.run("stark", M(area="white_harbor", moves={"moat_cailin": {"knight": 1}}))
    cards(sc, stark="eddard_stark", lannister="ser_jaime_lannister")
    assert of_type(sc.events, aev.CombatDecided)[-1].strength["stark"] == 2 + 4  # no Blade
    assert blade_offers(sc) == 1 and len(of_type(sc.events, aev.BladeUsed)) == 1
    assert sc.state.phase == "westeros" and not sc.state.blade_used  # the clean-up turned it back
    to_next_action(sc, {"stark": {"karhold": "consolidate_power", "moat_cailin": "march_0"}})
    sc.run("stark", M(area="moat_cailin", moves={"seagard": {"knight": 1}}))
    cards(sc, stark="robb_stark", lannister="the_hound")
    assert blade_offers(sc) == 2 and sc.decision().commands == ["use_blade"]
