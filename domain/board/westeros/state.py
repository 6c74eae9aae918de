"""The Westeros phase's working data (``BoardState.westeros``), plain msgspec Structs.

Nothing here knows a rule: each field says where the phase stands, and only
:mod:`.evolve` changes it, as the events say.
"""

from __future__ import annotations

import msgspec


class PendingChoice(msgspec.Struct):
    """One house must pick one of ``options`` (or skip when ``may_skip``)."""

    house: str
    kind: str
    """What the choice is about (see :mod:`.decisions`): ``a_throne_of_blades``, ``bid_tie``..."""
    options: list[str]
    may_skip: bool = False
    default: str | None = None
    """The documented default at the deadline (None: skipped)."""
    context: str | None = None
    """Extra data the answer needs (e.g. the port of a capture, the track of a tie)."""

    def is_wildling_tie_of(self, house: str) -> bool:
        """A tie for a wildling attack's target (BG-WILD-02) that ``house`` is in or is to break."""
        return self.kind == "wildling_tie" and house in (self.house, *self.options)


class PortCapture(msgspec.Struct):
    """A captured port whose new controller has not yet been offered its Ships (BG-MAP-07)."""

    house: str
    port: str
    removed: int


class PendingSelection(msgspec.Struct):
    """One house must pick units on the board (wildling penalties and rewards)."""

    house: str
    kind: str
    """``destroy`` / ``horde_castle`` / ``crow_killers_destroy`` / ``crow_killers_replace`` /
    ``crow_killers_upgrade``."""
    min: int
    max: int
    units: dict[str, dict[str, int]]
    """area -> units that may be picked there."""
    same_area: bool = False
    """All picked units must stand in one area (The Horde Descends)."""
    then_replace: int = 0
    """Crow Killers: Knights still to replace after this destruction (-1: all that are left)."""
    reason: str = ""


class Bidding(msgspec.Struct):
    """A sealed simultaneous bid of Power (BG-COK-03, BG-WILD-01)."""

    kind: str
    """``clash_of_kings`` or ``wildlings``."""
    houses: list[str]
    track: str | None = None
    sealed: dict[str, int] = {}
    """house -> bid. Hidden from every other house until revealed."""
    salts: dict[str, str] = {}
    """house -> the salt of its bid's commitment, published with the reveal. Hidden."""
    revealed: bool = False
    placed: list[str] = []
    """Clash of Kings: houses the Iron Throne holder has placed so far among tied bids."""


class WildlingAttack(msgspec.Struct):
    """One wildling attack (BG-WILD-01); a second one may be nested (Preemptive Raid)."""

    strength: int
    houses: list[str]
    """The houses taking part (Preemptive Raid leaves its highest bidder out)."""
    reason: str
    adjust_threat: bool = True
    bidding: Bidding | None = None
    nights_watch_won: bool | None = None
    total: int = 0
    target: str | None = None
    """The highest bidder (Night's Watch victory) or the lowest bidder (wildling victory)."""
    card: str | None = None
    stage: str = "bidding"
    """``bidding`` -> ``target`` -> ``effect`` -> ``nested`` -> ``end``."""
    queue: list[str] = []
    """Houses still to take the card's effect, in order (BG-WILD-03)."""
    started: bool = False
    """The effect for ``queue[0]`` has begun (its decisions, if any, are open or answered)."""


class WesterosState(msgspec.Struct):
    """Where the Westeros phase stands (BG-WEST-01)."""

    revealed: dict[str, str] = {}
    """deck -> the card revealed from it this round (public)."""
    resolved: list[str] = []
    """Decks whose card is resolved and back at the bottom of its deck."""
    current: str | None = None
    """The deck whose card is being resolved."""
    effect: str | None = None
    """What the current card does now: ``supply``, ``mustering``, ``clash_of_kings``,
    ``game_of_thrones``, ``wildlings_attack``, ``restriction``, ``nothing``, or a card whose holder
    must first choose (``choose``)."""
    stage: str = ""
    """Progress inside ``effect``: ``start`` -> ``running`` -> (``done``)."""
    choice: PendingChoice | None = None
    port_captures: list[PortCapture] = []
    """Captured ports still to offer, in order (BG-MAP-07); the first is offered once nothing else
    waits on a player."""
    selection: PendingSelection | None = None
    reconcile: list[str] = []
    """Houses that must still destroy units to fit their supply (BG-SUPPLY-04)."""
    reconcile_sequential: bool = False
    """Reconcile one house at a time in ``reconcile`` order (wildling penalties, BG-WILD-03)."""
    musterers: list[str] = []
    """Houses still to muster, in turn order (BG-MUSTER-06)."""
    muster_max_areas: int = 0
    """0: every castle/stronghold area; 1: one area (The Horde Descends)."""
    muster_reason: str = ""
    bidding: Bidding | None = None
    """Clash of Kings bidding on one track."""
    tracks_done: list[str] = []
    """Clash of Kings: tracks already bid for this card."""
    attacks: list[WildlingAttack] = []
    """Wildling attacks in progress, innermost last."""
