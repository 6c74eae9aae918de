"""Consolidate Power (BG-CP-01..04) and the mustering a Special Consolidate Power may do instead
(BG-MUSTER-07; what mustering buys is :mod:`domain.board.mustering`, BG-MUSTER-01..05)."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.errors import RuleViolation
from .. import board_data, power
from ..adjacency import kind
from ..emitter import Emitter
from ..mustering import muster_points, plan_muster
from ..orders import VASSAL_DEFENSE_1, VASSAL_DEFENSE_MUSTER, is_special
from ..state import BoardState
from . import events as aev
from .commands import Recruit
from .turns import orders_of, require_turn


def income(state: BoardState, house: str, area: str) -> int:
    """BG-CP-01/02: a land area gives 1 + its crowns; a sea gives nothing; a port gives 1 if its sea
    holds no enemy Ships."""
    facts = board_data.areas_for(state.settings.expansion)[area]
    if facts.kind == "land":
        return 1 + facts.power
    if facts.kind == "port":
        assert facts.port_of is not None, "the board data names the sea of every port"
        sea = state.areas[facts.port_of.sea]
        enemy = sea.house not in (None, house) and sea.units.get("ship", 0) > 0
        return 0 if enemy else 1
    return 0


def can_muster(state: BoardState, area: str) -> bool:
    """BG-CP-03: a Special Consolidate Power may muster instead, in a castle/stronghold area; so may
    a vassal's Defense/Muster token, like a Special Consolidate Power used for mustering, never in a
    port (its fortress gives no Stronghold; MOD-VASSAL-11/12)."""
    order = state.orders[area].order
    return (is_special(order) or order == VASSAL_DEFENSE_MUSTER) and muster_points(area, state.settings.expansion) > 0


def resolve_consolidate_power(
    em: Emitter, house: str, area: str, muster: Sequence[Recruit] | None, by_default: bool = False
) -> None:
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
    if order == VASSAL_DEFENSE_MUSTER:  # MOD-VASSAL-11: still a Defense +1 order after the step
        em.emit(aev.OrderPlaced(area=area, house=house, order=VASSAL_DEFENSE_1, reason="MOD-VASSAL-11"))
