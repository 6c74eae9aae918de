"""Scenario fixtures for any position (issue 9): each new start point creates its position through
the rules, the next command plays on, and a fixture the rules refuse is refused with the rule.

Three players (Stark, Lannister, Baratheon), the default tracks: Iron Throne Baratheon, Lannister,
Stark; Fiefdoms Stark first (the Valyrian Steel Blade); King's Court Lannister first (the Raven).
"""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import commands as acmd
from domain.board.action import events as aev
from domain.board.audit import audit
from domain.board.decider import create, decide, fold
from domain.board.decisions import pending_decisions
from domain.board.redaction import redact_event
from domain.board.scenario import Scenario
from domain.board.state import Settings
from domain.board.westeros import commands as wcmd
from domain.board.westeros import events as wev
from domain.core.context import Context
from domain.core.errors import RuleViolation
from tests.support.full_games import NOW, SYSTEM, FullGame

DECK_I = ["mustering", "supply", "supply", "a_throne_of_blades", "mustering", "last_days_of_summer"]
DECK_I += ["supply", "mustering", "a_throne_of_blades", "winter_is_coming"]
DECK_II = ["game_of_thrones", "clash_of_kings", "game_of_thrones", "dark_wings_dark_words", "clash_of_kings"]
DECK_II += ["last_days_of_summer", "game_of_thrones", "dark_wings_dark_words", "clash_of_kings", "winter_is_coming"]
DECK_III = ["feast_for_crows", "put_to_the_sword", "wildlings_attack", "rains_of_autumn", "sea_of_storms"]
DECK_III += ["web_of_lies", "wildlings_attack", "storm_of_swords", "put_to_the_sword", "wildlings_attack"]
WILDLINGS = ["mammoth_riders", "silence_at_the_wall", "preemptive_raid", "crow_killers", "rattleshirts_raiders"]
WILDLINGS += ["massing_on_the_milkwater", "a_king_beyond_the_wall", "the_horde_descends", "skinchanger_scout"]

HOMES = {
    "winterfell": {"house": "stark", "units": {"footman": 2}},
    "lannisport": {"house": "lannister", "units": {"footman": 2}},
    "dragonstone": {"house": "baratheon", "units": {"footman": 2}},
}

#: Stark marches from Moat Cailin into The Twins (Lannister); Baratheon's ship in The Narrow Sea
#: can support The Twins. Eddard Stark (4, two swords) beats The Hound (2, two fortifications):
#: Stark 2+1+0+4 = 7 against Lannister 1 + 1 (Defense +1) + 1 (ship) + 2 = 5, no casualty;
#: Lannister may retreat to The Fingers, The Mountains of the Moon or Seagard.
COMBAT_AREAS = {
    "moat_cailin": {"house": "stark", "units": {"knight": 1, "footman": 1}, "order": "march_0"},
    "winterfell": {"house": "stark", "units": {"footman": 1}, "order": "defense_plus_1"},
    "the_twins": {"house": "lannister", "units": {"footman": 1}, "order": "defense_plus_1"},
    "lannisport": {"house": "lannister", "units": {"footman": 1}, "order": "consolidate_power"},
    "the_narrow_sea": {"house": "baratheon", "units": {"ship": 1}, "order": "support_0"},
    "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "consolidate_power"},
}
ATTACK = {"from_area": "moat_cailin", "to_area": "the_twins", "units": {"knight": 1, "footman": 1}}


def scenario(**fields) -> Scenario:
    fields.setdefault("areas", HOMES)
    return msgspec.convert(fields, Scenario)


def refused(sc: Scenario, rule: str, players: int = 3) -> RuleViolation:
    ctx = Context(now=NOW, seed="fixture-refused", game_id="g-refused")
    with pytest.raises(RuleViolation) as e:
        create(cmd.CreateGame(player_count=players, settings=Settings(), scenario=sc), ctx)
    assert e.value.code == "invalid_scenario", e.value.detail
    assert e.value.rule == rule, (e.value.rule, e.value.detail)
    return e.value


def started(sc: Scenario, seed: str = "fixture") -> FullGame:
    return FullGame(3, seed, scenario=sc)


def verifies(g: FullGame) -> None:
    """The offline verifier re-derives every event of the game, creation and start included."""
    report = audit(g.envelopes(), g.ctx.seed)
    assert report.rules_ok and report.shuffles_ok, report.problems
    assert report.rederived_through == len(g.events)
    assert g.same_as_refold()


# --- seats, decks, garrisons -------------------------------------------------------------------


