"""When the Supply token moves in the Westeros phase, and the reconcile that follows
(BG-SUPPLY-03/04, BG-WCARD-01, Rattleshirt's Raiders).

The Supply token moves only when an effect says so (BG-SUPPLY-03): to the barrels controlled, capped
at 6 (the Supply card), or up/down a step (Rattleshirt's Raiders). Right after it moves, a house whose
armies no longer fit destroys units of its choice until they do (BG-SUPPLY-04). The supply rules
themselves (barrels, the table, what a legal reconcile is) live in :mod:`domain.board.supply`.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn
from ..control import units_of
from ..emitter import Emitter
from ..state import BoardState
from ..supply import MAX_SUPPLY, minimal_losses, supply_ok, supply_value, validate_reconcile
from . import events as wev
from .steps import open_step
from .units import WEAKEST_FIRST, destroy


def adjust_all(em: Emitter, reason: str = "BG-WCARD-01") -> None:
    """BG-WCARD-01: every house's Supply token goes to its barrels, then BG-SUPPLY-04 reconciles."""
    s = em.state
    em.emit(wev.SupplyAdjusted(supply={h: supply_value(s, h) for h in s.turn_order()}, reason=reason))
    require_reconcile(em, [h for h in em.state.turn_order() if not supply_ok(em.state, h)], sequential=False)


def move(em: Emitter, house: str, delta: int, reason: str) -> None:
    """Move one house's Supply token by ``delta`` within 0..6 (Rattleshirt's Raiders); reconcile
    follows at once if its armies no longer fit (BG-SUPPLY-04)."""
    s = em.state
    new = max(0, min(MAX_SUPPLY, s.houses[house].supply + delta))
    if new != s.houses[house].supply:
        em.emit(wev.SupplyAdjusted(supply={house: new}, reason=reason))
    if not supply_ok(em.state, house):
        require_reconcile(em, [house], sequential=True)


def require_reconcile(em: Emitter, houses: list[str], sequential: bool) -> None:
    if not houses:
        return
    em.emit(wev.ReconcileRequired(houses=houses, sequential=sequential))
    open_step(em, "reconcile_armies")


def default_reconcile(state: BoardState, house: str) -> dict[str, dict[str, int]]:
    """The documented default: the fewest units possible, weakest first in each area (Footmen,
    Ships, Knights, Siege Engines)."""
    out: dict[str, dict[str, int]] = {}
    mine = units_of(state, house)
    for area, n in sorted(minimal_losses(state, house).items()):
        left = n
        for u in WEAKEST_FIRST:
            k = min(left, mine[area].get(u, 0))
            if k:
                out.setdefault(area, {})[u] = k
                left -= k
    return out


def reconcile(em: Emitter, house: str, units: dict[str, dict[str, int]], by_default: bool = False) -> None:
    """BG-SUPPLY-04: ``house`` destroys the units it picked (validated by
    :func:`domain.board.supply.validate_reconcile`)."""
    s = em.state
    w = s.westeros
    if w is None or house not in w.reconcile:
        raise NotYourTurn(f"{house} has no armies to reconcile now", rule="BG-SUPPLY-04")
    if w.reconcile_sequential and w.reconcile[0] != house:
        raise NotYourTurn(f"{w.reconcile[0]} reconciles first", rule="BG-WILD-03")
    units = {a: {u: n for u, n in us.items() if n} for a, us in sorted(units.items())}
    units = {a: us for a, us in units.items() if us}
    validate_reconcile(s, house, units)
    em.emit(wev.ArmiesReconciled(house=house, units=units, by_default=by_default))
    destroy(em, house, units, "BG-SUPPLY-04")
    w = em.state.westeros
    if w is not None and w.reconcile and w.reconcile_sequential:
        open_step(em, "reconcile_armies")
