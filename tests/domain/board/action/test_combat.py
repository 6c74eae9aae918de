"""BG-COMBAT-01..28 (and BG-COMP-04/06): combat between two houses."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.board.adjacency import can_support
from domain.board.redaction import redact_event
from domain.board.strength import standing
from domain.core.errors import NotYourTurn, RuleViolation
from tests.support.action_positions import ALL_HOUSES, acmd, of_type
from tests.support.combat_helpers import attack, cards, fight, north
from tests.support.rounds import to_next_action
from tests.support.westeros_positions import WesterosPosition


def decided(sc):
    return of_type(sc.events, aev.CombatDecided)[-1]


def test_BG_COMBAT_01_only_attacker_and_defender_play_cards():
    sc = north(extra={"castle_black": ("baratheon", {"footman": 1})}, orders={"castle_black": "support_0"})
    attack(sc)
    sc.run("baratheon", acmd.DeclareSupport(side="defender"))
    assert {d.house for d in sc.decisions()} == {"stark", "lannister"}
    with pytest.raises(NotYourTurn):
        sc.run("baratheon", acmd.ChooseHouseCard(card="stannis_baratheon"))


def test_BG_COMBAT_02_steps_in_order():
    sc = north(extra={"castle_black": ("baratheon", {"footman": 1})}, orders={"castle_black": "support_0"})
    attack(sc)
    sc.run("baratheon", acmd.DeclareSupport(side="none"))
    cards(sc, stark="eddard_stark", lannister="the_hound")
    stages = [e.stage for e in of_type(sc.events, aev.CombatStageBegan)]
    assert stages[:8] == ["cards", "cancel", "immediately", "blade", "decide", "win_lose", "casualties", "retreat"]
    names = [type(e).__name__ for e in sc.events]
    assert names.index("SupportDeclared") < names.index("HouseCardsRevealed") < names.index("CombatDecided")
    assert names.index("CombatDecided") < names.index("UnitsDestroyed") < names.index("CombatEnded")


def test_BG_COMBAT_03_own_support_always_counts_others_declare():
    sc = north(
        extra={"castle_black": ("stark", {"footman": 1}), "the_shivering_sea": ("greyjoy", {"ship": 1})},
        orders={"castle_black": "support_0", "the_shivering_sea": "support_0"},
    )
    attack(sc)
    # Stark's own support is not asked; Greyjoy's ship (sea next to karhold) is.
    assert sc.state.action.combat.support_queue == ["greyjoy"]
    d = sc.decision("greyjoy").options
    assert d.strength == {"stark": 3, "lannister": 1}


def test_BG_COMBAT_03_land_cannot_support_sea_and_ports_only_their_sea():
    sc = north()
    assert not can_support(sc.state, "castle_black", "the_shivering_sea")
    assert can_support(sc.state, "the_shivering_sea", "karhold")
    assert can_support(sc.state, "port_of_winterfell", "bay_of_ice")
    assert not can_support(sc.state, "port_of_winterfell", "winterfell")


def test_BG_COMBAT_04_support_declared_one_house_at_a_time_in_turn_order():
    sc = north(
        extra={"castle_black": ("greyjoy", {"footman": 1}), "the_shivering_sea": ("baratheon", {"ship": 1})},
        orders={"castle_black": "support_0", "the_shivering_sea": "support_0"},
    )
    attack(sc)
    assert sc.state.action.combat.support_queue == ["baratheon", "greyjoy"]
    with pytest.raises(NotYourTurn):
        sc.run("greyjoy", acmd.DeclareSupport(side="attacker"))
    sc.run("baratheon", acmd.DeclareSupport(side="defender"))
    assert sc.decision().house == "greyjoy"
    sc.run("greyjoy", acmd.DeclareSupport(side="attacker"))
    assert sc.state.step == "choose_house_card"


def test_BG_COMBAT_05_support_adds_units_and_bonus_routed_add_zero():
    sc = north(
        extra={"castle_black": ("stark", {"knight": 1, "footman": 1}), "the_shivering_sea": ("stark", {"ship": 1})},
        orders={"castle_black": "support_plus_1_special", "the_shivering_sea": "support_0"},
    )
    sc.state.action.routed = {"the_shivering_sea": {"ship": 1}}
    attack(sc)
    d = sc.decision("stark").options
    assert d.strength["stark"] == 2 + (2 + 1 + 1) + 0


def test_BG_COMP_04_siege_engines_count_only_attacking_a_castle():
    sc = north(att={"siege_engine": 1, "knight": 1}, extra={"moat_cailin": ("lannister", {"footman": 1})})
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"moat_cailin": {"siege_engine": 1, "knight": 1}}))
    assert sc.decision("stark").options.strength == {"stark": 6, "lannister": 1}


def test_BG_COMBAT_06_supporting_units_are_never_casualties():
    sc = north(
        extra={"castle_black": ("lannister", {"footman": 1})},
        orders={"castle_black": "support_0"},
    )
    fight(sc, "eddard_stark", "ser_kevan_lannister")
    assert sc.state.areas["castle_black"].units == {"footman": 1}


def test_BG_COMBAT_07_attacker_strength_never_below_zero():
    sc = north(att={"siege_engine": 1}, march="march_minus_1")
    attack(sc)
    assert sc.decision("stark").options.strength["stark"] == 0


def test_BG_COMBAT_08_defender_units_defense_order_and_garrison():
    sc = north(dfn={"footman": 1, "siege_engine": 1}, defense="defense_plus_2_special", garrisons={"karhold": 2})
    attack(sc)
    assert sc.decision("stark").options.strength["lannister"] == 1 + 0 + 2 + 2


def test_BG_COMBAT_09_cards_are_sealed_until_both_are_chosen():
    sc = north()
    attack(sc)
    out = sc.run("stark", acmd.ChooseHouseCard(card="eddard_stark"))
    chosen = of_type(out, aev.HouseCardChosen)[0]
    assert redact_event(chosen, "lannister").card is None and redact_event(chosen, None).card is None
    assert redact_event(chosen, "stark").card == "eddard_stark"
    assert not of_type(out, aev.HouseCardsRevealed)
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ChooseHouseCard(card="robb_stark"))  # no change once sealed
    out = sc.run("lannister", acmd.ChooseHouseCard(card="the_hound"))
    assert of_type(out, aev.HouseCardsRevealed)[0].cards == {"lannister": "the_hound", "stark": "eddard_stark"}


def test_BG_COMBAT_09_a_card_not_in_hand_is_refused():
    sc = north(discards={"stark": ["eddard_stark"]}, hands={"stark": ["robb_stark"]})
    attack(sc)
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ChooseHouseCard(card="eddard_stark"))


def first(sc, cls, **match):
    """Index in the event log of the first ``cls`` event whose fields equal ``match``."""
    for i, e in enumerate(sc.events):
        if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {cls.__name__} with {match}")


def test_BG_COMBAT_09_cancel_resolves_before_immediately():
    """Tyrion Lannister (cancel) against Mace Tyrell (immediately): Tyrion's choice comes first, and
    once Mace is cancelled its footman kill never happens; Mace goes back to hand, not playable."""
    sc = north(a="lannister", d="tyrell", att={"footman": 2}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "tyrion_lannister", "mace_tyrell", attacker="lannister", defender="tyrell")
    d = sc.decision()
    assert (d.house, d.options.card) == ("lannister", "tyrion_lannister")
    assert not [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "mace_tyrell"]
    sc.run("lannister", acmd.ChooseAbility(choice="cancel"))
    assert "mace_tyrell" not in sc.decision("tyrell").options.cards
    sc.run("tyrell", acmd.ChooseHouseCard(card="margaery_tyrell"))
    assert not [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "mace_tyrell"]
    assert decided(sc).strength == {"lannister": 2 + 1, "tyrell": 1 + 1}
    assert "mace_tyrell" in sc.state.houses["tyrell"].hand


def test_BG_COMBAT_09_immediately_blade_winner_cleanup_then_after_combat():
    """Mace Tyrell (immediately) attacks Patchface (after combat; Baratheon's last card): Mace's kill
    comes before the Blade (whose offer already shows the lower strength), the Blade before the
    winner, the cards are discarded as the winner is set, then retreat, order removal and the hand
    refresh, and Patchface's text only after all of that."""
    sc = north(
        a="tyrell",
        d="baratheon",
        att={"knight": 2},
        dfn={"footman": 2},
        hands={"baratheon": ["patchface"]},
        discards={"baratheon": ["stannis_baratheon", "renly_baratheon"]},
        tracks={"fiefdoms": ["tyrell", "greyjoy", "martell", "stark", "baratheon", "lannister"]},
    )
    fight(sc, "mace_tyrell", "patchface", attacker="tyrell", defender="baratheon")
    assert sc.state.step == "use_blade"
    assert sc.decision("tyrell").options.strength == {"tyrell": 4 + 4, "baratheon": 1}  # after Mace's kill
    sc.run("tyrell", acmd.UseBlade(use=True))
    d = sc.decision()
    assert (d.house, d.options.card) == ("baratheon", "patchface")
    order = [
        first(sc, aev.UnitsDestroyed, reason="mace_tyrell"),
        first(sc, aev.BladeUsed),
        first(sc, aev.CombatDecided),
        first(sc, aev.HouseCardsDiscarded, house="baratheon"),
        first(sc, aev.UnitsRouted, house="baratheon"),
        first(sc, aev.OrderRemoved, reason="BG-COMBAT-27"),
        first(sc, aev.HouseCardsReturned, reason="BG-COMBAT-26"),
        first(sc, aev.AbilityChoicePending, card="patchface"),
    ]
    assert order == sorted(order)
    assert not of_type(sc.events, aev.CombatEnded)
    sc.run("baratheon", acmd.ChooseAbility(choice="ser_garlan_tyrell"))
    assert "ser_garlan_tyrell" in sc.state.houses["tyrell"].discards
    assert first(sc, aev.AbilityResolved, card="patchface") < first(sc, aev.CombatEnded)


def test_BG_COMBAT_09_win_lose_texts_resolve_before_casualties():
    """Roose Bolton (if you lose) takes the discard pile back before Ser Gregor's swords kill."""
    sc = north(
        a="lannister",
        d="stark",
        att={"knight": 2},
        dfn={"footman": 4},
        no_blade=True,
        discards={"stark": ["eddard_stark"]},
        hands={"stark": ["roose_bolton", "robb_stark"]},
    )
    fight(sc, "ser_gregor_clegane", "roose_bolton", attacker="lannister", defender="stark")  # 7 vs 6
    assert decided(sc).winner == "lannister"
    assert first(sc, aev.HouseCardsReturned, reason="roose_bolton") < first(
        sc, aev.UnitsDestroyed, reason="BG-COMBAT-15"
    )
    assert first(sc, aev.CombatDecided) < first(sc, aev.HouseCardsReturned, reason="roose_bolton")


@pytest.mark.parametrize("first_house", ["lannister", "stark"])
def test_BG_COMBAT_09_texts_triggering_together_resolve_in_turn_order(first_house):
    """Tywin (win) and Roose Bolton (lose) both trigger when the winner is set: the one whose house
    is first in turn order (Iron Throne) resolves first."""
    other = "stark" if first_house == "lannister" else "lannister"
    sc = north(
        a="lannister",
        d="stark",
        att={"knight": 2},
        no_blade=True,
        hands={"stark": ["robb_stark", "roose_bolton", "greatjon_umber", "catelyn_stark"]},
        discards={"stark": ["eddard_stark"]},
        tracks={"iron_throne": [first_house, other, "baratheon", "martell", "greyjoy", "tyrell"]},
    )
    fight(sc, "tywin_lannister", "roose_bolton", attacker="lannister", defender="stark")
    tywin = first(sc, aev.PowerGained, reason="tywin_lannister")
    roose = first(sc, aev.HouseCardsReturned, reason="roose_bolton")
    assert (tywin < roose) == (first_house == "lannister")


def test_BG_COMBAT_10_no_card_in_hand_fights_without_one():
    sc = north(hands={"lannister": []}, discards={"lannister": []})
    attack(sc)
    assert [d.house for d in sc.decisions()] == ["stark"]
    out = sc.run("stark", acmd.ChooseHouseCard(card="catelyn_stark"))
    assert of_type(out, aev.HouseCardsRevealed)[0].cards["lannister"] is None


def test_BG_COMBAT_11_blade_once_per_round_for_its_holder_in_combat():
    sc = north(tracks={"fiefdoms": ["stark", "greyjoy", "tyrell", "martell", "baratheon", "lannister"]})
    fight(sc, "roose_bolton", "ser_jaime_lannister")  # 2+2 vs 1+2: stark already wins
    assert sc.decision().house == "stark" and sc.state.step == "use_blade"
    sc.run("stark", acmd.UseBlade(use=True))
    assert decided(sc).strength == {"stark": 5, "lannister": 3}
    assert sc.state.blade_used or sc.state.action is None


def test_BG_COMBAT_11_blade_not_offered_to_a_supporter():
    sc = north(extra={"castle_black": ("greyjoy", {"footman": 1})}, orders={"castle_black": "support_0"})
    attack(sc)
    sc.run("greyjoy", acmd.DeclareSupport(side="attacker"))
    cards(sc, stark="eddard_stark", lannister="the_hound")
    assert not of_type(sc.events, aev.BladeUsed) and sc.state.step != "use_blade"


def test_BG_COMBAT_12_final_strength_sums_everything():
    sc = north(march="march_plus_1_special", defense="defense_plus_1")
    fight(sc, "greatjon_umber", "ser_jaime_lannister")
    assert decided(sc).strength == {"stark": 2 + 1 + 2, "lannister": 1 + 1 + 2}


@pytest.mark.parametrize("higher", ["stark", "lannister"])
def test_BG_COMBAT_13_ties_go_to_the_higher_fiefdoms_position(higher):
    """A tie goes to whichever combatant is higher on Fiefdoms: the attacker (Stark) or the defender
    (Lannister). The Iron Throne track is set the other way round, so a tie broken by the Iron Throne
    (or always for the attacker/defender) fails one of the two cases."""
    lower = "lannister" if higher == "stark" else "stark"
    sc = north(
        att={"footman": 1},
        no_blade=True,
        tracks={
            "fiefdoms": ["greyjoy", higher, "tyrell", "martell", "baratheon", lower],
            "iron_throne": [lower, "baratheon", "greyjoy", "tyrell", "martell", higher],
        },
    )
    fight(sc, "roose_bolton", "ser_jaime_lannister")  # 1+2 vs 1+2
    d = decided(sc)
    assert d.strength == {"stark": 3, "lannister": 3}
    assert (d.winner, d.loser) == (higher, lower)


def test_BG_COMBAT_14_routed_units_and_siege_engines_of_the_loser_die_first():
    sc = north(dfn={"footman": 2, "siege_engine": 1, "knight": 1})
    sc.state.action.routed = {"karhold": {"footman": 1}}
    fight(sc, "eddard_stark", "ser_kevan_lannister")  # 2+4 vs 3+1; 2 swords
    first = of_type(sc.events, aev.UnitsDestroyed)[0]
    assert first.reason == "BG-COMBAT-14" and first.units == {"footman": 1, "siege_engine": 1}
    # Then 2 casualties among the remaining footman and knight: the whole rest of the army.
    assert sc.state.areas["karhold"].house == "stark" and sc.state.areas["castle_black"].units == {}


def test_BG_COMBAT_15_casualties_swords_minus_towers_chosen_by_the_loser():
    sc = north(dfn={"footman": 2, "knight": 1}, att={"knight": 2})
    fight(sc, "ser_gregor_clegane" if False else "eddard_stark", "ser_jaime_lannister")  # 4+4 vs 4+2; 2S - 0T
    assert sc.state.step == "choose_casualties"
    d = sc.decision("lannister").options
    assert d.count == 2 and d.units == {"footman": 2, "knight": 1}
    with pytest.raises(RuleViolation):
        sc.run("lannister", acmd.ChooseCasualties(units={"footman": 1}))
    sc.run("lannister", acmd.ChooseCasualties(units={"footman": 1, "knight": 1}))
    assert sc.state.areas["castle_black"].units == {"footman": 1}


def test_BG_COMBAT_15_towers_cancel_swords():
    sc = north(dfn={"footman": 2}, att={"knight": 2})
    fight(sc, "eddard_stark", "the_hound")  # 2 swords - 2 towers
    assert decided(sc).casualties == 0 and sc.state.areas["castle_black"].units == {"footman": 2}


def test_BG_COMBAT_16_only_units_in_the_combat_can_die():
    sc = north(att={"knight": 2, "footman": 1}, dfn={"footman": 1, "knight": 1})
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 1}}))
    cards(sc, stark="ser_rodrick_cassel", lannister="ser_gregor_clegane")  # stark loses, 3 swords - 2 towers
    assert sc.state.areas["winterfell"].units == {"knight": 1, "footman": 1}


