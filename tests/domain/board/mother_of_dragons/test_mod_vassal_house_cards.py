"""The texts of the shared Vassal House deck's seven cards (MOD-VASSAL-29; reference ``cards.yaml``
``vassal_house_cards``), each played by a vassal in a combat position, with the case where its
condition is not met.

The position: a 4-player Mother of Dragons game (players baratheon, lannister, stark, martell; stark
commands the vassal arryn, MOD-VASSAL-13). Martell attacks from Winterfell into Karhold, or is
attacked there by arryn. The vassal's hand is set to the cards the test needs (so none is drawn,
MOD-VASSAL-14); the Valyrian Steel Blade is already used. Expected values are worked out from the
printed card values in ``cards.yaml`` and the base game's unit strengths.
"""

from __future__ import annotations

import msgspec

from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.action.decisions import AbilityOptions
from domain.board.action.vassal_cards import jaqen_purpose
from domain.board.action.view import action_view
from domain.board.narrative import describe
from domain.board.redaction import redact_event
from domain.board.replay import player_commands
from domain.board.sealed_inputs import HOUSE_CARD, check_reveals
from domain.board.state import Settings
from domain.core.commitment import commit
from domain.core.rederive import Recorded
from domain.core.rng import derive_rng
from tests.support.action_positions import NOW, acmd, of_type
from tests.support.mod_positions import SEVEN, ModPosition

MARTELL_PLAIN = ["the_red_viper", "areo_hotah", "darkstar", "obara_sand"]
"""Martell cards without a text of their own."""


def position(
    units: dict[str, tuple[str, dict[str, int]]],
    orders: dict[str, str],
    arryn: list[str],
    martell: list[str] | None = None,
    **kw,
) -> ModPosition:
    kw.setdefault("garrisons", {})
    kw.setdefault("supply", {h: 6 for h in SEVEN})
    sc = ModPosition(players=4)
    assert sc.state.vassals == ["arryn", "greyjoy", "tyrell"] and sc.state.commanders["arryn"] == "stark"
    hands = {"arryn": list(arryn), "martell": list(MARTELL_PLAIN if martell is None else martell)}
    sc.setup(units, orders, hands=hands, **kw)
    sc.state.blade_used = True
    sc.begin()
    return sc


def act(sc: ModPosition, house: str, command):
    """A command for ``house``: a vassal's is sent by its commander's seat with ``for_vassal``."""
    if house in sc.state.vassals:
        command = msgspec.structs.replace(command, for_vassal=house)
        return sc.sys(command, sc.actor(sc.state.commanders[house]))
    return sc.run(house, command)


def fight(sc: ModPosition, attacker: str, defender: str, att_card: str | None, dfn_card: str | None, units):
    out = act(sc, attacker, acmd.ResolveMarch(area="winterfell", moves={"karhold": acmd.UnitCounts(**units)}))
    while sc.state.step == "declare_support":
        out += act(sc, sc.state.action.combat.support_queue[0], acmd.DeclareSupport(side="attacker"))
    for house, card in ((attacker, att_card), (defender, dfn_card)):
        if card is not None:
            out += act(sc, house, acmd.ChooseHouseCard(card=card))
    return out


def martell_attacks(arryn_units, martell_units, arryn_card, martell_card="darkstar", **kw):
    """Martell marches ``martell_units`` from Winterfell on arryn's ``arryn_units`` in Karhold."""
    sc = position(
        {"winterfell": ("martell", martell_units), "karhold": ("arryn", arryn_units)},
        {"winterfell": "march_0"},
        arryn=[arryn_card, "janos_slynt", "varys"] if arryn_card != "janos_slynt" else ["janos_slynt", "varys"],
        **kw,
    )
    events = fight(sc, "martell", "arryn", martell_card, arryn_card, martell_units)
    return sc, events


def arryn_attacks(arryn_units, martell_units, arryn_card, martell_card="darkstar", **kw):
    """Arryn (commanded by stark) marches ``arryn_units`` from Winterfell on martell in Karhold."""
    sc = position(
        {"winterfell": ("arryn", arryn_units), "karhold": ("martell", martell_units)},
        {"winterfell": "vassal_march_0"},
        arryn=[arryn_card, "varys"] if arryn_card != "varys" else ["varys", "janos_slynt"],
        **kw,
    )
    events = fight(sc, "arryn", "martell", arryn_card, martell_card, arryn_units)
    return sc, events


def decided(events) -> aev.CombatDecided:
    (d,) = of_type(events, aev.CombatDecided)
    return d


