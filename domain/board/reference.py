"""The board game's reference data: the documents a client needs to draw and explain a game.

Five documents (``domain/core/reference.py``), each served at ``GET /v1/reference/{name}``:

* ``board`` -- every area of the base board: its kind, castle level, supply barrels, Power crowns,
  home house, port link, adjacency (BG-MAP-01, 02, 05, 07, 09) and the point where it is drawn;
* ``house-cards`` -- each house's seven House cards;
* ``westeros-cards`` -- Westeros decks I to III (BG-WEST-*, BG-WCARD-*);
* ``wildling-cards`` -- the nine wildling cards and the threat track's range (BG-WILD-*);
* ``order-tokens`` -- the fifteen order tokens each house owns (BG-ORDER-01).

Everything comes from the game's own data files (``data/*.json`` through :mod:`.board_data`, which
``scripts/import_board_data.py`` writes from the shared facts) and from :mod:`.orders`: the same
facts the rules use, so a client's map cannot disagree with the engine's. The answer models are
this module's Structs; their docstrings describe the API document's schemas. Card and ability
texts are short paraphrases, not the printed card text.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..core.reference import ReferenceDocument
from . import board_data
from .board_data import AreaKind, CastleLevel
from .mustering import muster_points
from .orders import ORDER_TOKENS, TOKENS_PER_HOUSE, OrderToken, OrderType

DeckId = Literal["deck_i", "deck_ii", "deck_iii"]
MOTHER_OF_DRAGONS = "mother_of_dragons"
"""``settings.expansion`` of a Mother of Dragons game, whose board is ``board-mother-of-dragons``."""
SCHEMA_VERSION = 1
"""The shape of these documents; a change that breaks clients gets a new number (and a new path)."""


# -- the board -------------------------------------------------------------------------------------


class PortLink(msgspec.Struct, frozen=True):
    """The areas a port belongs to (BG-MAP-07): the land area whose controller may use it, and the one
    sea area its Ships sail into."""

    land: str
    """The land area the port belongs to (an `Area` id)."""
    sea: str
    """The sea area the port touches (an `Area` id)."""


class MapPoint(msgspec.Struct, frozen=True):
    """Where an area is drawn, in board units (see `MapFrame`): its centroid, a good place for its
    label, units and tokens, and its bounding box."""

    x: float
    """The centroid's distance from the board's left edge."""
    y: float
    """The centroid's distance from the board's top edge (y grows downwards)."""
    box: Annotated[tuple[float, ...], msgspec.Meta(min_length=4, max_length=4)]
    """The area's bounding box: `[x0, y0, x1, y1]` (left, top, right, bottom)."""


class MapFrame(msgspec.Struct, frozen=True):
    """The drawing's frame: every `MapPoint` lies within `[0, width] x [0, height]`. Scale both axes
    alike (to draw the board 600 pixels wide, multiply every coordinate by `600 / width`)."""

    width: float
    """The board's width in board units (`1.0`: the unit is the board's width)."""
    height: float
    """The board's height in board units (the base board is 1.8596 times as high as wide)."""
    origin: Literal["top_left"]
    """Where `(0, 0)` is: the board's top-left corner (the Wall at the top, Dorne at the bottom)."""
    units: str
    """How the units were derived from the source drawing."""


class BoardArea(msgspec.Struct, frozen=True):
    """One area of the board (BG-MAP-01): a land area, a sea area or a port."""

    id: str
    """The area's id (an `Area`): what views, commands and events name it by."""
    name: str
    """The area's printed name."""
    kind: AreaKind
    """`land`, `sea` or `port` (BG-MAP-01)."""
    castle: CastleLevel
    """`none`, `castle` or `stronghold` (BG-MAP-02); each counts toward victory (BG-VIC-01)."""
    mustering_points: int
    """Mustering points of the area's castle: 0 without one, 1 for a castle, 2 for a stronghold
    (BG-MAP-02)."""
    supply: int
    """Supply barrels printed on the area (0-2, BG-MAP-02)."""
    power: int
    """Power crowns printed on the area (0-2, BG-MAP-02)."""
    home_of: str | None
    """The house whose home area this is (BG-MAP-05), or null."""
    port_of: PortLink | None
    """For a port: the land and sea areas it belongs to (BG-MAP-07); null for other areas."""
    port: str | None
    """For a land area with a port: that port's `Area` id; else null."""
    adjacent: tuple[str, ...]
    """The areas sharing a border with this one (BG-MAP-01), by id, sorted. A port is adjacent to
    its land area and its sea area only."""
    point: MapPoint
    """Where the area is drawn."""


