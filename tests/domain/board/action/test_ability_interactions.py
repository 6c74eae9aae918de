"""Pairwise House card interactions (section 15.9 with BG-COMBAT-09/10/25/26, and the rule digest's
"Review 2" table): every ability that can prevent, cancel, copy or change another one, against it.

Each row of :data:`ROWS` is ``(ability A, ability B, the outcome the digest decides)``; its play
function sets up the combat (``tests/support/combat_helpers.north``: the attacker marches from
Winterfell into Karhold), plays both cards and asserts that outcome. The kinds of interaction:

* **prevent** -- The Blackfish against House card casualties (Mace Tyrell); Arianne Martell against
  the winner moving in (and so against Ser Loras's March order moving on); Mace Tyrell against the
  Footman Renly Baratheon would upgrade;
* **cancel** -- Tyrion Lannister against an "immediately", "after combat" or static text (step 1 of
  BG-COMBAT-09 comes before every other text), and against a last card (BG-COMBAT-10);
* **change** -- Balon Greyjoy against printed strength (the card's own modifiers still apply); Doran
  Martell's track move against Stannis Baratheon, the Valyrian Steel Blade and the Fiefdoms tie
  (step 2 comes before strength, the Blade and the winner); Queen of Thorns against Support orders
  but never the embattled area's Defense order (Catelyn Stark) nor the combat's March; Mace Tyrell
  against Ser Kevan Lannister's Footmen; Roose Bolton's returned pile against Patchface; Patchface
  against the hand refresh (BG-COMBAT-26, Review 2); Robb Stark's retreat choice with Arianne.

``test_the_table_covers_every_interacting_ability`` checks that every House card with such a text
appears in the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import pytest

from domain.board.action import events as aev
from tests.support.action_positions import acmd, of_type
from tests.support.combat_helpers import fight, north
from tests.support.invariants import check_invariants

A = acmd.ChooseAbility
C = acmd.ChooseHouseCard

STARK = (
    "eddard_stark",
    "robb_stark",
    "roose_bolton",
    "greatjon_umber",
    "ser_rodrick_cassel",
    "the_blackfish",
    "catelyn_stark",
)


def decided(sc) -> aev.CombatDecided:
    return of_type(sc.events, aev.CombatDecided)[-1]


def killed_by(sc, reason: str) -> list[aev.UnitsDestroyed]:
    return [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == reason]


def pending(sc, card: str) -> list[aev.AbilityChoicePending]:
    return [e for e in of_type(sc.events, aev.AbilityChoicePending) if e.card == card]


# --- prevent -----------------------------------------------------------------------------------------


def mace_vs_blackfish_defending(sc=None):
    sc = north(a="tyrell", d="stark", att={"knight": 1}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "mace_tyrell", "the_blackfish", attacker="tyrell", defender="stark")
    assert killed_by(sc, "mace_tyrell") == []
    assert decided(sc).strength["stark"] == 2 + 1
    return sc


def mace_vs_blackfish_attacking(sc=None):
    sc = north(a="stark", d="tyrell", att={"footman": 2}, dfn={"knight": 1}, no_blade=True)
    fight(sc, "the_blackfish", "mace_tyrell", attacker="stark", defender="tyrell")
    assert killed_by(sc, "mace_tyrell") == []
    assert decided(sc).strength["stark"] == 2 + 1  # both attacking Footmen still fight
    return sc


def arianne_vs_loras(sc=None):
    sc = north(a="tyrell", d="martell", att={"knight": 2}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "ser_loras_tyrell", "arianne_martell", attacker="tyrell", defender="martell")
    assert decided(sc).winner == "tyrell"
    assert sc.state.areas["karhold"].house is None and sc.state.areas["winterfell"].units == {"knight": 2}
    assert of_type(sc.events, aev.OrderPlaced) == []  # no conquered area: the March order does not move on
    return sc


def mace_vs_renly(sc=None):
    sc = north(a="baratheon", d="tyrell", att={"knight": 2, "footman": 1}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "renly_baratheon", "mace_tyrell", attacker="baratheon", defender="tyrell")
    [kill] = killed_by(sc, "mace_tyrell")
    assert (kill.house, kill.units) == ("baratheon", {"footman": 1})
    assert decided(sc).winner == "baratheon"
    assert pending(sc, "renly_baratheon") == []  # no participating Footman left to upgrade
    assert sc.state.areas["karhold"].units == {"knight": 2}
    return sc


# --- cancel ------------------------------------------------------------------------------------------


def _tyrion_cancels(sc, victim_house: str, victim_card: str, replacement: str):
    d = sc.decision()
    assert (d.house, d.options.card) == ("lannister", "tyrion_lannister")
    sc.run("lannister", A(choice="cancel"))
    assert victim_card not in sc.decision(victim_house).options.cards
    sc.run(victim_house, C(card=replacement))
    assert of_type(sc.events, aev.HouseCardsRevealed)[-1].cards[victim_house] == replacement
    return sc


def tyrion_vs_mace(sc=None):
    sc = north(a="tyrell", d="lannister", att={"knight": 1}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "mace_tyrell", "tyrion_lannister", attacker="tyrell", defender="lannister")
    _tyrion_cancels(sc, "tyrell", "mace_tyrell", "margaery_tyrell")
    assert killed_by(sc, "mace_tyrell") == []
    assert "mace_tyrell" in sc.state.houses["tyrell"].hand
    return sc


def tyrion_vs_blackfish(sc=None):
    sc = north(a="stark", d="lannister", att={"footman": 2}, dfn={"knight": 2}, no_blade=True)
    fight(sc, "the_blackfish", "tyrion_lannister", attacker="stark", defender="lannister")
    _tyrion_cancels(sc, "stark", "the_blackfish", "ser_rodrick_cassel")
    assert "the_blackfish" in sc.state.houses["stark"].hand
    assert decided(sc).strength == {"stark": 2 + 1, "lannister": 4 + 1}
    return sc


def tyrion_vs_aeron(sc=None):
    sc = north(a="greyjoy", d="lannister", att={"knight": 1}, no_blade=True, power={"greyjoy": 3})
    fight(sc, "aeron_damphair", "tyrion_lannister", attacker="greyjoy", defender="lannister")
    _tyrion_cancels(sc, "greyjoy", "aeron_damphair", "euron_crows_eye")
    assert pending(sc, "aeron_damphair") == [] and of_type(sc.events, aev.HouseCardSwapped) == []
    assert sc.state.houses["greyjoy"].power == 3 and "aeron_damphair" in sc.state.houses["greyjoy"].hand
    return sc


def tyrion_vs_patchface(sc=None):
    sc = north(a="baratheon", d="lannister", att={"knight": 2}, no_blade=True)
    fight(sc, "patchface", "tyrion_lannister", attacker="baratheon", defender="lannister")
    _tyrion_cancels(sc, "baratheon", "patchface", "brienne_of_tarth")
    assert pending(sc, "patchface") == [] and "patchface" in sc.state.houses["baratheon"].hand
    assert [e.reason for e in of_type(sc.events, aev.HouseCardsDiscarded)].count("patchface") == 0
    return sc


def tyrion_vs_doran(sc=None):
    sc = north(a="martell", d="lannister", att={"knight": 1}, no_blade=True)
    before = sc.state.tracks
    tracks = (list(before.iron_throne), list(before.fiefdoms), list(before.kings_court))
    fight(sc, "doran_martell", "tyrion_lannister", attacker="martell", defender="lannister")
    _tyrion_cancels(sc, "martell", "doran_martell", "areo_hotah")
    assert pending(sc, "doran_martell") == [] and of_type(sc.events, aev.InfluenceTrackChanged) == []
    t = sc.state.tracks
    assert (t.iron_throne, t.fiefdoms, t.kings_court) == tracks
    return sc


def tyrion_vs_last_card(sc=None):
    sc = north(
        a="stark",
        d="lannister",
        att={"knight": 1},
        dfn={"footman": 1},
        no_blade=True,
        hands={"stark": ["eddard_stark"]},
        discards={"stark": [c for c in STARK if c != "eddard_stark"]},
    )
    fight(sc, "eddard_stark", "tyrion_lannister", attacker="stark", defender="lannister")
    sc.run("lannister", A(choice="cancel"))
    # the cancelled card may not be chosen again and Stark has no other: it fights without a card
    assert of_type(sc.events, aev.HouseCardsRevealed)[-1].cards["stark"] is None
    assert decided(sc).strength == {"stark": 2 + 0, "lannister": 1 + 1}
    return sc


# --- change ------------------------------------------------------------------------------------------


def balon_vs_stannis(sc=None):
    it = ["greyjoy", "baratheon", "lannister", "stark", "martell", "tyrell"]
    sc = north(
        a="baratheon",
        d="greyjoy",
        att={"footman": 1},
        dfn={"footman": 1},
        no_blade=True,
        tracks={"iron_throne": it},
    )
    fight(sc, "stannis_baratheon", "balon_greyjoy", attacker="baratheon", defender="greyjoy")
    # printed 4 becomes 0; Stannis's own +1 (Greyjoy above on the Iron Throne) still applies
    assert decided(sc).strength == {"baratheon": 1 + 0 + 1, "greyjoy": 1 + 2}
    return sc


def balon_vs_davos(sc=None):
    others = ["renly_baratheon", "brienne_of_tarth", "melisandre", "salladhor_saan", "patchface"]
    sc = north(
        a="baratheon",
        d="greyjoy",
        att={"knight": 2},
        dfn={"footman": 1},
        no_blade=True,
        hands={"baratheon": ["ser_davos_seaworth", *others]},
        discards={"baratheon": ["stannis_baratheon"]},
    )
    fight(sc, "ser_davos_seaworth", "balon_greyjoy", attacker="baratheon", defender="greyjoy")
    d = decided(sc)
    assert d.strength == {"baratheon": 4 + 0 + 1, "greyjoy": 1 + 2}  # printed 2 -> 0, +1 with Stannis gone
    assert d.winner == "baratheon" and d.casualties == 1  # Davos's +1 sword is not printed strength
    return sc


def doran_vs_stannis(sc=None):
    sc = north(a="martell", d="baratheon", att={"footman": 1}, dfn={"footman": 1}, no_blade=True)
    assert sc.state.tracks.iron_throne[0] == "baratheon"
    fight(sc, "doran_martell", "stannis_baratheon", attacker="martell", defender="baratheon")
    sc.run("martell", A(choice="iron_throne"))
    # Baratheon is now last on the Iron Throne, below Martell: Stannis gets his +1
    assert decided(sc).strength["baratheon"] == 1 + 4 + 1
    return sc


def doran_vs_blade(sc=None):
    sc = north(a="martell", d="greyjoy", att={"knight": 1}, dfn={"footman": 1})
    assert sc.state.blade_holder() == "greyjoy"
    fight(sc, "doran_martell", "asha_greyjoy", attacker="martell", defender="greyjoy")
    sc.run("martell", A(choice="fiefdoms"))
    # Greyjoy is last on Fiefdoms before the Blade step: it no longer holds the Blade
    assert sc.state.blade_holder() != "greyjoy"
    assert not of_type(sc.events, aev.BladeUsed) and not of_type(sc.events, aev.BladeDeclined)
    assert decided(sc).strength["greyjoy"] == 1 + 1
    # the control: Doran on another track leaves Greyjoy the Blade and its decision
    sc2 = north(a="martell", d="greyjoy", att={"knight": 1}, dfn={"footman": 1})
    fight(sc2, "doran_martell", "asha_greyjoy", attacker="martell", defender="greyjoy")
    sc2.run("martell", A(choice="iron_throne"))
    assert sc2.state.step == "use_blade" and sc2.decision().house == "greyjoy"
    return sc


def doran_vs_fiefdoms_tie(sc=None):
    sc = north(a="martell", d="tyrell", att={"footman": 1}, dfn={"footman": 1}, no_blade=True)
    fief = sc.state.tracks.fiefdoms
    assert fief.index("tyrell") < fief.index("martell")  # a tie would go to Tyrell
    fight(sc, "doran_martell", "queen_of_thorns", attacker="martell", defender="tyrell")
    if sc.state.step == "house_card_ability" and sc.decision().options.card == "doran_martell":
        sc.run("martell", A(choice="fiefdoms"))
    d = decided(sc)
    assert d.strength == {"martell": 1, "tyrell": 1} and d.winner == "martell"
    return sc


def queen_of_thorns_vs_support(sc=None):
    sc = north(
        a="stark",
        d="tyrell",
        att={"knight": 1},
        dfn={"footman": 1},
        no_blade=True,
        extra={"castle_black": ("stark", {"footman": 1})},
        orders={"castle_black": "support_0"},
    )
    fight(sc, "eddard_stark", "queen_of_thorns", attacker="stark", defender="tyrell")
    d = sc.decision()
    assert d.options.choices == ["castle_black"]  # not winterfell: the combat's own March order
    sc.run("tyrell", A(choice="castle_black"))
    assert decided(sc).strength["stark"] == 2 + 4  # the removed Support no longer counts
    return sc


def queen_of_thorns_vs_catelyn(sc=None):
    sc = north(a="tyrell", d="stark", att={"knight": 1}, dfn={"footman": 1}, defense="defense_plus_1", no_blade=True)
    fight(sc, "queen_of_thorns", "catelyn_stark", attacker="tyrell", defender="stark")
    # the Defense order is in the embattled area, not next to it: Queen of Thorns cannot remove it
    assert pending(sc, "queen_of_thorns") == []
    assert decided(sc).strength["stark"] == 1 + 2 * 1 + 0
    return sc


def mace_vs_kevan(sc=None):
    sc = north(a="lannister", d="tyrell", att={"footman": 2}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "ser_kevan_lannister", "mace_tyrell", attacker="lannister", defender="tyrell")
    assert [e.units for e in killed_by(sc, "mace_tyrell")] == [{"footman": 1}]
    assert decided(sc).strength["lannister"] == 1 * 2 + 1  # one Footman left, at strength 2
    return sc


def roose_vs_patchface(sc=None):
    sc = north(
        a="baratheon",
        d="stark",
        att={"knight": 2},
        no_blade=True,
        hands={"stark": ["roose_bolton", "robb_stark"]},
        discards={"stark": ["eddard_stark", "greatjon_umber", "ser_rodrick_cassel", "the_blackfish", "catelyn_stark"]},
    )
    fight(sc, "patchface", "roose_bolton", attacker="baratheon", defender="stark")
    assert decided(sc).winner == "baratheon" and len(sc.state.houses["stark"].hand) == 7  # Roose: all back
    d = sc.decision()
    assert d.options.card == "patchface" and d.options.choices == sorted(STARK)
    sc.run("baratheon", A(choice="roose_bolton"))
    assert sc.state.houses["stark"].discards == ["roose_bolton"] and len(sc.state.houses["stark"].hand) == 6
    return sc


def patchface_vs_hand_refresh(sc=None):
    others = [c for c in STARK if c not in ("catelyn_stark", "eddard_stark")]
    sc = north(
        a="baratheon",
        d="stark",
        att={"knight": 2},
        no_blade=True,
        hands={"stark": ["catelyn_stark", "eddard_stark"]},
        discards={"stark": others},
    )
    fight(sc, "patchface", "catelyn_stark", attacker="baratheon", defender="stark")
    sc.run("baratheon", A(choice="eddard_stark"))
    hs = sc.state.houses["stark"]
    assert hs.discards == ["eddard_stark"] and len(hs.hand) == 6
    return sc


def robb_vs_arianne(sc=None):
    sc = north(
        a="stark",
        d="martell",
        att={"knight": 2},
        dfn={"footman": 1},
        no_blade=True,
        extra={"the_shivering_sea": ("martell", {"ship": 1})},
    )
    fight(sc, "robb_stark", "arianne_martell", attacker="stark", defender="martell")
    d = sc.decision()
    assert d.house == "stark" and d.options.retreating_house == "martell"  # Robb: the winner picks
    sc.run("stark", acmd.ChooseRetreat(area="widows_watch"))
    assert sc.state.areas["widows_watch"].units == {"footman": 1}
    assert sc.state.areas["karhold"].house is None and sc.state.areas["winterfell"].units == {"knight": 2}
    return sc


def blackfish_vs_siege_engine_loss(sc=None):
    sc = north(a="stark", d="lannister", att={"footman": 1, "siege_engine": 1}, dfn={"knight": 2}, no_blade=True)
    fight(sc, "the_blackfish", "ser_gregor_clegane", attacker="stark", defender="lannister")
    d = decided(sc)
    assert (d.winner, d.casualties) == ("lannister", 0)  # 3 swords, but The Blackfish: no sword casualty
    # BG-COMBAT-14 is not a casualty: the losing army's Siege Engine dies all the same
    assert [e.units for e in killed_by(sc, "BG-COMBAT-14")] == [{"siege_engine": 1}]
    assert sc.state.areas["winterfell"].units == {"footman": 1}
    return sc


def blackfish_vs_retreat_supply(sc=None):
    sc = north(
        att={"knight": 2},
        dfn={"footman": 1, "knight": 1},
        a="lannister",
        d="stark",
        extra={"castle_black": ("stark", {"footman": 1}), "widows_watch": ("stark", {"footman": 2})},
        supply={"stark": 0, "lannister": 6},
        no_blade=True,
    )
    fight(sc, "ser_gregor_clegane", "the_blackfish", attacker="lannister", defender="stark")
    assert decided(sc).casualties == 0
    # the retreat into Castle Black breaks supply: The Blackfish does not save that loss
    d = sc.decision()
    assert (d.house, d.commands, d.options.count) == ("stark", ["choose_retreat_losses"], 1)
    sc.run("stark", acmd.ChooseRetreatLosses(units=acmd.UnitCounts(footman=1)))
    assert [e.units for e in killed_by(sc, "BG-COMBAT-20")] == [{"footman": 1}]
    return sc


def tyrion_vs_balon(sc=None):
    sc = north(a="greyjoy", d="lannister", att={"knight": 1}, dfn={"footman": 1}, no_blade=True)
    fight(sc, "balon_greyjoy", "tyrion_lannister", attacker="greyjoy", defender="lannister")
    _tyrion_cancels(sc, "greyjoy", "balon_greyjoy", "dagmar_cleftjaw")
    assert decided(sc).strength == {"greyjoy": 2 + 1, "lannister": 1 + 1}  # Tyrion's printed 1 is back
    return sc


def doran_vs_last_everywhere(sc=None):
    last = {
        "iron_throne": ["baratheon", "stark", "martell", "greyjoy", "tyrell", "lannister"],
        "kings_court": ["stark", "martell", "baratheon", "tyrell", "greyjoy", "lannister"],
    }
    sc = north(a="martell", d="lannister", att={"knight": 1}, no_blade=True, tracks=last)
    assert sc.state.tracks.fiefdoms[-1] == "lannister"
    fight(sc, "doran_martell", "the_hound", attacker="martell", defender="lannister")
    assert pending(sc, "doran_martell") == [] and of_type(sc.events, aev.InfluenceTrackChanged) == []
    assert of_type(sc.events, aev.CombatDecided)
    return sc


def aeron_vs_hand_refresh(sc=None):
    greyjoy = ["victarion_greyjoy", "theon_greyjoy", "balon_greyjoy", "dagmar_cleftjaw", "asha_greyjoy"]
    sc = north(
        a="greyjoy",
        d="lannister",
        att={"knight": 1},
        no_blade=True,
        power={"greyjoy": 3},
        hands={"greyjoy": ["aeron_damphair", "euron_crows_eye"]},
        discards={"greyjoy": greyjoy},
    )
    fight(sc, "aeron_damphair", "the_hound", attacker="greyjoy", defender="lannister")
    sc.run("greyjoy", A(choice="euron_crows_eye"))
    # the swap emptied the hand: at clean-up every other discarded card comes back, Aeron included;
    # the card fought with (Euron) stays in the discard pile (BG-COMBAT-26)
    hs = sc.state.houses["greyjoy"]
    assert hs.discards == ["euron_crows_eye"] and sorted(hs.hand) == sorted([*greyjoy, "aeron_damphair"])
    return sc


class Row(NamedTuple):
    a: str
    b: str
    kind: str
    expected: str
    rule: str
    play: Callable[..., object]


ROWS = [
    Row(
        "mace_tyrell",
        "the_blackfish",
        "prevent",
        "no Footman of the defender dies",
        "Review 2; 15.9",
        mace_vs_blackfish_defending,
    ),
    Row(
        "mace_tyrell",
        "the_blackfish",
        "prevent",
        "no attacking Footman dies",
        "Review 2; 15.9",
        mace_vs_blackfish_attacking,
    ),
    Row(
        "arianne_martell",
        "ser_loras_tyrell",
        "prevent",
        "the winner stays out, so the March order does not move on",
        "15.9",
        arianne_vs_loras,
    ),
    Row(
        "mace_tyrell",
        "renly_baratheon",
        "prevent",
        "the only Footman dies first: nothing to upgrade",
        "BG-COMBAT-09 steps 2, 5",
        mace_vs_renly,
    ),
    Row(
        "tyrion_lannister",
        "mace_tyrell",
        "cancel",
        "Mace goes back to hand; no Footman dies",
        "BG-COMBAT-09 step 1",
        tyrion_vs_mace,
    ),
    Row(
        "tyrion_lannister",
        "the_blackfish",
        "cancel",
        "Blackfish back to hand; another card fights",
        "BG-COMBAT-09 step 1",
        tyrion_vs_blackfish,
    ),
    Row(
        "tyrion_lannister", "aeron_damphair", "cancel", "no swap, no Power paid", "BG-COMBAT-09 step 1", tyrion_vs_aeron
    ),
    Row(
        "tyrion_lannister", "patchface", "cancel", "no after-combat discard", "BG-COMBAT-09 step 1", tyrion_vs_patchface
    ),
    Row(
        "tyrion_lannister",
        "doran_martell",
        "cancel",
        "the tracks do not change",
        "BG-COMBAT-09 step 1",
        tyrion_vs_doran,
    ),
    Row(
        "tyrion_lannister",
        "last card",
        "cancel",
        "no other card: the house fights without one",
        "15.9 Tyrion; BG-COMBAT-10",
        tyrion_vs_last_card,
    ),
    Row(
        "balon_greyjoy", "stannis_baratheon", "change", "printed 0, Stannis's +1 still counts", "15.9", balon_vs_stannis
    ),
    Row(
        "balon_greyjoy",
        "ser_davos_seaworth",
        "change",
        "printed 0, +1 and +1 sword still count",
        "15.9",
        balon_vs_davos,
    ),
    Row(
        "doran_martell",
        "stannis_baratheon",
        "change",
        "moved below Martell, Stannis gets +1",
        "BG-COMBAT-09 steps 2, 3",
        doran_vs_stannis,
    ),
    Row(
        "doran_martell",
        "valyrian steel blade",
        "change",
        "last on Fiefdoms before the Blade step: no Blade",
        "BG-COMBAT-09 steps 2, 4; BG-COK-01",
        doran_vs_blade,
    ),
    Row(
        "doran_martell",
        "fiefdoms tie",
        "change",
        "last on Fiefdoms: the tie goes to Martell",
        "BG-COMBAT-09 step 2; BG-COMBAT-13",
        doran_vs_fiefdoms_tie,
    ),
    Row(
        "queen_of_thorns",
        "support order",
        "change",
        "the Support is removed (never the combat's March)",
        "15.9",
        queen_of_thorns_vs_support,
    ),
    Row(
        "queen_of_thorns",
        "catelyn_stark",
        "change",
        "the embattled area's Defense order stays and is doubled",
        "15.9",
        queen_of_thorns_vs_catelyn,
    ),
    Row(
        "mace_tyrell",
        "ser_kevan_lannister",
        "change",
        "one Footman fewer at strength 2",
        "BG-COMBAT-09 steps 2, 3",
        mace_vs_kevan,
    ),
    Row(
        "roose_bolton",
        "patchface",
        "change",
        "Roose takes all back, then Patchface discards one of them",
        "BG-COMBAT-09 steps 5, 7",
        roose_vs_patchface,
    ),
    Row(
        "patchface",
        "hand refresh",
        "change",
        "an emptied hand is refreshed at once",
        "Review 2; BG-COMBAT-26",
        patchface_vs_hand_refresh,
    ),
    Row(
        "robb_stark",
        "arianne_martell",
        "change",
        "Robb picks the retreat; the winner still stays out",
        "15.9",
        robb_vs_arianne,
    ),
    Row(
        "the_blackfish",
        "BG-COMBAT-14",
        "prevent (limit)",
        "a losing Siege Engine still dies",
        "15.9 The Blackfish; BG-COMBAT-14",
        blackfish_vs_siege_engine_loss,
    ),
    Row(
        "the_blackfish",
        "BG-COMBAT-20",
        "prevent (limit)",
        "supply losses on retreat still apply, chosen by the house",
        "15.9 The Blackfish; Review 2",
        blackfish_vs_retreat_supply,
    ),
    Row(
        "tyrion_lannister",
        "balon_greyjoy",
        "cancel",
        "printed strengths count again",
        "BG-COMBAT-09 step 1",
        tyrion_vs_balon,
    ),
    Row(
        "doran_martell",
        "last on every track",
        "change",
        "nothing to move: no decision, no change",
        "Review 2 Doran",
        doran_vs_last_everywhere,
    ),
    Row(
        "aeron_damphair",
        "hand refresh",
        "change",
        "the swap empties the hand: all but the card fought with come back",
        "15.9 Aeron; BG-COMBAT-26",
        aeron_vs_hand_refresh,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.a}-vs-{r.b}-{r.play.__name__}" for r in ROWS])
def test_ability_interaction(row: Row):
    """One row of the table: the combat is played and the digest's outcome asserted (see the row)."""
    sc = row.play()
    check_invariants(sc.state)


def test_the_table_covers_every_interacting_ability():
    """Every House card whose text can prevent, cancel or change another text is in a row."""
    interacting = {
        "mace_tyrell",
        "the_blackfish",
        "tyrion_lannister",
        "aeron_damphair",
        "patchface",
        "doran_martell",
        "queen_of_thorns",
        "balon_greyjoy",
        "stannis_baratheon",
        "renly_baratheon",
        "roose_bolton",
        "arianne_martell",
        "ser_loras_tyrell",
        "robb_stark",
        "catelyn_stark",
        "ser_kevan_lannister",
        "ser_davos_seaworth",
    }
    named = {r.a for r in ROWS} | {r.b for r in ROWS}
    assert interacting <= named, interacting - named


def table() -> str:
    """The table as text (``python -c 'from tests.domain.board.action.test_ability_interactions import
    table; print(table())'``)."""
    lines = ["| A | B | kind | expected (digest) | rule |", "|---|---|---|---|---|"]
    lines += [f"| {r.a} | {r.b} | {r.kind} | {r.expected} | {r.rule} |" for r in ROWS]
    return "\n".join(lines)
