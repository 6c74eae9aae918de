"""The board game's state: a fold of its events.

Everything here is plain data. Hidden information (sealed orders, deck order, the raven's peek)
lives in the state too; it only leaves through :mod:`domain.board.redaction`.
The state is mutated *only* by :func:`domain.board.evolve.evolve` (and the phases' bookkeeping it
calls, :mod:`domain.board.action.evolve` and :mod:`domain.board.westeros.evolve`); ``decide`` reads it
(and works on a copy, :class:`domain.board.emitter.Emitter`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .action.state import ActionState
from .scenario_schema import Scenario
from .westeros.state import WesterosState

Phase = Literal["lobby", "setup", "westeros", "planning", "action", "ended"]
Step = Literal[
    "waiting_for_players",
    "choose_house",  # Mother of Dragons: the seats choose their houses (MOD-SETUP-01)
    "choose_commanders",  # Mother of Dragons: the players pick the vassals they command (MOD-VASSAL-03)
    "assign_orders",
    "reveal_orders",
    "messenger_raven",
    "raven_wildling_placement",
    "awaiting_action_phase",
    # The Action phase (domain/board/action, issue 3):
    "resolve_raid",
    "resolve_march",
    "resolve_consolidate_power",
    "declare_support",
    "choose_house_card",
    "house_card_ability",
    "use_blade",
    "choose_casualties",
    "choose_retreat",
    "choose_retreat_losses",
    "replace_port_ships",
    "awaiting_westeros_phase",
    "awaiting_final_scoring",
    # The Westeros phase and the end of the game (domain/board/westeros, issue 4):
    "bid",
    "westeros_choice",
    "select_units",
    "reconcile_armies",
    "muster",
    "game_over",
]
UNIT_TYPES = ("footman", "knight", "siege_engine", "ship")
WEAKEST_FIRST = ("footman", "ship", "knight", "siege_engine")
"""Weakest first: the order the documented defaults pick casualties and losses in."""

WESTEROS_STEP = "awaiting_westeros_phase"
"""The threshold between the Action phase's clean-up and the next Westeros phase (BG-WEST-01)."""
FINAL_STEP = "awaiting_final_scoring"
"""The threshold after round 10's Action phase, before the final scoring (BG-VIC-03)."""


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Game options chosen at creation."""

    decision_timeout_s: Annotated[int, msgspec.Meta(ge=1, le=7 * 24 * 3600)] = 600
    """Seconds each pending decision waits before its documented default is applied (1 s to 7 days)."""
    organizer_is_referee: bool = False
    """Tournament mode: the organizer does not play and may read the complete (unredacted) event
    export while the game runs. Off by default, because casual organizers usually play too."""
    tiebreak_ruleset: Literal["faq_v2", "seed"] = "faq_v2"
    """BG-VIC-04: tie-breaks after round 10. ``faq_v2``: most land areas, highest Supply, highest on
    the Iron Throne track; ``seed``: most Strongholds, highest Supply, most available Power, highest
    on the Iron Throne track."""
    spectator_delay_rounds: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    """Streamed tables: spectators (no token) see the game only up to the end of the round this many
    rounds before the current one, on every endpoint they can read (docs/judge.md). 0: live."""
    spectator_delay_s: Annotated[int, msgspec.Meta(ge=0, le=24 * 3600)] = 0
    """Streamed tables: spectators see only the events appended at least this many seconds ago
    (0: live). With both delays set, the stricter applies; after the end, the delay in rounds lapses."""
    tides_of_battle: bool = False
    """The optional Tides of Battle variant (BG-TIDES-01..05): before every combat between two houses
    the 24-card deck is shuffled and each combatant draws one card, revealed after the House cards;
    its strength, swords, towers and skulls join the combat. Off by default."""
    time_bank_s: Annotated[int, msgspec.Meta(ge=1, le=30 * 24 * 3600)] | None = None
    """Chess-clock time bank per seat, in seconds (docs/clocks.md); null (the default): no bank, only
    ``decision_timeout_s``. A seat's bank runs while the game waits on one of its decisions; when it
    runs out, that decision and every later one of the seat get their documented defaults at once.
    With Mother of Dragons only players have banks, from the end of the house choice; a vassal's
    decisions run its commander's."""
    increment_s: Annotated[int, msgspec.Meta(ge=0, le=24 * 3600)] = 0
    """Seconds added to a seat's bank after each decision it makes itself in time (Fischer increment;
    only with ``time_bank_s``)."""

    expansion: Literal["mother_of_dragons"] | None = None
    """``mother_of_dragons``: the Mother of Dragons expansion without Targaryen (docs/mother-of-dragons.md,
    issue 13 part 1): 3-7 players, House Arryn, the Eyrie and The Bite overlays, every unchosen house a
    vassal. None (the default): the base game."""

    vassal_after_missed_deadlines: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    """Mother of Dragons only: a seat that misses this many deadlines in a row (its decisions got
    their defaults at a timeout) leaves the game as if it had sent ``leave_game``: its house becomes
    a vassal (MOD-FLEX-01/02). A command of its own in between starts the count again. null (the
    default): never."""

    private: bool = False
    """A private game: never in the game list (``GET /v1/games``), and a seat is taken only with the
    invitation code its organizer received at creation. Off by default."""


