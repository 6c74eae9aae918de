"""The ``Game`` protocol: all that the engine, workers, projector, exports and verifier know of a game.

A game is a package under ``domain/`` (``domain/board/``, ...) that exposes one object satisfying
:class:`Game`, registered by kind in ``domain/registry.py``. Nothing outside ``domain/`` names a
game: the service creates, loads, decides, redacts and audits through this protocol alone.

The shape is the Decider of functional event sourcing:

* ``create(body, ctx) -> events``: the first events of a new game (the first is its creation);
* ``decide(state, command, actor, ctx) -> events``: pure; raises a
  :class:`~domain.core.errors.GameError` and returns nothing when the command is refused;
* ``fold(events, state) -> state``: the state is the fold of the events (``version`` counts them).

Around it, what a server needs to host the game without knowing its rules: the sealed inputs a
worker must resolve (:meth:`Game.pending_system_work`), the deadline a worker must enforce
(:meth:`Game.deadline`), one redaction per reader (:meth:`Game.view`, :meth:`Game.redact_event`),
the decisions each seat faces, the log narrative, and the offline audit of an export.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import msgspec

from .commands import Actor
from .context import Context
from .envelope import Envelope
from .errors import ErrorKind
from .rederive import Recorded
from .reference import ReferenceDocument
from .upcast import Upcaster


class GameState(Protocol):
    """What every game's state carries: its id and its version (the number of events folded)."""

    game_id: str
    version: int


class Deadline(msgspec.Struct, frozen=True):
    """The deadline of the decisions now pending. ``step_version`` names the step that set it: a
    timeout fired for an older step is void."""

    step_version: int
    at: str
    """RFC 3339 UTC."""


LobbyStatus = Literal["open", "running", "ended"]
"""``open``: seats may be taken (not started); ``running``: started, not over; ``ended``: over."""


class LobbyInfo(msgspec.Struct, frozen=True):
    """What the lobby (``GET /v1/games``) and the joining rules need of a game, whatever its rules."""

    status: LobbyStatus
    seats_taken: int
    seats_total: int
    private: bool = False
    """Created with ``settings.private``: never listed, and a seat is taken only with the invitation."""


class SpectatorDelay(msgspec.Struct, frozen=True):
    """How far behind the game spectators read it, chosen by the organizer at creation (docs/judge.md).
    The service applies it (the domain has no clock): a spectator sees no event newer than the
    stricter of the two."""

    rounds: int = 0
    """Spectators see the game up to the end of the round this many rounds before the current one."""
    seconds: int = 0
    """Spectators see only the events appended at least this many seconds ago."""


class AuditReport(msgspec.Struct):
    """The offline verdict on a replay export (``scripts/verify_replay.py``)."""

    version: int
    chain_ok: bool
    seed_ok: bool | None
    """None when the seed is not revealed yet."""
    shuffles_ok: bool | None
    rules_ok: bool
    """No divergence: every event checked is what the rules produce (see ``divergence``)."""
    problems: list[str]
    rederived_through: int = 0
    """The sequence number up to which every event was re-derived from the commands (0: none)."""
    batches: int = 0
    """How many batches (one command's events each) were re-derived."""
    divergence: str | None = None
    """The first event that differs from what the rules produce: number, expected, found."""
    unverified: list[str] = msgspec.field(default_factory=list)
    """What could not be verified and why (redacted events, a seed not revealed yet)."""
    seed_commitment: str | None = None
    """The commitment the creation event publishes (None when the events cannot be read)."""
    game_over: bool = False
    """The events end the game: the export must then reveal the seed."""
    commitments_ok: bool | None = None
    """Commit–reveal (domain/core/commitment.py): every reveal of a sealed input opens the
    commitment published when it was submitted. None when the game commits none (a game created
    before commit–reveal, or a game without sealed inputs)."""
    commitment_problems: list[str] = msgspec.field(default_factory=list)
    """Each reveal that does not open its commitment, with the event numbers of both (also in ``problems``)."""
    reveals_opened: int = 0
    """How many revealed sealed inputs were checked against their commitments."""