def test_BG_SETUP_02_seat_houses_of_a_fixture_are_dealt_as_given():
    for order in (["baratheon", "stark", "lannister"], ["lannister", "baratheon", "stark"]):
        g = started(scenario(seat_houses=order))
        deal = next(e for e in g.events if isinstance(e, ev.GameStarted)).houses
        assert deal == {"seat1": order[0], "seat2": order[1], "seat3": order[2]}


def test_BG_SETUP_02_seat_houses_must_list_each_house_in_play_once():
    refused(scenario(seat_houses=["stark", "stark", "lannister"]), "BG-SETUP-02")
    refused(scenario(seat_houses=["stark", "lannister", "tyrell"]), "BG-SETUP-02")


def test_BG_SETUP_11_printed_garrisons_stay_unless_the_fixture_says_otherwise():
    """Issue 9: unlisted areas keep their printed garrisons unless the fixture says otherwise
    (the default, ``garrisons: printed``); ``listed`` keeps only the garrisons given."""
    areas = dict(HOMES, lannisport={"house": "lannister", "units": {"footman": 2}, "garrison": 0})
    printed = started(scenario(areas=areas)).state
    assert printed.areas["winterfell"].garrison == 2 and printed.areas["dragonstone"].garrison == 2
    assert printed.areas["lannisport"].garrison == 0  # said otherwise
    listed = started(scenario(garrisons="listed")).state
    assert listed.areas["winterfell"].garrison == 0  # only garrisons given


def test_BG_COMBAT_17_a_printed_garrison_cannot_stand_under_enemy_units():
    areas = {"winterfell": {"house": "lannister", "units": {"footman": 1}}}
    refused(scenario(areas=areas), "BG-COMBAT-17")


def test_BG_SETUP_03_04_deck_orders_are_used_and_hidden_from_every_reader():
    sc = scenario(westeros={"decks": {"deck_i": DECK_I, "deck_iii": DECK_III}, "wildling_deck": WILDLINGS})
    g = started(sc)
    assert g.state.westeros_decks["deck_i"] == DECK_I and g.state.westeros_decks["deck_iii"] == DECK_III
    assert sorted(g.state.westeros_decks["deck_ii"]) == sorted(DECK_II)  # shuffled from the seed
    assert g.state.wildling_deck == WILDLINGS
    loaded = next(e for e in g.events if isinstance(e, ev.ScenarioLoaded))
    for reader in ("stark", None):
        hidden = redact_event(loaded, reader)
        assert hidden.scenario.westeros.decks == {} and hidden.scenario.westeros.wildling_deck is None
        assert hidden.scenario.areas == loaded.scenario.areas  # the board itself is public
    assert redact_event(loaded, "stark", game_over=True) == loaded


def test_BG_SETUP_04_a_deck_order_must_hold_exactly_the_printed_cards():
    bad = DECK_I[:-1] + ["supply"]
    refused(scenario(westeros={"decks": {"deck_i": bad}}), "BG-SETUP-04")
    refused(scenario(westeros={"wildling_deck": WILDLINGS[:-1] + ["crow_killers"]}), "BG-SETUP-03")


# --- start_at: westeros / muster ----------------------------------------------------------------


def test_BG_WEST_01_westeros_fixture_opens_the_phase_at_deck_i_with_the_given_decks():
    sc = scenario(round=3, start_at="westeros", westeros={"decks": {"deck_i": DECK_I[1:] + DECK_I[:1]}})
    g = started(sc)
    s = g.state
    assert s.phase == "westeros" and s.round == 3
    drawn = [e for e in g.events if isinstance(e, wev.WesterosCardDrawn)]
    assert drawn[0].deck == "deck_i" and drawn[0].card == "supply"  # the fixture's top card
    # Supply then the next cards resolve: the game plays on to a winner and verifies
    g.play(random.Random(3))
    verifies(g)


def test_BG_WEST_01_westeros_fixture_starting_at_deck_ii_counts_deck_i_as_resolved():
    decks = {"deck_i": DECK_I, "deck_ii": DECK_II, "deck_iii": DECK_III}
    sc = scenario(round=2, start_at="westeros", westeros={"decks": decks, "start_deck": "deck_ii"})
    g = started(sc)
    s = g.state
    # deck I's Mustering went to the bottom unresolved; Game of Thrones gave Power, Feast for Crows
    # forbade Consolidate Power orders; the Planning phase is open
    assert s.westeros_decks["deck_i"][-1] == "mustering" and s.westeros_decks["deck_i"][0] == "supply"
    assert not any(isinstance(e, wev.MusteringBegan) for e in g.events)
    assert any(isinstance(e, wev.WesterosCardResolved) and e.card == "game_of_thrones" for e in g.events)
    assert s.phase == "planning" and s.step == "assign_orders"
    assert "consolidate_power" in s.forbidden_order_types
    g.play(random.Random(4))
    verifies(g)


