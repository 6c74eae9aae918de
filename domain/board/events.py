"""The board game's domain events: a tagged union of immutable msgspec Structs.

The tag (``type``) is the event's name in snake_case. Events are facts in the past tense and are
never rewritten; if one changes shape it gets a new ``schema`` number and an upcaster in
:mod:`domain.board.upcasters`. Fields marked *hidden* are removed by the redaction for readers who
may not see them.
"""

from __future__ import annotations

from .state import Settings

SCHEMA_VERSION = 1


from .event_base import Event  # noqa: E402  (the base class lives alone, see event_base.py)
from .scenario import Scenario  # noqa: E402


class GameCreated(Event, tag="game_created"):
    """A board game was created for ``player_count`` houses (BG-SETUP-01)."""

    game_id: str
    player_count: int
    settings: Settings
    seed_commitment: str
    """sha256 of the secret seed; the seed is revealed when the game ends."""


class ScenarioLoaded(Event, tag="scenario_loaded"):
    """The game starts from a described position instead of the standard setup
    (domain/board/scenario.py). Public: it describes the board, not any hidden information."""

    scenario: Scenario


class SeatJoined(Event, tag="seat_joined"):
    seat_id: str
    name: str


class GameStarted(Event, tag="game_started"):
    """Houses were dealt to seats and the decks shuffled (BG-SETUP-02/03/04)."""

    houses: dict[str, str]
    """seat id -> house (random by default, BG-SETUP-02)."""
    wildling_deck: list[str] | None
    """Shuffled wildling deck, top first. Hidden."""
    westeros_decks: dict[str, list[str]] | None
    """Shuffled Westeros decks I-III, top first. Hidden."""


class StepBegan(Event, tag="step_began"):
    """The game moved to a new phase/step; ``deadline`` bounds the decisions it opens."""

    phase: str
    step: str
    round: int
    deadline: str | None = None
    sequential: bool = False


class OrdersSubmitted(Event, tag="orders_submitted"):
    """A house placed its orders face down (BG-PLAN-02/03). ``orders`` is hidden until the reveal."""

    house: str
    orders: dict[str, str] | None
    by_default: bool = False
    """True when the timeout default placed them."""


class OrdersRevealed(Event, tag="orders_revealed"):
    """All orders were turned face up at once (BG-PLAN-06)."""

    orders: dict[str, dict[str, str]]
    """house -> (area -> order id)."""


class RavenOrderReplaced(Event, tag="raven_order_replaced"):
    """BG-PLAN-07: the raven holder swapped one of its orders for an unused token, face up."""

    house: str
    area: str
    old_order: str
    new_order: str


class RavenWildlingPeeked(Event, tag="raven_wildling_peeked"):
    """BG-PLAN-07: the raven holder looked at the top wildling card. ``card`` is hidden from others."""

    house: str
    card: str | None


class RavenWildlingPlaced(Event, tag="raven_wildling_placed"):
    """The peeked card was left on top or put at the bottom of the wildling deck."""

    house: str
    to_bottom: bool


class RavenPassed(Event, tag="raven_passed"):
    house: str
    by_default: bool = False


class DecisionTimedOut(Event, tag="decision_timed_out"):
    """The deadline passed; the documented default for these houses follows in the same batch."""

    step: str
    houses: list[str]


BoardEvent = (
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

# The Action phase's events (issue 3) live in domain/board/action/events.py.
from .action.events import ACTION_EVENTS  # noqa: E402

BoardEvent = BoardEvent | ACTION_EVENTS

# The Westeros phase's, the wildling attacks' and the end of the game's events (issue 4) live in
# domain/board/westeros/events.py.
from .westeros.events import WESTEROS_EVENTS  # noqa: E402

BoardEvent = BoardEvent | WESTEROS_EVENTS