def test_BG_COMBAT_17_a_losing_defenders_garrison_is_removed():
    sc = north(att={"knight": 2}, dfn={"footman": 1}, garrisons={"karhold": 2})
    fight(sc, "eddard_stark", "ser_kevan_lannister")
    assert of_type(sc.events, aev.GarrisonRemoved)[0].area == "karhold"
    assert sc.state.areas["karhold"].garrison == 0


def test_BG_COMBAT_18_a_losing_attacker_retreats_home_routed():
    sc = north(att={"footman": 2}, dfn={"knight": 1})
    fight(sc, "catelyn_stark", "ser_kevan_lannister")  # 2+0 vs 2+1
    assert sc.state.areas["winterfell"].units == {"footman": 2}
    routed = of_type(sc.events, aev.UnitsRouted)[0]
    assert (routed.house, routed.area, routed.units) == ("stark", "winterfell", {"footman": 2})


def test_BG_COMBAT_18_retreat_impossible_into_an_emptied_enemy_home_area():
    sc = north(att={"footman": 2}, dfn={"knight": 2})
    # Stark attacks from Lannisport? Use greyjoy's home: stark units in pyke attack the port-free flank.
    sc2 = north(
        att={"footman": 1},
        extra={
            "pyke": ("stark", {"footman": 2}),
            "ironmans_bay": ("stark", {"ship": 1}),
            "seagard": ("lannister", {"knight": 2}),
        },
        orders={"pyke": "march_0"},
        march="defense_plus_1",
    )
    sc2.run("stark", acmd.ResolveMarch(area="pyke", moves={"seagard": {"footman": 2}}))
    cards(sc2, stark="catelyn_stark", lannister="ser_kevan_lannister")
    destroyed = [e for e in of_type(sc2.events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-18"]
    assert destroyed and destroyed[0].units == {"footman": 2}
    assert sc2.state.areas["pyke"].units == {}
    del sc


def test_BG_COMBAT_19_defender_retreats_to_one_legal_area_of_its_choice():
    sc = north(
        att={"knight": 2},
        dfn={"footman": 2},
        extra={"the_shivering_sea": ("lannister", {"ship": 1}), "widows_watch": ("greyjoy", {"footman": 1})},
    )
    # karhold -> castle_black (free) or, by Lannister's ship in the shivering sea, white_harbor.
    fight(sc, "eddard_stark", "the_hound")
    assert sc.state.step == "choose_retreat"
    d = sc.decision("lannister").options
    assert d.areas == ["castle_black", "white_harbor"]
    with pytest.raises(RuleViolation):
        sc.run("lannister", acmd.ChooseRetreat(area="winterfell"))
    sc.run("lannister", acmd.ChooseRetreat(area="white_harbor"))
    assert sc.state.areas["white_harbor"].units == {"footman": 2}


def test_BG_COMBAT_20_retreat_prefers_areas_that_keep_supply():
    # Supply 0 (2, 2): Lannister already has 2 in castle_black; retreating 2 footmen there would make 4.
    sc = north(
        att={"knight": 2},
        dfn={"footman": 2},
        extra={
            "castle_black": ("lannister", {"footman": 1, "knight": 1}),
            "the_shivering_sea": ("lannister", {"ship": 1}),
        },
        supply={"lannister": 0, "stark": 6},
    )
    fight(sc, "eddard_stark", "the_hound")
    # castle_black would cost 2 units; the areas reached by the ship cost none.
    assert sc.decision("lannister").options.areas == ["white_harbor", "widows_watch"]


def test_BG_COMBAT_20_when_every_area_breaks_supply_units_are_lost():
    sc = north(
        att={"knight": 2},
        dfn={"footman": 2},
        extra={"castle_black": ("lannister", {"footman": 1}), "lannisport": ("lannister", {"footman": 2})},
        supply={"lannister": 0, "stark": 6},
    )
    fight(sc, "eddard_stark", "the_hound")
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-20"]
    assert sum(sum(e.units.values()) for e in lost) == 1
    assert sc.state.areas["castle_black"].units == {"footman": 2}


def test_BG_COMBAT_21_no_legal_retreat_destroys_the_army():
    sc = north(att={"knight": 2}, dfn={"footman": 2}, extra={"castle_black": ("greyjoy", {"footman": 1})})
    fight(sc, "eddard_stark", "the_hound")
    assert [e.reason for e in of_type(sc.events, aev.UnitsDestroyed)] == ["BG-COMBAT-21"]
    assert sc.state.areas["karhold"].units == {"knight": 2}


def test_BG_COMBAT_22_routed_units_have_no_strength_and_stand_at_cleanup():
    sc = north(att={"knight": 1}, dfn={"footman": 1, "knight": 1})
    sc.state.action.routed = {"karhold": {"knight": 1}}
    attack(sc)
    assert sc.decision("stark").options.strength["lannister"] == 1


def test_BG_COMBAT_22_routed_units_stand_up_at_the_action_phase_clean_up():
    """Lannister loses in karhold and retreats to castle_black, where it has another footman: the
    retreating footman is routed (cannot march). After the clean-up it stands: in the next round's Action
    phase it has its strength again and its March order may move it."""
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"knight": 2}),
            "karhold": ("lannister", {"footman": 1}),
            "castle_black": ("lannister", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1", "castle_black": "march_0"},
        garrisons={},
        supply={h: 6 for h in ALL_HOUSES},
        tracks={"iron_throne": ["stark", "lannister", "baratheon", "martell", "greyjoy", "tyrell"]},
    )
    sc.state.blade_used = True
    sc.begin()
    fight(sc, "eddard_stark", "the_hound")  # karhold's footman retreats to castle_black (its only option)
    assert sc.state.action.routed == {"castle_black": {"footman": 1}}
    assert standing(sc.state, "castle_black") == {"footman": 1}  # the one already there stands
    with pytest.raises(RuleViolation) as err:  # BG-COMBAT-23: the routed one cannot march
        sc.run("lannister", acmd.ResolveMarch(area="castle_black", moves={"winterfell": {"footman": 2}}))
    assert err.value.rule == "BG-COMBAT-23"
    sc.run("lannister", acmd.ResolveMarch(area="castle_black"))  # the last order: the clean-up runs
    assert of_type(sc.events, aev.ActionPhaseEnded)
    assert sc.state.areas["castle_black"].units == {"footman": 2}  # the routed footman is still there
    to_next_action(sc, {"lannister": {"castle_black": "march_0"}})
    assert sc.state.action.routed == {}
    assert standing(sc.state, "castle_black") == {"footman": 2}
    while sc.state.step != "resolve_march" or sc.state.action.current_house != "lannister":
        house = sc.state.action.current_house  # other houses' raids and marches, with no effect
        if sc.state.step == "resolve_raid":
            sc.run(house, acmd.ResolveRaid(area=sorted(sc.decision(house).options.targets)[0]))
        else:
            sc.run(house, acmd.ResolveMarch(area=sorted(sc.decision(house).options.orders)[0]))
    sc.run("lannister", acmd.ResolveMarch(area="castle_black", moves={"winterfell": {"footman": 2}}))
    assert sc.state.areas["winterfell"].units == {"footman": 2}


