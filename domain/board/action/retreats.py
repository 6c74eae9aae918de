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


def supply_loss(state: BoardState, house: str, dest: str, units: dict[str, int], from_area: str) -> int:
    """BG-COMBAT-20: how many of ``units`` must die for the house's armies to fit after they enter
    ``dest`` from ``from_area``."""
    total = sum(units.values())
    for lost in range(total + 1):
        delta = {from_area: -total}
        delta[dest] = delta.get(dest, 0) + total - lost  # ``dest`` may be ``from_area`` (the way home)
        counts = counts_after(state, house, delta)
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
        if x.garrison > 0 and board_data.areas_for(state.settings.expansion)[a].home_of not in (None, house):
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


def retreat(em: Emitter, house: str, from_area: str, dest: str, units: dict[str, int], combat_units: bool) -> bool:
    """Retreat ``units`` from ``from_area`` into ``dest`` (BG-COMBAT-18/19). If that exceeds the house's
    supply (BG-COMBAT-20), the retreating house chooses which of its retreating units are destroyed
    (Review 2 "BG-COMBAT-20 retreat losses"): True is returned after a ``RetreatLossesPending`` and the
    caller opens the decision; :func:`finish_retreat` completes it. When every retreating unit has the
    same type there is nothing to choose and the losses are taken at once. The losses are always
    retreating units, never units already in ``dest``, and they die before the others move."""
    lost = supply_loss(em.state, house, dest, units, from_area)  # the way home too (BG-COMBAT-18)
    if lost == 0:
        finish_retreat(em, house, from_area, dest, units, {}, combat_units)
        return False
    kinds = [u for u, n in units.items() if n]
    if len(kinds) == 1:
        finish_retreat(em, house, from_area, dest, units, {kinds[0]: lost}, combat_units)
        return False
    em.emit(aev.RetreatLossesPending(house=house, area=dest, count=lost, units=dict(units)))
    return True


def finish_retreat(
    em: Emitter,
    house: str,
    from_area: str,
    dest: str,
    units: dict[str, int],
    losses: dict[str, int],
    combat_units: bool,
) -> None:
    """Destroy the supply ``losses`` among the retreating ``units`` (BG-COMBAT-20), then move the rest
    into ``dest`` and rout them (BG-COMBAT-22)."""
    losses = {u: n for u, n in losses.items() if n}
    if losses:
        em.emit(
            aev.UnitsDestroyed(
                house=house, area=from_area, units=losses, reason="BG-COMBAT-20", combat_units=combat_units
            )
        )
    units = {u: n - losses.get(u, 0) for u, n in units.items() if n - losses.get(u, 0) > 0}
    if not units:
        return
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


def valid_losses(pending: dict[str, int], count: int, losses: dict[str, int]) -> bool:
    """BG-COMBAT-20: exactly ``count`` units, each type at most as many as retreat."""
    return sum(losses.values()) == count and all(0 <= n <= pending.get(u, 0) for u, n in losses.items())


__all__ = ["allowed_armies", "best_retreat_areas", "finish_retreat", "legal_retreat_areas", "retreat", "valid_losses"]