def until_over(sc: ModPosition) -> list:
    out = []
    while sc.state.action is not None and sc.state.action.combat is not None:
        out += sc.timeout()
    return out


# --- Varys ------------------------------------------------------------------------------------------


def test_MOD_VASSAL_29_varys_moves_the_vassal_to_the_top_of_fiefdoms() -> None:
    """Varys (0): after combat (here lost: 1 Footman + 0 against a Knight + Darkstar's 2) arryn moves to
    the top of the Fiefdoms track and the others shift down one; the Blade stays with the highest
    player house (MOD-VASSAL-21)."""
    before = ["martell", "stark", "baratheon", "lannister", "greyjoy", "tyrell", "arryn"]
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "varys", tracks={"fiefdoms": before})
    events += until_over(sc)
    assert decided(events).winner == "martell"
    assert sc.state.tracks.fiefdoms == ["arryn", "martell", "stark", "baratheon", "lannister", "greyjoy", "tyrell"]
    (moved,) = [e for e in of_type(events, aev.InfluenceTrackChanged) if e.reason == "varys"]
    assert moved.track == "fiefdoms"
    assert sc.state.blade_holder() == "martell"
    assert describe(moved) is not None and "Varys" in describe(moved)


def test_MOD_VASSAL_29_varys_when_the_vassal_is_already_on_top() -> None:
    """Varys: arryn already first on Fiefdoms: the track stays as it is."""
    order = ["arryn", "martell", "stark", "baratheon", "lannister", "greyjoy", "tyrell"]
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "varys", tracks={"fiefdoms": order})
    events += until_over(sc)
    assert not [e for e in of_type(events, aev.InfluenceTrackChanged) if e.reason == "varys"]
    assert sc.state.tracks.fiefdoms == order


# --- Syrio Forel ------------------------------------------------------------------------------------


def test_MOD_VASSAL_29_syrio_forel_defending_zeroes_non_vassal_footmen() -> None:
    """Syrio Forel (1), arryn defending: martell's 2 marching Footmen and lannister's supporting Footman
    count 0; martell = Knight 2 + Darkstar 2 = 4 (not 7); arryn's own Footman (a vassal's) keeps its
    1: 1 + 1 = 2."""
    sc = position(
        {
            "winterfell": ("martell", {"footman": 2, "knight": 1}),
            "karhold": ("arryn", {"footman": 1}),
            "castle_black": ("lannister", {"footman": 1}),
        },
        {"winterfell": "march_0", "castle_black": "support_0"},
        arryn=["syrio_forel", "janos_slynt", "varys"],
    )
    events = fight(sc, "martell", "arryn", "darkstar", "syrio_forel", {"footman": 2, "knight": 1})
    assert decided(events).strength == {"martell": 4, "arryn": 2}


def test_MOD_VASSAL_29_syrio_forel_attacking_changes_nothing() -> None:
    """Syrio Forel attacking: martell's 2 defending Footmen keep their strength: 2 + Darkstar 2 = 4
    against arryn's Knight 2 + 1 = 3."""
    sc, events = arryn_attacks({"knight": 1}, {"footman": 2}, "syrio_forel")
    assert decided(events).strength == {"arryn": 3, "martell": 4}


# --- Jaqen H'ghar -----------------------------------------------------------------------------------


def test_MOD_VASSAL_29_jaqen_h_ghar_replaces_the_opponents_card_at_random() -> None:
    """Jaqen H'ghar (1): martell's Red Viper is cancelled (back to hand) and a card drawn at random from
    martell's whole hand is its card, face up: the draw is the seed's stream for this pick, recorded in
    the event; the shuffled hand is hidden from every reader, the drawn card is not. The combat is
    fought with the drawn card's printed strength."""
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "jaqen_h_ghar", martell_card="the_red_viper")
    (swap,) = of_type(events, aev.HouseCardReplacedAtRandom)
    expected = derive_rng(sc.ctx.seed, f"{sc.ctx.game_id}/{jaqen_purpose(swap.number, 'martell')}")
    assert swap.hand == expected.shuffled(sorted(MARTELL_PLAIN))
    assert swap.card == swap.hand[0] and swap.cancelled == "the_red_viper" and swap.by == "arryn"
    for reader in (None, "martell", "stark", "baratheon"):
        seen = redact_event(swap, reader)
        assert isinstance(seen, aev.HouseCardReplacedAtRandom) and seen.hand is None and seen.card == swap.card
    strength = {"the_red_viper": 4, "areo_hotah": 3, "darkstar": 2, "obara_sand": 2}[swap.card]
    assert decided(events).strength == {"martell": 2 + strength, "arryn": 1 + 1}
    assert swap.card in sc.state.houses["martell"].discards
    assert sorted(sc.state.houses["martell"].hand) == sorted(set(MARTELL_PLAIN) - {swap.card})


