"""Power tokens and the Power Pool (BG-POWER-01..05).

A house owns 20 Power tokens; each is available (behind its screen), on the board as a control
marker, or in the Pool. The Pool is derived: 20 minus the other two. A gain beyond 20 outside the
Pool is lost (BG-POWER-01).
"""

from __future__ import annotations

from . import board_data
from .action import events as aev
from .emitter import Emitter
from .state import BoardState


def tokens_on_board(state: BoardState, house: str) -> int:
    """BG-POWER-05: the house's Power tokens on the board as control markers."""
    return sum(1 for a in state.areas.values() if a.power_token == house)


def pool(state: BoardState, house: str) -> int:
    """BG-POWER-01: the house's tokens in the Power Pool."""
    total = board_data.setup().power_tokens_per_house
    return total - state.houses[house].power - tokens_on_board(state, house)


def gain(em: Emitter, house: str, amount: int, reason: str) -> int:
    """Take up to ``amount`` tokens from the Pool (never beyond 20 outside it, BG-POWER-01). A vassal
    never receives Power (MOD-VASSAL-26)."""
    if house in em.state.vassals:
        return 0
    n = min(amount, pool(em.state, house))
    if n > 0:
        em.emit(aev.PowerGained(house=house, amount=n, reason=reason))
    return max(n, 0)


def lose(em: Emitter, house: str, amount: int, reason: str) -> int:
    """Return up to ``amount`` available tokens to the Pool."""
    n = min(amount, em.state.houses[house].power)
    if n > 0:
        em.emit(aev.PowerSpent(house=house, amount=n, reason=reason))
    return max(n, 0)
