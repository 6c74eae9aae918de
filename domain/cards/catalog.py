"""The Core Set's card facts, typed: every one of the 219 records as a :class:`CardRecord`.

The facts come from the shared card reference (``core-set.yaml``, ``decks.yaml``), converted once
into this package's own files under ``data/`` (``core_set.json``, ``decks.json``); the service never
reads the shared folder. They are loaded once, at import, and never change at run time.

A card's *printed values* are what the framework rules use (cost, strength, icons, keywords,
plot values, printed "+N income/initiative/reserve" modifiers, CG-GEN-08/09). A card's ability text
(``ability``) is a paraphrase kept for the log and the views: no ability is implemented yet
(docs/card-game.md).
"""

from __future__ import annotations

from importlib import resources
from typing import Literal

import msgspec

CardType = Literal["character", "location", "attachment", "event", "plot", "agenda", "title", "faction"]
ChallengeType = Literal["military", "intrigue", "power"]
CHALLENGE_TYPES: tuple[ChallengeType, ...] = ("military", "intrigue", "power")
DRAW_TYPES = frozenset({"character", "location", "attachment", "event"})
FACTIONS = ("baratheon", "greyjoy", "lannister", "martell", "thenightswatch", "stark", "targaryen", "tyrell")


class Icons(msgspec.Struct, frozen=True):
    """A character's challenge icons (CG-GEN-09)."""

    military: bool
    intrigue: bool
    power: bool

    def has(self, challenge: str) -> bool:
        return bool(getattr(self, challenge))


class PlotValues(msgspec.Struct, frozen=True):
    """A plot's printed values (CG-GEN-08)."""

    income: int
    initiative: int
    claim: int
    reserve: int


class Modifiers(msgspec.Struct, frozen=True):
    """Printed "+N income/initiative/reserve" of a non-plot card in play (CG-GEN-08)."""

    income: int = 0
    initiative: int = 0
    reserve: int = 0


class TitleFacts(msgspec.Struct, frozen=True):
    """A melee title's relations (CG-MELEE-01); titles are not used in a joust."""

    supports: list[str]
    supported_by: list[str]
    rivals: list[str]


class CardRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One Core Set record: a card's printed facts."""

    code: str
    name: str
    type: CardType
    faction: str
    loyal: bool
    unique: bool
    cost: int | str | None
    """An int; ``"X"`` for two events; None for plots, agendas, titles and faction cards."""
    strength: int | None
    icons: Icons | None
    traits: list[str]
    keywords: list[str]
    deck_limit: int
    quantity: int
    ability_kind: str
    ability: str | None
    ability_parts: list[str] = []
    plot: PlotValues | None = None
    printed_modifiers: Modifiers | None = None
    ambush_cost: int | None = None
    action_windows: list[str] = []
    title: TitleFacts | None = None

    @property
    def printed_cost(self) -> int:
        """The printed gold cost as a number (``"X"`` and none count 0)."""
        return self.cost if isinstance(self.cost, int) else 0

    @property
    def str_(self) -> int:
        return self.strength or 0

    def has_keyword(self, keyword: str) -> bool:
        return keyword in self.keywords

    @property
    def limited(self) -> bool:
        return "limited" in self.keywords


class DeckEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``count`` copies of the card ``code`` in a deck."""

    code: str
    count: int


class StarterDeck(msgspec.Struct, frozen=True):
    """A named deck of ``decks.yaml`` (four legal 60-card decks, four intro decks that are not legal)."""

    id: str
    name: str
    faction: str
    agenda: str | None
    legal: bool
    plot_deck: list[DeckEntry]
    draw_deck: list[DeckEntry]


class RestrictedList(msgspec.Struct, frozen=True):
    joust: list[str]
    melee: list[str]
    banned: list[str]


class _CardsFile(msgspec.Struct):
    source: str
    cards: list[CardRecord]


class _DecksFile(msgspec.Struct):
    source: str
    decks: list[StarterDeck]
    setups: dict[str, list[str]]
    restricted_list: RestrictedList


def _read(name: str) -> bytes:
    return resources.files(__package__).joinpath("data", name).read_bytes()


_cards = msgspec.json.decode(_read("core_set.json"), type=_CardsFile)
_decks = msgspec.json.decode(_read("decks.json"), type=_DecksFile)

CARDS: dict[str, CardRecord] = {c.code: c for c in _cards.cards}
"""Every record by code: 219 (211 printed codes and 8 faction cards)."""
DECKS: dict[str, StarterDeck] = {d.id: d for d in _decks.decks}
SETUPS: dict[str, list[str]] = dict(_decks.setups)
RESTRICTED: RestrictedList = _decks.restricted_list
BANNERS: dict[str, str] = {
    "01198": "baratheon",
    "01199": "greyjoy",
    "01200": "lannister",
    "01201": "martell",
    "01202": "thenightswatch",
    "01203": "stark",
    "01204": "targaryen",
    "01205": "tyrell",
}
"""Banner agendas and the faction each lets in (CG-DECK-02)."""
FEALTY = "01027"


def card(code: str) -> CardRecord:
    return CARDS[code]


IMPLEMENTED_KEYWORDS = frozenset(
    {
        "stealth",
        "renown",
        "insight",
        "intimidate",
        "pillage",
        "ambush",
        "limited",
        "terminal",
        "no attachments",
        "no attachments except Weapon",
    }
)
"""The printed keywords the framework resolves (CG-KEY-01..09)."""


def implemented(rec: CardRecord) -> bool:
    """Whether a card plays exactly as printed today: no text beyond keywords the framework
    resolves (faction cards, vanilla and keyword-only cards), or a Banner, whose text is deck
    building only (:mod:`.decks`). Every other card lacks its ability (docs/card-game.md)."""
    if rec.type == "title":
        return False  # melee only
    if rec.code in BANNERS:
        return True
    return rec.ability_kind in ("none", "keywords_only") and set(rec.keywords) <= IMPLEMENTED_KEYWORDS
