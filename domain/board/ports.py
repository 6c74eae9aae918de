"""Ports follow control (BG-MAP-07): the one place for the port rules both phases apply.

A port belongs to one land area and touches exactly one sea area. Ships enter a port only while
their house controls the port's land area (:func:`port_open_to`). When control of the land area
changes, Ships of another house in the port are removed: if a house now controls the land area it
captured the port and may put in up to as many of its own Ships, limited by its available Ships, its
supply and the 3-ship cap (:func:`max_port_replacement`); if nobody controls it, the Ships are
orphaned and destroyed (:func:`orphaned_ports`). The Action phase (:mod:`.action.sweeps`) and the
Westeros phase (:mod:`.westeros.units`) each offer the replacement their own way.
"""

from __future__ import annotations

from . import board_data
from .control import controller
from .state import BoardState
from .supply import available_units, supply_ok

PORT_CAPACITY = 3
"""BG-MAP-07: a port holds at most 3 Ships."""


def port_open_to(state: BoardState, house: str, port: str) -> bool:
    """BG-MAP-07: Ships enter a port from its sea only if their house controls the port's land area."""
    facts = board_data.areas_for(state.settings.expansion)[port]
    assert facts.port_of is not None, f"{port} is not a port"
    return controller(state, facts.port_of.land) == house


def port_room(state: BoardState, house: str, port: str) -> int:
    """BG-MAP-07: how many more Ships of ``house`` the port can take (3 at most in a port; a port
    holding another house's Ships takes none of these)."""
    x = state.areas[port]
    if x.house not in (None, house):
        return 0
    return max(0, PORT_CAPACITY - x.units.get("ship", 0))


def max_port_replacement(state: BoardState, house: str, port: str, removed: int) -> int:
    """BG-MAP-07: how many Ships ``house`` may put in a port it captured."""
    here = state.areas[port].units.get("ship", 0) if state.areas[port].house == house else 0
    n = min(removed, available_units(state, house, "ship"), PORT_CAPACITY - here)
    while n > 0 and not supply_ok(state, house, {port: n}):
        n -= 1
    return max(n, 0)


def orphaned_ports(state: BoardState) -> list[tuple[str, str | None]]:
    """BG-MAP-07: ports holding Ships of a house that does not control the port's land area, with
    that area's controller (who may put its own Ships in), as ``(port, new owner)``."""
    out = []
    for a in board_data.areas_for(state.settings.expansion).values():
        if a.kind != "port" or a.port_of is None:
            continue
        port = state.areas[a.id]
        if port.house is None or not port.units:
            continue
        owner = controller(state, a.port_of.land)
        if owner != port.house:
            out.append((a.id, owner))
    return out
