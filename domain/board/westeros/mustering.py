"""Mustering in the Westeros phase (BG-MUSTER-01..06; BG-WCARD-02/03; The Horde Descends).

Houses muster one at a time in turn order (BG-MUSTER-06); each spends the points of every
castle/stronghold area it controls, each area's points only there (BG-MUSTER-01). The purchases are
checked with the mustering rules for one area (:func:`domain.board.mustering.plan_muster`:
costs, upgrades, where Ships go, unit limits, supply), area after area on the working copy, so the
house's purchases in one area count against its supply and unit limits in the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.errors import NotYourTurn, RuleViolation
from ..action import events as aev
from ..action.commands import Recruit
from ..emitter import Emitter
from ..mustering import muster_areas, plan_muster
from . import events as wev
from .evolve import westeros_of
from .steps import open_step


def begin(em: Emitter, reason: str, houses: list[str] | None = None, max_areas: int = 0) -> None:
    """Open the mustering for ``houses`` (default: every house, in turn order) that control a
    castle or stronghold area; houses without one are skipped."""
    s = em.state
    houses = [h for h in (houses if houses is not None else s.turn_order()) if muster_areas(s, h)]
    if not houses:
        return
    em.emit(wev.MusteringBegan(houses=houses, reason=reason, max_areas=max_areas))
    open_step(em, "muster")


def muster(em: Emitter, house: str, recruits: Mapping[str, Sequence[Recruit]], by_default: bool = False) -> None:
    """``recruits``: area -> list of :class:`~domain.board.action.commands.Recruit`."""
    s = em.state
    w = s.westeros
    if w is None or not w.musterers:
        raise NotYourTurn("nobody is mustering now", rule="BG-MUSTER-06")
    if w.musterers[0] != house:
        raise NotYourTurn(f"{w.musterers[0]} musters first (turn order)", rule="BG-MUSTER-06")
    allowed = muster_areas(s, house)
    used = sorted(a for a, rs in recruits.items() if rs)
    for a in used:
        if a not in allowed:
            raise RuleViolation(
                f"'{a}' is not a castle or stronghold area you control", rule="BG-MUSTER-01", code="not_a_muster_area"
            )
    if w.muster_max_areas and len(used) > w.muster_max_areas:
        raise RuleViolation(
            f"you may muster in {w.muster_max_areas} area(s) only", rule="BG-WILD-05", code="too_many_areas"
        )
    reason = w.muster_reason or "BG-MUSTER-06"
    em.emit(wev.HouseMustered(house=house, areas=used, by_default=by_default))
    for area in used:
        new, upgrades = plan_muster(em.state, house, area, recruits[area])
        for _, to in upgrades:
            em.emit(aev.UnitUpgraded(house=house, area=area, from_unit="footman", to_unit=to, reason=reason))
        for dest, units in sorted(new.items()):
            em.emit(aev.UnitsPlaced(house=house, area=dest, units=units, reason=reason))
    if westeros_of(em.state).musterers:
        open_step(em, "muster")
