"""The card game as a :class:`~domain.core.game.Game`: the one object the service knows it by.

Everything here delegates to the rule modules; this file only adapts their names to the protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from ..core.commands import Actor
from ..core.context import Context
from ..core.envelope import Envelope
from ..core.game import AuditReport, Deadline, LobbyInfo, LobbyStatus, SchemaDocs, SpectatorDelay
from ..core.rederive import Recorded
from ..core.reference import ReferenceDocument
from ..core.upcast import Upcaster
from . import commands as cmd
from . import events as ev
from . import rules
from .api_docs import DOCS
from .audit import audit as audit_export
from .decisions import CardDecisionsOut, decisions_for
from .evolve import fold
from .narrative import describe as describe_event
from .redaction import CardGameView, redact_event, view_for
from .state import CardState


class CardGame:
    """A Game of Thrones: The Card Game (2nd ed.), joust (``kind: "cards"``); see ``domain/cards/__init__.py``."""

    kind = "cards"
    title = "A Game of Thrones: The Card Game (2nd ed.), joust"
    schema_version = ev.SCHEMA_VERSION
    upcasters: Mapping[int, Upcaster] = {}
    creation_event = "cards_game_created"
    state_type: type[Any] = CardState
    create_body: type[msgspec.Struct] = cmd.CardsCreateBody
    command_type: Any = cmd.CardCommand
    event_type: Any = ev.CardEvent
    view_type: type[msgspec.Struct] = CardGameView
    decisions_type: type[msgspec.Struct] = CardDecisionsOut
    schema_docs: SchemaDocs = DOCS
    reference: tuple[ReferenceDocument, ...] = ()
    """Not yet: the card pool as reference data is part of issue 14's later work (docs/card-game.md)."""
    judge_command_type: Any = None
    """No judge's console yet (docs/judge.md): ``POST /judge`` answers 422 ``judge_unsupported``."""

    def create(self, body: cmd.CardsCreateBody, ctx: Context) -> list[Any]:
        return list(rules.create(body, ctx))

    def decide(self, state: CardState, command: object, actor: Actor, ctx: Context) -> list[Any]:
        return list(rules.decide(state, command, actor, ctx))

    def fold(self, events: Iterable[Any], state: CardState | None = None) -> CardState:
        out = fold(events, state)
        assert out is not None, "a card game's stream starts with cards_game_created"
        return out

    def pending_system_work(self, state: CardState) -> bool:
        return rules.pending_system_work(state)

    def deadline(self, state: CardState) -> Deadline | None:
        if state.phase in ("lobby", "ended") or state.deadline is None or rules.pending_system_work(state):
            return None
        return Deadline(step_version=state.step_version, at=state.deadline)

    def is_over(self, state: CardState) -> bool:
        return state.phase == "ended"

    def ends_game(self, event: Any) -> bool:
        return isinstance(event, ev.CardsGameEnded)

    def lobby(self, state: CardState) -> LobbyInfo:
        status: LobbyStatus = "open" if state.phase == "lobby" else "ended" if state.phase == "ended" else "running"
        return LobbyInfo(
            status=status,
            seats_taken=sum(1 for p in state.players if p.joined),
            seats_total=state.player_count,
            private=state.settings.private,
        )

    def awaiting(self, state: CardState) -> list[str]:
        """The seats whose decision the current step waits for."""
        return [] if state.phase in ("lobby", "ended") else list(state.waiting)

    def spectator_delay(self, state: CardState) -> SpectatorDelay:
        return SpectatorDelay()

    def round_began(self, event: Any) -> int | None:
        return None

    def seat_generation(self, state: CardState, seat_id: str) -> int:
        return 0

    def prepare_judge(self, state: CardState, history: Sequence[Recorded], command: object) -> object:
        return command

    def seat_replacements(self, events: Sequence[Any]) -> dict[str, int]:
        return {}

    def rollback_target(self, event: Any) -> int | None:
        return None

    def joined_seat(self, events: Sequence[Any]) -> str:
        joined = events[0]
        assert isinstance(joined, ev.CardsSeatJoined)
        return joined.seat_id

    def has_seat(self, state: CardState, seat_id: str) -> bool:
        return state.has_seat(seat_id)

    def reader_of(self, state: CardState, seat_id: str) -> str | None:
        """A seat reads with its own eyes: its reader is its seat id."""
        return seat_id if state.has_seat(seat_id) else None

    def readers(self, state: CardState) -> list[str]:
        return [p.seat_id for p in state.players if p.joined]

    def referee_export(self, state: CardState) -> bool:
        return state.settings.organizer_is_referee

    def seed_commitment(self, state: CardState) -> str:
        return state.seed_commitment

    def view(self, state: CardState, reader: str | None) -> CardGameView:
        return view_for(state, reader)

    def views(self, state: CardState, readers: Sequence[str | None]) -> dict[str | None, CardGameView]:
        return {r: view_for(state, r) for r in readers}

    def redact_event(self, event: Any, reader: str | None, game_over: bool = False) -> Any:
        return redact_event(event, reader, game_over=game_over)

    def decisions(self, state: CardState, seat_id: str | None) -> CardDecisionsOut:
        return decisions_for(state, seat_id)

    def describe(self, event: Any) -> str | None:
        return describe_event(event)

    def audit(self, envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
        return audit_export(envelopes, seed, redacted)


GAME = CardGame()
