"""The Tides of Battle variant (BG-TIDES-01..05; setting ``tides_of_battle``, off by default).

BG-TIDES-01 -- a deck of 24 cards (the facts are ``tides_of_battle`` in ``data/cards.json``): 8 blank,
4 sword (strength 1, one sword), 4 fortification (strength 1, one tower), 4 "two" (strength 2),
2 "three" (strength 3), 2 skull (strength 0, one skull).

BG-TIDES-02 -- before every such combat all 24 cards are shuffled into a new deck. The shuffle comes
from the game's seed (random stream ``tides/round<R>/<N>``, the N-th shuffle of round R's Action
phase) and is written into ``TidesDeckShuffled``; the draws take the top of that recorded deck, so
the offline verifier re-derives every card.

BG-TIDES-03 -- where the cards enter a combat (:mod:`.combat` calls in at these points):

* after the House cards are revealed and their "immediately" texts resolved, attacker and defender
  each draw one card and look at it secretly (:func:`before_blade`, step 3.3);
* the Valyrian Steel Blade holder, if in the combat and the Blade is unused, may use the Blade to
  discard its Tides card and draw another (step 4.1, the ``use_blade`` decision with
  ``tides_redraw``); then both cards are revealed (4.2); a Blade not used for that may still give +1
  (4.3);
* the Tides strength joins the final strength (:func:`strength`, step 5); its swords and towers
  count with the House card's for the casualties (:func:`icons`, step 6.2);
* then the skulls (:func:`skulls_pending`, step 6.3), before the retreat.

BG-TIDES-04 -- each skull on a house's Tides card makes its **opponent** destroy one of its units in
the combat, whoever won; towers do not cancel it. The opponent chooses which (the
``choose_casualties`` decision). The Blackfish prevents it (section 15.9 and the Review table:
"also Tides skulls").

BG-TIDES-05 -- only combats between two houses use the cards: an attack on a neutral force never
reaches these steps (it has no defender).
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation
from ..board_data import tides_cards, tides_deck
from ..emitter import Emitter
from ..state import BoardState
from . import events as aev
from . import tides_events as tev
from .state import Combat, TidesDraw
from .turns import action_of, combat_of

BLACKFISH = "the_blackfish"


def shuffle_purpose(round_: int, number: int) -> str:
    """The random stream of the ``number``-th Tides shuffle of round ``round_`` (BG-TIDES-02)."""
    return f"tides/round{round_}/{number}"


def in_play(state: BoardState, c: Combat) -> bool:
    """BG-TIDES-05: the variant is on and the combat is between two houses."""
    return state.settings.tides_of_battle and c.defender is not None


def _opponent(c: Combat, house: str) -> str:
    if house == c.attacker:
        assert c.defender is not None, "Tides cards are drawn only in combats between two houses"
        return c.defender
    return c.attacker


def _combatants(state: BoardState, c: Combat) -> list[str]:
    return [h for h in state.turn_order() if h in (c.attacker, c.defender)]


def _card(c: Combat, house: str) -> str | None:
    """``house``'s Tides card once both are revealed (None before, or without the variant)."""
    t = c.tides
    if t is None or not t.revealed:
        return None
    return t.drawn.get(house)


# --- drawing and revealing (BG-TIDES-02/03) -------------------------------------------------------


def before_blade(em: Emitter, c: Combat) -> bool:
    """Steps 3.3 to 4.2 of BG-TIDES-03, run when the combat reaches the Blade. Shuffles a new deck and
    draws one card for each combatant (once per combat), then reveals both unless the Blade holder
    may still use the Blade to draw again: True when that decision is now due."""
    s = em.state
    if not in_play(s, c):
        return False
    if c.tides is None:
        number = action_of(s).tides_shuffles + 1
        deck = em.ctx.rng(shuffle_purpose(s.round, number)).shuffled(tides_deck())
        em.emit(tev.TidesDeckShuffled(number=number, cards=deck))
        for house in (c.attacker, _opponent(c, c.attacker)):
            em.emit(tev.TidesCardDrawn(house=house, card=_draws(em).deck[0]))
    t = _draws(em)
    if t.revealed:
        return False
    if redraw_pending(em.state, combat_of(em.state)):
        return True
    em.emit(tev.TidesCardsRevealed(cards=dict(t.drawn)))
    return False


def _draws(em: Emitter) -> TidesDraw:
    t = combat_of(em.state).tides
    assert t is not None, "the Tides deck is shuffled before any card is drawn"
    return t


def redraw_pending(state: BoardState, c: Combat) -> bool:
    """BG-TIDES-03 step 4.1: the Blade holder is in the combat, the Blade is unused this round, the
    cards are not revealed yet, and it has not answered."""
    t = c.tides
    holder = state.blade_holder()
    return (
        t is not None
        and not t.revealed
        and not t.redraw_decided
        and holder is not None
        and holder in (c.attacker, c.defender)
        and not state.blade_used
    )


def own_card(c: Combat, house: str) -> str | None:
    """The Tides card ``house`` drew in this combat (it has seen it, revealed or not)."""
    return c.tides.drawn.get(house) if c.tides is not None else None


