"""Units on the board as the Westeros phase touches them: picking, destroying, replacing, and the
ports that follow control afterwards (BG-MAP-07).

A unit destroyed outside combat may change who controls a land area (its last unit left, or a home
area went back to its house), so every destruction is followed by :func:`sweep_ports`: Ships in a
port whose land area their house no longer controls are removed; a house that now controls the land
area may put in up to as many of its own Ships (a ``port_ships`` choice).
"""

from __future__ import annotations

from .. import board_data
from ..action import events as aev
from ..control import total, units_of
from ..emitter import Emitter
from ..ports import max_port_replacement, orphaned_ports
from ..state import WEAKEST_FIRST
from . import events as wev
from .steps import open_step

__all__ = [
    "WEAKEST_FIRST",
    "destroy",
    "forced_selection",
    "pick_default",
    "replace",
    "offer_next_port",
    "sweep_ports",
    "total",
    "units_of",
]


def pick_default(units: dict[str, dict[str, int]], count: int, same_area: bool = False) -> dict[str, dict[str, int]]:
    """The documented default pick: weakest units first (Footmen, Ships, Knights, Siege Engines),
    areas in alphabetical order; with ``same_area`` the first area that holds enough."""
    if same_area:
        for area in sorted(units):
            if sum(units[area].values()) >= count:
                return pick_default({area: units[area]}, count)
        return {}
    out: dict[str, dict[str, int]] = {}
    left = count
    for u in WEAKEST_FIRST:
        for area in sorted(units):
            if left <= 0:
                break
            n = min(left, units[area].get(u, 0))
            if n:
                out.setdefault(area, {})[u] = n
                left -= n
    return out


def forced_selection(
    units: dict[str, dict[str, int]], count: int, same_area: bool = False
) -> dict[str, dict[str, int]] | None:
    """The only legal pick of ``count`` units, or None when the house has a real choice."""
    if count <= 0:
        return {}
    if same_area:
        areas = [a for a in units if sum(units[a].values()) >= count]
        if len(areas) != 1:
            return None
        units = {areas[0]: units[areas[0]]}
    if total(units) == count:
        return {a: dict(us) for a, us in units.items()}
    kinds = [(a, u) for a, us in units.items() for u, n in us.items() if n]
    if len(kinds) == 1:
        a, u = kinds[0]
        return {a: {u: count}}
    return None


def valid_pick(picked: dict[str, dict[str, int]], allowed: dict[str, dict[str, int]]) -> bool:
    for area, us in picked.items():
        for u, n in us.items():
            if n < 0 or n > allowed.get(area, {}).get(u, 0):
                return False
    return True


def destroy(em: Emitter, house: str, units: dict[str, dict[str, int]], reason: str) -> None:
    """Remove ``units`` of ``house`` from the board, then let ports follow control."""
    for area, us in sorted(units.items()):
        us = {u: n for u, n in us.items() if n}
        if us:
            em.emit(aev.UnitsDestroyed(house=house, area=area, units=us, reason=reason))
    sweep_ports(em)


def replace(
    em: Emitter, house: str, units: dict[str, dict[str, int]], from_unit: str, to_unit: str, reason: str
) -> None:
    """Replace each picked ``from_unit`` by a ``to_unit`` in the same area (Crow Killers)."""
    for area, us in sorted(units.items()):
        for _ in range(us.get(from_unit, 0)):
            em.emit(aev.UnitUpgraded(house=house, area=area, from_unit=from_unit, to_unit=to_unit, reason=reason))


def sweep_ports(em: Emitter) -> None:
    """BG-MAP-07 after units left the board outside combat (see the module docstring). Ships in a
    port whose land area their house no longer controls are removed at once, every such port in
    board order; each captured port is queued (``PortCaptureQueued``) and its new controller offered
    its Ships in turn by :func:`offer_next_port` (Review 2 "BG-MAP-07 several ports")."""
    for port_id, owner in orphaned_ports(em.state):
        s = em.state
        a = board_data.areas_for(s.settings.expansion)[port_id]
        port = s.areas[port_id]
        removed = dict(port.units)
        assert port.house is not None, "orphaned_ports lists only ports holding Ships"
        em.emit(aev.UnitsDestroyed(house=port.house, area=a.id, units=removed, reason="BG-MAP-07"))
        if owner is not None and max_port_replacement(em.state, owner, a.id, sum(removed.values())) > 0:
            em.emit(wev.PortCaptureQueued(house=owner, port=a.id, removed=sum(removed.values())))


def offer_next_port(em: Emitter) -> None:
    """BG-MAP-07: offer the first queued captured port to its new controller: 0 up to as many Ships
    as were removed, limited by its available Ships, its supply and the 3-ship cap as they stand now
    (an earlier offer answered by the same house may have used some)."""
    w = em.state.westeros
    assert w is not None and w.port_captures, "called only with a captured port queued"
    cap = w.port_captures[0]
    n = max_port_replacement(em.state, cap.house, cap.port, cap.removed)
    em.emit(
        wev.WesterosChoicePending(
            house=cap.house,
            kind="port_ships",
            options=[str(i) for i in range(n + 1)],
            default="0",
            context=cap.port,
        )
    )
    open_step(em, "westeros_choice")
