"""Section 15.9: every House card of the six base houses, and BG-COMBAT-09's order of texts."""

from __future__ import annotations

import pytest

from domain.board import board_data
from domain.board.action import events as aev
from domain.board.redaction import redact_event
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type
from tests.support.combat_helpers import cards, fight, north
from tests.support.invariants import check_invariants, check_state

A = acmd.ChooseAbility


def decided(sc):
    return of_type(sc.events, aev.CombatDecided)[-1]


PRINTED = {
    "eddard_stark": (4, 2, 0),
    "robb_stark": (3, 0, 0),
    "roose_bolton": (2, 0, 0),
    "greatjon_umber": (2, 1, 0),
    "ser_rodrick_cassel": (1, 0, 2),
    "the_blackfish": (1, 0, 0),
    "catelyn_stark": (0, 0, 0),
    "tywin_lannister": (4, 0, 0),
    "ser_gregor_clegane": (3, 3, 0),
    "the_hound": (2, 0, 2),
    "ser_jaime_lannister": (2, 1, 0),
    "tyrion_lannister": (1, 0, 0),
    "ser_kevan_lannister": (1, 0, 0),
    "cersei_lannister": (0, 0, 0),
    "stannis_baratheon": (4, 0, 0),
    "renly_baratheon": (3, 0, 0),
    "ser_davos_seaworth": (2, 0, 0),
    "brienne_of_tarth": (2, 1, 1),
    "melisandre": (1, 1, 0),
    "salladhor_saan": (1, 0, 0),
    "patchface": (0, 0, 0),
    "euron_crows_eye": (4, 1, 0),
    "victarion_greyjoy": (3, 0, 0),
    "theon_greyjoy": (2, 0, 0),
    "balon_greyjoy": (2, 0, 0),
    "dagmar_cleftjaw": (1, 1, 1),
    "asha_greyjoy": (1, 0, 0),
    "aeron_damphair": (0, 0, 0),
    "mace_tyrell": (4, 0, 0),
    "ser_loras_tyrell": (3, 0, 0),
    "ser_garlan_tyrell": (2, 2, 0),
    "randyll_tarly": (2, 1, 0),
    "margaery_tyrell": (1, 0, 1),
    "alester_florent": (1, 0, 1),
    "queen_of_thorns": (0, 0, 0),
    "the_red_viper": (4, 2, 1),
    "areo_hotah": (3, 0, 1),
    "obara_sand": (2, 1, 0),
    "darkstar": (2, 1, 0),
    "nymeria_sand": (1, 0, 0),
    "arianne_martell": (1, 0, 0),
    "doran_martell": (0, 0, 0),
}


def test_all_42_house_cards_have_the_digest_values():
    got = {c.id: (c.strength, c.swords, c.fortifications) for cs in board_data.cards().house_cards.values() for c in cs}
    assert got == PRINTED and len(got) == 42


@pytest.mark.parametrize(
    "card",
    [
        "eddard_stark",
        "greatjon_umber",
        "ser_gregor_clegane",
        "brienne_of_tarth",
        "euron_crows_eye",
        "the_red_viper",
        "darkstar",
        "randyll_tarly",
    ],
)
def test_cards_without_text_use_printed_strength(card):
    house = next(h for h, cs in board_data.cards().house_cards.items() if any(c.id == card for c in cs))
    opp = "stark" if house != "stark" else "lannister"
    opp_card = "catelyn_stark" if opp == "stark" else "cersei_lannister"
    sc = north(a=house, d=opp, att={"footman": 1}, dfn={"footman": 1}, no_blade=True)
    fight(sc, card, opp_card, attacker=house, defender=opp)
    assert decided(sc).strength[house] == 1 + PRINTED[card][0]


# --- Stark -------------------------------------------------------------------------------------


def test_robb_stark_winner_chooses_the_defenders_retreat():
    sc = north(att={"knight": 2}, dfn={"footman": 1}, extra={"the_shivering_sea": ("lannister", {"ship": 1})})
    fight(sc, "robb_stark", "the_hound")
    d = sc.decision()
    assert d.house == "stark" and d.options.retreating_house == "lannister"
    sc.run("stark", acmd.ChooseRetreat(area="widows_watch"))
    assert sc.state.areas["widows_watch"].units == {"footman": 1}