def test_BG_COMBAT_24_winning_attacker_moves_in_and_takes_control():
    sc = north(att={"knight": 2}, dfn={"footman": 1}, tokens={"karhold": "lannister"})
    fight(sc, "eddard_stark", "the_hound")
    assert sc.state.areas["karhold"].units == {"knight": 2} and sc.state.areas["karhold"].power_token is None


def test_BG_COMBAT_25_played_cards_are_discarded_face_up():
    sc = north()
    fight(sc, "eddard_stark", "the_hound")
    assert "eddard_stark" in sc.state.houses["stark"].discards and "the_hound" in sc.state.houses["lannister"].discards


def test_BG_COMBAT_26_playing_the_last_card_returns_the_others():
    sc = north(
        hands={"stark": ["eddard_stark"]},
        discards={
            "stark": [
                "robb_stark",
                "roose_bolton",
                "greatjon_umber",
                "ser_rodrick_cassel",
                "the_blackfish",
                "catelyn_stark",
            ]
        },
    )
    fight(sc, "eddard_stark", "the_hound")
    hs = sc.state.houses["stark"]
    assert hs.discards == ["eddard_stark"] and len(hs.hand) == 6


def test_BG_COMBAT_27_march_removed_defender_order_removed_only_if_it_lost():
    sc = north(att={"footman": 1}, dfn={"knight": 1}, defense="defense_plus_1")
    fight(sc, "catelyn_stark", "the_hound")
    assert "winterfell" not in sc.state.orders or sc.state.action is None
    assert of_type(sc.events, aev.CombatDecided)[-1].winner == "lannister"
    removed = {e.area for e in of_type(sc.events, aev.OrderRemoved) if e.reason == "BG-COMBAT-27"}
    assert removed == {"winterfell"}
    sc2 = north(att={"knight": 2}, dfn={"footman": 1}, defense="defense_plus_1")
    fight(sc2, "eddard_stark", "the_hound")
    removed = {e.area for e in of_type(sc2.events, aev.OrderRemoved) if e.reason == "BG-COMBAT-27"}
    assert removed == {"winterfell", "karhold"}


