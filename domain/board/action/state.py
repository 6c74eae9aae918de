"""The Action phase's working data (``BoardState.action``), plain msgspec Structs.

Nothing here knows a rule. The attacking units of a combat stay in the area they march from until
the combat is decided (so an area never holds two houses' units); ``Combat.units`` says which of them
attack, and supply counts them in the attacked area (BG-SUPPLY-06).
"""

from __future__ import annotations

import msgspec


class PendingAbility(msgspec.Struct):
    """A House card ability waiting for its owner's choice (BG-COMBAT-09)."""

    house: str
    card: str
    choices: list[str]
    may_skip: bool


class RetreatLosses(msgspec.Struct):
    """BG-COMBAT-20: ``house`` retreats into ``area`` and must first destroy ``count`` of its retreating
    ``units`` (type -> count) to stay within its supply."""

    house: str
    area: str
    count: int
    units: dict[str, int]


class TidesDraw(msgspec.Struct):
    """The Tides of Battle cards of one combat (BG-TIDES-02..04, :mod:`.tides`)."""

    deck: list[str]
    """The rest of this combat's shuffled deck, top first. Hidden from everyone."""
    drawn: dict[str, str] = {}
    """House -> its Tides card. Seen by that house only until ``revealed``."""
    revealed: bool = False
    redraw_decided: bool = False
    """The Blade holder has answered whether to discard its card and draw another (BG-TIDES-03 4.1)."""
    skulls_done: list[str] = []
    """Houses whose skull losses (BG-TIDES-04) are resolved."""
    skull_house: str | None = None
    """The house that must now choose the unit(s) a skull destroys."""
    skull_count: int = 0


class Combat(msgspec.Struct):
    """One combat (BG-COMBAT-*) or one attack on a neutral force (``defender`` None, BG-MARCH-12)."""

    attacker: str
    defender: str | None
    area: str
    from_area: str
    march_order: str
    units: dict[str, int]
    """The attacking units (unit type -> count); they stand in ``from_area`` until the end."""
    stage: str = "support"
    support_queue: list[str] = []
    """Houses still to declare support, in turn order (BG-COMBAT-04)."""
    support: dict[str, str] = {}
    """Declared support of non-combatant houses: house -> ``attacker``/``defender``/``none``."""
    cards: dict[str, str] = {}
    """House -> chosen House card. Hidden from every other house until ``revealed``."""
    salts: dict[str, str] = {}
    """House -> the salt of its House card's commitment, published with the reveal. Hidden."""
    revealed: bool = False
    no_card: list[str] = []
    """Combatants fighting without a House card (BG-COMBAT-10)."""
    cancelled: dict[str, str] = {}
    """Tyrion: house -> the card cancelled, which it may not choose again."""
    done: list[str] = []
    """``house:card`` of abilities already resolved (no text resolves twice, BG-COMBAT-09)."""
    ability: PendingAbility | None = None
    choices: dict[str, str] = {}
    """``house:card`` -> the choice made for that text (Bronn's opponent discarding Power)."""
    blade: str | None = None
    """The house that used the Valyrian Steel Blade in this combat."""
    strength: dict[str, int] = {}
    winner: str | None = None
    loser: str | None = None
    casualties: int = 0
    """Casualties still to choose (BG-COMBAT-15)."""
    retreat_chooser: str | None = None
    retreat_options: list[str] = []
    retreat_losses: RetreatLosses | None = None
    """The retreating house's supply losses still to choose (BG-COMBAT-20)."""
    retreated_to: str | None = None
    """The area the loser's units retreated into (routed there, BG-COMBAT-19/22); None until then, or
    when none survived to retreat (Jon Connington)."""
    played: dict[str, str] = {}
    """House -> card played, kept after the discard for the clean-up and after-combat texts."""
    tides: TidesDraw | None = None
    """The Tides of Battle draw of this combat, when the variant is on (BG-TIDES-*)."""


class PortCapture(msgspec.Struct):
    """BG-MAP-07: ``house`` took the port's land area; it may put up to ``max`` Ships in ``port``."""

    house: str
    port: str
    max: int


class ActionState(msgspec.Struct):
    """Where the Action phase stands (BG-ACT-01/02)."""

    order_type: str = "raid"
    """The step being resolved: ``raid``, ``march`` or ``consolidate_power`` (BG-ACT-01)."""
    current_house: str | None = None
    """The house whose turn it is to resolve one order of ``order_type`` (BG-ACT-02)."""
    routed: dict[str, dict[str, int]] = {}
    """area -> unit type -> routed units there (BG-COMBAT-22); they stand up at clean-up."""
    combat: Combat | None = None
    port_captures: list[PortCapture] = []
    """Captured ports whose new controller may still put Ships in (BG-MAP-07); first is pending."""
    tides_shuffles: int = 0
    """Tides of Battle decks shuffled in this Action phase (names each shuffle's random stream)."""
