"""Drawing cards and shuffling decks (CG-SETUP-05, CG-PHASE-06).

Every shuffle draws its order from the seed's stream ``shuffle/<seat>/<n>`` (the seat's n-th
shuffle) and writes it into :class:`~..events.CardsDeckShuffled`; a draw takes the top cards.
"""

from __future__ import annotations

from .. import events as ev
from .. import titles
from ..emitter import Emitter

DRAW_PHASE_CARDS = 2


def shuffle_purpose(seat: str, number: int) -> str:
    return f"shuffle/{seat}/{number}"


def shuffle(em: Emitter, seat: str) -> None:
    p = em.state.player(seat)
    n = p.shuffles + 1
    order = em.ctx.rng(shuffle_purpose(seat, n)).shuffled(p.deck)
    em.emit(ev.CardsDeckShuffled(seat_id=seat, number=n, order=order))


def draw(em: Emitter, seat: str, n: int, reason: str) -> None:
    """Draw up to ``n`` cards (as many as the deck holds)."""
    p = em.state.player(seat)
    count = min(n, len(p.deck))
    if count > 0:
        em.emit(ev.CardsDrawn(seat_id=seat, count=count, cards=p.deck[:count], reason=reason))


def draw_phase(em: Emitter) -> None:
    """CG-PHASE-06: each player draws 2 cards (the Master of Laws 1 more, in a melee)."""
    for seat in em.state.player_order():
        draw(em, seat, DRAW_PHASE_CARDS + titles.draw_bonus(em.state, seat), "draw")