class SchemaDocs(msgspec.Struct, frozen=True):
    """What the API document says of a game's types beyond their annotations and docstrings
    (``service/http/openapi.py`` reads it; a field's own docstring or ``Meta(description=...)`` wins).

    Field rules are keyed by the field's JSON name, which then means the same in every type of the
    game, or by ``"Struct.field"`` for one type only (it wins over the plain name)."""

    enums: dict[str, tuple[str, ...]] = {}
    """Named value sets (``"Area"``: every area id), each a component schema of the document."""
    values: dict[str, str] = {}
    """Field -> the value set its strings take: the field itself, its items or its dict values
    (an empty name: none, to exempt one struct's field from a rule on its plain name)."""
    keys: dict[str, str] = {}
    """Field -> the value set of its dict keys."""
    descriptions: dict[str, str] = {}
    """Field -> its description, for the fields without a docstring."""
    examples: tuple[msgspec.Struct, ...] = ()
    """Typical instances of the game's commands, decision options, events and answers, by type."""
    problem_codes: dict[str, tuple[ErrorKind, str]] = {}
    """Every ``code`` the game's refusals carry: its kind (the HTTP status follows from it) and meaning."""


class Game(Protocol):
    """One game's rules, as the service sees them. See the module docstring.

    The data members are read-only (a game's kind, schema and types never change at run time)."""

    @property
    def kind(self) -> str:
        """Stable name used in the API and exports (``"board"``)."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def schema_version(self) -> int:
        """The schema of the events this code writes (stored in each envelope)."""
        ...

    @property
    def upcasters(self) -> Mapping[int, Upcaster]:
        """``upcasters[n]`` reads a schema-``n`` event as schema ``n + 1`` (``domain/core/upcast.py``)."""
        ...

    @property
    def creation_event(self) -> str:
        """The tag of the first event of every stream of this game: how a stream names its kind."""
        ...

    @property
    def state_type(self) -> type[Any]:
        """The state's type (snapshots are stored in it)."""
        ...

    @property
    def create_body(self) -> type[msgspec.Struct]:
        """The request body of ``POST /v1/games`` for this kind (strict: unknown fields refused)."""
        ...

    @property
    def command_type(self) -> Any:
        """The tagged union of the player commands (the body of ``POST /v1/games/{id}/commands``)."""
        ...

    @property
    def event_type(self) -> Any:
        """The tagged union of the events (what a stream holds)."""
        ...

    @property
    def view_type(self) -> type[msgspec.Struct]:
        """The view of the game a reader gets (``GET /v1/games/{id}``)."""
        ...

    @property
    def decisions_type(self) -> type[msgspec.Struct]:
        """The answer of ``GET /v1/games/{id}/decisions``."""
        ...

    @property
    def schema_docs(self) -> SchemaDocs:
        """Value sets, field descriptions, examples and refusal codes for the API document."""
        ...

    @property
    def reference(self) -> tuple[ReferenceDocument, ...]:
        """The game's reference data (``domain/core/reference.py``): the board, cards, tokens... each
        served at ``GET /v1/reference/{name}``; empty when the game has none."""
        ...

    # -- the decider -----------------------------------------------------------------------

    def create(self, body: Any, ctx: Context) -> list[Any]:
        """The first events of a new game from its validated create body; raises GameError."""
        ...

    def decide(self, state: Any, command: object, actor: Actor, ctx: Context) -> list[Any]:
        """Events for ``command`` by ``actor``, or a GameError. Never mutates ``state``."""
        ...

    def fold(self, events: Iterable[Any], state: Any = None) -> Any:
        """Apply events in order (mutating ``state``; a fresh state for the first event)."""
        ...

    # -- what the workers need ---------------------------------------------------------------

    def pending_system_work(self, state: Any) -> bool:
        """True when a worker must send ``ResolvePending`` (all sealed inputs are in, a phase must open)."""
        ...

    def deadline(self, state: Any) -> Deadline | None:
        """The deadline of the pending decisions, if any: the earliest one (a seat's time bank may
        end before the step's deadline), and none while a judge has paused the clocks (docs/clocks.md).
        The engine marks it for the workers whenever a batch opens a step or moves it."""
        ...

    def is_over(self, state: Any) -> bool:
        """True once the game has ended: from then on everything is public."""
        ...

    def ends_game(self, event: Any) -> bool:
        """True for the event that ends the game (a live stream stops redacting from it on)."""
        ...

    # -- the lobby ---------------------------------------------------------------------------

    def lobby(self, state: Any) -> LobbyInfo:
        """Status, seats taken of the total, and whether the game is private (the game list)."""
        ...

    def awaiting(self, state: Any) -> list[str]:
        """The seats that have a decision open now and have not answered it (``your turn``): the
        seats of ``decisions(...).waiting_for``, without their options."""
        ...

    # -- seats and readers -------------------------------------------------------------------

    def joined_seat(self, events: Sequence[Any]) -> str:
        """The seat id that a ``JoinGame`` batch gave out."""
        ...

    def has_seat(self, state: Any, seat_id: str) -> bool: ...

    def reader_of(self, state: Any, seat_id: str) -> str | None:
        """Whose eyes a seat reads with (the board game: its house), or None (public) before it has any."""
        ...

    def readers(self, state: Any) -> list[str]:
        """Every reader but the public one, for the projections."""
        ...

    def referee_export(self, state: Any) -> bool:
        """True when the organizer may read the complete export while the game runs (tournament mode)."""
        ...

    def seed_commitment(self, state: Any) -> str: ...

    def spectator_delay(self, state: Any) -> SpectatorDelay:
        """The delay behind which spectators read the game (none: ``SpectatorDelay()``)."""
        ...

    def round_began(self, event: Any) -> int | None:
        """The round this event opens a step of (None for an event that opens none): where a
        delay in rounds cuts the stream."""
        ...

    def seat_generation(self, state: Any, seat_id: str) -> int:
        """The seat's token generation (0 until the judge replaces its player, docs/judge.md)."""
        ...

    # -- the judge (docs/judge.md) -----------------------------------------------------------

    @property
    def judge_command_type(self) -> Any:
        """The tagged union of the judge's commands (the body of ``POST /v1/games/{id}/judge``)."""
        ...

    def prepare_judge(self, state: Any, history: Sequence[Recorded], command: object) -> object:
        """The judge's command to decide, given the stream so far (``history``, every event of the
        current version): what needs the past is settled here (the version an undo returns to, a
        rollback's target being the end of a batch); raises GameError when it cannot be. A seat's
        :class:`~domain.core.commands.RequestUndo` (undo with the opponents' consent) is prepared
        here too; a game without undo returns it as it is (its ``decide`` refuses it)."""
        ...

    def seat_replacements(self, events: Sequence[Any]) -> dict[str, int]:
        """seat id -> its new token generation, for each seat these events gave to a new player."""
        ...

    def rollback_target(self, event: Any) -> int | None:
        """The version a judge's rollback event returns the game to, None for any other event: the
        state after it is re-derived from the events before that version (domain/core/rollback.py)."""
        ...

    # -- hidden information: one redaction per game ------------------------------------------

    def view(self, state: Any, reader: str | None) -> msgspec.Struct:
        """The state as ``reader`` may see it (None: a spectator)."""
        ...

    def views(self, state: Any, readers: Sequence[str | None]) -> Mapping[str | None, msgspec.Struct]:
        """:meth:`view` of each reader, as a projection writes them all at once (a game may compute
        the parts that do not depend on the reader once; each view must equal :meth:`view`'s)."""
        ...

    def redact_event(self, event: Any, reader: str | None, game_over: bool = False) -> Any:
        """The event as ``reader`` may see it (the same object when nothing is hidden)."""
        ...

    def decisions(self, state: Any, seat_id: str | None) -> msgspec.Struct:
        """What ``seat_id`` must decide now with its legal options, and whom the game waits for."""
        ...

    # -- narrative and audit ---------------------------------------------------------------

    def describe(self, event: Any) -> str | None:
        """One public log line for an (already redacted) event, or None."""
        ...

    def audit(self, envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
        """Verify an export offline: chain, seed commitment, every random outcome, the rules.
        ``redacted``: the sequence numbers of events the export hides in part from its reader."""
        ...