def test_MOD_VASSAL_29_jaqen_h_ghar_against_no_card_does_nothing() -> None:
    """Jaqen H'ghar against an opponent with no House card (BG-COMBAT-10): nothing to cancel."""
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "jaqen_h_ghar", martell_card=None, martell=[])
    assert not of_type(events, aev.HouseCardReplacedAtRandom)
    assert decided(events).strength == {"martell": 2, "arryn": 2}


# --- Janos Slynt ------------------------------------------------------------------------------------


def test_MOD_VASSAL_29_janos_slynt_fights_with_his_printed_values_only() -> None:
    """Janos Slynt (2, 2 swords, 1 fortification; no text): arryn's 2 Knights + 2 = 6 against 2 Footmen
    + Areo Hotah's 3 = 5; 2 swords - Areo's 1 fortification = 1 casualty; no text resolves or asks."""
    sc, events = arryn_attacks({"knight": 2}, {"footman": 2}, "janos_slynt", martell_card="areo_hotah")
    d = decided(events)
    assert d.strength == {"arryn": 6, "martell": 5} and d.winner == "arryn" and d.casualties == 1
    assert not [e for e in of_type(events, aev.AbilityResolved) if e.card == "janos_slynt"]
    assert not of_type(events, aev.AbilityChoicePending)


# --- Jon Connington ---------------------------------------------------------------------------------


def jon_lost() -> tuple[ModPosition, list]:
    """Arryn defends Karhold with 2 Footmen and Jon Connington (2): 4 against martell's 2 Knights +
    Darkstar = 6; Darkstar's sword kills one Footman, the other retreats to Castle Black (its only
    retreat: Winterfell is the attacker's, the Shivering Sea is a sea)."""
    sc, events = martell_attacks({"footman": 2}, {"knight": 2}, "jon_connington")
    events += sc.timeout() if sc.state.step == "choose_casualties" else []
    return sc, events


def test_MOD_VASSAL_29_jon_connington_musters_a_knight_where_the_vassal_retreated() -> None:
    """Jon Connington: arryn lost; after combat its commander (stark's seat, ``for_vassal``) may muster
    one of its Knights where it retreated (Castle Black) or in its home area (The Eyrie, which it still
    controls); it chooses Castle Black."""
    sc, events = jon_lost()
    assert decided(events).winner == "martell"
    assert sc.state.step == "house_card_ability"
    d = sc.decision("arryn")
    assert d.seat_id == sc.actor("stark").seat_id and d.for_vassal == "arryn"
    assert isinstance(d.options, AbilityOptions) and d.options.card == "jon_connington"
    assert d.options.choices == ["castle_black", "the_eyrie"] and d.options.may_skip
    out = act(sc, "arryn", acmd.ChooseAbility(choice="castle_black"))
    placed = [e for e in of_type(out, aev.UnitsPlaced) if e.reason == "jon_connington"]
    assert placed == [aev.UnitsPlaced(house="arryn", area="castle_black", units={"knight": 1}, reason="jon_connington")]
    assert sc.state.areas["castle_black"].units == {"footman": 1, "knight": 1}
    assert sc.state.action is None or sc.state.action.combat is None  # the combat is over


def test_MOD_VASSAL_29_jon_connington_default_musters_nothing() -> None:
    """Jon Connington's choice is optional: at the deadline the default does not muster."""
    sc, _ = jon_lost()
    out = sc.timeout()
    assert [e.by_default for e in of_type(out, aev.AbilityResolved) if e.card == "jon_connington"] == [True]
    assert not of_type(out, aev.UnitsPlaced)
    assert "knight" not in sc.state.areas["castle_black"].units


def test_MOD_VASSAL_29_jon_connington_when_the_vassal_wins() -> None:
    """Jon Connington: arryn wins (2 Knights + 2 = 6 against a Footman + Darkstar = 3): no muster."""
    sc, events = martell_attacks({"knight": 2}, {"footman": 1}, "jon_connington")
    events += until_over(sc)
    assert decided(events).winner == "arryn"
    assert not [e for e in of_type(events, aev.AbilityChoicePending) if e.card == "jon_connington"]
    assert not [e for e in of_type(events, aev.UnitsPlaced) if e.reason == "jon_connington"]