def test_robb_stark_may_send_a_losing_attacker_to_any_legal_area():
    sc = north(a="lannister", d="stark", att={"footman": 1}, dfn={"knight": 1})
    fight(sc, "the_hound", "robb_stark", attacker="lannister", defender="stark")
    d = sc.decision()
    assert d.house == "stark" and d.options.areas == ["castle_black", "winterfell"]
    sc.run("stark", acmd.ChooseRetreat(area="castle_black"))
    assert sc.state.areas["castle_black"].units == {"footman": 1} and sc.state.areas["winterfell"].units == {}


def test_roose_bolton_on_a_loss_takes_back_the_whole_discard_pile():
    sc = north(
        att={"footman": 2},
        dfn={"knight": 2},
        hands={"stark": ["roose_bolton", "robb_stark"]},
        discards={"stark": ["eddard_stark", "greatjon_umber", "ser_rodrick_cassel", "the_blackfish", "catelyn_stark"]},
    )
    fight(sc, "roose_bolton", "ser_jaime_lannister")
    hs = sc.state.houses["stark"]
    assert hs.discards == [] and len(hs.hand) == 7
    names = [type(e).__name__ for e in sc.events]
    assert names.index("HouseCardsReturned") < names.index("UnitsRouted")


def test_the_blackfish_takes_no_sword_casualties():
    sc = north(a="lannister", d="stark", att={"knight": 2}, dfn={"footman": 2})
    fight(sc, "ser_gregor_clegane", "the_blackfish", attacker="lannister", defender="stark")
    assert decided(sc).casualties == 0
    assert sc.state.areas["castle_black"].units == {"footman": 2}


def test_catelyn_stark_doubles_the_defense_order():
    sc = north(a="lannister", d="stark", att={"knight": 1}, dfn={"footman": 1}, defense="defense_plus_2_special")
    fight(sc, "cersei_lannister", "catelyn_stark", attacker="lannister", defender="stark")
    assert decided(sc).strength["stark"] == 1 + 4


# --- Lannister --------------------------------------------------------------------------------


def test_tywin_lannister_gains_two_power_on_a_win():
    sc = north(a="lannister", d="stark", att={"knight": 2}, power={"lannister": 1})
    fight(sc, "tywin_lannister", "catelyn_stark", attacker="lannister", defender="stark")
    assert sc.state.houses["lannister"].power == 3


def test_tyrion_lannister_cancels_and_the_opponent_chooses_again():
    sc = north()
    fight(sc, "eddard_stark", "tyrion_lannister")
    d = sc.decision()
    assert d.house == "lannister" and d.options.card == "tyrion_lannister"
    sc.run("lannister", A(choice="cancel"))
    assert sc.state.step == "choose_house_card"
    assert "eddard_stark" not in sc.decision("stark").options.cards
    with pytest.raises(RuleViolation):
        sc.run("stark", acmd.ChooseHouseCard(card="eddard_stark"))
    sc.run("stark", acmd.ChooseHouseCard(card="catelyn_stark"))
    assert of_type(sc.events, aev.HouseCardsRevealed)[-1].cards["stark"] == "catelyn_stark"
    assert "eddard_stark" in sc.state.houses["stark"].hand


def test_ser_kevan_lannister_footmen_count_two_when_attacking_supporters_included():
    sc = north(
        a="lannister",
        d="stark",
        att={"footman": 2},
        dfn={"knight": 2},
        extra={"castle_black": ("lannister", {"footman": 1})},
        orders={"castle_black": "support_0"},
    )
    fight(sc, "ser_kevan_lannister", "catelyn_stark", attacker="lannister", defender="stark")
    assert decided(sc).strength["lannister"] == 4 + 2 + 1


def test_cersei_lannister_removes_one_loser_order_anywhere():
    sc = north(
        a="lannister",
        d="stark",
        att={"knight": 2},
        extra={"the_eyrie": ("stark", {"footman": 1})},
        orders={"the_eyrie": "defense_plus_1"},
    )
    fight(sc, "cersei_lannister", "catelyn_stark", attacker="lannister", defender="stark")
    d = sc.decision()
    assert d.options.card == "cersei_lannister" and "the_eyrie" in d.options.choices and d.options.may_skip
    sc.run("lannister", A(choice="the_eyrie"))
    assert "the_eyrie" not in sc.state.orders