def test_BG_ROUND_02_no_westeros_fixture_in_round_1():
    refused(scenario(start_at="westeros"), "BG-ROUND-02")


def test_BG_WEST_01_start_deck_only_with_a_westeros_start():
    refused(scenario(westeros={"start_deck": "deck_iii"}), "BG-WEST-01")


def test_BG_WCARD_02_muster_fixture_opens_on_the_first_house_to_muster():
    sc = scenario(round=2, start_at="muster", westeros={"decks": {"deck_i": DECK_I}})
    g = started(sc)
    s = g.state
    assert s.phase == "westeros" and s.step == "muster"
    assert s.westeros.musterers == ["baratheon", "lannister", "stark"]  # turn order (BG-MUSTER-06)
    (d,) = pending_decisions(s)
    assert d.house == "baratheon"
    recruit = wcmd.Muster(recruits={"dragonstone": [acmd.Recruit(unit="knight", upgrade=True)]})
    g.run(recruit, g.actor("baratheon"))
    assert g.state.areas["dragonstone"].units == {"footman": 1, "knight": 1}
    assert g.state.westeros.musterers == ["lannister", "stark"]
    g.play(random.Random(5))
    verifies(g)


def test_BG_WCARD_02_muster_fixture_whose_first_card_is_no_mustering_is_refused():
    e = refused(
        scenario(round=2, start_at="muster", westeros={"decks": {"deck_i": DECK_I[1:] + DECK_I[:1]}}), "BG-WCARD-02"
    )
    assert "muster" in e.detail


# --- start_at: raven -----------------------------------------------------------------------------


RAVEN_AREAS = {
    "winterfell": {"house": "stark", "units": {"footman": 2}, "order": "defense_plus_1"},
    "lannisport": {"house": "lannister", "units": {"footman": 2}, "order": "march_0"},
    "dragonstone": {"house": "baratheon", "units": {"footman": 2}, "order": "consolidate_power"},
}


def test_BG_PLAN_07_raven_fixture_opens_on_the_holders_decision_and_a_replacement_plays_on():
    g = started(scenario(areas=RAVEN_AREAS, start_at="raven"))
    s = g.state
    assert s.phase == "planning" and s.step == "messenger_raven" and s.deadline is not None
    (d,) = pending_decisions(s)
    assert d.house == "lannister"  # King's Court position 1 (BG-COK-10)
    g.run(cmd.RavenReplaceOrder(area="lannisport", new_order="raid"), g.actor("lannister"))
    assert g.state.orders["lannisport"].order == "raid" and g.state.raven_used
    assert g.state.step == "awaiting_action_phase"
    g.play(random.Random(6))
    verifies(g)


def test_BG_PLAN_07_raven_fixture_peek_sees_the_fixtures_wildling_card():
    g = started(scenario(areas=RAVEN_AREAS, start_at="raven", westeros={"wildling_deck": WILDLINGS}))
    (peeked,) = g.run(cmd.RavenPeekWildling(), g.actor("lannister"))[:1]
    assert isinstance(peeked, ev.RavenWildlingPeeked) and peeked.card == "mammoth_riders"


def test_BG_PLAN_08_raven_fixture_with_the_raven_already_used_is_refused():
    refused(scenario(areas=RAVEN_AREAS, start_at="raven", raven_used=True), "BG-PLAN-08")


# --- start_at: combat -----------------------------------------------------------------------------


def test_BG_COMBAT_04_combat_fixture_opens_after_support_on_the_house_cards():
    g = started(scenario(areas=COMBAT_AREAS, start_at="combat", combat=dict(ATTACK, support={"baratheon": "defender"})))
    s = g.state
    assert s.phase == "action" and s.step == "choose_house_card"
    c = s.action.combat
    assert (c.attacker, c.defender, c.area) == ("stark", "lannister", "the_twins")
    assert c.support == {"baratheon": "defender"} and c.units == {"knight": 1, "footman": 1}
    assert {d.house for d in pending_decisions(s)} == {"stark", "lannister"}
    g.run(acmd.ChooseHouseCard(card="eddard_stark"), g.actor("stark"))
    g.run(acmd.ChooseHouseCard(card="the_hound"), g.actor("lannister"))
    g.run(acmd.UseBlade(use=False), g.actor("stark"))
    decided = next(e for e in g.events if isinstance(e, aev.CombatDecided))
    assert decided.strength == {"stark": 7, "lannister": 5} and decided.winner == "stark"  # support counted
    assert g.state.step == "choose_retreat"
    g.play(random.Random(7))
    verifies(g)


