"""Typed access to the board game's component facts (``domain/board/data/*.json``).

The JSON files are the project's own data, written by ``scripts/import_board_data.py`` from the
shared board facts. They are loaded once, decoded into frozen Structs, and never change at run time.
Adjacency is map data, not a rule (BG-MAP-01).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal, TypeVar

import msgspec

AreaKind = Literal["land", "sea", "port"]
CastleLevel = Literal["none", "castle", "stronghold"]
_T = TypeVar("_T")


class PortOf(msgspec.Struct, frozen=True):
    land: str
    sea: str


class Area(msgspec.Struct, frozen=True):
    id: str
    name: str
    kind: AreaKind
    castle: CastleLevel
    supply: int
    power: int
    home_of: str | None
    port_of: PortOf | None
    adjacent: tuple[str, ...]


class Board(msgspec.Struct, frozen=True):
    schema_version: int
    areas: tuple[Area, ...]


class HouseFacts(msgspec.Struct, frozen=True):
    name: str
    home_area: str
    unit_limits: dict[str, int]
    starting_units: dict[str, dict[str, int]]


class Tracks(msgspec.Struct, frozen=True):
    iron_throne: tuple[str, ...]
    fiefdoms: tuple[str, ...]
    kings_court: tuple[str, ...]


class PlayerCountSetup(msgspec.Struct, frozen=True):
    houses: tuple[str, ...]
    tracks: Tracks
    kings_court_stars: tuple[int, ...]
    home_garrisons: dict[str, int]
    neutral_forces: dict[str, int]
    blocked_areas: tuple[str, ...]
    starting_units_not_placed_in: tuple[str, ...]


class Setup(msgspec.Struct, frozen=True):
    schema_version: int
    power_tokens_per_house: int
    power_tokens_available_at_start: int
    wildling_threat_start: int
    wildling_threat_max: int
    max_rounds: int
    supply_table: dict[str, tuple[int, ...]]
    order_tokens: dict[str, int]
    houses: dict[str, HouseFacts]
    player_counts: dict[str, PlayerCountSetup]


class HouseCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    strength: int
    swords: int
    fortifications: int
    ability: str | None


class WesterosCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    count: int
    wildling_icon: bool
    effect: str = ""
    """A short paraphrase of what the card does (not the card's text)."""


class WildlingCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    nights_watch_victory_highest_bidder: str = ""
    wildling_victory_lowest_bidder: str = ""
    wildling_victory_everyone_else: str = ""


class TidesCard(msgspec.Struct, frozen=True):
    """One kind of Tides of Battle card (BG-TIDES-01) and how many the deck holds."""

    id: str
    name: str
    strength: int
    swords: int
    fortifications: int
    skulls: int
    count: int


class Cards(msgspec.Struct, frozen=True):
    schema_version: int
    house_cards: dict[str, tuple[HouseCard, ...]]
    westeros_decks: dict[str, tuple[WesterosCard, ...]]
    wildling_cards: tuple[WildlingCard, ...]
    tides_of_battle: tuple[TidesCard, ...] = ()


class LayoutPoint(msgspec.Struct, frozen=True):
    """Where an area is drawn: its centroid and bounding box ``(x0, y0, x1, y1)``, in board units."""

    x: float
    y: float
    box: tuple[float, float, float, float]


class Layout(msgspec.Struct, frozen=True):
    """The base board's drawing points (``layout.json``, from the shared ``map_layout.yaml``): drawing
    data, not rules. Board units: the board is ``width`` wide and ``height`` high, origin top-left, y
    downwards."""

    schema_version: int
    width: float
    height: float
    units: str
    areas: dict[str, LayoutPoint]


def _load(name: str, typ: type[_T]) -> _T:
    raw = resources.files("domain.board").joinpath("data").joinpath(name).read_bytes()
    return msgspec.json.decode(raw, type=typ)


@cache
def board() -> Board:
    return _load("board.json", Board)


@cache
def areas() -> dict[str, Area]:
    """Every area of the base Westeros board by id."""
    return {a.id: a for a in board().areas}


@cache
def setup() -> Setup:
    return _load("setup.json", Setup)


@cache
def cards() -> Cards:
    return _load("cards.json", Cards)


@cache
def layout() -> Layout:
    return _load("layout.json", Layout)


@cache
def all_house_cards() -> dict[str, HouseCard]:
    """Every House card of every house by id."""
    return {c.id: c for hand in cards().house_cards.values() for c in hand}


@cache
def tides_cards() -> dict[str, TidesCard]:
    """Every kind of Tides of Battle card by id (BG-TIDES-01)."""
    return {c.id: c for c in cards().tides_of_battle}


def tides_deck() -> list[str]:
    """The 24 Tides of Battle cards in data order, one id per card (BG-TIDES-01)."""
    return [c.id for c in cards().tides_of_battle for _ in range(c.count)]


@cache
def port_of_land(land: str) -> str | None:
    """The port area attached to a land area, if any."""
    for a in board().areas:
        if a.port_of is not None and a.port_of.land == land:
            return a.id
    return None
