"""The Westeros phase's pending decisions, each with its legal options (``GET .../decisions``).

:func:`pending_westeros_decisions` returns ``(house, command types, options)`` triples; the board's
:mod:`domain.board.decisions` adds the seat, the deadline and the documented default (:mod:`.timeouts`).
"""

from __future__ import annotations

import msgspec

from ..adjacency import kind
from ..mustering import (
    NEW_COST,
    UPGRADE_COST,
    muster_areas,
    muster_points,
    ship_areas,
    units_left,
    upgradable_footmen,
)
from ..ports import port_room
from ..state import BoardState
from ..supply import SupplyLimit, allowed_armies, armies, minimal_losses, supply_limit
from .evolve import open_bidding


class BidOptions(msgspec.Struct, tag_field="kind", tag="bid"):
    """Send ``bid`` with an ``amount`` from 0 to ``max`` (sealed until every house has bid)."""

    bidding: str
    """``clash_of_kings`` or ``wildlings``."""
    track: str | None
    """The influence track bid for (Clash of Kings)."""
    wildling_strength: int | None
    max: int


class ChoiceOptions(msgspec.Struct, tag_field="kind", tag="westeros_choice"):
    """Send ``westeros_choice`` with one of ``options`` (or null when ``may_skip``)."""

    about: str
    """What is chosen: a card id (``a_throne_of_blades``...), ``bid_tie``, ``wildling_tie``,
    ``port_ships``..."""
    options: list[str]
    may_skip: bool
    default: str | None
    """What the deadline picks (null: skipped)."""
    context: str | None


class SelectUnitsOptions(msgspec.Struct, tag_field="kind", tag="select_units"):
    """Send ``select_units`` with ``min``..``max`` units taken from ``units`` (area -> counts)."""

    about: str
    min: int
    max: int
    units: dict[str, dict[str, int]]
    same_area: bool
    reason: str


class ReconcileOptions(msgspec.Struct, tag_field="kind", tag="reconcile_armies"):
    """Send ``reconcile_armies`` with units from your ``armies`` so that they fit ``allowed``
    (largest first), destroying no unit more than needed (``fewest`` is the least possible)."""

    supply: int
    allowed: list[int]
    armies: dict[str, dict[str, int]]
    fewest: int


class MusterAreaOptions(msgspec.Struct):
    points: int
    """Mustering points to spend here (BG-MUSTER-01): this area's purchases cost at most this."""
    ship_areas: list[str]
    """Where a Ship mustered here may go (BG-MUSTER-04)."""
    footmen: int
    """Footmen standing here that may be upgraded: at most this many upgrades here (BG-MUSTER-02)."""
    port_room: dict[str, int]
    """Port among ``ship_areas`` -> how many new Ships it can still take (BG-MAP-07)."""


class MusterOptions(msgspec.Struct, tag_field="kind", tag="muster"):
    """Send ``muster`` with ``recruits`` {area: [Recruit]} for any of these areas (empty: nothing).
    The purchases of all areas together must also respect ``units_left`` and ``supply``
    (BG-MUSTER-05)."""

    areas: dict[str, MusterAreaOptions]
    costs: dict[str, int]
    upgrade_costs: dict[str, int]
    max_areas: int
    """0: every listed area; 1: one area only."""
    units_left: dict[str, int]
    """Units of each type you can still place (BG-COMP-03): over all areas, new units plus upgrades
    to a type at most this many (a Footman an upgrade returns may be mustered again in that area)."""
    supply: SupplyLimit
    """New units count in the area they are placed in (a Ship in its sea or port)."""


WesterosDecisionOptions = BidOptions | ChoiceOptions | SelectUnitsOptions | ReconcileOptions | MusterOptions


def pending_westeros_decisions(state: BoardState) -> list[tuple[str, list[str], WesterosDecisionOptions]]:
    w = state.westeros
    if state.phase != "westeros" or w is None:
        return []
    out: list[tuple[str, list[str], WesterosDecisionOptions]] = []
    if w.choice is not None:
        c = w.choice
        out.append(
            (
                c.house,
                ["westeros_choice"],
                ChoiceOptions(
                    about=c.kind, options=list(c.options), may_skip=c.may_skip, default=c.default, context=c.context
                ),
            )
        )
    if w.selection is not None:
        sel = w.selection
        out.append(
            (
                sel.house,
                ["select_units"],
                SelectUnitsOptions(
                    about=sel.kind,
                    min=sel.min,
                    max=sel.max,
                    units={a: dict(u) for a, u in sel.units.items()},
                    same_area=sel.same_area,
                    reason=sel.reason,
                ),
            )
        )
    for house in w.reconcile[:1] if w.reconcile_sequential else w.reconcile:
        supply = state.houses[house].supply
        out.append(
            (
                house,
                ["reconcile_armies"],
                ReconcileOptions(
                    supply=supply,
                    allowed=allowed_armies(supply),
                    armies=armies(state, house),
                    fewest=sum(minimal_losses(state, house).values()),
                ),
            )
        )
    if w.musterers:
        house = w.musterers[0]
        areas = {}
        for a in muster_areas(state, house):
            ships = ship_areas(state, house, a)
            areas[a] = MusterAreaOptions(
                points=muster_points(a, state.settings.expansion),
                ship_areas=ships,
                footmen=upgradable_footmen(state, house, a),
                port_room={d: port_room(state, house, d) for d in ships if kind(d) == "port"},
            )
        out.append(
            (
                house,
                ["muster"],
                MusterOptions(
                    areas=areas,
                    costs=dict(NEW_COST),
                    upgrade_costs=dict(UPGRADE_COST),
                    max_areas=w.muster_max_areas,
                    units_left=units_left(state, house),
                    supply=supply_limit(state, house),
                ),
            )
        )
    b = open_bidding(w)
    if b is not None:
        strength = w.attacks[-1].strength if b.kind == "wildlings" else None
        for house in b.houses:
            if house not in b.sealed:
                out.append(
                    (
                        house,
                        ["bid"],
                        BidOptions(
                            bidding=b.kind, track=b.track, wildling_strength=strength, max=state.houses[house].power
                        ),
                    )
                )
    return out
