"""Raid orders (BG-RAID-01..05)."""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import power
from ..adjacency import raid_reach
from ..emitter import Emitter
from ..orders import is_special, order_type
from ..state import BoardState
from . import events as aev
from .turns import orders_of, require_turn

RAIDABLE = ("support", "raid", "consolidate_power", "iron_bank")
"""BG-RAID-01; MOD-SEA-03: the Iron Bank sea order can be raided too (no Power moves, BG-RAID-03 is
for Consolidate Power only)."""


def raid_targets(state: BoardState, house: str, area: str) -> list[str]:
    """BG-RAID-01/02: areas whose enemy order the Raid in ``area`` may remove.

    A regular Raid removes an adjacent enemy Support, Raid or Consolidate Power order; a Special Raid
    may also remove a Defense order; no Raid removes a March. Adjacency follows BG-RAID-02 (land to
    land; a sea to seas, lands and its ports; a port only its own sea), never ship transport."""
    special = is_special(state.orders[area].order)
    out = []
    for t in raid_reach(state, area):
        o = state.orders.get(t)
        if o is None or o.house == house:
            continue
        typ = order_type(o.order)
        if typ in RAIDABLE or (special and typ == "defense"):
            out.append(t)
    return out


def resolve_raid(em: Emitter, house: str, area: str, target: str | None, by_default: bool = False) -> None:
    """Resolve one Raid (BG-ACT-02/03): remove the target order (BG-RAID-01); raiding a Consolidate
    Power order moves 1 Power: the raider takes one from the Pool, the raided house returns one of
    its available tokens (BG-RAID-03); then the Raid itself is removed, with or without a target
    (BG-RAID-04). A Raid removed earlier by another raid is gone and cannot be chosen (BG-RAID-05)."""
    s = em.state
    require_turn(s, house, "resolve_raid")
    if area not in orders_of(s, house, "raid"):
        raise RuleViolation(
            f"{house} has no unresolved Raid order in '{area}'", rule="BG-RAID-05", code="no_such_order"
        )
    if target is not None and target not in raid_targets(s, house, area):
        raise RuleViolation(
            f"the Raid in '{area}' cannot remove the order in '{target}'", rule="BG-RAID-01", code="illegal_target"
        )
    raided = s.orders[target] if target else None
    em.emit(
        aev.RaidResolved(
            house=house,
            area=area,
            target_area=target,
            target_order=raided.order if raided else None,
            by_default=by_default,
        )
    )
    if target is not None and raided is not None:
        em.emit(aev.OrderRemoved(area=target, house=raided.house, order=raided.order, reason="BG-RAID-01"))
        if order_type(raided.order) == "consolidate_power":
            power.gain(em, house, 1, "BG-RAID-03")
            power.lose(em, raided.house, 1, "BG-RAID-03")
    em.emit(aev.OrderRemoved(area=area, house=house, order=s.orders[area].order, reason="BG-RAID-04"))
