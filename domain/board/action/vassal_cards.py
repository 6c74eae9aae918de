"""The seven cards of the shared Vassal House deck (Mother of Dragons, MOD-VASSAL-14/29; reference
``cards.yaml`` ``vassal_house_cards``), by the moment their text acts (BG-COMBAT-09), as
:mod:`.house_cards` files the base houses'. Only a vassal plays them; its commander makes every
choice they give the vassal (MOD-VASSAL-13).

* cancel -- Jaqen H'ghar: "Cancel the opponent's chosen card (back to hand), then reveal a random
  card from their hand as their card" (:func:`jaqen_h_ghar`);
* immediately, after the cards are revealed -- Bronn: "the opponent may discard 2 available Power to
  make this card's strength 0" (:func:`bronn_pending`, :func:`bronn_zeroed`);
* unit strength, all the time -- Syrio Forel: "If this vassal is defending, all non-vassal footmen in
  the combat have strength 0" (:func:`domain.board.strength.syrio_forel`, with the other texts that
  change a unit's strength);
* after casualties -- Beric Dondarrion: "If you win, after casualties you must destroy one of this
  vassal's own units in the contested area" (:func:`beric_choices`);
* after combat -- Varys: "this vassal moves to the top of the Fiefdoms track; the others shift down"
  (:func:`varys`); Jon Connington: "If this vassal loses, after combat you may muster one of its
  knights in the area it retreated to or in its home area" (:func:`jon_connington_choices`).

Janos Slynt (2, 2 swords, 1 fortification) has no text.

Every choice is a ``house_card_ability`` decision (``AbilityOptions``) with its documented default
(:mod:`.timeouts`): Bronn's and Jon Connington's are optional (the default does not use them),
Beric Dondarrion's is mandatory (the default destroys the first listed, weakest unit type).
"""

from __future__ import annotations

from .. import board_data
from ..control import controller
from ..emitter import Emitter
from ..state import WEAKEST_FIRST, BoardState
from ..strength import standing
from ..supply import available_units, supply_ok
from . import events as aev
from .card_choices import offer_optional
from .state import Combat

VARYS = "varys"
SYRIO = "syrio_forel"
JAQEN = "jaqen_h_ghar"
JANOS = "janos_slynt"
JON = "jon_connington"
BERIC = "beric_dondarrion"
BRONN = "bronn"

CANCEL = (JAQEN,)
IMMEDIATE = (BRONN,)
AFTER_CASUALTIES = (BERIC,)
AFTER = (VARYS, JON)
OPPONENT_DECIDES = (BRONN,)
"""Texts whose choice is the opponent's, not the card owner's."""

DISCARD_POWER = "discard_power"
"""Bronn: the opponent's one choice."""
BRONN_COST = 2


def _opponent(c: Combat, house: str) -> str:
    other = c.defender if house == c.attacker else c.attacker
    assert other is not None, "vassal card texts act only in a combat between two houses"
    return other


def owner_of(c: Combat, decider: str, card: str) -> str:
    """The house whose card ``card`` is, when ``decider`` answers its choice: the opponent's for
    Bronn (:data:`OPPONENT_DECIDES`), the decider's own otherwise."""
    return _opponent(c, decider) if card in OPPONENT_DECIDES else decider


# --- cancel -------------------------------------------------------------------------------------


def jaqen_purpose(number: int, house: str) -> str:
    """The random stream of Jaqen H'ghar's pick from ``house``'s hand in the combat of the game's
    ``number``-th vassal draw (MOD-VASSAL-14): one pick per combat and opponent."""
    return f"vassal_cards/{number}/jaqen/{house}"


def jaqen_h_ghar(em: Emitter, c: Combat, house: str) -> None:
    """Jaqen H'ghar: "Cancel the opponent's chosen card (back to hand), then reveal a random card from
    their hand as their card" (MOD-VASSAL-29). Not optional (no "may"). The card is drawn from the
    whole hand, the cancelled card included (Swords and Ravens, ``JaqenHGharHouseCardAbility``), by the
    seed's stream (:func:`jaqen_purpose`): the shuffled hand is recorded, hidden, and the drawn card
    is public at once, as it is revealed. Against no card (BG-COMBAT-10) it does nothing. The new
    card's own texts then act as usual (a Tyrion Lannister drawn may still cancel Jaqen)."""
    s = em.state
    opp = _opponent(c, house)
    old = c.cards.get(opp)
    em.emit(aev.AbilityResolved(house=house, card=JAQEN))
    if old is None:
        return
    hand = em.ctx.rng(jaqen_purpose(s.vassal_draws, opp)).shuffled(sorted(s.houses[opp].hand))
    em.emit(
        aev.HouseCardReplacedAtRandom(
            house=opp, card=hand[0], cancelled=old, by=house, number=s.vassal_draws, hand=hand
        )
    )


# --- immediately ----------------------------------------------------------------------------------


