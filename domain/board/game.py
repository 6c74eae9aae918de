"""The board game as a :class:`~domain.core.game.Game`: the one object the service knows it by.

Everything here delegates to the rule modules; this file only adapts their names to the protocol
(``domain/core/game.py``) and defines the board game's create body and decisions answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

import msgspec

from ..core.commands import Actor, RequestUndo
from ..core.context import Context, parse_rfc3339, rfc3339
from ..core.envelope import Envelope
from ..core.errors import RuleViolation
from ..core.game import AuditReport, Deadline, LobbyInfo, LobbyStatus, SchemaDocs, SpectatorDelay
from ..core.rederive import Recorded
from ..core.reference import ReferenceDocument
from ..core.upcast import Upcaster
from . import commands as cmd
from . import decider, judge
from . import events as ev
from .api_docs import DOCS
from .audit import audit as audit_export
from .clocks import effective_deadline
from .decisions import Decision, optional_decisions, pending_decisions
from .judge_events import SeatReplaced
from .narrative import describe as describe_event
from .redaction import BoardView, redact_event, view_for, views_for
from .reference import documents as reference_documents
from .replay import batch_ends, last_command_start
from .scenario import Scenario
from .state import BoardState, Settings
from .undo_consent import UndoRequestAt
from .westeros.events import GameEnded, WesterosPhaseBegan


class BoardCreateBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/games`` for the board game (``kind`` may be left out: the board game is the default)."""

    player_count: Annotated[int, msgspec.Meta(ge=3, le=7)]
    """3 to 6 (BG-SETUP-01); 7 only with ``settings.expansion`` ``mother_of_dragons`` (MOD-SETUP-01),
    the rules refuse it otherwise (422 ``invalid_player_count``)."""
    kind: Literal["board"] = "board"
    settings: Settings = msgspec.field(default_factory=Settings)
    scenario: Scenario | None = None
    """Scenario fixture: start from a described position instead of the standard setup."""
    seat_houses: (
        Annotated[list[Annotated[str, msgspec.Meta(min_length=1, max_length=32)]], msgspec.Meta(max_length=7)] | None
    ) = None
    """The house of each seat, ``seat1`` first, naming each house in play once (BG-SETUP-02): the start
    deals these instead of drawing them (422 ``invalid_seat_houses`` otherwise). With Mother of
    Dragons: a different one of the seven houses per seat (Arryn included); the seats then choose no
    house and the houses not named become vassals (MOD-SETUP-01). Unset: houses are dealt at random
    from the game's seed when the game starts (chosen by the seats with Mother of Dragons)."""


class Waiting(msgspec.Struct):
    seat_id: str
    house: str
    kind: str
    deadline: str | None


class DecisionsOut(msgspec.Struct):
    game_id: str
    version: int
    phase: str
    step: str
    decisions: list[Decision]
    """What you must decide now (empty if nothing)."""
    waiting_for: list[Waiting]
    """Everyone the game is waiting on, without their options."""


SCHEMA_DOCS = msgspec.structs.replace(
    DOCS,
    examples=(
        *DOCS.examples,
        BoardCreateBody(player_count=4),
        DecisionsOut(
            game_id="g_5aa048011931598388d613dc747077aa",
            version=9,
            phase="planning",
            step="assign_orders",
            decisions=[],
            waiting_for=[
                Waiting(seat_id="seat2", house="lannister", kind="assign_orders", deadline="2026-11-29T13:40:32.282Z")
            ],
        ),
    ),
)
"""``api_docs.DOCS`` with examples of this module's create body and decisions answer."""


