"""Supply (BG-SETUP-12, BG-SUPPLY-01..06) and unit limits (BG-COMP-03): the one place for both.

* BG-SETUP-12 / BG-SUPPLY-03 -- a house's supply is the barrels in the land areas it controls,
  capped at 6 (:func:`supply_value`); the Supply token (stored in ``HouseState.supply``) moves to it
  only when a Supply effect says so, never in the Action phase.
* BG-SUPPLY-01/02 -- an *army* is 2 or more units of one house in one area; the Supply token's
  position gives the allowed army sizes (:func:`allowed_armies`), matched largest first.
* BG-SUPPLY-04 -- right after the token moves, a house whose armies no longer fit destroys units of
  its choice until they do: the units it picks must make the armies legal, and every one of them
  must be needed (with any one of them spared the armies would still be too big) -- the same test
  as Swords and Ravens' ``isTooMuchReconciled`` (:func:`validate_reconcile`).
* BG-SUPPLY-05/06 -- outside a reconcile no action may take a house over its limit; marching units
  count where they end up, the attacking units of a combat in the attacked area (:func:`supply_ok`).
* BG-COMP-03 -- each house has a fixed number of units of each type (:func:`available_units`).

The phases decide *when* these apply: the Westeros phase's Supply card and reconcile
(:mod:`.westeros.reconcile`), marches and mustering (:mod:`.action`, :mod:`.mustering`).
"""

from __future__ import annotations

from itertools import combinations

import msgspec

from ..core.errors import RuleViolation
from . import board_data
from .control import controlled_areas, units_of
from .state import BoardState

MAX_SUPPLY = 6


def supply_barrels(state: BoardState, house: str) -> int:
    """BG-SETUP-12: barrels in the land areas a house controls."""
    facts = board_data.areas_for(state.settings.expansion)
    return sum(facts[a].supply for a in controlled_areas(state, house))


def supply_value(state: BoardState, house: str) -> int:
    """BG-SETUP-12 / BG-SUPPLY-03: where the Supply token goes when it is set: the barrels
    controlled, capped at 6 (the end of the Supply track)."""
    return min(MAX_SUPPLY, supply_barrels(state, house))


def allowed_armies(supply: int) -> list[int]:
    """BG-SUPPLY-02: the table row for a Supply position (capped at 6)."""
    return list(board_data.setup().supply_table[str(max(0, min(MAX_SUPPLY, supply)))])


def unit_counts(state: BoardState, house: str) -> dict[str, int]:
    """Units per area for ``house`` (land, sea and port)."""
    return {aid: sum(a.units.values()) for aid, a in state.areas.items() if a.house == house and a.units}


def armies_legal(sizes: list[int], supply: int) -> bool:
    """BG-SUPPLY-01/02: armies (2+ units) sorted largest first fit the allowed sizes one by one."""
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    allowed = allowed_armies(supply)
    if len(armies) > len(allowed):
        return False
    return all(a <= b for a, b in zip(armies, allowed))


def counts_after(state: BoardState, house: str, delta: dict[str, int] | None = None) -> dict[str, int]:
    """The house's units per area after adding ``delta`` (area -> +/- units), with the attacking
    units of a combat in progress counted in the attacked area (BG-SUPPLY-06)."""
    counts = unit_counts(state, house)
    c = state.action.combat if state.action else None
    if c is not None and c.attacker == house and c.winner is None:
        n = sum(c.units.values())
        counts[c.from_area] = counts.get(c.from_area, 0) - n
        counts[c.area] = counts.get(c.area, 0) + n
    for area, d in (delta or {}).items():
        counts[area] = counts.get(area, 0) + d
    return counts


def supply_ok(state: BoardState, house: str, delta: dict[str, int] | None = None) -> bool:
    """BG-SUPPLY-05: would the house's armies be legal after ``delta``?"""
    return armies_legal(list(counts_after(state, house, delta).values()), state.houses[house].supply)


