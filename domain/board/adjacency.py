"""Adjacency and ship transport, as each action sees them (BG-MAP-01/07, BG-SETUP-06,
BG-MARCH-03/09/10/11, BG-RAID-02, BG-COMBAT-03, BG-MUSTER-04): the one place for who may reach what.

Adjacency itself is map data (``board.json``); these functions only apply the rules of who may
reach what. Impassable areas of a 3-player game are never adjacent for any purpose (BG-SETUP-06).

* BG-MARCH-03/09/11 -- land units march to adjacent land areas or by ship transport: a chain of
  adjacent seas each holding one of the house's Ships (:func:`transport_reachable`); Ships march to
  adjacent seas, and into a port only while their house controls its land area (BG-MAP-07);
* BG-RAID-02 -- what a Raid reaches (never by transport, BG-MARCH-10);
* BG-COMBAT-03 -- what a Support order backs.
"""

from __future__ import annotations

from collections import deque

from . import board_data
from .ports import port_open_to
from .state import BoardState

__all__ = [
    "adjacent",
    "can_support",
    "has_ships",
    "kind",
    "land_destinations",
    "port_open_to",
    "raid_reach",
    "ship_destinations",
    "transport_reachable",
]


def kind(area: str) -> str:
    return board_data.any_area(area).kind


def adjacent(state: BoardState, area: str) -> list[str]:
    """Map adjacency without impassable areas (BG-SETUP-06)."""
    return [a for a in board_data.areas_for(state.settings.expansion)[area].adjacent if not state.areas[a].blocked]


def has_ships(state: BoardState, house: str, area: str) -> bool:
    a = state.areas[area]
    return a.house == house and a.units.get("ship", 0) > 0


def transport_reachable(state: BoardState, house: str, land: str) -> set[str]:
    """BG-MARCH-09: land areas linked to ``land`` by a chain of adjacent sea areas that each hold at
    least one of ``house``'s Ships (routed ones too, whatever their orders). Breadth-first search over
    those seas; another house's ships never help. Ships themselves are never transported."""
    seen: set[str] = set()
    queue = deque(s for s in adjacent(state, land) if kind(s) == "sea" and has_ships(state, house, s))
    seen.update(queue)
    out: set[str] = set()
    while queue:
        sea = queue.popleft()
        for nxt in adjacent(state, sea):
            k = kind(nxt)
            if k == "land" and nxt != land:
                out.add(nxt)
            elif k == "sea" and nxt not in seen and has_ships(state, house, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return out


def land_destinations(state: BoardState, house: str, area: str) -> list[str]:
    """BG-MARCH-03/09/11: land units move to adjacent land areas or by ship transport."""
    direct = {a for a in adjacent(state, area) if kind(a) == "land"}
    return sorted(direct | transport_reachable(state, house, area))


def ship_destinations(state: BoardState, house: str, area: str) -> list[str]:
    """BG-MARCH-03 / BG-MAP-07: Ships move to adjacent sea areas; from a port only to its sea; into a
    port from its sea only when the house controls the port's land area."""
    facts = board_data.areas_for(state.settings.expansion)[area]
    if facts.kind == "port":
        assert facts.port_of is not None, f"{area} is a port"
        return [facts.port_of.sea]
    out = []
    for a in adjacent(state, area):
        k = kind(a)
        if k == "sea" or (k == "port" and port_open_to(state, house, a)):
            out.append(a)
    return sorted(out)


def raid_reach(state: BoardState, area: str) -> list[str]:
    """BG-RAID-02: land raids adjacent land; a sea raids adjacent seas, lands and its ports; a port
    raids only its own sea. Ship transport never counts (BG-MARCH-10)."""
    facts = board_data.areas_for(state.settings.expansion)[area]
    if facts.kind == "port":
        assert facts.port_of is not None, f"{area} is a port"
        return [facts.port_of.sea]
    if facts.kind == "land":
        return sorted(a for a in adjacent(state, area) if kind(a) == "land")
    return sorted(adjacent(state, area))


def can_support(state: BoardState, from_area: str, combat_area: str) -> bool:
    """BG-COMBAT-03: a Support order may back a combat in an adjacent area; land units never support a
    sea area; Ships in a sea support adjacent land and sea areas; a port supports only its own sea."""
    facts = board_data.areas_for(state.settings.expansion)[from_area]
    if facts.kind == "port":
        assert facts.port_of is not None, f"{from_area} is a port"
        return facts.port_of.sea == combat_area
    if combat_area not in adjacent(state, from_area):
        return False
    if facts.kind == "land":
        return kind(combat_area) == "land"
    return kind(combat_area) in ("land", "sea")
