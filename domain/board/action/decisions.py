"""The Action phase's pending decisions, each with its legal options (``GET .../decisions``).

:func:`pending_action_decisions` returns ``(house, command types, options)`` triples; the board's
:mod:`domain.board.decisions` wraps them with the seat, the deadline and the documented default
(:mod:`.timeouts`).
"""

from __future__ import annotations

import msgspec

from ..adjacency import kind
from ..mustering import NEW_COST, UPGRADE_COST, muster_points, ship_areas, units_left, upgradable_footmen
from ..ports import max_port_replacement, port_room
from ..state import BoardState
from ..strength import initial_strength, neutral_march_terms
from ..supply import SupplyLimit, supply_limit
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


class NeutralForceOptions(msgspec.Struct):
    """A march on a neutral force (BG-MARCH-12) is accepted only if it can reach the force's
    strength: ``max(0, base + sum(count * unit_strength[unit]))`` over the units sent there must be at
    least ``strength``."""

    strength: int
    """The neutral force token's strength."""
    base: int
    """The March order's modifier plus every adjacent Support order that may back the march."""
    unit_strength: dict[str, int]
    """What each marching unit of a type adds there (a Siege Engine 4 against a castle, else 0)."""


class MarchOrderOptions(msgspec.Struct):
    """One March order: every constraint on its ``moves`` (with :class:`MarchOptions`' ``supply``)."""

    units: dict[str, int]
    """Standing units that may march (routed ones may not, BG-COMBAT-23): send at most these."""
    land_destinations: list[str]
    """Where Footmen, Knights and Siege Engines may go (BG-MARCH-03/09/11)."""
    ship_destinations: list[str]
    """Where Ships may go (BG-MARCH-03, BG-MAP-07)."""
    fights: dict[str, str]
    """Destination -> ``combat`` or ``neutral``: units may go to at most one of these per March
    (BG-MARCH-04); the other destinations are plain moves."""
    neutral_strength: dict[str, int]
    """Destination -> the neutral force's strength (the same as ``neutral_forces[d].strength``)."""
    may_leave_power_token: bool
    """True: ``leave_power_token`` may be sent if every unit of ``units`` leaves (BG-MARCH-06)."""
    neutral_forces: dict[str, NeutralForceOptions]
    """Destination -> what a march there must reach (BG-MARCH-12)."""
    port_room: dict[str, int]
    """Port destination -> how many Ships it can still take (3 at most in a port, BG-MAP-07)."""


class MarchOptions(msgspec.Struct, tag_field="kind", tag="resolve_march"):
    """Send ``resolve_march`` with one of these areas and ``moves`` {destination: {unit: count}}.
    Every constraint is stated: per order, the units, destinations, the one fight, neutral forces
    and port room; for the whole declaration, ``supply`` (BG-SUPPLY-06: the marching units count
    where they arrive, attackers in the attacked area)."""

    orders: dict[str, MarchOrderOptions]
    supply: SupplyLimit


class ConsolidateOrderOptions(msgspec.Struct):
    power: int
    """Power a regular resolution gives (BG-CP-01/02)."""
    may_muster: bool
    muster_points: int
    """Mustering points to spend here (BG-MUSTER-01): the ``muster`` list's costs add up to at most this."""
    ship_areas: list[str]
    """Where a new Ship may go (BG-MUSTER-04)."""
    footmen: int
    """Footmen standing here that may be upgraded: at most this many upgrades (BG-MUSTER-02)."""
    port_room: dict[str, int]
    """Port among ``ship_areas`` -> how many new Ships it can still take (BG-MAP-07)."""


class ConsolidateOptions(msgspec.Struct, tag_field="kind", tag="resolve_consolidate_power"):
    """Send ``resolve_consolidate_power`` with an area, and ``muster`` to muster instead (BG-CP-03).
    A mustering must also respect ``units_left`` and ``supply`` (BG-MUSTER-05)."""

    orders: dict[str, ConsolidateOrderOptions]
    costs: dict[str, int]
    upgrade_costs: dict[str, int]
    units_left: dict[str, int]
    """Units of each type you can still place (BG-COMP-03): new units plus upgrades to a type at most
    this many; a Footman an upgrade returns may be mustered again."""
    supply: SupplyLimit
    """New units count in the area they are placed in (a Ship in its sea or port)."""


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
        units = movable_units(state, house, area)
        order = state.orders[area].order
        forces = {}
        for d, strength in neutral.items():
            base, per_unit = neutral_march_terms(state, house, area, d, order)
            forces[d] = NeutralForceOptions(
                strength=strength, base=base, unit_strength={u: per_unit[u] for u in sorted(units)}
            )
        out[area] = MarchOrderOptions(
            units=units,
            land_destinations=dests["land"],
            ship_destinations=dests["ship"],
            fights=fights,
            neutral_strength=neutral,
            # BG-MARCH-06 needs every unit gone: routed units (not in ``units``) cannot leave.
            may_leave_power_token=may_leave_power_token(state, house, area)
            and sum(units.values()) == sum(state.areas[area].units.values()),
            neutral_forces=forces,
            port_room={d: port_room(state, house, d) for d in dests["ship"] if kind(d) == "port"},
        )
    return MarchOptions(orders=out, supply=supply_limit(state, house))


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
        orders = {}
        for a in orders_of(state, house, "consolidate_power"):
            musters = cp.can_muster(state, a)
            ships = ship_areas(state, house, a) if musters else []
            orders[a] = ConsolidateOrderOptions(
                power=cp.income(state, house, a),
                may_muster=musters,
                muster_points=muster_points(a, state.settings.expansion) if musters else 0,
                ship_areas=ships,
                footmen=upgradable_footmen(state, house, a) if musters else 0,
                port_room={d: port_room(state, house, d) for d in ships if kind(d) == "port"},
            )
        return [
            (
                house,
                ["resolve_consolidate_power"],
                ConsolidateOptions(
                    orders=orders,
                    costs=dict(NEW_COST),
                    upgrade_costs=dict(UPGRADE_COST),
                    units_left=units_left(state, house),
                    supply=supply_limit(state, house),
                ),
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
