"""The Action phase's pending decisions, each with its legal options (``GET .../decisions``).

:func:`pending_action_decisions` returns ``(house, command types, options)`` triples; the board's
:mod:`domain.board.decisions` wraps them with the seat, the deadline and the documented default
(:mod:`.timeouts`).
"""

from __future__ import annotations

import msgspec

from ..mustering import NEW_COST, UPGRADE_COST, muster_points, ship_areas
from ..ports import max_port_replacement
from ..state import BoardState
from ..strength import initial_strength
from . import combat as cb
from . import consolidate as cp
from . import house_cards as hc
from . import tides
from .marches import destinations, may_leave_power_token, movable_units
from .raids import raid_targets
from .state import ActionState
from .targets import destination_kind
from .turns import orders_of


class RaidOptions(msgspec.Struct, tag_field="kind", tag="resolve_raid"):
    """Send ``resolve_raid`` with one of your raid ``area``s and a listed ``target`` (or null)."""

    targets: dict[str, list[str]]
    """Raid area -> areas whose enemy order it may remove."""


class MarchOrderOptions(msgspec.Struct):
    units: dict[str, int]
    """Standing units that may march (routed ones may not, BG-COMBAT-23)."""
    land_destinations: list[str]
    ship_destinations: list[str]
    fights: dict[str, str]
    """Destination -> ``combat`` or ``neutral``: at most one per March (BG-MARCH-04)."""
    neutral_strength: dict[str, int]
    may_leave_power_token: bool


class MarchOptions(msgspec.Struct, tag_field="kind", tag="resolve_march"):
    """Send ``resolve_march`` with one of these areas and ``moves`` {destination: {unit: count}}.
    Supply (BG-SUPPLY-06) is checked on the whole declaration."""

    orders: dict[str, MarchOrderOptions]


class ConsolidateOrderOptions(msgspec.Struct):
    power: int
    """Power a regular resolution gives (BG-CP-01/02)."""
    may_muster: bool
    muster_points: int
    ship_areas: list[str]


class ConsolidateOptions(msgspec.Struct, tag_field="kind", tag="resolve_consolidate_power"):
    """Send ``resolve_consolidate_power`` with an area, and ``muster`` to muster instead (BG-CP-03)."""

    orders: dict[str, ConsolidateOrderOptions]
    costs: dict[str, int]
    upgrade_costs: dict[str, int]


class SupportOptions(msgspec.Struct, tag_field="kind", tag="declare_support"):
    """Send ``declare_support`` with one of ``sides``."""

    area: str
    attacker: str
    defender: str | None
    sides: list[str]
    strength: dict[str, int]


class HouseCardOptions(msgspec.Struct, tag_field="kind", tag="choose_house_card"):
    """Send ``choose_house_card`` with one of ``cards`` (sealed until both have chosen)."""

    area: str
    opponent: str | None
    cards: list[str]
    strength: dict[str, int]


class AbilityOptions(msgspec.Struct, tag_field="kind", tag="house_card_ability"):
    """Send ``choose_ability`` with one of ``choices`` (or null when ``may_skip``)."""

    card: str
    choices: list[str]
    may_skip: bool


class BladeOptions(msgspec.Struct, tag_field="kind", tag="use_blade"):
    """Send ``use_blade`` true or false. With ``tides_redraw`` (Tides of Battle, BG-TIDES-03 step
    4.1, before the Tides cards are revealed), true spends the Blade to discard your Tides card
    ``tides_card`` and draw another instead of the +1; false keeps it, and the +1 is offered after the
    reveal."""

    strength: dict[str, int]
    choices: list[bool]
    tides_redraw: bool = False
    tides_card: str | None = None
    """Your Tides of Battle card in this combat, when the variant is on."""


class CasualtyOptions(msgspec.Struct, tag_field="kind", tag="choose_casualties"):
    """Send ``choose_casualties`` with exactly ``count`` units from ``units``."""

    count: int
    units: dict[str, int]


class RetreatOptions(msgspec.Struct, tag_field="kind", tag="choose_retreat"):
    """Send ``choose_retreat`` with one of ``areas``."""

    retreating_house: str
    areas: list[str]


class RetreatLossesOptions(msgspec.Struct, tag_field="kind", tag="choose_retreat_losses"):
    """Send ``choose_retreat_losses`` with exactly ``count`` units taken from ``units`` (any mix: supply
    counts units, not their type); they are destroyed and the others retreat into ``area``
    (BG-COMBAT-20)."""

    area: str
    """The retreat area (already decided)."""
    count: int
    """How many of the retreating units must be destroyed: exactly this many."""
    units: dict[str, int]
    """The retreating units (type -> count): the losses are taken from these only."""


class PortShipsOptions(msgspec.Struct, tag_field="kind", tag="replace_port_ships"):
    """Send ``replace_port_ships`` with a ``count`` from 0 to ``max``."""

    port: str
    max: int


ActionDecisionOptions = (
    RaidOptions
    | MarchOptions
    | ConsolidateOptions
    | SupportOptions
    | HouseCardOptions
    | AbilityOptions
    | BladeOptions
    | CasualtyOptions
    | RetreatOptions
    | RetreatLossesOptions
    | PortShipsOptions
)