# --- Beric Dondarrion -------------------------------------------------------------------------------


def test_MOD_VASSAL_29_beric_dondarrion_destroys_one_of_the_winners_own_units() -> None:
    """Beric Dondarrion (3): arryn wins defending (Footman + Knight + 3 = 6 against a Footman +
    Darkstar = 3); after casualties its commander must destroy one of arryn's units in Karhold: a
    mandatory choice among its unit types, weakest first; it picks the Knight."""
    sc, events = martell_attacks({"footman": 1, "knight": 1}, {"footman": 1}, "beric_dondarrion")
    assert decided(events).winner == "arryn"
    d = sc.decision("arryn")
    assert isinstance(d.options, AbilityOptions) and d.options.card == "beric_dondarrion"
    assert d.options.choices == ["footman", "knight"] and not d.options.may_skip
    out = act(sc, "arryn", acmd.ChooseAbility(choice="knight"))
    lost = [e for e in of_type(out, aev.UnitsDestroyed) if e.reason == "beric_dondarrion"]
    assert [(e.house, e.area, e.units) for e in lost] == [("arryn", "karhold", {"knight": 1})]
    assert sc.state.areas["karhold"].units == {"footman": 1}


def test_MOD_VASSAL_29_beric_dondarrion_default_and_attacking() -> None:
    """Beric Dondarrion attacking with one unit type: arryn's 2 Knights + 3 = 7 beat 1 Footman +
    Darkstar = 3; one Knight is destroyed at once (nothing to choose) and the other moves in."""
    sc, events = arryn_attacks({"knight": 2}, {"footman": 1}, "beric_dondarrion")
    events += until_over(sc)
    assert decided(events).winner == "arryn"
    lost = [e for e in of_type(events, aev.UnitsDestroyed) if e.reason == "beric_dondarrion"]
    assert [(e.house, e.area, e.units, e.combat_units) for e in lost] == [("arryn", "winterfell", {"knight": 1}, True)]
    assert sc.state.areas["karhold"].house == "arryn" and sc.state.areas["karhold"].units == {"knight": 1}


def test_MOD_VASSAL_29_beric_dondarrion_when_the_vassal_loses() -> None:
    """Beric Dondarrion: arryn loses (Footman + Knight + 3 = 6 against 2 Knights + Red Viper 4 = 8):
    nothing of arryn's is destroyed by his text."""
    sc, events = martell_attacks(
        {"footman": 1, "knight": 1}, {"knight": 2}, "beric_dondarrion", martell_card="the_red_viper"
    )
    events += until_over(sc)
    assert decided(events).winner == "martell"
    assert not [e for e in of_type(events, aev.UnitsDestroyed) if e.reason == "beric_dondarrion"]
    assert not [e for e in of_type(events, aev.AbilityChoicePending) if e.card == "beric_dondarrion"]


# --- Bronn ------------------------------------------------------------------------------------------


def test_MOD_VASSAL_29_bronn_the_opponent_pays_2_power_for_strength_0() -> None:
    """Bronn (4): after the reveal martell (7 Power) may discard 2 available Power to make Bronn's
    strength 0: arryn's Footman + 0 = 1 against martell's Knight + Darkstar = 4 (without it 5 to 4)."""
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "bronn")
    assert sc.state.step == "house_card_ability"
    d = sc.decision("martell")
    assert isinstance(d.options, AbilityOptions) and d.options.card == "bronn"
    assert d.options.choices == ["discard_power"] and d.options.may_skip and d.for_vassal is None
    power = sc.state.houses["martell"].power
    out = sc.run("martell", acmd.ChooseAbility(choice="discard_power"))
    assert sc.state.houses["martell"].power == power - 2
    assert decided(events + out).strength == {"martell": 4, "arryn": 1}
    # the text resolved is arryn's card; the answer, martell's: an export reads it back as martell's command
    (resolved,) = [e for e in of_type(out, aev.AbilityResolved) if e.card == "bronn"]
    assert (resolved.house, resolved.chooser, resolved.choice) == ("arryn", "martell", "discard_power")
    read_back = player_commands([Recorded(seq=1, ts=NOW, event=resolved)], 0)
    assert read_back == [("martell", acmd.ChooseAbility(choice="discard_power"))]