class BoardReference(msgspec.Struct, frozen=True):
    """A board: every area with its printed icons, its neighbours and where to draw it. Adjacency is
    symmetric: `b` is in `a`'s `adjacent` exactly when `a` is in `b`'s."""

    schema_version: int
    """The shape of this document (`1`). The content's version is the answer's `ETag`."""
    frame: MapFrame
    """The drawing's frame: the board's width and height in the units of every `point`."""
    areas: tuple[BoardArea, ...]
    """Every area of the board, sorted by id (the base board: 38 land areas, 12 sea areas, 8 ports; the
    Mother of Dragons board adds The Vale of Arryn, The Bite and the Port of the Eyrie)."""


def board_reference(expansion: str | None = None) -> BoardReference:
    """The board a game of ``expansion`` is played on (``board_data.areas_for``) with its drawing
    points: the base board, or the Mother of Dragons 7-house board with the Eyrie and Bite overlays."""
    layout = board_data.mod_layout() if expansion == MOTHER_OF_DRAGONS else board_data.layout()
    facts = board_data.areas_for(expansion)
    ports = {a.port_of.land: a.id for a in facts.values() if a.port_of is not None}
    areas = []
    for a in facts.values():
        p = layout.areas[a.id]
        areas.append(
            BoardArea(
                id=a.id,
                name=a.name,
                kind=a.kind,
                castle=a.castle,
                mustering_points=muster_points(a.id, expansion),
                supply=a.supply,
                power=a.power,
                home_of=a.home_of,
                port_of=PortLink(land=a.port_of.land, sea=a.port_of.sea) if a.port_of else None,
                port=ports.get(a.id),
                adjacent=tuple(sorted(a.adjacent)),
                point=MapPoint(x=p.x, y=p.y, box=p.box),
            )
        )
    frame = MapFrame(width=layout.width, height=layout.height, origin="top_left", units=layout.units)
    return BoardReference(schema_version=SCHEMA_VERSION, frame=frame, areas=tuple(sorted(areas, key=lambda a: a.id)))


# -- House cards -----------------------------------------------------------------------------------


class HouseCardInfo(msgspec.Struct, frozen=True):
    """One House card (BG-COMBAT-09): its printed strength and icons, and what its ability does."""

    id: str
    """The card's id (a `HouseCard`)."""
    name: str
    """The card's name."""
    strength: int
    """The printed combat strength (0-4)."""
    swords: int
    """Sword icons: each destroys one more of the loser's units (BG-COMBAT-15)."""
    fortifications: int
    """Fortification icons: each cancels one of the winner's swords (BG-COMBAT-15)."""
    ability: str | None
    """A short paraphrase of the card's ability (not the card's text), or null for none."""


class HouseCardsReference(msgspec.Struct, frozen=True):
    """Each house's seven House cards, strongest first, as each house starts the game with them."""

    schema_version: int
    """The shape of this document (`1`). The content's version is the answer's `ETag`."""
    houses: dict[str, tuple[HouseCardInfo, ...]]
    """The cards by house (`House` id)."""


def house_cards_reference() -> HouseCardsReference:
    houses = {
        house: tuple(
            HouseCardInfo(
                id=c.id,
                name=c.name,
                strength=c.strength,
                swords=c.swords,
                fortifications=c.fortifications,
                ability=c.ability,
            )
            for c in cards
        )
        for house, cards in sorted(board_data.cards().house_cards.items())
    }
    return HouseCardsReference(schema_version=SCHEMA_VERSION, houses=houses)