class SupplyLimit(msgspec.Struct):
    """The supply limit a March or a mustering must respect (BG-SUPPLY-01/02/05/06), stated so that a
    client can check a whole declaration itself: add the units the command brings into each area to
    ``units`` (and take the marching units out of their area); then the areas holding 2 or more of
    your units (armies), sorted largest first, must be no more than ``len(allowed)`` and the i-th no
    larger than ``allowed[i]``. Areas not listed hold none of your units. A March that moves no unit
    is not checked."""

    allowed: list[int]
    """The army sizes your Supply position allows, largest first (BG-SUPPLY-02)."""
    units: dict[str, int]
    """How many of your units stand in each area now (land, sea and port areas; the attacking
    units of a combat in progress counted in the attacked area, BG-SUPPLY-06)."""


def supply_limit(state: BoardState, house: str) -> SupplyLimit:
    """The house's :class:`SupplyLimit` now: the same numbers :func:`supply_ok` checks against."""
    counts = counts_after(state, house)
    return SupplyLimit(
        allowed=allowed_armies(state.houses[house].supply),
        units={a: n for a, n in sorted(counts.items()) if n > 0},
    )


def on_board(state: BoardState, house: str, unit: str) -> int:
    """How many units of type ``unit`` the house has on the board."""
    return sum(a.units.get(unit, 0) for a in state.areas.values() if a.house == house)


def available_units(state: BoardState, house: str, unit: str) -> int:
    """BG-COMP-03: units of that type the house can still put on the board (with Mother of Dragons
    from its 7-house facts, where House Arryn is)."""
    if state.settings.expansion is not None:
        limit = board_data.mother_of_dragons().houses[house].unit_limits[unit]
    else:
        limit = board_data.setup().houses[house].unit_limits[unit]
    return max(0, limit - on_board(state, house, unit))


def armies(state: BoardState, house: str) -> dict[str, dict[str, int]]:
    """The house's armies (areas with 2 or more of its units, BG-SUPPLY-01)."""
    return {a: us for a, us in units_of(state, house).items() if sum(us.values()) >= 2}


def legal_after_losses(state: BoardState, house: str, removed: dict[str, int]) -> bool:
    """BG-SUPPLY-04: do the armies fit the supply once ``removed`` (area -> units) are gone?"""
    delta = {a: -n for a, n in removed.items() if n}
    return supply_ok(state, house, delta)


def minimal_losses(state: BoardState, house: str) -> dict[str, int]:
    """BG-SUPPLY-04: the fewest units (area -> how many) whose loss makes the armies legal: keep the
    armies that fill the allowed sizes best (largest with largest), shrink the rest to single units."""
    sizes = {a: sum(us.values()) for a, us in armies(state, house).items()}
    allowed = allowed_armies(state.houses[house].supply)
    areas = sorted(sizes, key=lambda a: (-sizes[a], a))
    best: tuple[int, dict[str, int]] | None = None
    for k in range(min(len(areas), len(allowed)), -1, -1):
        for keep in combinations(areas, k):
            kept = sorted(keep, key=lambda a: (-sizes[a], a))
            loss = {a: max(0, sizes[a] - slot) for a, slot in zip(kept, allowed)}
            for a in areas:
                if a not in keep:
                    loss[a] = sizes[a] - 1
            cost = sum(loss.values())
            if best is None or cost < best[0]:
                best = (cost, {a: n for a, n in loss.items() if n})
    return best[1] if best else {}


def validate_reconcile(state: BoardState, house: str, units: dict[str, dict[str, int]]) -> None:
    """BG-SUPPLY-04: the picked losses must be the house's own units, must make its armies fit, and
    every one of them must be needed."""
    mine = units_of(state, house)
    removed: dict[str, int] = {}
    for area, us in units.items():
        for u, n in us.items():
            if n < 0 or n > mine.get(area, {}).get(u, 0):
                raise RuleViolation(
                    f"{house} has no {n} {u}(s) in '{area}' to destroy", rule="BG-SUPPLY-04", code="no_such_units"
                )
            removed[area] = removed.get(area, 0) + n
    if not legal_after_losses(state, house, removed):
        raise RuleViolation("these losses still leave armies beyond your supply", rule="BG-SUPPLY-04", code="supply")
    for area, n in removed.items():
        if n and legal_after_losses(state, house, {**removed, area: n - 1}):
            raise RuleViolation(
                f"one unit fewer in '{area}' would already fit your supply; destroy only what is needed",
                rule="BG-SUPPLY-04",
                code="too_many_losses",
            )