def test_MOD_VASSAL_29_bronn_declined_by_default() -> None:
    """Bronn: at the deadline the opponent does not pay; Bronn keeps his 4 and arryn wins 5 to 4."""
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "bronn")
    power = sc.state.houses["martell"].power
    events += sc.timeout()
    assert sc.state.houses["martell"].power == power
    assert decided(events).strength == {"martell": 4, "arryn": 5}


def test_MOD_VASSAL_29_bronn_without_2_power_nothing_to_decide() -> None:
    """Bronn: martell holds 1 Power, so it cannot pay: no decision, Bronn counts 4."""
    sc, events = martell_attacks({"footman": 1}, {"knight": 1}, "bronn", power={"martell": 1})
    assert not [e for e in of_type(events, aev.AbilityChoicePending) if e.card == "bronn"]
    assert decided(events).strength == {"martell": 4, "arryn": 5}


# --- hidden information -----------------------------------------------------------------------------


def test_MOD_VASSAL_14_the_vassal_card_is_seen_by_its_commander_until_the_reveal() -> None:
    """MOD-VASSAL-14: the vassal's chosen card is seen by its commander (stark) in the combat view,
    sealed for everyone else, until both cards are revealed."""
    sc = position(
        {"winterfell": ("martell", {"knight": 1}), "karhold": ("arryn", {"footman": 1})},
        {"winterfell": "march_0"},
        arryn=["bronn", "janos_slynt", "varys"],
    )
    act(sc, "martell", acmd.ResolveMarch(area="winterfell", moves={"karhold": acmd.UnitCounts(knight=1)}))
    act(sc, "arryn", acmd.ChooseHouseCard(card="janos_slynt"))
    assert sc.state.step == "choose_house_card"
    assert action_view(sc.state, "stark").combat.cards == {"arryn": "janos_slynt"}
    for reader in (None, "martell", "baratheon", "arryn"):
        assert action_view(sc.state, reader).combat.cards == {"arryn": "sealed"}


def _sealed_card(house: str, card: str, salt: str) -> aev.HouseCardChosen:
    return aev.HouseCardChosen(house=house, card=card, salt=salt, commitment=commit(HOUSE_CARD, house, salt, card))


def test_MOD_VASSAL_29_a_card_jaqen_drew_face_up_is_revealed_again_without_a_commitment() -> None:
    """Jaqen H'ghar replaces lannister's sealed card by one drawn at random, face up; that card is a
    Tyrion Lannister, which cancels Jaqen: the vassal chooses again (sealed) and both cards are
    revealed again. Lannister's Tyrion opens no commitment (it was never sealed) and is not a
    problem; the vassal's new card opens its new commitment; a forged reveal of another card for
    lannister is still caught. (Seen in a bot game: the audit flagged the honest game.)"""
    created = ev.GameCreated(
        game_id="g", player_count=4, settings=Settings(), seed_commitment="x", sealed_commitments=True
    )
    first = [_sealed_card("lannister", "the_hound", "s1"), _sealed_card("tyrell", "jaqen_h_ghar", "s2")]
    revealed = aev.HouseCardsRevealed(
        cards={"lannister": "the_hound", "tyrell": "jaqen_h_ghar"}, salts={"lannister": "s1", "tyrell": "s2"}
    )
    drawn = aev.HouseCardReplacedAtRandom(
        house="lannister", card="tyrion_lannister", cancelled="the_hound", by="tyrell", number=1
    )
    again = [
        aev.HouseCardCancelled(house="tyrell", card="jaqen_h_ghar", by="lannister"),
        _sealed_card("tyrell", "bronn", "s3"),
    ]

    def recorded(second_reveal: aev.HouseCardsRevealed) -> list[Recorded]:
        events = [created, *first, revealed, drawn, *again, second_reveal]
        return [Recorded(seq=n, ts=NOW, event=e) for n, e in enumerate(events, 1)]

    honest = aev.HouseCardsRevealed(
        cards={"lannister": "tyrion_lannister", "tyrell": "bronn"}, salts={"lannister": "s1", "tyrell": "s3"}
    )
    check = check_reveals(recorded(honest))
    assert check.problems == [] and check.opened == 3  # the first two, and bronn's new commitment
    forged = aev.HouseCardsRevealed(
        cards={"lannister": "ser_gregor_clegane", "tyrell": "bronn"}, salts={"lannister": "s1", "tyrell": "s3"}
    )
    assert check_reveals(recorded(forged)).problems == [
        "event 8: lannister's house_card is revealed but was never committed"  # not the card drawn face up
    ]
