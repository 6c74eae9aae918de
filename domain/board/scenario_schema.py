"""The schema of a scenario fixture (a game created from a described position).

Plain msgspec Structs, apart from the rules that validate and lay them out
(:mod:`domain.board.scenario`), so that the board state can keep the fixture it was created from
(the start of the game opens on the fixture's start point, :mod:`domain.board.fixture_start`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .action.commands import UnitCounts

HouseId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class AreaSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One area of the position. Areas not listed are empty (no units, token or neutral force); their
    home garrison is the printed one (default ``garrisons: printed``), or 0 with ``garrisons: listed`` (:class:`Scenario`)."""

    house: HouseId | None = None
    """Owner of the units (required when there are units)."""
    units: UnitCounts = UnitCounts()
    power_token: HouseId | None = None
    garrison: Annotated[int, msgspec.Meta(ge=0, le=6)] | None = None
    """Strength of the home garrison here; unset: the printed garrison (``garrisons: printed``, the default), or 0 with ``listed``."""
    neutral: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    order: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """A face-up order of ``house`` (only with a start point after the orders are revealed:
    ``action``, ``raven``, ``combat``, ``retreat``). Units may stand without an order there: it was
    resolved or removed earlier in the phase. With Mother of Dragons one of a player's 18 tokens (the
    3 Sea Order tokens too, MOD-SEA-05), or of a vassal's Vassal Order set (MOD-VASSAL-11)."""
    routed: UnitCounts = UnitCounts()
    """How many of ``units`` are routed (BG-COMBAT-22; only with ``start_at`` ``action``, ``combat``
    or ``retreat``)."""


class HouseSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    power: Annotated[int, msgspec.Meta(ge=0, le=20)] | None = None
    """Available Power (defaults to the setup's 5)."""
    supply: Annotated[int, msgspec.Meta(ge=0, le=6)] | None = None
    """Supply track position (defaults to the barrels controlled)."""
    hand: Annotated[list[str], msgspec.Meta(max_length=7)] | None = None
    discards: Annotated[list[str], msgspec.Meta(max_length=7)] | None = None


class TracksSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    iron_throne: Annotated[list[str], msgspec.Meta(max_length=7)]
    fiefdoms: Annotated[list[str], msgspec.Meta(max_length=7)]
    kings_court: Annotated[list[str], msgspec.Meta(max_length=7)]


