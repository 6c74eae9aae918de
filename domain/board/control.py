"""Who controls an area, and what control is worth (BG-MAP-03..06, BG-SETUP-12, BG-VIC-01).

Derived, never stored: control follows from units, Power tokens and home areas.
"""

from __future__ import annotations

from . import board_data
from .state import BoardState


def controller(state: BoardState, area_id: str) -> str | None:
    """BG-MAP-03/04/05: units first, then a Power token, then the printed home area."""
    a = state.areas[area_id]
    if a.house is not None and any(a.units.values()):
        return a.house
    facts = board_data.areas()[area_id]
    if facts.kind != "land":
        return None  # BG-MAP-04: seas and ports are controlled only by ships
    if a.power_token is not None:
        return a.power_token
    if facts.home_of is not None and facts.home_of in state.houses_in_play and a.neutral == 0:
        return facts.home_of
    return None


def areas_with_units(state: BoardState, house: str) -> list[str]:
    """Areas (land, sea or port) holding at least one of ``house``'s units, sorted by id."""
    return sorted(aid for aid, a in state.areas.items() if a.house == house and any(a.units.values()))


def controlled_areas(state: BoardState, house: str) -> list[str]:
    return sorted(aid for aid in state.areas if controller(state, aid) == house)


def supply_barrels(state: BoardState, house: str) -> int:
    """BG-SETUP-12: barrels in the land areas a house controls."""
    facts = board_data.areas()
    return sum(facts[a].supply for a in controlled_areas(state, house))


def victory_points(state: BoardState, house: str, controllers: dict[str, str | None] | None = None) -> int:
    """BG-VIC-01/BG-SETUP-12: castles and strongholds controlled. ``controllers`` (area ->
    :func:`controller`) may be passed when the caller has already computed it for every area."""
    facts = board_data.areas()
    if controllers is None:
        return sum(1 for a in controlled_areas(state, house) if facts[a].castle != "none")
    return sum(1 for a, c in controllers.items() if c == house and facts[a].castle != "none")