# -- Westeros and wildling cards ---------------------------------------------------------------------


class WesterosCardInfo(msgspec.Struct, frozen=True):
    """One Westeros card (BG-WCARD-*) and how many copies its deck holds."""

    id: str
    """The card's id (a `WesterosCard`; the same id may appear in two decks)."""
    name: str
    """The card's name."""
    count: int
    """How many copies of it the deck holds."""
    wildling_icon: bool
    """True when revealing it moves the wildling threat up one space (+2, BG-WEST-01)."""
    effect: str
    """A short paraphrase of what it does (not the card's text)."""


class WesterosCardsReference(msgspec.Struct, frozen=True):
    """Westeros decks I, II and III (ten cards each): one card of each is revealed and resolved in
    every Westeros phase but the first round's (BG-WEST-01)."""

    schema_version: int
    """The shape of this document (`1`). The content's version is the answer's `ETag`."""
    decks: dict[DeckId, tuple[WesterosCardInfo, ...]]
    """The cards of each deck (`deck_i`, `deck_ii`, `deck_iii`, as the game view names them)."""


def westeros_cards_reference() -> WesterosCardsReference:
    decks: dict[DeckId, tuple[WesterosCardInfo, ...]] = {}
    names: tuple[DeckId, ...] = ("deck_i", "deck_ii", "deck_iii")
    for deck in names:
        decks[deck] = tuple(
            WesterosCardInfo(id=c.id, name=c.name, count=c.count, wildling_icon=c.wildling_icon, effect=c.effect)
            for c in board_data.cards().westeros_decks[deck]
        )
    return WesterosCardsReference(schema_version=SCHEMA_VERSION, decks=decks)


class WildlingCardInfo(msgspec.Struct, frozen=True):
    """One wildling card: what happens after a wildling attack (BG-WILD-*), as short paraphrases."""

    id: str
    """The card's id (a `WildlingCard`)."""
    name: str
    """The card's name."""
    nights_watch_victory_highest_bidder: str
    """When the Night's Watch wins: what the highest bidder gets."""
    wildling_victory_lowest_bidder: str
    """When the wildlings win: what befalls the lowest bidder."""
    wildling_victory_everyone_else: str
    """When the wildlings win: what befalls every other house."""


class WildlingCardsReference(msgspec.Struct, frozen=True):
    """The wildling deck and the wildling threat track."""

    schema_version: int
    """The shape of this document (`1`). The content's version is the answer's `ETag`."""
    threat_start: int
    """The wildling threat at the start of the game."""
    threat_max: int
    """The top of the threat track: reaching it makes the wildlings attack (BG-WEST-02)."""
    threat_step: int
    """How much one wildling icon raises the threat (one space of the track)."""
    cards: tuple[WildlingCardInfo, ...]
    """The nine cards."""


def wildling_cards_reference() -> WildlingCardsReference:
    setup = board_data.setup()
    cards = tuple(
        WildlingCardInfo(
            id=c.id,
            name=c.name,
            nights_watch_victory_highest_bidder=c.nights_watch_victory_highest_bidder,
            wildling_victory_lowest_bidder=c.wildling_victory_lowest_bidder,
            wildling_victory_everyone_else=c.wildling_victory_everyone_else,
        )
        for c in board_data.cards().wildling_cards
    )
    return WildlingCardsReference(
        schema_version=SCHEMA_VERSION,
        threat_start=setup.wildling_threat_start,
        threat_max=setup.wildling_threat_max,
        threat_step=2,  # BG-WEST-01: each wildling icon moves the token 2 up (westeros/deck.py)
        cards=cards,
    )


# -- order tokens ----------------------------------------------------------------------------------


class OrderTokenInfo(msgspec.Struct, frozen=True):
    """One kind of order token (BG-ORDER-01) and how many of it each house owns."""

    id: str
    """The token's id (an `OrderToken`): what `assign_orders` and the views name it by."""
    name: str
    """How the token reads: `March +1 (special)`, `Support +0`..."""
    type: OrderType
    """The order's type: `march`, `defense`, `support`, `raid` or `consolidate_power`."""
    bonus: int
    """The number printed on it: March and Defense and Support strength (`-1` to `+2`); 0 for Raid and
    Consolidate Power."""
    special: bool
    """True for a special (starred) order: a house may place as many as its King's Court position
    allows (BG-PLAN-04)."""
    copies: int
    """How many of this token each house owns."""


