"""Board upkeep after units move: orders in empty areas, ports, control markers.

* BG-ORDER-08 -- an order in an area with no units is removed.
* BG-MAP-07   -- Ships in a port whose land area their house no longer controls leave it: if another
  house now controls the land area, it captured the port and may put in up to as many of its own
  Ships (limited by its available Ships, its supply and the 3-ship cap); if nobody does, the Ships
  are orphaned and destroyed, their order with them.
* BG-MARCH-05 / BG-COMBAT-24 / BG-POWER-05 -- an enemy Power token goes back to the Pool when a
  house's units enter its area.
"""

from __future__ import annotations

from .. import board_data
from ..emitter import Emitter
from ..ports import max_port_replacement, orphaned_ports
from . import events as aev


def remove_orders_in_empty_areas(em: Emitter, reason: str = "BG-ORDER-08") -> None:
    s = em.state
    for area, placed in sorted(s.orders.items()):
        a = s.areas[area]
        if not any(a.units.values()) or a.house != placed.house:
            em.emit(aev.OrderRemoved(area=area, house=placed.house, order=placed.order, reason=reason))


def remove_enemy_power_token(em: Emitter, house: str, area: str, reason: str) -> None:
    a = em.state.areas[area]
    if a.power_token is not None and a.power_token != house:
        em.emit(aev.PowerTokenRemoved(house=a.power_token, area=area, reason=reason))


def sweep_ports(em: Emitter) -> None:
    """BG-MAP-07: remove Ships from ports whose land area their house does not control."""
    for port_id, owner in orphaned_ports(em.state):
        s = em.state
        a = board_data.areas_for(s.settings.expansion)[port_id]
        port = s.areas[port_id]
        # A combat in progress keeps its attacking units where they marched from: not yet a change.
        removed = dict(port.units)
        loser = port.house
        assert loser is not None, "orphaned_ports lists only ports holding a house's Ships"
        routed = dict(s.action.routed.get(a.id, {})) if s.action is not None else {}
        em.emit(aev.UnitsDestroyed(house=loser, area=a.id, units=removed, routed=routed, reason="BG-MAP-07"))
        if a.id in s.orders:
            o = em.state.orders[a.id]
            em.emit(aev.OrderRemoved(area=a.id, house=o.house, order=o.order, reason="BG-MAP-07"))
        if owner is not None:
            n = max_port_replacement(em.state, owner, a.id, sum(removed.values()))
            if n > 0:
                em.emit(aev.PortCapturePending(house=owner, port=a.id, max=n))


def after_moves(em: Emitter) -> None:
    """Upkeep after any movement: ports first (they may empty a port), then empty-area orders."""
    sweep_ports(em)
    remove_orders_in_empty_areas(em)
