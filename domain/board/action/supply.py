"""Supply (BG-SUPPLY-01/02/05/06) and unit limits (BG-COMP-03).

An army is 2+ units of one house in one area. The Supply token's position (stored in
``HouseState.supply``) gives the allowed army sizes; it does not move in the Action phase
(BG-SUPPLY-03).
"""

from __future__ import annotations

from .. import board_data
from ..state import BoardState


def allowed_armies(supply: int) -> list[int]:
    """BG-SUPPLY-02: the table row for a Supply position (capped at 6)."""
    return list(board_data.setup().supply_table[str(max(0, min(6, supply)))])


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


def on_board(state: BoardState, house: str, unit: str) -> int:
    return sum(a.units.get(unit, 0) for a in state.areas.values() if a.house == house)


def available_units(state: BoardState, house: str, unit: str) -> int:
    """BG-COMP-03: units of that type the house can still put on the board."""
    limit = board_data.setup().houses[house].unit_limits[unit]
    return max(0, limit - on_board(state, house, unit))
