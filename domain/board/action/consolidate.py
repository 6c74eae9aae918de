"""Consolidate Power (BG-CP-01..04) and the mustering a Special Consolidate Power may do
(BG-MUSTER-01..05, BG-MUSTER-07)."""

from __future__ import annotations

from collections import Counter

from ...core.errors import RuleViolation
from .. import board_data
from ..orders import is_special
from ..state import BoardState
from . import events as aev
from . import power
from .flow import orders_of, require_turn
from .supply import available_units, supply_ok
from .transport import adjacent, kind

#: BG-MUSTER-02: cost of a new unit, and of upgrading a Footman into it.
NEW_COST = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 2}
UPGRADE_COST = {"knight": 1, "siege_engine": 1}


def income(state: BoardState, house: str, area: str) -> int:
    """BG-CP-01/02: a land area gives 1 + its crowns; a sea gives nothing; a port gives 1 if its sea
    holds no enemy Ships."""
    facts = board_data.areas()[area]
    if facts.kind == "land":
        return 1 + facts.power
    if facts.kind == "port":
        sea = state.areas[facts.port_of.sea]
        enemy = sea.house not in (None, house) and sea.units.get("ship", 0) > 0
        return 0 if enemy else 1
    return 0


def muster_points(area: str) -> int:
    """BG-MUSTER-01: a Castle gives 1 mustering point, a Stronghold 2."""
    return {"none": 0, "castle": 1, "stronghold": 2}[board_data.areas()[area].castle]


def can_muster(state: BoardState, area: str) -> bool:
    """BG-CP-03: a Special Consolidate Power may muster instead, in a castle/stronghold area."""
    return is_special(state.orders[area].order) and muster_points(area) > 0


def ship_areas(state: BoardState, house: str, area: str) -> list[str]:
    """BG-MUSTER-04: where a new Ship may go: an adjacent sea with no enemy Ships, or the area's port
    (even with enemy Ships outside) while it holds fewer than 3 Ships."""
    out = []
    for a in adjacent(state, area):
        k = kind(a)
        x = state.areas[a]
        if k == "sea" and (x.house in (None, house) or not x.units.get("ship")):
            out.append(a)
        elif k == "port" and board_data.areas()[a].port_of.land == area:
            if x.house in (None, house) and x.units.get("ship", 0) < 3:
                out.append(a)
    return sorted(out)


def plan_muster(state: BoardState, house: str, area: str, recruits) -> tuple[dict, list[tuple[str, str]]]:
    """Validate one mustering (BG-MUSTER-01..05). Returns (area -> new units, [(from, to) upgrades])."""
    points = muster_points(area)
    cost = 0
    new: dict[str, Counter] = {}
    upgrades: list[tuple[str, str]] = []
    footmen = state.areas[area].units.get("footman", 0) if state.areas[area].house == house else 0
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
            dest = r.area
        else:
            if r.area not in (None, area):
                raise RuleViolation("land units are placed in the mustering area", rule="BG-MUSTER-03")
            dest = area
        new.setdefault(dest, Counter())[r.unit] += 1
    if cost > points:
        raise RuleViolation(f"'{area}' gives {points} mustering point(s), not {cost}", rule="BG-MUSTER-01")
    # BG-COMP-03: unit limits (an upgraded Footman returns to the house's reserve).
    need = Counter()
    for units in new.values():
        need.update(units)
    for _, to in upgrades:
        need[to] += 1
    for unit, n in need.items():
        if n > available_units(state, house, unit) + (len(upgrades) if unit == "footman" else 0):
            raise RuleViolation(f"{house} has no {unit} left to place", rule="BG-COMP-03", code="unit_limit")
    for dest, units in new.items():
        if kind(dest) == "port" and state.areas[dest].units.get("ship", 0) + units["ship"] > 3:
            raise RuleViolation("a port holds at most 3 Ships", rule="BG-MAP-07")
    delta = {dest: sum(u.values()) for dest, u in new.items()}
    if not supply_ok(state, house, delta):
        raise RuleViolation("this mustering would break your supply limit", rule="BG-MUSTER-05", code="supply")
    return {d: dict(u) for d, u in new.items()}, upgrades


def resolve_consolidate_power(em, house: str, area: str, muster, by_default: bool = False) -> None:
    """Resolve one Consolidate Power order (BG-CP-04, BG-ACT-02/03): take the Power it gives
    (BG-CP-01/02), or with a Special order in a castle/stronghold area muster there instead
    (BG-CP-03 / BG-MUSTER-07), never both."""
    s = em.state
    require_turn(s, house, "resolve_consolidate_power")
    if area not in orders_of(s, house, "consolidate_power"):
        raise RuleViolation(f"{house} has no Consolidate Power order in '{area}'", code="no_such_order")
    order = s.orders[area].order
    if muster is not None:
        if not can_muster(s, area):
            raise RuleViolation(
                "only a Special Consolidate Power order in a castle or stronghold area may muster", rule="BG-CP-03"
            )
        new, upgrades = plan_muster(s, house, area, muster)
        em.emit(aev.ConsolidatedPower(house=house, area=area, order=order, mustered=True, by_default=by_default))
        for _, to in upgrades:
            em.emit(aev.UnitUpgraded(house=house, area=area, from_unit="footman", to_unit=to, reason="BG-MUSTER-02"))
        for dest, units in sorted(new.items()):
            em.emit(aev.UnitsPlaced(house=house, area=dest, units=units, reason="BG-MUSTER-07"))
    else:
        em.emit(aev.ConsolidatedPower(house=house, area=area, order=order, by_default=by_default))
        power.gain(em, house, income(s, house, area), "BG-CP-01" if kind(area) == "land" else "BG-CP-02")
    em.emit(aev.OrderRemoved(area=area, house=house, order=order, reason="BG-CP-04"))