def march_options(state: BoardState, house: str) -> MarchOptions:
    out = {}
    for area in orders_of(state, house, "march"):
        dests = destinations(state, house, area)
        fights, neutral = {}, {}
        for d in dests["land"] + dests["ship"]:
            k = destination_kind(state, house, d)
            if k != "move":
                fights[d] = k
            if k == "neutral":
                neutral[d] = state.areas[d].neutral
        out[area] = MarchOrderOptions(
            units=movable_units(state, house, area),
            land_destinations=dests["land"],
            ship_destinations=dests["ship"],
            fights=fights,
            neutral_strength=neutral,
            may_leave_power_token=may_leave_power_token(state, house, area),
        )
    return MarchOptions(orders=out)


def _turn_house(act: ActionState) -> str:
    """The house resolving an order (BG-ACT-02): ``OrderTurnBegan`` names it before an order step opens."""
    if act.current_house is None:
        raise AssertionError(f"no house's turn is set at an order step ({act.order_type})")
    return act.current_house


def pending_action_decisions(state: BoardState) -> list[tuple[str, list[str], ActionDecisionOptions]]:
    """Every Action-phase decision the game waits on now."""
    act = state.action
    if state.phase != "action" or act is None:
        return []
    step = state.step
    c = act.combat
    if step == "resolve_raid":
        house = _turn_house(act)
        raids = RaidOptions(targets={a: raid_targets(state, house, a) for a in orders_of(state, house, "raid")})
        return [(house, ["resolve_raid"], raids)]
    if step == "resolve_march":
        house = _turn_house(act)
        return [(house, ["resolve_march"], march_options(state, house))]
    if step == "resolve_consolidate_power":
        house = _turn_house(act)
        orders = {
            a: ConsolidateOrderOptions(
                power=cp.income(state, house, a),
                may_muster=cp.can_muster(state, a),
                muster_points=muster_points(a) if cp.can_muster(state, a) else 0,
                ship_areas=ship_areas(state, house, a) if cp.can_muster(state, a) else [],
            )
            for a in orders_of(state, house, "consolidate_power")
        }
        return [
            (
                house,
                ["resolve_consolidate_power"],
                ConsolidateOptions(orders=orders, costs=dict(NEW_COST), upgrade_costs=dict(UPGRADE_COST)),
            )
        ]
    if step == "replace_port_ships" and act.port_captures:
        cap = act.port_captures[0]
        # BG-MAP-07: the limit as it stands now (an earlier capture answered by the same house may
        # have used Ships or supply), the same one ``replace_port_ships`` checks.
        limit = min(cap.max, max_port_replacement(state, cap.house, cap.port, cap.max))
        return [(cap.house, ["replace_port_ships"], PortShipsOptions(port=cap.port, max=limit))]
    if c is None:
        return []
    if step == "declare_support" and c.support_queue:
        support = SupportOptions(
            area=c.area,
            attacker=c.attacker,
            defender=c.defender,
            sides=cb.support_options(c),
            strength=initial_strength(state, c),
        )
        return [(c.support_queue[0], ["declare_support"], support)]
    if step == "choose_house_card":
        out: list[tuple[str, list[str], ActionDecisionOptions]] = []
        for h in hc.combatants(state, c):
            if h not in c.cards and h not in c.no_card:
                cards = HouseCardOptions(
                    area=c.area,
                    opponent=hc.opponent(c, h),
                    cards=cb.card_options(state, c, h),
                    strength=initial_strength(state, c),
                )
                out.append((h, ["choose_house_card"], cards))
        return out
    if step == "house_card_ability" and c.ability is not None:
        p = c.ability
        return [
            (p.house, ["choose_ability"], AbilityOptions(card=p.card, choices=list(p.choices), may_skip=p.may_skip))
        ]
    if step == "use_blade":
        holder = cb.blade_holder(state)
        assert holder is not None, "use_blade opens only for a Blade holder in the combat (BG-COMBAT-11)"
        return [
            (
                holder,
                ["use_blade"],
                BladeOptions(
                    strength=cb.final_strength(state, c),
                    choices=[True, False],
                    tides_redraw=tides.redraw_pending(state, c),
                    tides_card=tides.own_card(c, holder),
                ),
            )
        ]
    skull = tides.skull_choice(c)
    if step == "choose_casualties" and skull is not None:  # BG-TIDES-04
        house, count = skull
        _, units, _ = tides.army(state, c, house)
        return [(house, ["choose_casualties"], CasualtyOptions(count=count, units=units))]
    if step == "choose_casualties":
        _, loser = hc.outcome(c)
        _, units, _ = cb.loser_army(state, c)
        units = {u: n for u, n in units.items() if n}
        return [
            (loser, ["choose_casualties"], CasualtyOptions(count=min(c.casualties, sum(units.values())), units=units))
        ]
    if step == "choose_retreat_losses" and c.retreat_losses is not None:
        r = c.retreat_losses
        return [
            (r.house, ["choose_retreat_losses"], RetreatLossesOptions(area=r.area, count=r.count, units=dict(r.units)))
        ]
    if step == "choose_retreat" and c.retreat_chooser:
        return [
            (
                c.retreat_chooser,
                ["choose_retreat"],
                RetreatOptions(retreating_house=hc.outcome(c)[1], areas=list(c.retreat_options)),
            )
        ]
    return []