# --- Baratheon --------------------------------------------------------------------------------


def test_stannis_baratheon_plus_one_against_a_house_higher_on_the_iron_throne():
    sc = north(
        a="baratheon",
        d="stark",
        att={"footman": 1},
        no_blade=True,
        tracks={"iron_throne": ["stark", "baratheon", "lannister", "martell", "greyjoy", "tyrell"]},
    )
    fight(sc, "stannis_baratheon", "catelyn_stark", attacker="baratheon", defender="stark")
    assert decided(sc).strength["baratheon"] == 1 + 5
    sc2 = north(a="baratheon", d="stark", att={"footman": 1}, no_blade=True)
    fight(sc2, "stannis_baratheon", "catelyn_stark", attacker="baratheon", defender="stark")
    assert decided(sc2).strength["baratheon"] == 1 + 4


def test_renly_baratheon_upgrades_a_participating_footman_on_a_win():
    sc = north(a="baratheon", d="stark", att={"footman": 2}, no_blade=True)
    fight(sc, "renly_baratheon", "catelyn_stark", attacker="baratheon", defender="stark")
    d = sc.decision()
    assert d.options.choices == ["winterfell"]
    sc.run("baratheon", A(choice="winterfell"))
    assert sc.state.areas["karhold"].units == {"footman": 1, "knight": 1}


def test_ser_davos_seaworth_with_stannis_discarded():
    sc = north(
        a="baratheon",
        d="stark",
        att={"footman": 1},
        no_blade=True,
        dfn={"knight": 1},
        discards={"baratheon": ["stannis_baratheon"]},
        hands={"baratheon": ["ser_davos_seaworth", "renly_baratheon", "brienne_of_tarth"]},
    )
    fight(sc, "ser_davos_seaworth", "catelyn_stark", attacker="baratheon", defender="stark")
    d = decided(sc)
    assert d.strength["baratheon"] == 1 + 3 and d.casualties == 1


def test_salladhor_saan_zeroes_non_baratheon_ships_when_supported():
    sc = north(
        a="baratheon",
        d="stark",
        att={"knight": 1},
        dfn={"footman": 1},
        no_blade=True,
        extra={"castle_black": ("baratheon", {"footman": 1}), "the_shivering_sea": ("stark", {"ship": 2})},
        orders={"castle_black": "support_0", "the_shivering_sea": "support_0"},
    )
    fight(sc, "salladhor_saan", "catelyn_stark", attacker="baratheon", defender="stark")
    assert decided(sc).strength == {"baratheon": 2 + 1 + 1, "stark": 1 + 0}


def test_patchface_discards_a_card_from_the_opponents_hand_after_combat():
    sc = north(a="baratheon", d="stark", att={"knight": 2}, no_blade=True)
    fight(sc, "patchface", "catelyn_stark", attacker="baratheon", defender="stark")
    d = sc.decision()
    assert d.options.card == "patchface" and "eddard_stark" in d.options.choices
    pending = of_type(sc.events, aev.AbilityChoicePending)[-1]
    assert redact_event(pending, "stark").choices == [] and redact_event(pending, "baratheon").choices
    sc.run("baratheon", A(choice="eddard_stark"))
    assert "eddard_stark" in sc.state.houses["stark"].discards


# --- Greyjoy ----------------------------------------------------------------------------------


def test_victarion_greyjoy_ships_count_two_when_attacking():
    sc = Position(6).setup(
        {"the_shivering_sea": ("greyjoy", {"ship": 2}), "the_narrow_sea": ("stark", {"ship": 2})},
        {"the_shivering_sea": "march_0"},
    )
    sc.state.blade_used = True
    sc.begin()
    sc.run("greyjoy", acmd.ResolveMarch(area="the_shivering_sea", moves={"the_narrow_sea": {"ship": 2}}))
    cards(sc, greyjoy="victarion_greyjoy", stark="catelyn_stark")
    assert decided(sc).strength == {"greyjoy": 4 + 3, "stark": 2}