class OrderTokensReference(msgspec.Struct, frozen=True):
    """The order tokens each house owns (BG-ORDER-01): ten regular and five special."""

    schema_version: int
    """The shape of this document (`1`). The content's version is the answer's `ETag`."""
    per_house: int
    """How many order tokens each house owns (15)."""
    tokens: tuple[OrderTokenInfo, ...]
    """Every kind of token."""


_TYPE_NAMES: dict[OrderType, str] = {
    "march": "March",
    "defense": "Defense",
    "support": "Support",
    "raid": "Raid",
    "consolidate_power": "Consolidate Power",
}


def token_name(t: OrderToken) -> str:
    """``March -1``, ``Defense +2 (special)``, ``Raid``: the type, the bonus where the type has one."""
    name = _TYPE_NAMES[t.type]
    if t.type in ("march", "defense", "support"):
        name += f" {t.bonus:+d}" if t.bonus else " +0"
    return name + (" (special)" if t.special else "")


def order_tokens_reference() -> OrderTokensReference:
    tokens = tuple(
        OrderTokenInfo(id=t.id, name=token_name(t), type=t.type, bonus=t.bonus, special=t.special, copies=t.copies)
        for t in ORDER_TOKENS.values()
    )
    return OrderTokensReference(schema_version=SCHEMA_VERSION, per_house=TOKENS_PER_HOUSE, tokens=tokens)


# -- the documents ---------------------------------------------------------------------------------


def documents() -> tuple[ReferenceDocument, ...]:
    """The board game's reference documents, in the order the index lists them."""
    return (
        ReferenceDocument(
            name="board",
            summary="The board: areas, adjacency and layout points",
            description="Every area of the base board (3-6 players): its kind (land, sea, port), castle level "
            "and mustering points, supply barrels, Power crowns, home house, the land and sea a port belongs to, "
            "the areas adjacent to it, and the point where it is drawn (centroid and bounding box, in the units "
            "of `frame`). Everything a page needs to draw the map under a game's view.",
            content=board_reference(),
        ),
        ReferenceDocument(
            name="board-mother-of-dragons",
            summary="The Mother of Dragons board: areas, adjacency and layout points",
            description="The board of a Mother of Dragons game (`settings.expansion: mother_of_dragons`): the base "
            "board with the Eyrie and Bite overlays (The Vale of Arryn, The Bite and the Port of the Eyrie added; "
            "the Eyrie, the Fingers, the Mountains of the Moon, White Harbor, Widow's Watch and their neighbours "
            "redrawn), each area with the same facts as `board` and the point where this board draws it. A game's "
            "view names exactly this board's areas.",
            content=board_reference(MOTHER_OF_DRAGONS),
        ),
        ReferenceDocument(
            name="house-cards",
            summary="House cards of each house",
            description="Each house's seven House cards: strength, swords, fortifications and a short "
            "paraphrase of the ability.",
            content=house_cards_reference(),
        ),
        ReferenceDocument(
            name="westeros-cards",
            summary="Westeros decks I-III",
            description="The cards of each Westeros deck with their number of copies, wildling icon and a short "
            "paraphrase of their effect.",
            content=westeros_cards_reference(),
        ),
        ReferenceDocument(
            name="wildling-cards",
            summary="Wildling cards and the threat track",
            description="The nine wildling cards (what the highest bidder gains when the Night's Watch wins; what "
            "the lowest bidder and everyone else suffer when the wildlings win) and the threat track's start, "
            "top and step.",
            content=wildling_cards_reference(),
        ),
        ReferenceDocument(
            name="order-tokens",
            summary="Order tokens",
            description="The fifteen order tokens each house owns: type, printed bonus, special or not, and copies.",
            content=order_tokens_reference(),
        ),
    )
