"""What a march into an area meets (BG-MARCH-04/05/12, BG-COMBAT-01): a plain move, a combat with
the house whose units or home garrison hold it, or a neutral force. Read by the March rules
(:mod:`.marches`), the combat they start (:mod:`.combat`) and the pending decisions."""

from __future__ import annotations

from .. import board_data
from ..state import BoardState


def destination_kind(state: BoardState, house: str, dest: str) -> str:
    """What entering ``dest`` means (BG-MARCH-04/05/12): ``move`` (friendly, empty or enemy token
    only), ``combat`` (enemy units or an enemy garrison) or ``neutral`` (a neutral force token)."""
    a = state.areas[dest]
    if a.house not in (None, house) and any(a.units.values()):
        return "combat"
    if a.neutral > 0:
        return "neutral"
    if a.garrison > 0 and board_data.areas_for(state.settings.expansion)[dest].home_of not in (None, house):
        return "combat"
    return "move"


def defender_of(state: BoardState, area: str) -> str | None:
    a = state.areas[area]
    if a.house is not None and any(a.units.values()):
        return a.house
    return board_data.areas_for(state.settings.expansion)[area].home_of
