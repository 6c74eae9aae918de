"""The board game's domain events: a tagged union of immutable msgspec Structs.

The tag (``type``) is the event's name in snake_case. Events are facts in the past tense and are
never rewritten; if one ever changes shape it gets a new ``SCHEMA_VERSION`` (there is no upcaster
yet: every stored event is schema 1). Fields marked *hidden* are removed by the redaction
(:mod:`domain.board.redaction`) for readers who may not see them.

The lobby's and the Planning phase's events are defined here; the Action phase's live in
:mod:`domain.board.action.events` and the Westeros phase's (with the end of the game) in
:mod:`domain.board.westeros.events`, the judge's in :mod:`domain.board.judge_events`. :data:`BoardEvent` is the union of all of them. The base class
:class:`Event` lives alone in :mod:`domain.board.event_base`, so that the phases' event modules can
subclass it without importing this union.
"""

from __future__ import annotations

from .action.events import ACTION_EVENTS
from .clock_events import CLOCK_EVENTS
from .event_base import Event
from .judge_events import JUDGE_EVENTS, UNDO_EVENTS
from .mod_events import MOD_EVENTS
from .presence_events import PRESENCE_EVENTS
from .scenario import Scenario
from .state import Settings
from .westeros.events import WESTEROS_EVENTS

__all__ = ["Event", "BoardEvent", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1


class GameCreated(Event, frozen=True, tag="game_created"):
    """A board game was created for ``player_count`` houses (BG-SETUP-01)."""

    game_id: str
    player_count: int
    settings: Settings
    seed_commitment: str
    """sha256 of the secret seed; the seed is revealed when the game ends."""
    sealed_commitments: bool = False
    """Every sealed input carries a public commitment and its reveal the salt that opens it
    (domain/core/commitment.py). False only in games stored before commit–reveal existed."""
    seat_houses: list[str] | None = None
    """The house each seat will play, ``seat1`` first, when given at creation (a tournament's draw):
    the start deals exactly these (BG-SETUP-02). None: dealt at random from the seed at the start."""


class ScenarioLoaded(Event, frozen=True, tag="scenario_loaded"):
    """The game starts from a described position instead of the standard setup
    (domain/board/scenario.py). Public: it describes the board, not any hidden information."""

    scenario: Scenario


class SeatJoined(Event, frozen=True, tag="seat_joined"):
    seat_id: str
    name: str


class GameStarted(Event, frozen=True, tag="game_started"):
    """Houses were dealt to seats and the decks shuffled (BG-SETUP-02/03/04)."""

    houses: dict[str, str]
    """seat id -> house (random by default, BG-SETUP-02)."""
    wildling_deck: list[str] | None
    """Shuffled wildling deck, top first. Hidden."""
    westeros_decks: dict[str, list[str]] | None
    """Shuffled Westeros decks I-III, top first. Hidden."""


class StepBegan(Event, frozen=True, tag="step_began"):
    """The game moved to a new phase/step; ``deadline`` bounds the decisions it opens."""

    phase: str
    step: str
    round: int
    deadline: str | None = None
    sequential: bool = False


class OrdersSubmitted(Event, frozen=True, tag="orders_submitted"):
    """A house placed its orders face down (BG-PLAN-02/03). ``orders`` is hidden until the reveal."""

    house: str
    orders: dict[str, str] | None
    by_default: bool = False
    """True when the timeout default placed them."""
    salt: str | None = None
    """Hidden with the content: the secret salt of ``commitment`` (domain/core/commitment.py)."""
    commitment: str = ""
    """Public at once: sha256 over the content and the salt; empty in games created before
    commit–reveal (``GameCreated.sealed_commitments`` false)."""
    commander: str | None = None
    """Mother of Dragons: ``house`` is a vassal and this player house placed its orders
    (MOD-VASSAL-08); it sees them too."""


class OrdersRevealed(Event, frozen=True, tag="orders_revealed"):
    """All orders were turned face up at once (BG-PLAN-06)."""

    orders: dict[str, dict[str, str]]
    """house -> (area -> order id)."""
    salts: dict[str, str] = {}
    """house -> the salt of its submission, so anyone can open the commitment published with it."""


class RavenOrderReplaced(Event, frozen=True, tag="raven_order_replaced"):
    """BG-PLAN-07: the raven holder swapped one of its orders for an unused token, face up."""

    house: str
    area: str
    old_order: str
    new_order: str


class RavenWildlingPeeked(Event, frozen=True, tag="raven_wildling_peeked"):
    """BG-PLAN-07: the raven holder looked at the top wildling card. ``card`` is hidden from others."""

    house: str
    card: str | None


class RavenWildlingPlaced(Event, frozen=True, tag="raven_wildling_placed"):
    """The peeked card was left on top or put at the bottom of the wildling deck."""

    house: str
    to_bottom: bool


class RavenPassed(Event, frozen=True, tag="raven_passed"):
    house: str
    by_default: bool = False


class DecisionTimedOut(Event, frozen=True, tag="decision_timed_out"):
    """The deadline passed; the documented default for these houses follows in the same batch."""

    step: str
    houses: list[str]
    left: bool = False
    """Mother of Dragons: the player of these houses left the game (MOD-FLEX-01), so what it had
    pending got its default at once; no deadline passed, none was missed."""


PLANNING_EVENTS = (
    GameCreated
    | ScenarioLoaded
    | SeatJoined
    | GameStarted
    | StepBegan
    | OrdersSubmitted
    | OrdersRevealed
    | RavenOrderReplaced
    | RavenWildlingPeeked
    | RavenWildlingPlaced
    | RavenPassed
    | DecisionTimedOut
)

BoardEvent = (
    PLANNING_EVENTS
    | ACTION_EVENTS
    | WESTEROS_EVENTS
    | CLOCK_EVENTS
    | JUDGE_EVENTS
    | UNDO_EVENTS
    | MOD_EVENTS
    | PRESENCE_EVENTS
)