def test_BG_COMBAT_28_orders_in_emptied_areas_are_removed():
    """Stark takes white_harbor from Lannister, whose ship in the port (with a Support order) is removed
    with the port (BG-MAP-07): after the combat no order stands in an area without its house's units,
    and exactly the orders that should stay are still there."""
    sc = north(
        att={"knight": 2},
        dfn={"footman": 1},
        extra={
            "white_harbor": ("lannister", {"footman": 1}),
            "port_of_white_harbor": ("lannister", {"ship": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
            "bay_of_ice": ("stark", {"ship": 1}),
        },
        orders={
            "white_harbor": "defense_plus_1",
            "port_of_white_harbor": "support_0",
            "castle_black": "defense_plus_1",
            "bay_of_ice": "consolidate_power",
        },
        no_blade=True,
    )
    start = len(sc.events)
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"white_harbor": {"knight": 2}}))
    cards(sc, stark="eddard_stark", lannister="the_hound")  # 4+4 vs 1+1+2: Stark wins
    sc.run("lannister", acmd.ChooseRetreat(area="widows_watch"))  # or moat_cailin
    assert sc.state.step == "replace_port_ships"  # the port was emptied: Stark may put ships in
    sc.run("stark", acmd.ReplacePortShips(count=0))
    assert of_type(sc.events, aev.CombatEnded)
    for area, o in sc.state.orders.items():
        a = sc.state.areas[area]
        assert a.house == o.house and sum(a.units.values()) > 0, (area, o)
    assert {a: o.order for a, o in sc.state.orders.items()} == {
        "castle_black": "defense_plus_1",
        "bay_of_ice": "consolidate_power",
    }
    removed = {e.area for e in of_type(sc.events[start:], aev.OrderRemoved)}
    assert removed == {"winterfell", "white_harbor", "port_of_white_harbor"}