class SeatClock(msgspec.Struct):
    """A house's time bank (docs/clocks.md). Folded from the clock events only: the domain has no clock."""

    bank_ms: int
    """Milliseconds left in the bank when the clock last stopped (or started)."""
    since: str | None = None
    """RFC 3339 time the clock started running (a decision of this house opened), moved by every
    pause; None while the game waits on no decision of this house."""
    out_of_time: bool = False
    """The bank ran out: every decision of this house gets its default as soon as it opens."""


class Pause(msgspec.Struct):
    """The clocks are paused (docs/clocks.md): no deadline fires and no bank runs."""

    at: str
    """RFC 3339: when the clocks stopped."""
    by: str
    """The role that paused them."""
    reason: str
    """Why."""


class AreaState(msgspec.Struct):
    house: str | None = None
    """The house whose units stand here (at most one house per area outside combat)."""
    units: dict[str, int] = {}
    """Unit type -> count of ``house``'s units here."""
    power_token: str | None = None
    """House whose Power token marks control here (land areas only, BG-MAP-04)."""
    garrison: int = 0
    """Strength of the home garrison token here (BG-SETUP-11), 0 if none."""
    neutral: int = 0
    """Strength of the neutral force token here (BG-SETUP-06), 0 if none."""
    blocked: bool = False
    """Impassable in this player count (3 players, BG-SETUP-06)."""


class Seat(msgspec.Struct):
    seat_id: str
    name: str
    house: str | None = None
    generation: int = 0
    """The seat's token generation: one more at each replacement by the judge (``seat_replaced``)."""
    left: bool = False
    """Mother of Dragons: the player left and its house became a vassal (MOD-FLEX-01)."""


class HouseState(msgspec.Struct):
    power: int
    """Available Power tokens (behind the screen)."""
    supply: int
    """Position on the Supply track (stored, BG-SETUP-12)."""
    hand: list[str]
    """House cards in hand."""
    discards: list[str] = []
    removed: list[str] = []
    """House cards removed from the game for good (Robert Arryn, Mother of Dragons)."""


class PlacedOrder(msgspec.Struct):
    house: str
    order: str


class Tracks(msgspec.Struct):
    iron_throne: list[str]
    fiefdoms: list[str]
    kings_court: list[str]


class Planning(msgspec.Struct):
    """The Planning phase's working data (BG-PLAN-*)."""

    sealed: dict[str, dict[str, str]] = {}
    """house -> (area -> order id): submitted, still face down. Hidden from everyone else."""
    salts: dict[str, str] = {}
    """house -> the salt of its sealed orders' commitment, published with the reveal. Hidden."""
    sequential: bool = False
    """BG-PLAN-05: some house has fewer eligible tokens than areas; houses place in turn order."""
    raven_peek: str | None = None
    """The wildling card the raven holder looked at this round (seen by that house only)."""
    raven_peek_house: str | None = None
    """The house that looked (the raven may change hands before the card is drawn)."""