@pytest.mark.parametrize(
    "combat, rule",
    [
        (dict(ATTACK), "BG-COMBAT-04"),  # Baratheon's support not declared
        (dict(ATTACK, support={"baratheon": "defender", "stark": "attacker"}), "BG-COMBAT-03"),
        (dict(ATTACK, to_area="seagard"), "BG-COMBAT-01"),  # an empty area: no combat
        (dict(ATTACK, to_area="riverrun"), "BG-MARCH-03"),  # not adjacent
        (dict(ATTACK, to_area="narnia"), "BG-MAP-01"),
        (dict(ATTACK, from_area="winterfell", support={"baratheon": "none"}), "BG-MARCH-01"),  # a Defense order
        (dict(ATTACK, units={"knight": 2}), "BG-COMBAT-23"),  # more units than stand there
        (dict(ATTACK, support={"baratheon": "defender"}, cards={"stark": "eddard_stark"}), "BG-COMBAT-02"),
    ],
)
def test_combat_fixtures_the_rules_refuse_are_refused_with_the_rule(combat, rule):
    refused(scenario(areas=COMBAT_AREAS, start_at="combat", combat=combat), rule)


def test_BG_ACT_01_combat_fixture_with_a_raid_left_is_refused():
    areas = dict(COMBAT_AREAS, winterfell={"house": "stark", "units": {"footman": 1}, "order": "raid"})
    refused(scenario(areas=areas, start_at="combat", combat=dict(ATTACK, support={"baratheon": "none"})), "BG-ACT-01")


def test_BG_COMBAT_01_combat_start_needs_the_combat():
    refused(scenario(areas=COMBAT_AREAS, start_at="combat"), "BG-COMBAT-01")


# --- start_at: retreat ------------------------------------------------------------------------------

RETREAT = dict(
    ATTACK,
    support={"baratheon": "defender"},
    cards={"stark": "eddard_stark", "lannister": "the_hound"},
    use_blade=False,
)


def test_BG_COMBAT_19_retreat_fixture_opens_on_the_losers_retreat_and_the_retreat_plays_on():
    g = started(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=RETREAT))
    s = g.state
    assert s.phase == "action" and s.step == "choose_retreat"
    c = s.action.combat
    assert c.winner == "stark" and c.loser == "lannister" and c.retreat_chooser == "lannister"
    assert sorted(c.retreat_options) == ["seagard", "the_fingers", "the_mountains_of_the_moon"]
    # the cards were played: both are in their discard piles (BG-COMBAT-25)
    assert "eddard_stark" in s.houses["stark"].discards and "the_hound" in s.houses["lannister"].discards
    g.run(acmd.ChooseRetreat(area="the_fingers"), g.actor("lannister"))
    s = g.state
    assert s.areas["the_fingers"].house == "lannister" and s.areas["the_twins"].house == "stark"
    assert s.areas["the_twins"].units == {"knight": 1, "footman": 1}
    g.play(random.Random(8))
    verifies(g)


def test_BG_COMBAT_11_retreat_fixture_must_answer_the_blade():
    combat = {k: v for k, v in RETREAT.items() if k != "use_blade"}
    refused(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=combat), "BG-COMBAT-11")


def test_BG_COMBAT_09_retreat_fixture_with_a_card_not_in_hand_is_refused():
    combat = dict(RETREAT, cards={"stark": "eddard_stark", "lannister": "the_hound"})
    houses = {"lannister": {"hand": ["tywin_lannister"], "discards": ["the_hound"]}}
    refused(scenario(areas=COMBAT_AREAS, houses=houses, start_at="retreat", combat=combat), "BG-COMBAT-09")


def test_BG_COMBAT_19_a_combat_the_attacker_loses_never_reaches_a_retreat_choice_of_the_defender():
    # Stark plays Catelyn (0) against Tywin (4): Stark loses, its units go back to Moat Cailin
    # (the attacker retreats to the area it marched from, BG-COMBAT-18: no choice to make)
    combat = dict(RETREAT, cards={"stark": "catelyn_stark", "lannister": "tywin_lannister"})
    e = refused(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=combat), "BG-COMBAT-19")
    assert "does not reach retreat" in e.detail


