"""Who controls an area, and who has units where (BG-MAP-03..06).

Derived, never stored: control follows from units, Power tokens and home areas.

* BG-MAP-03 -- a house controls every area holding at least one of its units;
* BG-MAP-04 -- an empty land area stays controlled through a Power token; seas and ports are
  controlled only by ships;
* BG-MAP-05 -- a house's printed home area stays under its control while empty (and no neutral
  force or other house holds it).

What control is worth lives with each concept: supply barrels in :mod:`.supply`, castles and
strongholds in :mod:`.victory`, ports in :mod:`.ports`, mustering areas in :mod:`.mustering`.
"""

from __future__ import annotations

from . import board_data
from .state import BoardState


def controller(state: BoardState, area_id: str) -> str | None:
    """BG-MAP-03/04/05: units first, then a Power token, then the printed home area."""
    a = state.areas[area_id]
    if a.house is not None and any(a.units.values()):
        return a.house
    facts = board_data.areas_for(state.settings.expansion)[area_id]
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


def units_of(state: BoardState, house: str, unit: str | None = None) -> dict[str, dict[str, int]]:
    """area -> units of ``house`` there (only ``unit`` when given), sorted by area id."""
    out = {}
    for aid in sorted(state.areas):
        a = state.areas[aid]
        if a.house != house or not a.units:
            continue
        us = {u: n for u, n in a.units.items() if n and (unit is None or u == unit)}
        if us:
            out[aid] = us
    return out


def total(units: dict[str, dict[str, int]]) -> int:
    """How many units an ``area -> units`` map holds."""
    return sum(n for us in units.values() for n in us.values())


def controlled_areas(state: BoardState, house: str) -> list[str]:
    """Every area ``house`` controls (BG-MAP-03..05), sorted by id."""
    return sorted(aid for aid in state.areas if controller(state, aid) == house)