class BoardGame:
    """A Game of Thrones: The Board Game, second edition (``kind: "board"``)."""

    kind = "board"
    title = "A Game of Thrones: The Board Game (2nd ed.)"
    schema_version = ev.SCHEMA_VERSION
    create_body = BoardCreateBody
    command_type: Any = cmd.PlayerCommand
    judge_command_type: Any = judge.JudgeCommand
    event_type: Any = ev.BoardEvent
    view_type = BoardView
    decisions_type = DecisionsOut
    upcasters: dict[int, Upcaster] = {}
    """Schema 1 is the only schema the board game has written so far: nothing to upcast yet."""
    creation_event = "game_created"
    state_type = BoardState
    schema_docs: SchemaDocs = SCHEMA_DOCS
    reference: tuple[ReferenceDocument, ...] = reference_documents()
    """The board, the cards and the order tokens (``reference.py``): ``GET /v1/reference/...``."""

    def create(self, body: BoardCreateBody, ctx: Context) -> list[Any]:
        return decider.create(
            cmd.CreateGame(
                player_count=body.player_count,
                settings=body.settings,
                scenario=body.scenario,
                seat_houses=body.seat_houses,
            ),
            ctx,
        )

    def decide(self, state: BoardState, command: object, actor: Actor, ctx: Context) -> list[Any]:
        return decider.decide(state, command, actor, ctx)

    def fold(self, events: Iterable[Any], state: BoardState | None = None) -> BoardState:
        out = decider.fold(events, state)
        assert out is not None, "a board game stream starts with GameCreated"
        return out

    def pending_system_work(self, state: BoardState) -> bool:
        return decider.pending_system_work(state)

    def deadline(self, state: BoardState) -> Deadline | None:
        """The earliest of the step's deadline and the running time banks' ends; none while the
        clocks are paused (docs/clocks.md)."""
        at = effective_deadline(state)
        undo = state.undo_request  # an undo request's deadline (docs/judge.md): refused by default
        if undo is not None and undo.deadline is not None and state.paused is None:
            until = parse_rfc3339(undo.deadline)
            at = until if at is None else min(at, until)
        if at is None:
            return None
        return Deadline(step_version=state.step_version, at=rfc3339(at))

    def is_over(self, state: BoardState) -> bool:
        return state.phase == "ended"

    def ends_game(self, event: Any) -> bool:
        return isinstance(event, GameEnded)

    def lobby(self, state: BoardState) -> LobbyInfo:
        status: LobbyStatus = "open" if state.phase == "lobby" else "ended" if state.phase == "ended" else "running"
        return LobbyInfo(
            status=status,
            seats_taken=len(state.seats),
            seats_total=state.player_count,
            private=state.settings.private,
        )

    def awaiting(self, state: BoardState) -> list[str]:
        """Every seat a decision waits on; sealed orders already in (amendable) do not wait, nor does a
        vassal whose commander is still to be chosen (no seat: MOD-FLEX-01)."""
        seats = [
            d.seat_id for d in pending_decisions(state) if d.seat_id and getattr(d.options, "submitted", None) is None
        ]
        return list(dict.fromkeys(seats))

    def joined_seat(self, events: Sequence[Any]) -> str:
        joined = events[0]
        assert isinstance(joined, ev.SeatJoined)
        return joined.seat_id

    def has_seat(self, state: BoardState, seat_id: str) -> bool:
        return state.seat(seat_id) is not None

    def reader_of(self, state: BoardState, seat_id: str) -> str | None:
        """The seat's house; the public's eyes once its player left (MOD-FLEX-01): its house is a
        vassal, whose hidden information is its commander's now."""
        seat = state.seat(seat_id)
        return seat.house if seat and not seat.left else None

    def readers(self, state: BoardState) -> list[str]:
        return list(state.houses_in_play)

    def referee_export(self, state: BoardState) -> bool:
        return state.settings.organizer_is_referee

    def seed_commitment(self, state: BoardState) -> str:
        return state.seed_commitment

    def spectator_delay(self, state: BoardState) -> SpectatorDelay:
        return SpectatorDelay(rounds=state.settings.spectator_delay_rounds, seconds=state.settings.spectator_delay_s)

    def round_began(self, event: Any) -> int | None:
        return event.round if isinstance(event, ev.StepBegan | WesterosPhaseBegan) else None

    def seat_generation(self, state: BoardState, seat_id: str) -> int:
        seat = state.seat(seat_id)
        return seat.generation if seat else 0

    def prepare_judge(self, state: BoardState, history: Sequence[Recorded], command: object) -> object:
        if isinstance(command, RequestUndo):  # a seat's, with the opponents' consent (docs/judge.md)
            start = last_command_start(state, history, command.seat_id)
            if start is None:
                raise RuleViolation(f"{command.seat_id} has sent no command since the start", code="nothing_to_undo")
            return UndoRequestAt(version=start - 1, reason=command.reason)
        if isinstance(command, judge.UndoLastCommand):
            start = last_command_start(state, history, command.seat_id)
            if start is None:
                raise RuleViolation(f"{command.seat_id} has sent no command since the start", code="nothing_to_undo")
            return judge.RollBack(version=start - 1, reason=command.reason, undone_seat=command.seat_id)
        if isinstance(command, judge.RollBack) and command.version not in batch_ends(history):
            raise RuleViolation(
                f"version {command.version} is not the end of a command's events: roll back to the end of one",
                code="rollback_out_of_range",
            )
        return command

    def seat_replacements(self, events: Sequence[Any]) -> dict[str, int]:
        return {e.seat_id: e.generation for e in events if isinstance(e, SeatReplaced)}

    def rollback_target(self, event: Any) -> int | None:
        return decider.rollback_target(event)

    def view(self, state: BoardState, reader: str | None) -> BoardView:
        return view_for(state, reader)

    def views(self, state: BoardState, readers: Sequence[str | None]) -> dict[str | None, BoardView]:
        return views_for(state, readers)

    def redact_event(self, event: Any, reader: str | None, game_over: bool = False) -> Any:
        return redact_event(event, reader, game_over=game_over)

    def decisions(self, state: BoardState, seat_id: str | None) -> DecisionsOut:
        every = pending_decisions(state)
        return DecisionsOut(
            game_id=state.game_id,
            version=state.version,
            phase=state.phase,
            step=state.step,
            decisions=[d for d in every if seat_id is not None and d.seat_id == seat_id]
            + (optional_decisions(state, seat_id) if seat_id is not None else []),
            waiting_for=[
                Waiting(
                    seat_id=d.seat_id, house=d.house, kind=str(d.options.__struct_config__.tag), deadline=d.deadline
                )
                for d in every
                if getattr(d.options, "submitted", None) is None  # sealed orders in: amendable, not awaited
            ],
        )

    def describe(self, event: Any) -> str | None:
        return describe_event(event)

    def audit(self, envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
        return audit_export(envelopes, seed, redacted)


GAME = BoardGame()