DeckId = Literal["deck_i", "deck_ii", "deck_iii"]
CardId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class WesterosSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The order of the Westeros and wildling decks, and where the Westeros phase opens.

    The decks are hidden information (BG-SETUP-03/04): recorded in the ``game_started`` event and in
    the fixture, both redacted for every reader until the game ends. A deck not given is shuffled
    from the game's seed as usual; every later shuffle (Winter Is Coming, the wildling deck after an
    attack) comes from the seed too."""

    decks: Annotated[
        dict[DeckId, Annotated[list[CardId], msgspec.Meta(max_length=10)]], msgspec.Meta(max_length=3)
    ] = {}
    """Deck id -> all of its 10 cards, top first (each deck's printed cards exactly)."""
    wildling_deck: Annotated[list[CardId], msgspec.Meta(max_length=9)] | None = None
    """The 9 wildling cards, top first."""
    start_deck: DeckId = "deck_i"
    """With ``start_at: westeros`` or ``muster``: the deck whose card resolves first. ``deck_i``: the
    phase opens from its beginning (the three top cards revealed, wildling icons counted, BG-WEST-01);
    ``deck_ii``/``deck_iii``: the three top cards are revealed and the cards of the earlier decks
    count as already resolved (they go to the bottom of their decks; the icons were already
    counted, so ``wildling_threat`` is the threat as it stands)."""


SupportSide = Literal["attacker", "defender", "none"]


class CombatSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A combat in progress (``start_at: combat`` or ``retreat``), reached through the real rules:
    the March order in ``from_area`` is resolved with ``units`` marching into ``to_area`` (the
    attacker's turn of the March step, BG-ACT-02), then the decisions listed here are taken in the
    order the combat asks for them, until the start point's decision is open."""

    from_area: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    """The area of the attacker's March order (listed in ``areas`` with the order and the units)."""
    to_area: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    """The attacked area (enemy units, or an enemy area with a garrison or Power token)."""
    units: UnitCounts
    """The marching units (all of them go into the combat, BG-MARCH-04)."""
    support: Annotated[dict[HouseId, SupportSide], msgspec.Meta(max_length=6)] = {}
    """The declaration of every house whose Support order can reach the combat (BG-COMBAT-03/04)."""
    cards: Annotated[dict[HouseId, CardId], msgspec.Meta(max_length=2)] = {}
    """``retreat`` only: each combatant's House card (BG-COMBAT-09)."""
    abilities: Annotated[dict[CardId, CardId | None], msgspec.Meta(max_length=4)] = {}
    """``retreat`` only: the answer to a House card ability that asks its owner (card -> choice,
    null to skip)."""
    use_blade: bool | None = None
    """``retreat`` only: whether the Valyrian Steel Blade holder uses it, if it is asked (BG-COMBAT-11)."""
    casualties: UnitCounts | None = None
    """``retreat`` only: the loser's casualties, if it must choose them (BG-COMBAT-15)."""


StartAt = Literal["planning", "action", "westeros", "muster", "raven", "combat", "retreat"]


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A described position (see the module docstring)."""

    areas: Annotated[dict[str, AreaSetup], msgspec.Meta(max_length=80)]
    houses: Annotated[dict[str, HouseSetup], msgspec.Meta(max_length=7)] = {}
    tracks: TracksSetup | None = None
    """Influence tracks, position 1 first; position 1 holds each Dominance token (BG-SETUP-09)."""
    raven_used: bool = False
    blade_used: bool = False
    round: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    wildling_threat: Annotated[int, msgspec.Meta(ge=0, le=12, multiple_of=2)] = 2
    start_at: StartAt = "planning"
    """Where the game opens once started (docs/fixtures.md has an example of each):

    * ``planning``: orders are assigned next;
    * ``action``: the Action phase starts from the orders on the board (raids first, then marches,
      then Consolidate Power, BG-ACT-01); a house's Consolidate Power turn (mustering with a special
      order, BG-CP-03) is reached this way with only Consolidate Power orders on the board;
    * ``raven``: the orders on the board are revealed and the Messenger Raven holder decides
      (BG-PLAN-07);
    * ``westeros``: the Westeros phase (round 2 or later) opens at ``westeros.start_deck``;
    * ``muster``: as ``westeros``, the first card resolved being a Mustering (BG-WCARD-02): the
      first house to muster decides;
    * ``combat``: a combat after support was declared: both combatants choose their House card;
    * ``retreat``: a combat decided, its loser's retreat to choose (BG-COMBAT-19)."""
    seat_houses: Annotated[list[HouseId], msgspec.Meta(max_length=7)] | None = None
    """The house of each seat, in the order the seats are taken (``seat1`` first): part of the
    fixture, no random deal (BG-SETUP-02). Unset: houses are dealt at random from the seed. With
    Mother of Dragons it is required: the players' houses; every other house is a vassal
    (MOD-SETUP-01)."""
    garrisons: Literal["listed", "printed"] = "printed"
    """``printed`` (the default): areas whose ``garrison`` is not given keep their printed garrison
    (BG-SETUP-11), whether listed or not; ``listed``: an area's home garrison is the ``garrison``
    given for it, else none. Neutral forces are always as listed."""
    westeros: WesterosSetup | None = None
    """Deck orders (any start point) and where the Westeros phase opens (``westeros``, ``muster``)."""
    combat: CombatSetup | None = None
    """The combat in progress (``combat``, ``retreat``)."""
    commanders: Annotated[dict[HouseId, HouseId], msgspec.Meta(max_length=6)] | None = None
    """Mother of Dragons: vassal -> the player house commanding it this round, as the commanders'
    choice of this round's Planning phase left it (MOD-VASSAL-03..06: every vassal once, the sets
    passed down the Iron Throne track only). Required with every start point but ``planning``
    (where the commanders are chosen when the game opens, MOD-VASSAL-02); refused otherwise."""
