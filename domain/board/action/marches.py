"""March orders and movement (BG-MARCH-01..13, BG-SUPPLY-06, BG-MAP-07)."""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import board_data
from .. import mod_events as mev
from ..adjacency import kind, land_destinations, ship_destinations
from ..control import controller
from ..emitter import Emitter
from ..ports import port_room
from ..state import BoardState
from ..strength import potential_neutral_strength, standing
from ..supply import supply_ok
from . import events as aev
from .combat import begin_combat
from .sweeps import after_moves, remove_enemy_power_token
from .targets import destination_kind
from .turns import orders_of, require_turn


def movable_units(state: BoardState, house: str, area: str) -> dict[str, int]:
    """BG-COMBAT-23: only units that are not routed may march."""
    if state.areas[area].house != house:
        return {}
    return standing(state, area)


def family_ban(state: BoardState, house: str, dest: str) -> bool:
    """MOD-VASSAL-11/27: no March enters an area controlled by another house of its "vassal family"
    (a commander and the vassals it commands this round), and a vassal never marches into a port."""
    if house in state.vassals and kind(dest) == "port":
        return True
    holder = controller(state, dest)
    return holder is not None and holder != house and state.family(holder) == state.family(house)


def destinations(state: BoardState, house: str, area: str) -> dict[str, list[str]]:
    """Where the units of a March in ``area`` may go: ``land`` units and ``ship`` units (never into
    the vassal family's areas, MOD-VASSAL-11/27)."""
    k = kind(area)
    if k == "land":
        out = {"land": land_destinations(state, house, area), "ship": []}
    else:
        out = {"land": [], "ship": ship_destinations(state, house, area)}
    return {u: [d for d in ds if not family_ban(state, house, d)] for u, ds in out.items()}


def may_leave_power_token(state: BoardState, house: str, area: str) -> bool:
    """BG-MARCH-06: a land area (not the house's home area, where it is not needed) that the house
    could leave empty, with an available token and no token there yet."""
    facts = board_data.areas_for(state.settings.expansion)[area]
    return (
        facts.kind == "land"
        and facts.home_of != house
        and state.houses[house].power > 0
        and state.areas[area].power_token is None
    )


def vassal_keeps_control(state: BoardState, house: str, area: str, moves: dict[str, dict[str, int]]) -> bool:
    """MOD-VASSAL-26: when a vassal's March empties a land area (every unit marches out, into a
    fight too), the vassal always puts a Power token there (from no stock of its own) to keep
    control; its home area needs none. ``state`` is the board before the March."""
    a = state.areas[area]
    facts = board_data.areas_for(state.settings.expansion)[area]
    sent = sum(n for units in moves.values() for n in units.values())
    return (
        house in state.vassals
        and facts.kind == "land"
        and facts.home_of != house
        and sent > 0
        and sent == sum(a.units.values())
        and a.power_token is None
    )


def closed_port(state: BoardState, area: str, dest: str) -> None:
    """BG-MAP-07: a port next to ``area`` (its own sea) that the Ships may not enter because their
    house does not control the port's land area. Refused with the port rule, not BG-MARCH-03's
    ``not_adjacent``: the port is adjacent, only its castle belongs to someone else."""
    port_of = board_data.areas_for(state.settings.expansion)[dest].port_of
    if port_of is None or port_of.sea != area:
        return
    holder = controller(state, port_of.land)
    raise RuleViolation(
        f"Ships may enter '{dest}' only while your house controls '{port_of.land}'; "
        f"it is controlled by {holder or 'nobody'}",
        rule="BG-MAP-07",
        code="port_not_controlled",
    )


