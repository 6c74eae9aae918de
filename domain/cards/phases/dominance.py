"""The dominance phase (CG-PHASE-14/15)."""

from __future__ import annotations

from .. import current
from .. import events as ev
from ..emitter import Emitter
from ..state import CardState


def total(state: CardState, seat: str) -> int:
    """CG-PHASE-14: the STR of the seat's standing characters plus the gold in its pool (plus what
    constant abilities count toward it: The Iron Throne)."""
    chars = sum(current.strength(state, p.card) for p in state.characters(seat) if not p.kneeling)
    return chars + state.player(seat).gold + current.dominance_bonus(state, seat)


def determine(em: Emitter) -> str | None:
    """CG-PHASE-15: the highest total wins 1 power on its faction card; a tie: nobody."""
    totals = {seat: total(em.state, seat) for seat in em.state.player_order()}
    top = max(totals.values())
    best = [s for s, t in totals.items() if t == top]
    winner = best[0] if len(best) == 1 else None
    em.emit(ev.CardsDominanceDetermined(totals=totals, winner=winner))
    if winner is not None:
        em.emit(ev.CardsPowerGained(seat_id=winner, amount=1, reason="dominance"))
    return winner
