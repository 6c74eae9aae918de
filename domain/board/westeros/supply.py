"""Supply in the Westeros phase (BG-SUPPLY-03/04, BG-WCARD-01, Rattleshirt's Raiders).

The Supply token moves only when an effect says so (BG-SUPPLY-03): to the barrels controlled, capped
at 6 (the Supply card), or up/down a step (Rattleshirt's Raiders). Right after it moves, a house whose
armies no longer fit destroys units of its choice until they do (BG-SUPPLY-04): the units it picks
must make the armies legal, and every one of them must be needed (with any one of them spared the
armies would still be too big) -- the same test as Swords and Ravens' ``isTooMuchReconciled``.
"""

from __future__ import annotations

from itertools import combinations

from ...core.errors import NotYourTurn, RuleViolation
from ..action.supply import allowed_armies, armies_legal, counts_after, supply_ok
from ..control import supply_barrels
from ..state import BoardState
from . import events as wev
from .units import WEAKEST_FIRST, destroy, units_of


def supply_value(state: BoardState, house: str) -> int:
    """BG-SUPPLY-03: barrels in the areas the house controls, capped at 6."""
    return min(6, supply_barrels(state, house))


def adjust_all(em, reason: str = "BG-WCARD-01") -> None:
    """BG-WCARD-01: every house's Supply token goes to its barrels, then BG-SUPPLY-04 reconciles."""
    s = em.state
    em.emit(wev.SupplyAdjusted(supply={h: supply_value(s, h) for h in s.turn_order()}, reason=reason))
    require_reconcile(em, [h for h in em.state.turn_order() if not supply_ok(em.state, h)], sequential=False)


def move(em, house: str, delta: int, reason: str) -> None:
    """Move one house's Supply token by ``delta`` within 0..6 (Rattleshirt's Raiders); reconcile
    follows at once if its armies no longer fit (BG-SUPPLY-04)."""
    s = em.state
    new = max(0, min(6, s.houses[house].supply + delta))
    if new != s.houses[house].supply:
        em.emit(wev.SupplyAdjusted(supply={house: new}, reason=reason))
    if not supply_ok(em.state, house):
        require_reconcile(em, [house], sequential=True)


def require_reconcile(em, houses: list[str], sequential: bool) -> None:
    if not houses:
        return
    from .deck import open_step

    em.emit(wev.ReconcileRequired(houses=houses, sequential=sequential))
    open_step(em, "reconcile_armies")


def armies(state: BoardState, house: str) -> dict[str, dict[str, int]]:
    """The house's armies (areas with 2 or more of its units, BG-SUPPLY-01)."""
    return {a: us for a, us in units_of(state, house).items() if sum(us.values()) >= 2}


def _legal_after(state: BoardState, house: str, removed: dict[str, int]) -> bool:
    delta = {a: -n for a, n in removed.items() if n}
    return armies_legal(list(counts_after(state, house, delta).values()), state.houses[house].supply)


def minimal_losses(state: BoardState, house: str) -> dict[str, int]:
    """The fewest units (area -> how many) whose loss makes the armies legal: keep the armies that
    fill the allowed sizes best (largest with largest), shrink the rest to single units."""
    sizes = {a: sum(us.values()) for a, us in armies(state, house).items()}
    allowed = allowed_armies(state.houses[house].supply)
    areas = sorted(sizes, key=lambda a: (-sizes[a], a))
    best: tuple[int, dict[str, int]] | None = None
    for k in range(min(len(areas), len(allowed)), -1, -1):
        for keep in combinations(areas, k):
            kept = sorted(keep, key=lambda a: (-sizes[a], a))
            loss = {a: max(0, sizes[a] - slot) for a, slot in zip(kept, allowed)}
            for a in areas:
                if a not in keep:
                    loss[a] = sizes[a] - 1
            cost = sum(loss.values())
            if best is None or cost < best[0]:
                best = (cost, {a: n for a, n in loss.items() if n})
    return best[1] if best else {}


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


def validate_reconcile(state: BoardState, house: str, units: dict[str, dict[str, int]]) -> None:
    mine = units_of(state, house)
    removed: dict[str, int] = {}
    for area, us in units.items():
        for u, n in us.items():
            if n < 0 or n > mine.get(area, {}).get(u, 0):
                raise RuleViolation(
                    f"{house} has no {n} {u}(s) in '{area}' to destroy", rule="BG-SUPPLY-04", code="no_such_units"
                )
            removed[area] = removed.get(area, 0) + n
    if not _legal_after(state, house, removed):
        raise RuleViolation("these losses still leave armies beyond your supply", rule="BG-SUPPLY-04", code="supply")
    for area, n in removed.items():
        if n and _legal_after(state, house, {**removed, area: n - 1}):
            raise RuleViolation(
                f"one unit fewer in '{area}' would already fit your supply; destroy only what is needed",
                rule="BG-SUPPLY-04",
                code="too_many_losses",
            )


def reconcile(em, house: str, units: dict[str, dict[str, int]], by_default: bool = False) -> None:
    """BG-SUPPLY-04: ``house`` destroys the units it picked (validated above)."""
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
    if w.reconcile and w.reconcile_sequential:
        from .deck import open_step

        open_step(em, "reconcile_armies")


__all__ = ["adjust_all", "move", "reconcile", "default_reconcile", "minimal_losses"]