def bronn_pending(em: Emitter, c: Combat, house: str) -> bool:
    """Bronn: "After cards are revealed, the opponent may discard 2 available Power to make this
    card's strength 0" (MOD-VASSAL-29). The opponent decides (default: it does not); without 2
    available Power it cannot (a vassal never has any, MOD-VASSAL-26). True when the choice is open."""
    opp = _opponent(c, house)
    if em.state.houses[opp].power >= BRONN_COST:
        em.emit(aev.AbilityChoicePending(house=opp, card=BRONN, choices=[DISCARD_POWER], may_skip=True))
        return True
    em.emit(aev.AbilityResolved(house=house, card=BRONN))
    return False


def bronn_zeroed(c: Combat, house: str) -> bool:
    """Bronn's strength is 0: ``house`` played him and its opponent discarded the 2 Power."""
    return c.cards.get(house) == BRONN and c.choices.get(f"{house}:{BRONN}") == DISCARD_POWER


def immediately_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """The vassal cards' "immediately" texts (Bronn). True when a choice is now pending."""
    return bronn_pending(em, c, house)


# --- after casualties -----------------------------------------------------------------------------


def _winner_units(state: BoardState, c: Combat, house: str) -> dict[str, int]:
    """The winning vassal's units in the contested area: the attacking units (still standing in the
    March's area until they move in, BG-COMBAT-24) or the defender's units there."""
    if house == c.attacker:
        return {u: n for u, n in c.units.items() if n}
    a = state.areas[c.area]
    return {u: n for u, n in a.units.items() if n} if a.house == house else {}


def beric_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Beric Dondarrion: "If you win, after casualties you must destroy one of this vassal's own units
    in the contested area" (MOD-VASSAL-29, seed 004): the unit types it has there, weakest first (the
    default destroys the first). None when it lost or has no unit left there."""
    if c.winner != house:
        return []
    units = _winner_units(state, c, house)
    return [u for u in WEAKEST_FIRST if units.get(u)]


def beric_destroys(em: Emitter, c: Combat, house: str, unit: str) -> None:
    """Destroy one ``unit`` of the winning vassal in the contested area (a standing one first)."""
    if house == c.attacker:
        em.emit(aev.UnitsDestroyed(house=house, area=c.from_area, units={unit: 1}, reason=BERIC, combat_units=True))
        return
    routed = {} if standing(em.state, c.area).get(unit) else {unit: 1}
    em.emit(aev.UnitsDestroyed(house=house, area=c.area, units={unit: 1}, routed=routed, reason=BERIC))


def after_casualties_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Beric Dondarrion, once the casualties are taken (BG-COMBAT-15/16, and the Tides of Battle
    skulls). One unit type: destroyed at once; several: the commander chooses. True when pending."""
    choices = beric_choices(em.state, c, house)
    if len(choices) > 1:
        em.emit(aev.AbilityChoicePending(house=house, card=card, choices=choices, may_skip=False))
        return True
    em.emit(aev.AbilityResolved(house=house, card=card, choice=choices[0] if choices else None))
    if choices:
        beric_destroys(em, c, house, choices[0])
    return False


# --- after combat ---------------------------------------------------------------------------------


def varys(em: Emitter, house: str) -> None:
    """Varys: "After combat, this vassal moves to the top of the Fiefdoms track; the others shift
    down" (MOD-VASSAL-29), whether it won or lost. A vassal never holds the Blade (MOD-VASSAL-21):
    the highest player house on the track does. Already on top: nothing changes."""
    s = em.state
    assert s.tracks is not None, "a combat is fought on a laid-out board"
    order = s.tracks.fiefdoms
    if order and order[0] != house:
        em.emit(
            aev.InfluenceTrackChanged(track="fiefdoms", order=[house, *(h for h in order if h != house)], reason=VARYS)
        )


def jon_connington_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Jon Connington: "If this vassal loses, after combat you may muster one of its knights in the
    area it retreated to or in its home area" (MOD-VASSAL-29, "if able"): a land area the vassal
    still controls, with a Knight left to place (BG-COMP-03) and room in its supply for it
    (BG-SUPPLY-05), as Swords and Ravens checks. None when it won."""
    if c.loser != house or available_units(state, house, "knight") < 1:
        return []
    areas = board_data.areas_for(state.settings.expansion)
    candidates = {a for a, f in areas.items() if f.home_of == house}
    if c.retreated_to is not None:
        candidates.add(c.retreated_to)
    return sorted(
        a
        for a in candidates
        if areas[a].kind == "land" and controller(state, a) == house and supply_ok(state, house, {a: 1})
    )


def after_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Varys and Jon Connington, after combat. True when a choice is pending."""
    if card == VARYS:
        varys(em, house)
    elif card == JON:
        return offer_optional(em, house, card, jon_connington_choices(em.state, c, house))
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False


# --- answering a choice ---------------------------------------------------------------------------


def apply_choice(em: Emitter, c: Combat, house: str, card: str, choice: str) -> None:
    """Carry out ``house``'s answer to a vassal card's pending text (validated by the caller)."""
    if card == BRONN:
        em.emit(aev.PowerSpent(house=house, amount=BRONN_COST, reason=BRONN))
    elif card == BERIC:
        beric_destroys(em, c, house, choice)
    elif card == JON:
        em.emit(aev.UnitsPlaced(house=house, area=choice, units={"knight": 1}, reason=JON))