def test_a_fixture_game_verifies_also_without_the_seed():
    g = started(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=RETREAT))
    g.play(random.Random(9))
    report = audit(g.envelopes(), None)
    assert report.rules_ok and report.rederived_through == len(g.events), report.problems


def test_the_start_is_rederived_from_the_fixture_a_forged_start_is_caught():
    g = started(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=RETREAT), seed="forged")
    envs = g.envelopes()
    events = list(g.events)
    i = next(k for k, e in enumerate(events) if isinstance(e, aev.CombatDecided))
    events[i] = msgspec.structs.replace(events[i], winner="lannister", loser="stark")
    g.events = events
    report = audit(g.envelopes(), g.ctx.seed)
    assert not report.rules_ok and report.divergence is not None and report.divergence.startswith(f"event {i + 1}")
    assert envs[i].hash != g.envelopes()[i].hash


def test_decide_refuses_nothing_new_the_fixture_state_folds_back():
    g = started(scenario(areas=COMBAT_AREAS, start_at="retreat", combat=RETREAT))
    assert fold(g.events) is not None and g.same_as_refold()
    with pytest.raises(RuleViolation):
        decide(g.state, acmd.ChooseRetreat(area="riverrun"), g.actor("lannister"), g.ctx)


def test_BG_TIDES_02_a_combat_fixture_with_tides_of_battle_draws_from_the_seed_and_verifies():
    """With Tides of Battle on, the combat a fixture opens shuffles its Tides deck from the game's
    seed when the cards are revealed, exactly as in play, and the whole game re-derives."""
    sc = scenario(areas=COMBAT_AREAS, start_at="retreat", combat=RETREAT)
    g = FullGame(3, "tides-x", settings=Settings(tides_of_battle=True), scenario=sc)
    tides = g.state.action.combat.tides
    assert tides is not None and tides.revealed and set(tides.drawn) == {"stark", "lannister"}
    assert g.state.step == "choose_retreat"
    g.play(random.Random(10))
    verifies(g)


def test_BG_WEST_01_random_westeros_fixtures_play_to_a_winner_and_verify():
    """Twenty Westeros fixtures with random deck orders, start decks, rounds and threats: each opens,
    plays to the end with random legal moves, and re-derives event for event."""
    rng = random.Random(1)
    decks = {"deck_i": DECK_I, "deck_ii": DECK_II, "deck_iii": DECK_III}
    for i in range(20):
        given = {d: rng.sample(cards, len(cards)) for d, cards in decks.items()}
        westeros = {"decks": given, "wildling_deck": rng.sample(WILDLINGS, 9), "start_deck": rng.choice(list(decks))}
        threat = rng.choice([0, 4, 8, 10, 12])
        sc = scenario(start_at="westeros", round=rng.randint(2, 9), wildling_threat=threat, westeros=westeros)
        g = started(sc, seed=f"random-westeros-{i}")
        first = next(e for e in g.events if isinstance(e, wev.WesterosCardDrawn))
        assert first.card == given["deck_i"][0]  # the fixture's top card of deck I is revealed first
        g.play(random.Random(i))
        verifies(g)


def test_BG_CP_03_a_consolidate_power_mustering_is_reached_with_start_at_action():
    """A mustering by a special Consolidate Power order needs no start point of its own: with only
    Consolidate Power orders on the board, the Action phase opens on the first house's turn (in turn
    order, BG-ACT-02), and it musters in its castle instead of gaining Power (BG-CP-03)."""
    areas = {
        "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "consolidate_power_special"},
        "lannisport": {"house": "lannister", "units": {"footman": 1}, "order": "consolidate_power"},
        "winterfell": {"house": "stark", "units": {"footman": 1}, "order": "defense_plus_1"},
    }
    g = started(scenario(areas=areas, start_at="action"))
    g.run(cmd.ResolvePending(), SYSTEM)  # what the worker does at the Action phase's threshold
    s = g.state
    assert s.step == "resolve_consolidate_power" and s.action.current_house == "baratheon"
    power = s.houses["baratheon"].power
    muster = [acmd.Recruit(unit="knight", upgrade=True)]
    g.run(acmd.ResolveConsolidatePower(area="dragonstone", muster=muster), g.actor("baratheon"))
    assert g.state.areas["dragonstone"].units == {"knight": 1}
    assert g.state.houses["baratheon"].power == power  # mustered instead of gaining Power
    g.play(random.Random(11))
    verifies(g)
