"""Retreats and routing (BG-COMBAT-18..22) and supply after a retreat (BG-COMBAT-20)."""

from __future__ import annotations

from .. import board_data
from ..adjacency import adjacent, kind, transport_reachable
from ..control import controller
from ..emitter import Emitter
from ..ports import port_open_to
from ..state import BoardState
from ..supply import allowed_armies, armies_legal, counts_after
from . import events as aev
from .state import Combat
from .turns import action_of

#: Which units go first when supply forces a retreating army to shrink (documented default).
SUPPLY_LOSS_ORDER = ("footman", "ship", "knight", "siege_engine")


def supply_loss(state: BoardState, house: str, dest: str, units: dict[str, int], from_area: str) -> int:
    """BG-COMBAT-20: how many of ``units`` must die for the house's armies to fit after they enter
    ``dest`` from ``from_area``."""
    total = sum(units.values())
    for lost in range(total + 1):
        counts = counts_after(state, house, {from_area: -total, dest: total - lost})
        if armies_legal(list(counts.values()), state.houses[house].supply):
            return lost
    return total


def legal_retreat_areas(
    state: BoardState, c: Combat, house: str, units: dict[str, int], exclude: str | None
) -> list[str]:
    """BG-COMBAT-19: areas adjacent to the embattled area (or reached by the retreater's ship
    transport, for land units) that are not ``exclude`` (the area the attacker came from), hold no
    enemy units, are not controlled by another house, have no neutral force, suit the unit types,
    and (ports) keep 3 Ships at most."""
    land = kind(c.area) == "land"
    cands = set(adjacent(state, c.area))
    if land:
        cands |= transport_reachable(state, house, c.area)
    out = []
    for a in sorted(cands):
        if a == exclude or a == c.area:
            continue
        k = kind(a)
        if land and k != "land":
            continue
        if not land and k not in ("sea", "port"):
            continue
        x = state.areas[a]
        if x.house not in (None, house) and any(x.units.values()):
            continue
        if controller(state, a) not in (None, house) or x.neutral > 0:
            continue
        if x.garrison > 0 and board_data.areas()[a].home_of not in (None, house):
            continue
        if k == "port":
            if not port_open_to(state, house, a):
                continue
            here = x.units.get("ship", 0) if x.house == house else 0
            if here + units.get("ship", 0) > 3:
                continue
        out.append(a)
    return out


def best_retreat_areas(
    state: BoardState, c: Combat, house: str, units: dict[str, int], from_area: str, exclude: str | None
) -> list[str]:
    """BG-COMBAT-20/21: among the legal areas, those costing the fewest units to supply; none if even
    the best costs the whole army."""
    legal = legal_retreat_areas(state, c, house, units, exclude)
    if not legal:
        return []
    costs = {a: supply_loss(state, house, a, units, from_area) for a in legal}
    best = min(costs.values())
    if best >= sum(units.values()):
        return []
    return [a for a in legal if costs[a] == best]


def retreat(em: Emitter, house: str, from_area: str, dest: str, units: dict[str, int], combat_units: bool) -> None:
    """Move the retreating ``units`` into ``dest``, rout them (BG-COMBAT-22), then destroy units until
    the house's supply is legal (BG-COMBAT-20, losses in :data:`SUPPLY_LOSS_ORDER`)."""
    s = em.state
    if dest != from_area:
        routed_before = {} if combat_units else action_of(s).routed.get(from_area, {})
        routed = {u: min(n, routed_before.get(u, 0)) for u, n in units.items() if routed_before.get(u)}
        em.emit(
            aev.UnitsMoved(
                house=house, from_area=from_area, to_area=dest, units=units, routed=routed, reason="BG-COMBAT-19"
            )
        )
        fresh = {u: n - routed.get(u, 0) for u, n in units.items() if n - routed.get(u, 0) > 0}
    else:
        fresh = dict(units)
    if fresh:
        em.emit(aev.UnitsRouted(house=house, area=dest, units=fresh))
    shrink_to_supply(em, house, dest, reason="BG-COMBAT-20")


def shrink_to_supply(em: Emitter, house: str, area: str, reason: str) -> None:
    s = em.state
    supply = s.houses[house].supply
    while not armies_legal(list(counts_after(s, house).values()), supply) and s.areas[area].house == house:
        unit = next(u for u in SUPPLY_LOSS_ORDER if s.areas[area].units.get(u))
        routed = 1 if action_of(s).routed.get(area, {}).get(unit, 0) else 0
        em.emit(
            aev.UnitsDestroyed(
                house=house, area=area, units={unit: 1}, routed={unit: routed} if routed else {}, reason=reason
            )
        )
        s = em.state


__all__ = ["allowed_armies", "best_retreat_areas", "retreat", "legal_retreat_areas"]