class UndoRequest(msgspec.Struct):
    """A seat's pending request to undo its last command (docs/judge.md, undo with consent)."""

    seat_id: str
    house: str
    version: int
    """The rollback's target: just before the first event of the seat's last command."""
    reason: str
    deadline: str | None
    """When the request is refused by default (RFC 3339); None when decisions have no deadline."""
    consents: list[str] = []
    """The seats that consented so far."""


class BoardState(msgspec.Struct):
    game_id: str
    version: int
    player_count: int
    houses_in_play: list[str]
    settings: Settings
    seed_commitment: str
    sealed_commitments: bool = False
    """Sealed inputs are committed at submission and opened at the reveal (``GameCreated``)."""
    seat_houses: list[str] | None = None
    """The houses given at creation, ``seat1`` first (``GameCreated.seat_houses``): the start deals
    these instead of drawing (BG-SETUP-02)."""
    phase: Phase = "lobby"
    step: Step = "waiting_for_players"
    round: int = 1
    deadline: str | None = None
    """RFC 3339 deadline of the decisions now pending, if any."""
    scenario_routed: dict[str, dict[str, int]] = {}
    """Routed units of a scenario fixture, handed to the Action phase when it begins."""
    start_at: str = "planning"
    """Where the game opens when started: ``planning``, or a scenario fixture's start point."""
    fixture: Scenario | None = None
    """The scenario fixture the game was created from (its seat houses, deck orders and start point
    are used by the start, :mod:`domain.board.fixture_start`). Hidden parts (deck orders) leave only
    through :mod:`domain.board.redaction`."""
    step_version: int = 0
    """The version at which the current step began; a timeout job fires only if it is unchanged."""
    clocks: dict[str, SeatClock] = {}
    """house -> its time bank, with ``settings.time_bank_s`` (from the start on; with Mother of Dragons
    the players' only, once their houses are known); empty otherwise."""
    paused: Pause | None = None
    """Set while the clocks are paused (``clocks_paused``), cleared by ``clocks_resumed``."""
    started_version: int = 0
    """The version of ``game_started`` (0 before the start): a judge's rollback goes no further back."""
    seats: list[Seat] = []
    areas: dict[str, AreaState] = {}
    houses: dict[str, HouseState] = {}
    tracks: Tracks | None = None
    kings_court_stars: list[int] = []
    raven_used: bool = False
    blade_used: bool = False
    wildling_threat: int = 2
    wildling_deck: list[str] = []
    """Top card first. Hidden."""
    westeros_decks: dict[str, list[str]] = {}
    """Deck id -> card ids, top first. Hidden."""
    forbidden_order_types: list[str] = []
    """Order types (or the ``march_plus_1_special`` token) forbidden in this round's Planning phase
    by a Westeros card (BG-WCARD-10..16); cleared when the next Westeros phase begins."""
    orders: dict[str, PlacedOrder] = {}
    """Revealed orders on the board: area -> order."""
    planning: Planning = msgspec.field(default_factory=Planning)
    action: ActionState | None = None
    """The Action phase's working data while it runs (domain/board/action); None otherwise."""
    westeros: WesterosState | None = None
    """The Westeros phase's working data while it runs (domain/board/westeros); None otherwise."""
    house_choice_order: list[str] = []
    """Mother of Dragons: the seats in the order they choose their houses (MOD-SETUP-01), the random
    first player first; a seat has chosen once it has a house."""
    vassals: list[str] = []
    """Mother of Dragons: the houses no player chose, commanded by players (MOD-VASSAL-01); empty
    in the base game."""
    vassal_order_sets: dict[str, int] = {}
    """Mother of Dragons: player house -> how many sets of 4 Vassal Order tokens it holds and has not
    yet used to pick a vassal or passed on (MOD-SETUP-11, MOD-VASSAL-02..06); all used once every
    vassal has its commander."""
    commanders: dict[str, str] = {}
    """Mother of Dragons: vassal -> the player house commanding it this round (MOD-VASSAL-03), from
    the choice at the start of the Planning phase to the start of the next one. Public."""
    vassal_house_deck: list[str] = []
    """Mother of Dragons: the shared Vassal House card deck (MOD-VASSAL-14). Public until a combat
    draws from it."""
    vassal_draws: int = 0
    """Mother of Dragons: how many times the Vassal House deck was shuffled and drawn from (MOD-VASSAL-14)."""
    missed_deadlines: dict[str, int] = {}
    """With ``settings.vassal_after_missed_deadlines``: player house -> the deadlines its seat missed
    in a row (``decision_timed_out``; cleared by ``missed_deadlines_cleared``)."""
    missed_counted_at: dict[str, int] = {}
    """With ``settings.vassal_after_missed_deadlines``: player house -> the ``step_version`` of the
    deadline last counted in :attr:`missed_deadlines`: one deadline counts once per seat, even when
    its batch times out several of the seat's decisions (after a player left, the commanders' choice
    and the step's own decisions share one deadline)."""
    winner: str | None = None
    """The house that won, once the game has ended (BG-VIC-*)."""
    undo_request: UndoRequest | None = None
    """A seat's request to undo its last command, waiting for its opponents' consent."""

    def seat(self, seat_id: str) -> Seat | None:
        for s in self.seats:
            if s.seat_id == seat_id:
                return s
        return None

    def seat_of_house(self, house: str) -> Seat | None:
        for s in self.seats:
            if s.house == house:
                return s
        return None

    def has_left(self, house: str) -> bool:
        """Mother of Dragons: ``house``'s player left (MOD-FLEX-01); as a vassal it keeps playing its own
        House cards (MOD-FLEX-02, decided: S&R), not the shared Vassal House deck."""
        seat = self.seat_of_house(house)
        return seat is not None and seat.left

    def family(self, house: str) -> str:
        """Mother of Dragons: the head of ``house``'s "vassal family", its commander for a vassal and
        itself otherwise (MOD-VASSAL-18, MOD-VASSAL-27); every house in the base game."""
        return self.commanders.get(house, house)

    def deciding_seat(self, house: str) -> Seat | None:
        """The seat that decides for ``house``: its player, or for a Mother of Dragons vassal the
        player of its commander (MOD-VASSAL-09, MOD-VASSAL-13, MOD-VASSAL-24); none for a vassal whose
        commander is still to be chosen (a seat that left decides nothing, MOD-FLEX-01)."""
        seat = self.seat_of_house(self.commanders.get(house, house))
        return None if seat is not None and seat.left else seat

    def turn_order(self) -> list[str]:
        """BG-COK-11: turn order is the Iron Throne track, position 1 first."""
        return list(self.tracks.iron_throne) if self.tracks else []

    def top_player(self, track: list[str]) -> str:
        """BG-COK-01: the house holding a track's Dominance token, its position 1. A vassal never
        holds one: with Mother of Dragons the highest player house on the track does (MOD-VASSAL-21,
        MOD-SETUP-10)."""
        return next(h for h in track if h not in self.vassals)

    def raven_holder(self) -> str | None:
        """BG-COK-01/BG-SETUP-09: the Messenger Raven belongs to King's Court position 1 (MOD-VASSAL-21)."""
        return self.top_player(self.tracks.kings_court) if self.tracks else None

    def blade_holder(self) -> str | None:
        """BG-COK-01/BG-SETUP-09: the Valyrian Steel Blade belongs to Fiefdoms position 1 (MOD-VASSAL-21)."""
        return self.top_player(self.tracks.fiefdoms) if self.tracks else None

    def throne_holder(self) -> str | None:
        """BG-COK-01: the Iron Throne belongs to Iron Throne position 1 (MOD-VASSAL-21)."""
        return self.top_player(self.tracks.iron_throne) if self.tracks else None
