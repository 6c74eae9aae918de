"""The Westeros phase's order of play (BG-WEST-01..03, BG-WCARD-04, BG-ROUND-01).

1. The round marker already moved at the Action phase's clean-up (``StepBegan`` round + 1).
2. The top card of decks I, II and III is revealed. Winter Is Coming is shuffled back at once with
   the whole deck (the shuffle recorded in the event) and another card revealed in its place.
3. Each wildling icon moves the threat token 2 up, to 12 at most; at 12 the wildlings attack at once,
   before any card.
4. The cards resolve in order I, II, III (:mod:`.cards`); each goes to the bottom of its deck.
5. The Planning phase opens.

:func:`advance` runs every automatic consequence until a player must decide something or a sealed
bid waits for the system's reveal.
"""

from __future__ import annotations

from .. import board_data
from ..board_data import WesterosCard
from ..emitter import Emitter
from ..planning.commanders import open_planning
from ..state import BoardState
from . import cards, wildlings
from . import events as wev
from .evolve import open_bidding, westeros_of
from .steps import open_step
from .units import offer_next_port

__all__ = ["DECKS", "WINTER", "advance", "card_facts", "draw", "end", "open_step", "shuffle_purpose", "start"]

DECKS = ("deck_i", "deck_ii", "deck_iii")
WINTER = "winter_is_coming"


def card_facts() -> dict[str, WesterosCard]:
    return {c.id: c for deck in board_data.cards().westeros_decks.values() for c in deck}


def shuffle_purpose(round_: int, deck: str, attempt: int) -> str:
    """The random stream of one Winter Is Coming reshuffle (re-derivable from the revealed seed)."""
    return f"westeros/round{round_}/{deck}/winter_is_coming/{attempt}"


def draw(em: Emitter, deck: str) -> str:
    """BG-WEST-01 step 2 with BG-WCARD-04: reveal the top card; Winter Is Coming goes back, the
    whole deck (all 10 cards) is shuffled, and the new top card is revealed instead."""
    n = 0
    while True:
        card = em.state.westeros_decks[deck][0]
        em.emit(wev.WesterosCardDrawn(deck=deck, card=card))
        if card != WINTER:
            return card
        n += 1
        whole = [card] + list(em.state.westeros_decks[deck])
        order = em.ctx.rng(shuffle_purpose(em.state.round, deck, n)).shuffled(whole)
        em.emit(wev.WesterosDeckShuffled(deck=deck, cards=order, attempt=n))


def start(em: Emitter) -> None:
    """Open the Westeros phase from the ``awaiting_westeros_phase`` threshold (BG-WEST-01)."""
    s = em.state
    em.emit(wev.WesterosPhaseBegan(round=s.round))
    facts = card_facts()
    icons = sum(1 for deck in DECKS if facts[draw(em, deck)].wildling_icon)
    before = em.state.wildling_threat
    after = min(wildlings.MAX_THREAT, before + 2 * icons)
    if after != before:
        em.emit(wev.WildlingThreatChanged(threat=after, previous=before, reason="BG-WEST-01"))
    if icons and after == wildlings.MAX_THREAT:
        wildlings.begin_attack(em, wildlings.MAX_THREAT, em.state.turn_order(), "BG-WEST-01")
    advance(em)


def waiting(state: BoardState) -> bool:
    """Something waits on a player (a decision) or on the system (sealed bids to reveal)."""
    w = westeros_of(state)
    return bool(w.choice or w.selection or w.reconcile or w.musterers) or open_bidding(w) is not None


def advance(em: Emitter) -> None:
    for _ in range(10_000):
        s = em.state
        w = s.westeros
        if w is None or s.phase != "westeros":
            return
        if waiting(s):
            return
        if w.port_captures:  # BG-MAP-07: captured ports are offered before the effect goes on
            offer_next_port(em)
            continue
        if w.attacks:
            wildlings.run(em)
            continue
        if w.current is None:
            left = [d for d in DECKS if d not in w.resolved]
            if not left:
                end(em)
                return
            cards.begin(em, left[0], w.revealed[left[0]])
            continue
        cards.run(em)
    raise AssertionError("the Westeros phase does not advance")


def end(em: Emitter) -> None:
    """BG-ROUND-01: the Planning phase of the same round follows (with vassals, their commanders are
    chosen first, MOD-VASSAL-02)."""
    s = em.state
    em.emit(wev.WesterosPhaseEnded(round=s.round))
    open_planning(em)
