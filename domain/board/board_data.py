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


class ModHouseFacts(msgspec.Struct, frozen=True):
    """A house of the Mother of Dragons 7-house setup: its units as a player house (MOD-SETUP-12) and
    as a vassal (its Vassal Setup card, MOD-DATA-02)."""

    name: str
    home_area: str
    starting_supply: int
    unit_limits: dict[str, int]
    starting_units: dict[str, dict[str, int]]
    vassal_starting_units: dict[str, dict[str, int]]


class MotherOfDragons(msgspec.Struct, frozen=True):
    """The Mother of Dragons facts without Targaryen (``mother_of_dragons.json``, issue 13 part 1)."""

    schema_version: int
    areas: tuple[Area, ...]
    """The 7-house board: the base board with the Eyrie and The Bite overlays (MOD-SETUP-03)."""
    houses: dict[str, ModHouseFacts]
    tracks: Tracks
    """The fixed orders of MOD-SETUP-09, before the vassal re-ordering."""
    kings_court_stars: tuple[int, ...]
    home_garrisons: dict[str, int]
    neutral_forces: dict[str, int]
    vassal_starting_supply: int
    power_tokens_available_at_start: int
    arryn_house_cards: tuple[HouseCard, ...]
    vassal_house_cards: tuple[HouseCard, ...]
    sea_orders: tuple[str, ...]
    vassal_orders: tuple[str, ...]


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
def mother_of_dragons() -> MotherOfDragons:
    return _load("mother_of_dragons.json", MotherOfDragons)


@cache
def mod_areas() -> dict[str, Area]:
    """Every area of the Mother of Dragons 7-house board (with the overlays) by id."""
    return {a.id: a for a in mother_of_dragons().areas}


def any_area(area: str) -> Area:
    """An area's facts on whichever board has it, for what both boards agree on (its kind; whether it
    has a Castle or Stronghold at all): the base board's, else the Mother of Dragons board's."""
    return areas().get(area) or mod_areas()[area]


def areas_for(expansion: str | None) -> dict[str, Area]:
    """The map a game is played on: the base board, or the Mother of Dragons board with its overlays
    (``Settings.expansion``). The base game reads exactly :func:`areas`."""
    return mod_areas() if expansion == "mother_of_dragons" else areas()


@cache
def layout() -> Layout:
    return _load("layout.json", Layout)


@cache
def mod_layout() -> Layout:
    """The Mother of Dragons 7-house board's drawing points (``layout_mother_of_dragons.json``): the
    areas its overlays add or reshape where that board draws them, the others as on the base board."""
    return _load("layout_mother_of_dragons.json", Layout)


@cache
def all_house_cards() -> dict[str, HouseCard]:
    """Every House card of every house by id."""
    return {c.id: c for hand in cards().house_cards.values() for c in hand}


@cache
def every_house_card() -> dict[str, HouseCard]:
    """Every House card any game may play, by id: the base houses', and Mother of Dragons' Arryn and
    vassal cards (MOD-DATA-01, MOD-VASSAL-29). What combat and the wildling cards read a card's
    printed values from."""
    mod = mother_of_dragons()
    return {**all_house_cards(), **{c.id: c for c in (*mod.arryn_house_cards, *mod.vassal_house_cards)}}


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