def validate_march(
    state: BoardState, house: str, area: str, moves: dict[str, dict[str, int]], leave_token: bool
) -> str | None:
    """Check one March declaration; return the destination that starts a fight, if any.

    BG-MARCH-01 units may split among destinations; BG-COMBAT-23 routed units stay;
    BG-MARCH-03/09/11 land units go to land (adjacent or by transport), Ships to seas or friendly ports;
    BG-MARCH-04 at most one destination starts a fight; BG-MARCH-12 a neutral force needs enough
    strength; BG-MAP-07 a port holds 3 Ships and never a fight; BG-SUPPLY-06 all moves together
    (the attack counted in the attacked area) must fit the supply limit; BG-MARCH-06 a Power token is
    left only when every unit leaves."""
    movable = movable_units(state, house, area)
    sent: dict[str, int] = {}
    dests = destinations(state, house, area)
    fights = []
    for dest, units in moves.items():
        units = {u: n for u, n in units.items() if n}
        if not units:
            continue
        if dest == area:
            raise RuleViolation("units cannot march to the area they are in", rule="BG-MARCH-01")
        if state.areas[dest].blocked:
            raise RuleViolation(f"'{dest}' is impassable in this game", rule="BG-SETUP-06")
        for u, n in units.items():
            sent[u] = sent.get(u, 0) + n
            allowed = dests["ship"] if u == "ship" else dests["land"]
            if dest not in allowed:
                if u == "ship":
                    closed_port(state, area, dest)
                raise RuleViolation(
                    f"a {u} in '{area}' cannot march to '{dest}'", rule="BG-MARCH-03", code="not_adjacent"
                )
        dk = destination_kind(state, house, dest)
        if kind(dest) == "port":
            if dk != "move":
                raise RuleViolation("combat never takes place in a port", rule="BG-MAP-07")
            if units.get("ship", 0) > port_room(state, house, dest):
                raise RuleViolation("a port holds at most 3 Ships", rule="BG-MAP-07", code="port_full")
        if dk != "move":
            fights.append(dest)
            if dk == "neutral":
                need = state.areas[dest].neutral
                have = potential_neutral_strength(state, house, area, dest, units, state.orders[area].order)
                if have < need:
                    raise RuleViolation(
                        f"the neutral force in '{dest}' has strength {need}; this march can reach at most {have}",
                        rule="BG-MARCH-12",
                        code="neutral_force_too_strong",
                    )
    for u, n in sent.items():
        if n > movable.get(u, 0):
            raise RuleViolation(
                f"only {movable.get(u, 0)} standing {u}(s) in '{area}' can march",
                rule="BG-COMBAT-23",
                code="not_enough_units",
            )
    if len(fights) > 1:
        raise RuleViolation(
            "at most one destination of a March may start a fight", rule="BG-MARCH-04", code="two_combats"
        )
    delta = {area: -sum(sent.values())}
    for dest, units in moves.items():
        delta[dest] = delta.get(dest, 0) + sum(units.values())
    if sent and not supply_ok(state, house, delta):
        raise RuleViolation("this march would break your supply limit", rule="BG-SUPPLY-06", code="supply")
    if leave_token:
        left = sum(state.areas[area].units.values()) - sum(sent.values())
        if left > 0 or not may_leave_power_token(state, house, area):
            raise RuleViolation(
                "a Power token may be left only in a land area (not your home) that all your units leave, "
                "with an available token",
                rule="BG-MARCH-06",
            )
    return fights[0] if fights else None


def resolve_march(
    em: Emitter, house: str, area: str, moves: dict[str, dict[str, int]], leave_token: bool, by_default: bool = False
) -> None:
    """Resolve one March (BG-ACT-02/03): non-combat moves happen at once (BG-MARCH-08), entering an
    area with only an enemy Power token sends it to the Pool (BG-MARCH-05), a Power token may be left
    behind (BG-MARCH-06), ports follow control (BG-MAP-07); then the one fight, if any, starts
    (BG-COMBAT-*, or a neutral force, BG-MARCH-12). A March that moves nothing is removed
    (BG-MARCH-02)."""
    s = em.state
    require_turn(s, house, "resolve_march")
    if area not in orders_of(s, house, "march"):
        raise RuleViolation(f"{house} has no March order in '{area}'", code="no_such_order")
    moves = {d: {u: n for u, n in us.items() if n} for d, us in sorted(moves.items())}
    moves = {d: us for d, us in moves.items() if us}
    if house in s.vassals:
        leave_token = False  # MOD-VASSAL-26: a vassal spends no Power; its token is placed below
    fight = validate_march(s, house, area, moves, leave_token)
    order = s.orders[area].order
    keeps_control = vassal_keeps_control(s, house, area, moves)
    em.emit(
        aev.MarchDeclared(house=house, area=area, moves=moves, leave_power_token=leave_token, by_default=by_default)
    )
    for dest, units in moves.items():
        if dest == fight:
            continue
        em.emit(aev.UnitsMoved(house=house, from_area=area, to_area=dest, units=units, reason="BG-MARCH-01"))
        remove_enemy_power_token(em, house, dest, "BG-MARCH-05")
    if leave_token:
        em.emit(aev.PowerTokenPlaced(house=house, area=area))
    if keeps_control:
        em.emit(mev.VassalPowerTokenPlaced(house=house, area=area))
    if fight is None:
        em.emit(aev.OrderRemoved(area=area, house=house, order=order, reason="BG-MARCH-08"))
        after_moves(em)
        return
    after_moves(em)
    begin_combat(em, house, area, fight, moves[fight], order)
