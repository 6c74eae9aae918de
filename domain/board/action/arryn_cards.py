"""House Arryn's seven House cards (Mother of Dragons, MOD-DATA-01; reference ``cards.yaml``), by the
moment their text acts (BG-COMBAT-09), as :mod:`.house_cards` files the base houses':

* strength and icons, all the time -- Ser Vardis Egen: if the opponent's card has a printed strength
  of 2 or less, +1 strength and +2 fortifications; Godric Borrell: defending a sea area, +1 strength
  per land area adjacent to it that Arryn controls;
* if you win -- Lysa Arryn: with a Defense order of Arryn in the contested area, Arryn may return her
  to its hand instead of discarding her; Anya Waynwood: Arryn and every player house that supported
  it gain 3 Power each (from the Pool, BG-POWER-01; vassals never gain Power, MOD-VASSAL-26);
* after combat -- Robert Arryn: when defending, Arryn may remove him and the lowest-strength card of
  the opponent's discard pile from the game (a tie: Arryn picks which).

Bronze Yohn Royce (3, 1 sword, 2 fortifications) and Harry Hardyng (2, 1 sword) have no text.
"""

from __future__ import annotations

from .. import board_data, power
from .. import mod_events as mev
from ..adjacency import adjacent
from ..board_data import every_house_card
from ..control import controller
from ..emitter import Emitter
from ..orders import order_type
from ..state import BoardState
from ..strength import supports
from . import events as aev
from .card_choices import offer_optional
from .state import Combat

LYSA = "lysa_arryn_mod"
VARDIS = "ser_vardis_egen"
GODRIC = "godric_borrell"
ANYA = "anya_waynwood"
ROBERT = "robert_arryn"

WIN_LOSE = (LYSA, ANYA)
AFTER = (ROBERT,)
RETURN_TO_HAND = "return_to_hand"
ANYA_POWER = 3


def _opponent(c: Combat, house: str) -> str | None:
    return c.defender if house == c.attacker else c.attacker


def vardis_applies(c: Combat, house: str) -> bool:
    """Ser Vardis Egen: the opponent's card has a printed strength of 2 or less (no card: no text)."""
    opp_card = c.cards.get(_opponent(c, house) or "")
    return c.cards.get(house) == VARDIS and opp_card is not None and every_house_card()[opp_card].strength <= 2


def strength_bonus(state: BoardState, c: Combat, house: str) -> int:
    """The strength an Arryn card's text adds now (Ser Vardis Egen, Godric Borrell)."""
    card = c.cards.get(house)
    if card == VARDIS:
        return 1 if vardis_applies(c, house) else 0
    if card == GODRIC and house == c.defender:
        areas = board_data.areas_for(state.settings.expansion)
        if areas[c.area].kind == "sea":
            return sum(1 for a in adjacent(state, c.area) if areas[a].kind == "land" and controller(state, a) == house)
    return 0


def icon_bonus(c: Combat, house: str) -> tuple[int, int]:
    """(swords, fortifications) an Arryn card's text adds (Ser Vardis Egen: +2 fortifications)."""
    return (0, 2) if vardis_applies(c, house) else (0, 0)


def win_lose_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Lysa Arryn and Anya Waynwood, right after the winner is set. True when a choice is pending."""
    s = em.state
    won = c.winner == house
    if card == LYSA and won:
        placed = s.orders.get(c.area)
        defended = placed is not None and placed.house == house and _is_defense(placed.order)
        if defended and LYSA in s.houses[house].discards:
            em.emit(aev.AbilityChoicePending(house=house, card=card, choices=[RETURN_TO_HAND], may_skip=True))
            return True
    if card == ANYA and won:
        side = "attacker" if house == c.attacker else "defender"
        backers = {h for _, h, sd in supports(s, c) if sd == side and h != house}
        power.gain(em, house, ANYA_POWER, ANYA)
        for h in s.turn_order():
            if h in backers and h not in s.vassals:
                power.gain(em, h, ANYA_POWER, ANYA)
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False


def _is_defense(order: str) -> bool:
    return order_type(order) == "defense"


def robert_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Robert Arryn: the lowest printed strength cards of the opponent's discard pile (Arryn picks one
    when several tie); none when the pile is empty or Arryn was not defending."""
    opp = _opponent(c, house)
    if house != c.defender or opp is None or ROBERT not in state.houses[house].discards:
        return []
    pile = state.houses[opp].discards
    if not pile:
        return []
    cards = every_house_card()
    low = min(cards[k].strength for k in pile)
    return sorted({k for k in pile if cards[k].strength == low})


def after_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Robert Arryn, after combat. True when a choice is pending."""
    if card == ROBERT:
        return offer_optional(em, house, card, robert_choices(em.state, c, house))
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False


def apply_choice(em: Emitter, c: Combat, house: str, card: str, choice: str) -> None:
    """Carry out Arryn's answer to a pending text (validated by the caller)."""
    if card == LYSA:
        em.emit(aev.HouseCardsReturned(house=house, cards=[LYSA], reason=LYSA))
    elif card == ROBERT:
        opp = _opponent(c, house)
        assert opp is not None, "Robert Arryn's text opens only with an opponent"
        em.emit(mev.HouseCardsRemovedFromGame(house=house, cards=[ROBERT], reason=ROBERT))
        em.emit(mev.HouseCardsRemovedFromGame(house=opp, cards=[choice], reason=ROBERT))
