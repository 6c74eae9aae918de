"""Scenario fixtures: a game that starts from a described position.

An organizer (or a test, or an integrator reproducing a bug report) describes units per area,
orders on the board, Power tokens, tracks, Dominance tokens' used sides, House cards in hand and
discarded, the round and the wildling threat; the game is created with ``GameCreated`` followed by
``ScenarioLoaded``, and starts either in the Planning phase or, with orders on the board, at the
start of the Action phase. The position is validated like any other input
(:func:`validate_scenario`): every fact must be one the rules could produce.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal

import msgspec

from ..core.errors import RuleViolation
from . import board_data
from .action.commands import UnitCounts
from .orders import ORDER_TOKENS, is_special, owned_tokens
from .state import BoardState, PlacedOrder, Tracks
from .supply import supply_value
from .tracks import tracks_of

HouseId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class AreaSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One area of the position. Areas not listed are empty (no units, token, garrison or neutral force)."""

    house: HouseId | None = None
    """Owner of the units (required when there are units)."""
    units: UnitCounts = UnitCounts()
    power_token: HouseId | None = None
    garrison: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    neutral: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    order: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """A face-up order of ``house`` (only with ``start_at: action``). Units may stand without an
    order there: it was resolved or removed earlier in the phase."""
    routed: UnitCounts = UnitCounts()
    """How many of ``units`` are routed (BG-COMBAT-22; only with ``start_at: action``)."""


class HouseSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    power: Annotated[int, msgspec.Meta(ge=0, le=20)] | None = None
    """Available Power (defaults to the setup's 5)."""
    supply: Annotated[int, msgspec.Meta(ge=0, le=6)] | None = None
    """Supply track position (defaults to the barrels controlled)."""
    hand: Annotated[list[str], msgspec.Meta(max_length=7)] | None = None
    discards: Annotated[list[str], msgspec.Meta(max_length=7)] | None = None


class TracksSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    iron_throne: Annotated[list[str], msgspec.Meta(max_length=6)]
    fiefdoms: Annotated[list[str], msgspec.Meta(max_length=6)]
    kings_court: Annotated[list[str], msgspec.Meta(max_length=6)]


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A described position (see the module docstring)."""

    areas: Annotated[dict[str, AreaSetup], msgspec.Meta(max_length=80)]
    houses: Annotated[dict[str, HouseSetup], msgspec.Meta(max_length=6)] = {}
    tracks: TracksSetup | None = None
    """Influence tracks, position 1 first; position 1 holds each Dominance token (BG-SETUP-09)."""
    raven_used: bool = False
    blade_used: bool = False
    round: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    wildling_threat: Annotated[int, msgspec.Meta(ge=0, le=12, multiple_of=2)] = 2
    start_at: Literal["planning", "action"] = "planning"
    """``planning``: orders are assigned next; ``action``: the Action phase starts from the orders
    on the board (raids first, then marches, then Consolidate Power, BG-ACT-01)."""


def _fail(detail: str, rule: str | None = None) -> RuleViolation:
    return RuleViolation(detail, rule=rule, code="invalid_scenario")


def validate_scenario(state: BoardState, sc: Scenario) -> None:
    """Refuse a position the rules could never produce. ``state`` is the freshly created game."""
    facts = board_data.areas()
    houses = set(state.houses_in_play)
    cards = {h: [c.id for c in cs] for h, cs in board_data.cards().house_cards.items()}
    units_on_board: dict[str, Counter[str]] = {h: Counter() for h in houses}
    tokens_on_board: Counter[str] = Counter()
    orders_by_house: dict[str, list[str]] = {h: [] for h in houses}
    for area_id, a in sc.areas.items():
        if area_id not in facts:
            raise _fail(f"'{area_id}' is not an area of the board", "BG-MAP-01")
        area = facts[area_id]
        if state.areas[area_id].blocked and (a.units.as_dict() or a.power_token or a.neutral):
            raise _fail(f"'{area_id}' is impassable with {state.player_count} players", "BG-SETUP-06")
        units = a.units.as_dict()
        for who in (a.house, a.power_token):
            if who is not None and who not in houses:
                raise _fail(f"'{who}' is not a house in this game", "BG-SETUP-01")
        if units:
            if a.house is None:
                raise _fail(f"units in '{area_id}' need a house", "BG-COMP-05")
            land_units = {u for u in units if u != "ship"}
            if area.kind == "land" and "ship" in units:
                raise _fail(f"ships cannot stand in the land area '{area_id}'", "BG-COMP-05")
            if area.kind != "land" and land_units:
                raise _fail(f"land units cannot stand in '{area_id}'", "BG-COMP-05")
            if area.kind == "port" and units.get("ship", 0) > 3:
                raise _fail(f"at most 3 ships fit in '{area_id}'", "BG-MAP-07")
            units_on_board[a.house].update(units)
        if a.power_token is not None:
            if area.kind != "land":
                raise _fail(f"Power tokens are never placed in '{area_id}'", "BG-MAP-04")
            if units and a.house != a.power_token:
                raise _fail(f"'{area_id}' holds {a.house}'s units and {a.power_token}'s Power token", "BG-MAP-03")
            tokens_on_board[a.power_token] += 1
        routed = a.routed.as_dict()
        if routed:
            if sc.start_at != "action":
                raise _fail(f"routed units in '{area_id}' need start_at: action", "BG-COMBAT-22")
            if any(n > units.get(u, 0) for u, n in routed.items()):
                raise _fail(f"'{area_id}' has more routed units than units", "BG-COMBAT-22")
        if a.neutral and units:
            raise _fail(f"'{area_id}' cannot hold units and a neutral force", "BG-MAP-08")
        if a.order is not None:
            if sc.start_at != "action":
                raise _fail("orders on the board need start_at: action", "BG-PLAN-06")
            if a.order not in ORDER_TOKENS:
                raise _fail(f"'{a.order}' is not an order token", "BG-ORDER-01")
            if not units:
                raise _fail(f"an order in '{area_id}' needs units there", "BG-PLAN-02")
            assert a.house is not None, "units need a house (checked above)"
            orders_by_house[a.house].append(a.order)
    for area_id, a in sc.areas.items():  # ports belong to whoever controls their land area
        port = facts[area_id].port_of
        if port is not None and a.units.as_dict():
            land = sc.areas.get(port.land)
            owner = (land.house if land and land.units.as_dict() else None) or (land.power_token if land else None)
            if owner is None and facts[port.land].home_of in houses:
                owner = facts[port.land].home_of
            if owner != a.house:
                raise _fail(f"{a.house}'s ships in '{area_id}' need {a.house} to control '{port.land}'", "BG-MAP-07")
    for h, counts in units_on_board.items():
        limits = board_data.setup().houses[h].unit_limits
        for u, n in counts.items():
            if n > limits[u]:
                raise _fail(f"{h} has {n} {u}s but only {limits[u]} exist", "BG-COMP-03")
    if sc.tracks is not None:
        for name in ("iron_throne", "fiefdoms", "kings_court"):
            if sorted(getattr(sc.tracks, name)) != sorted(houses):
                raise _fail(f"the {name} track must list each house in play once", "BG-COK-04")
    for h, hs in sc.houses.items():
        if h not in houses:
            raise _fail(f"'{h}' is not a house in this game", "BG-SETUP-01")
        power = hs.power if hs.power is not None else state.houses[h].power
        if power + tokens_on_board[h] > board_data.setup().power_tokens_per_house:
            raise _fail(f"{h} would have more than 20 Power tokens", "BG-POWER-01")
        hand, discards = hs.hand, hs.discards
        for pile in (hand or [], discards or []):
            for c in pile:
                if c not in cards[h]:
                    raise _fail(f"'{c}' is not one of {h}'s House cards", "BG-SETUP-14")
        if len(set(hand or []) | set(discards or [])) != len(hand or []) + len(discards or []):
            raise _fail(f"{h}'s House cards are listed twice", "BG-SETUP-14")
    stars = state.kings_court_stars
    court = list(sc.tracks.kings_court) if sc.tracks else list(tracks_of(state).kings_court)
    for h, placed in orders_by_house.items():
        used = Counter(placed)
        for token, n in used.items():
            if n > owned_tokens()[token]:
                raise _fail(f"{h} owns {owned_tokens()[token]} '{token}' token(s), not {n}", "BG-ORDER-01")
        specials = sum(n for t, n in used.items() if is_special(t))
        if specials > stars[court.index(h)]:
            raise _fail(f"{h} may have at most {stars[court.index(h)]} special orders", "BG-PLAN-04")


def apply_scenario(state: BoardState, sc: Scenario) -> None:
    """Lay the described position over a freshly set-up board (used by ``evolve``)."""
    for area in state.areas.values():
        area.house, area.units, area.power_token, area.garrison, area.neutral = None, {}, None, 0, 0
    state.orders = {}
    state.scenario_routed = {a: r for a, s in sc.areas.items() if (r := s.routed.as_dict())}
    for area_id, a in sc.areas.items():
        target = state.areas[area_id]
        units = a.units.as_dict()
        target.house = a.house if units else None
        target.units = units
        target.power_token = a.power_token
        target.garrison = a.garrison
        target.neutral = a.neutral
        if a.order is not None:
            assert a.house is not None, "an order stands with its house's units (validate_scenario)"
            state.orders[area_id] = PlacedOrder(house=a.house, order=a.order)
    if sc.tracks is not None:
        state.tracks = Tracks(
            iron_throne=list(sc.tracks.iron_throne),
            fiefdoms=list(sc.tracks.fiefdoms),
            kings_court=list(sc.tracks.kings_court),
        )
    for h in state.houses_in_play:
        hs = sc.houses.get(h, HouseSetup())
        house = state.houses[h]
        if hs.power is not None:
            house.power = hs.power
        house.supply = hs.supply if hs.supply is not None else supply_value(state, h)
        if hs.hand is not None:
            house.hand = list(hs.hand)
        if hs.discards is not None:
            house.discards = list(hs.discards)
    state.raven_used = sc.raven_used
    state.blade_used = sc.blade_used
    state.round = sc.round
    state.wildling_threat = sc.wildling_threat
