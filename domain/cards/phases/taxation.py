"""The taxation phase (CG-PHASE-17/18/20): unspent gold back, then the reserve check.

The revealed plot stays (CG-PHASE-20): nothing here touches it.
"""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import events as ev
from ..emitter import Emitter
from ..power import plot_values
from ..state import CardState


def return_gold(em: Emitter) -> None:
    """CG-PHASE-17: all unspent gold goes back to the treasury."""
    em.emit(ev.CardsGoldReturned(gold={s: em.state.player(s).gold for s in em.state.player_order()}))


def over_reserve(state: CardState, seat: str) -> int:
    """CG-PHASE-18: how many cards the seat holds above its reserve (0: none)."""
    return max(0, len(state.player(seat).hand) - plot_values(state, seat).reserve)


def check_discards(state: CardState, seat: str, cards: list[str]) -> None:
    """CG-PHASE-18: exactly the excess, from hand, different cards."""
    n = over_reserve(state, seat)
    hand = state.player(seat).hand
    if len(set(cards)) != len(cards) or len(cards) != n or not set(cards) <= set(hand):
        raise RuleViolation(f"discard exactly {n} different cards from your hand", rule="CG-PHASE-18")


def default_discards(state: CardState, seat: str) -> list[str]:
    """The documented default: the cards last put in hand."""
    n = over_reserve(state, seat)
    return state.player(seat).hand[len(state.player(seat).hand) - n :] if n else []
