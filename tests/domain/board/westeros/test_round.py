"""BG-ROUND-01..03 and BG-WEST-01..03: the round, the Westeros phase's order, the threat."""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board.action import commands as acmd
from domain.board.decider import decide, pending_system_work
from domain.core.errors import WrongPhase
from tests.support.westeros_positions import SYSTEM, WesterosPosition, event_types, of_type, westeros, wev


def test_BG_ROUND_01_action_cleanup_leads_to_westeros_then_planning_of_the_next_round():
    sc = WesterosPosition(6).setup(
        {"winterfell": ("stark", {"footman": 1}), "lannisport": ("lannister", {"footman": 1})},
        {"winterfell": "raid", "lannisport": "defense_plus_1"},
    )
    sc.begin()
    sc.run("stark", acmd.ResolveRaid(area="winterfell"))
    assert (sc.state.phase, sc.state.step, sc.state.round) == ("westeros", "awaiting_westeros_phase", 2)
    assert pending_system_work(sc.state)
    out = sc.resolve()
    assert isinstance(out[0], wev.WesterosPhaseBegan) and out[0].round == 2
    # the default stacked decks are shuffled ones here: resolve whatever comes until Planning opens
    for _ in range(200):
        if sc.state.phase == "planning":
            break
        if pending_system_work(sc.state):
            sc.resolve()
        else:
            sc.timeout()
    assert (sc.state.phase, sc.state.step, sc.state.round) == ("planning", "assign_orders", 2)
    assert sc.state.westeros is None


def test_BG_ROUND_02_round_1_opens_on_planning_without_a_westeros_phase():
    sc = WesterosPosition(4)
    assert not of_type(sc.events, wev.WesterosPhaseBegan)
    started = [e for e in sc.events if type(e).__name__ == "StepBegan"]
    assert (started[0].phase, started[0].round) == ("planning", 1)


def test_BG_ROUND_03_after_round_10_the_system_scores_and_the_game_is_over():
    sc = WesterosPosition(6).setup({"karhold": ("stark", {"footman": 1})}, {"karhold": "raid"})
    sc.state.round = 10
    sc.begin()
    sc.run("stark", acmd.ResolveRaid(area="karhold"))
    assert (sc.state.phase, sc.state.step) == ("ended", "awaiting_final_scoring")
    assert pending_system_work(sc.state)
    out = sc.resolve()
    assert isinstance(out[-1], wev.GameEnded) and out[-1].reason == "final_round" and out[-1].round == 10
    assert (sc.state.phase, sc.state.step, sc.state.winner) == ("ended", "game_over", out[-1].winner)
    assert not pending_system_work(sc.state)
    with pytest.raises(WrongPhase) as err:
        decide(sc.state, cmd.ResolvePending(), SYSTEM, sc.ctx)
    assert err.value.code == "game_over"


def test_BG_WEST_01_three_cards_revealed_then_resolved_in_order_I_II_III():
    sc = westeros(6, ("supply", "game_of_thrones", "sea_of_storms"))
    out = sc.begin_westeros()
    drawn = of_type(out, wev.WesterosCardDrawn)
    assert [(e.deck, e.card) for e in drawn] == [
        ("deck_i", "supply"),
        ("deck_ii", "game_of_thrones"),
        ("deck_iii", "sea_of_storms"),
    ]
    resolved = of_type(out, wev.WesterosCardResolutionBegan)
    assert [e.card for e in resolved] == ["supply", "game_of_thrones", "sea_of_storms"]
    # every card is revealed before the first one is resolved
    types = event_types(out)
    assert types.index("WesterosCardResolutionBegan") > max(i for i, t in enumerate(types) if t == "WesterosCardDrawn")
    assert (sc.state.phase, sc.state.step) == ("planning", "assign_orders")


def test_BG_WEST_01_each_wildling_icon_moves_the_threat_two_up():
    sc = westeros(6, ("a_throne_of_blades", "dark_wings_dark_words", "feast_for_crows"), threat=2)
    out = sc.begin_westeros()
    [moved] = of_type(out, wev.WildlingThreatChanged)
    assert (moved.previous, moved.threat, moved.reason) == (2, 8, "BG-WEST-01")
    assert sc.state.wildling_threat == 8


def test_BG_WEST_01_cards_without_icons_leave_the_threat():
    sc = westeros(6, ("supply", "game_of_thrones", "put_to_the_sword"), threat=4)
    out = sc.begin_westeros()
    assert not of_type(out, wev.WildlingThreatChanged) and sc.state.wildling_threat == 4


def test_BG_WEST_01_threat_reaching_12_attacks_at_once_before_any_card():
    sc = westeros(6, ("last_days_of_summer", "game_of_thrones", "put_to_the_sword"), threat=10)
    out = sc.begin_westeros()
    assert sc.state.wildling_threat == 12
    [attack] = of_type(out, wev.WildlingAttackBegan)
    assert (attack.strength, attack.reason) == (12, "BG-WEST-01")
    assert not of_type(out, wev.WesterosCardResolutionBegan)  # no card resolved before the attack
    assert sc.state.step == "bid"


def test_BG_WEST_02_the_track_and_a_wildlings_attack_card_make_two_attacks():
    sc = westeros(
        6,
        ("last_days_of_summer", "game_of_thrones", "wildlings_attack"),
        threat=10,
        wildling=["silence_at_the_wall", "silence_at_the_wall"][:1],
    )
    sc.begin_westeros()
    sc.zero_bids()  # 0 < 12: the wildlings win; Silence at the Wall; threat 12 -> 8
    assert sc.state.wildling_threat == 8
    attacks = of_type(sc.events, wev.WildlingAttackBegan)
    assert [a.strength for a in attacks] == [12, 8]
    assert attacks[1].reason == "BG-WCARD-09"


def test_BG_WEST_03_a_resolved_card_goes_to_the_bottom_of_its_deck():
    sc = westeros(6, ("supply", "clash_of_kings", "sea_of_storms"))
    sc.begin_westeros()
    decks = sc.state.westeros_decks
    assert decks["deck_i"][-1] == "supply" and len(decks["deck_i"]) == 10
    # deck II is being resolved (Clash of Kings bids), deck III waits: their cards are out of the decks
    assert len(decks["deck_ii"]) == 9 and sc.state.westeros.revealed["deck_ii"] == "clash_of_kings"
    assert len(decks["deck_iii"]) == 9 and sc.state.westeros.revealed["deck_iii"] == "sea_of_storms"
    sc.finish()
    decks = sc.state.westeros_decks
    assert [decks[d][-1] for d in ("deck_i", "deck_ii", "deck_iii")] == ["supply", "clash_of_kings", "sea_of_storms"]
    assert all(len(d) == 10 for d in decks.values())