def answer_redraw(em: Emitter, house: str, use: bool, by_default: bool = False) -> None:
    """BG-TIDES-03 step 4.1: with ``use``, the Blade is spent to discard ``house``'s Tides card and
    draw the next one; otherwise the card is kept (and the Blade may still give +1 after the reveal).
    The caller checked that ``house`` holds the Blade; the combat then returns to its Blade step."""
    t = _draws(em)
    if use:
        em.emit(tev.TidesCardRedrawn(house=house, discarded=t.drawn.get(house), card=t.deck[0]))
    else:
        em.emit(tev.TidesRedrawDeclined(house=house, by_default=by_default))
    em.emit(aev.CombatStageBegan(stage="blade"))


# --- strength and icons (BG-TIDES-03 steps 5 and 6.2) ---------------------------------------------


def strength(c: Combat, house: str) -> int:
    """The printed strength of ``house``'s revealed Tides card (0 before the reveal or without one)."""
    card = _card(c, house)
    return tides_cards()[card].strength if card else 0


def icons(c: Combat, house: str) -> tuple[int, int]:
    """(swords, towers) of ``house``'s revealed Tides card; they count with its House card's."""
    card = _card(c, house)
    if not card:
        return 0, 0
    facts = tides_cards()[card]
    return facts.swords, facts.fortifications


def skulls(c: Combat, house: str) -> int:
    """Skulls on ``house``'s revealed Tides card."""
    card = _card(c, house)
    return tides_cards()[card].skulls if card else 0


# --- skulls (BG-TIDES-04, step 6.3) -----------------------------------------------------------------


def army(state: BoardState, c: Combat, house: str) -> tuple[str, dict[str, int], bool]:
    """(area, units, are-they-attacking-units) of ``house``'s units in the combat: the attacking
    units (standing in the area they marched from until the combat ends), or the defender's units in
    the embattled area."""
    if house == c.attacker:
        return c.from_area, {u: n for u, n in c.units.items() if n}, True
    a = state.areas[c.area]
    return c.area, ({u: n for u, n in a.units.items() if n} if a.house == house else {}), False


def skulls_pending(em: Emitter, c: Combat) -> bool:
    """BG-TIDES-04, after the sword casualties and before the retreat: each skull on a house's card
    destroys one unit of its opponent in the combat, whoever won, towers notwithstanding; none with
    The Blackfish. Houses in turn order. True when a house must now choose which units die."""
    s = em.state
    t = c.tides
    if t is None or not t.revealed or t.skull_house is not None:
        return t is not None and t.skull_house is not None
    for house in _combatants(s, c):
        n = skulls(c, _opponent(c, house))
        if n == 0 or house in t.skulls_done:
            continue
        if c.played.get(house) == BLACKFISH or c.cards.get(house) == BLACKFISH:
            em.emit(tev.TidesSkullsResolved(house=house, skulls=n, units={}, prevented_by=BLACKFISH))
            continue
        _, units, _ = army(s, c, house)
        k = min(n, sum(units.values()))
        if k == sum(units.values()) or len(units) == 1:
            _destroy(em, c, house, n, units if k == sum(units.values()) else {next(iter(units)): k})
            continue
        em.emit(tev.TidesSkullsPending(house=house, count=k))
        return True
    return False


def skull_choice(c: Combat) -> tuple[str, int] | None:
    """(house, count) when a house must choose its units for the opponent's skulls."""
    t = c.tides
    if t is None or t.skull_house is None:
        return None
    return t.skull_house, t.skull_count


def _destroy(em: Emitter, c: Combat, house: str, n: int, kill: dict[str, int], by_default: bool = False) -> None:
    """Destroy ``kill`` of ``house``'s units in the combat (a defender's routed units go first)."""
    s = em.state
    area, _, attacking = army(s, c, house)
    em.emit(tev.TidesSkullsResolved(house=house, skulls=n, units=dict(kill), by_default=by_default))
    if not kill:
        return
    routed_here = action_of(s).routed.get(area, {}) if not attacking else {}
    routed = {u: min(k, routed_here.get(u, 0)) for u, k in kill.items() if routed_here.get(u, 0)}
    em.emit(
        aev.UnitsDestroyed(
            house=house, area=area, units=dict(kill), routed=routed, reason="BG-TIDES-04", combat_units=attacking
        )
    )


def choose_skull_losses(em: Emitter, house: str, units: dict[str, int], by_default: bool = False) -> None:
    """BG-TIDES-04: the house hit by skulls picks exactly the required number of its units in the
    combat (answering ``choose_casualties``); the combat then goes on to the retreat."""
    c = combat_of(em.state)
    pending = skull_choice(c)
    assert pending is not None, "called only while a skull choice is pending"
    victim, count = pending
    if house != victim:
        raise NotYourTurn(f"{victim} chooses the units its opponent's skulls destroy", rule="BG-TIDES-04")
    _, army_units, _ = army(em.state, c, house)
    units = {u: n for u, n in units.items() if n}
    if sum(units.values()) != count or any(n > army_units.get(u, 0) for u, n in units.items()):
        raise RuleViolation(
            f"choose exactly {count} of your units in the combat", rule="BG-TIDES-04", code="casualty_count"
        )
    skull_count = skulls(c, _opponent(c, house))
    _destroy(em, c, house, skull_count, units, by_default)
    em.emit(aev.CombatStageBegan(stage="retreat"))