def test_theon_greyjoy_defending_a_castle():
    sc = north(
        d="greyjoy",
        dfn={"footman": 1},
        att={"knight": 2},
        no_blade=True,
        extra={"moat_cailin": ("greyjoy", {"footman": 1})},
    )
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"moat_cailin": {"knight": 2}}))
    cards(sc, stark="catelyn_stark", greyjoy="theon_greyjoy")
    d = decided(sc)
    assert d.strength["greyjoy"] == 1 + 3 and d.winner == "greyjoy" and d.casualties == 1


def test_balon_greyjoy_sets_the_opponents_printed_strength_to_zero():
    sc = north(a="greyjoy", att={"knight": 1}, no_blade=True)
    fight(sc, "balon_greyjoy", "tywin_lannister", attacker="greyjoy")
    assert decided(sc).strength == {"greyjoy": 2 + 2, "lannister": 1 + 0}


def test_asha_greyjoy_unsupported_gains_swords_and_a_tower():
    sc = north(a="greyjoy", att={"knight": 2}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "asha_greyjoy", "ser_kevan_lannister", attacker="greyjoy")
    assert decided(sc).casualties == 2


def test_aeron_damphair_pays_two_power_to_swap_for_another_card():
    sc = north(a="greyjoy", att={"knight": 1}, no_blade=True, power={"greyjoy": 3})
    fight(sc, "aeron_damphair", "the_hound", attacker="greyjoy")
    d = sc.decision()
    assert d.options.card == "aeron_damphair" and "euron_crows_eye" in d.options.choices
    sc.run("greyjoy", A(choice="euron_crows_eye"))
    assert sc.state.houses["greyjoy"].power == 1
    assert decided(sc).strength["greyjoy"] == 2 + 4
    assert {"aeron_damphair", "euron_crows_eye"} <= set(sc.state.houses["greyjoy"].discards)


def test_aeron_damphair_without_two_power_does_nothing():
    sc = north(a="greyjoy", att={"knight": 1}, no_blade=True, power={"greyjoy": 1})
    fight(sc, "aeron_damphair", "the_hound", attacker="greyjoy")
    assert decided(sc).strength["greyjoy"] == 2


# --- Tyrell -----------------------------------------------------------------------------------


def test_mace_tyrell_destroys_an_opponent_footman_at_once():
    sc = north(a="tyrell", att={"knight": 1}, dfn={"footman": 1, "knight": 1}, no_blade=True)
    fight(sc, "mace_tyrell", "the_hound", attacker="tyrell")
    first = of_type(sc.events, aev.UnitsDestroyed)[0]
    assert (first.house, first.units, first.reason) == ("lannister", {"footman": 1}, "mace_tyrell")
    assert decided(sc).strength["lannister"] == 2 + 2


def test_mace_tyrell_killing_the_last_defender_leaves_its_order_until_clean_up():
    """BG-ORDER-08: an order in an area left without units (Mace Tyrell killed the only footman) stays
    while the combat runs -- a Defense order would still count -- and goes at the combat's clean-up."""
    sc = north(a="tyrell", d="greyjoy", att={"knight": 1}, dfn={"footman": 1}, defense="consolidate_power")
    fight(sc, "mace_tyrell", "balon_greyjoy", attacker="tyrell", defender="greyjoy")
    assert sc.state.step == "use_blade"  # Greyjoy holds the Blade: the combat waits mid-way
    assert sc.state.areas["karhold"].units == {} and sc.state.orders["karhold"].order == "consolidate_power"
    check_invariants(sc.state)  # the invariant allows it inside an open combat
    events = sc.run("greyjoy", acmd.UseBlade(use=False))
    removed = [e for e in of_type(events, aev.OrderRemoved) if e.area == "karhold"]
    assert [(e.order, e.reason) for e in removed] == [("consolidate_power", "BG-ORDER-08")]
    assert "karhold" not in sc.state.orders
    check_invariants(sc.state)


