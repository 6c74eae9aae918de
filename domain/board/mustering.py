"""Mustering (BG-MUSTER-01..05): the one place for what a mustering area gives and what it buys.

* BG-MUSTER-01 -- each controlled area with a Castle gives 1 mustering point, with a Stronghold 2,
  spent only there (:func:`muster_points`, :func:`muster_areas`);
* BG-MUSTER-02 -- a Footman costs 1, a Knight 2, a Ship 1, a Siege Engine 2; upgrading a Footman to a
  Knight or a Siege Engine costs 1 (:data:`NEW_COST`, :data:`UPGRADE_COST`);
* BG-MUSTER-03/04 -- land units are placed in the mustering area; a Ship in an adjacent sea with no
  enemy Ships or in the area's port (:func:`ship_areas`);
* BG-MUSTER-05 -- mustering respects supply (BG-SUPPLY-05) and unit limits (BG-COMP-03)
  (:func:`plan_muster` checks one area's purchases).

The phases decide *when* a house musters: a Special Consolidate Power order in the Action phase
(BG-CP-03 / BG-MUSTER-07, :mod:`.action.consolidate`), the Mustering card and The Horde Descends in
the Westeros phase (BG-MUSTER-06, :mod:`.westeros.mustering`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.errors import RuleViolation
from . import board_data
from .action.commands import Recruit
from .adjacency import adjacent, kind
from .control import controller
from .ports import port_room
from .state import BoardState
from .supply import available_units, supply_ok

#: BG-MUSTER-02: cost of a new unit, and of upgrading a Footman into it.
NEW_COST = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 2}
UPGRADE_COST = {"knight": 1, "siege_engine": 1}


def muster_points(area: str, expansion: str | None = None) -> int:
    """BG-MUSTER-01: a Castle gives 1 mustering point, a Stronghold 2."""
    return {"none": 0, "castle": 1, "stronghold": 2}[board_data.areas_for(expansion)[area].castle]


def muster_areas(state: BoardState, house: str) -> list[str]:
    """BG-MUSTER-01: land areas with a Castle or Stronghold that ``house`` controls. A vassal musters
    (from a Westeros card) only in its home area, while it controls it (MOD-VASSAL-25)."""
    facts = board_data.areas_for(state.settings.expansion)
    return sorted(
        a
        for a, x in state.areas.items()
        if facts[a].kind == "land"
        and facts[a].castle != "none"
        and not x.blocked
        and controller(state, a) == house
        and (house not in state.vassals or facts[a].home_of == house)
    )


def ship_areas(state: BoardState, house: str, area: str) -> list[str]:
    """BG-MUSTER-04: where a new Ship may go: an adjacent sea with no enemy Ships, or the area's port
    (even with enemy Ships outside) while it holds fewer than 3 Ships."""
    out = []
    for a in adjacent(state, area):
        k = kind(a)
        x = state.areas[a]
        port_of = board_data.areas_for(state.settings.expansion)[a].port_of
        if k == "sea" and (x.house in (None, house) or not x.units.get("ship")):
            out.append(a)
        elif k == "port" and port_of is not None and port_of.land == area:
            if port_room(state, house, a) > 0:
                out.append(a)
    return sorted(out)


def upgradable_footmen(state: BoardState, house: str, area: str) -> int:
    """BG-MUSTER-02: an upgrade replaces a Footman already standing in the mustering area (not one
    mustered by the same purchase), so at most this many upgrades there."""
    x = state.areas[area]
    return x.units.get("footman", 0) if x.house == house else 0


def units_left(state: BoardState, house: str) -> dict[str, int]:
    """BG-COMP-03 / BG-MUSTER-05: units of each type the house can still put on the board. A new
    unit or an upgrade's new type uses one; an upgraded Footman returns to the reserve and may be
    mustered again in the same area."""
    return {u: available_units(state, house, u) for u in sorted(NEW_COST)}


def plan_muster(
    state: BoardState, house: str, area: str, recruits: Sequence[Recruit]
) -> tuple[dict[str, dict[str, int]], list[tuple[str, str]]]:
    """Validate one mustering (BG-MUSTER-01..05). Returns (area -> new units, [(from, to) upgrades])."""
    points = muster_points(area, state.settings.expansion)
    cost = 0
    new: dict[str, Counter[str]] = {}
    upgrades: list[tuple[str, str]] = []
    footmen = upgradable_footmen(state, house, area)
    for r in recruits:
        if r.upgrade:
            if r.unit not in UPGRADE_COST:
                raise RuleViolation(f"a Footman cannot be upgraded to a {r.unit}", rule="BG-MUSTER-02")
            if footmen <= 0:
                raise RuleViolation(f"no Footman left in '{area}' to upgrade", rule="BG-MUSTER-02")
            footmen -= 1
            cost += UPGRADE_COST[r.unit]
            upgrades.append(("footman", r.unit))
            continue
        cost += NEW_COST[r.unit]
        if r.unit == "ship":
            if r.area not in ship_areas(state, house, area):
                raise RuleViolation(
                    f"a Ship mustered in '{area}' may go only to {', '.join(ship_areas(state, house, area)) or 'nowhere'}",
                    rule="BG-MUSTER-04",
                )
            assert r.area is not None  # ship_areas never lists None
            dest = r.area
        else:
            if r.area not in (None, area):
                raise RuleViolation("land units are placed in the mustering area", rule="BG-MUSTER-03")
            dest = area
        new.setdefault(dest, Counter())[r.unit] += 1
    if cost > points:
        raise RuleViolation(f"'{area}' gives {points} mustering point(s), not {cost}", rule="BG-MUSTER-01")
    # BG-COMP-03: unit limits (an upgraded Footman returns to the house's reserve).
    need: Counter[str] = Counter()
    for units in new.values():
        need.update(units)
    for _, to in upgrades:
        need[to] += 1
    for unit, n in need.items():
        if n > available_units(state, house, unit) + (len(upgrades) if unit == "footman" else 0):
            raise RuleViolation(f"{house} has no {unit} left to place", rule="BG-COMP-03", code="unit_limit")
    for dest, units in new.items():
        if kind(dest) == "port" and units["ship"] > port_room(state, house, dest):
            raise RuleViolation("a port holds at most 3 Ships", rule="BG-MAP-07")
    delta = {dest: sum(u.values()) for dest, u in new.items()}
    if not supply_ok(state, house, delta):
        raise RuleViolation("this mustering would break your supply limit", rule="BG-MUSTER-05", code="supply")
    return {d: dict(u) for d, u in new.items()}, upgrades