def test_ser_loras_tyrell_march_order_moves_into_the_conquered_area():
    sc = north(a="tyrell", att={"knight": 2}, no_blade=True)
    fight(sc, "ser_loras_tyrell", "the_hound", attacker="tyrell")
    placed = of_type(sc.events, aev.OrderPlaced)[0]
    assert (placed.area, placed.order) == ("karhold", "march_0")
    assert sc.state.step == "resolve_march" and sc.state.action.current_house == "tyrell"
    sc.run("tyrell", acmd.ResolveMarch(area="karhold", moves={"winterfell": {"knight": 2}}))
    assert sc.state.areas["winterfell"].units == {"knight": 2}


def test_queen_of_thorns_removes_an_adjacent_opponent_order_not_the_march():
    sc = north(
        d="tyrell",
        a="stark",
        att={"knight": 1},
        dfn={"footman": 1},
        no_blade=True,
        extra={"castle_black": ("stark", {"footman": 1})},
        orders={"castle_black": "support_0"},
    )
    fight(sc, "eddard_stark", "queen_of_thorns", attacker="stark", defender="tyrell")
    d = sc.decision()
    assert d.options.choices == ["castle_black"] and not d.options.may_skip
    sc.run("tyrell", A(choice="castle_black"))
    assert decided(sc).strength["stark"] == 2 + 4  # the removed support no longer counts


def test_arianne_martell_keeps_the_winning_attacker_out():
    sc = north(d="martell", att={"knight": 2}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "eddard_stark", "arianne_martell", defender="martell")
    assert sc.state.areas["winterfell"].units == {"knight": 2}
    assert sc.state.areas["karhold"].units == {}
    assert sc.state.areas["castle_black"].units == {}  # 2 swords killed the footman


def test_nymeria_sand_tower_when_defending_sword_when_attacking():
    sc = north(d="martell", att={"knight": 2}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "greatjon_umber", "nymeria_sand", defender="martell")
    assert decided(sc).casualties == 0
    sc2 = north(a="martell", att={"knight": 2}, dfn={"footman": 2}, no_blade=True)
    fight(sc2, "nymeria_sand", "ser_kevan_lannister", attacker="martell")
    assert decided(sc2).casualties == 1


def test_doran_martell_moves_the_opponent_to_the_bottom_of_a_track():
    sc = north(a="martell", att={"knight": 1}, no_blade=True)
    fight(sc, "doran_martell", "the_hound", attacker="martell")
    d = sc.decision()
    # Lannister is already last on Fiefdoms: that track is not offered (Review 2 "Doran Martell")
    assert d.options.choices == ["iron_throne", "kings_court"] and not d.options.may_skip
    sc.run("martell", A(choice="kings_court"))
    assert sc.state.tracks.kings_court[-1] == "lannister"


def test_renly_baratheon_upgrades_a_standing_footman_never_a_routed_one():
    """Renly Baratheon with BG-COMBAT-22: a routed Footman in the winner's area is not in the combat;
    Renly upgrades a standing one (the routed mark stays on the Footman left), and with only routed
    Footmen there is nothing to upgrade (a 5-player Tides bot game once upgraded a routed one)."""
    sc = north(
        a="stark",
        d="baratheon",
        att={"knight": 1},
        dfn={"footman": 2},
        no_blade=True,
        extra={"castle_black": ("stark", {"footman": 1})},
        orders={"castle_black": "consolidate_power"},  # the Action phase goes on after the combat
    )
    sc.state.action.routed["karhold"] = {"footman": 1}
    fight(sc, "catelyn_stark", "renly_baratheon", attacker="stark", defender="baratheon")
    d = sc.decision("baratheon")
    assert d.options.card == "renly_baratheon" and d.options.choices == ["karhold"]
    sc.run("baratheon", A(choice="karhold"))
    assert sc.state.areas["karhold"].units == {"footman": 1, "knight": 1}
    assert sc.state.action.routed["karhold"] == {"footman": 1}
    check_state(sc.state)

    only_routed = north(a="stark", d="baratheon", att={"knight": 1}, dfn={"footman": 1}, no_blade=True)
    only_routed.state.action.routed["karhold"] = {"footman": 1}
    fight(only_routed, "catelyn_stark", "renly_baratheon", attacker="stark", defender="baratheon")
    assert not [x for x in only_routed.decisions() if "choose_ability" in x.commands]
    assert only_routed.state.areas["karhold"].units == {"footman": 1}
    check_state(only_routed.state)
