"""The auction as a :class:`~domain.core.game.Game`: the one object the service knows it by.

Everything here delegates to the rule modules; this file only adapts their names to the protocol
(``domain/core/game.py``), like ``domain/board/game.py`` does for the board game.
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
from .decisions import AuctionDecisionsOut, decisions_for
from .evolve import fold
from .narrative import describe as describe_event
from .redaction import AuctionView, redact_event, view_for
from .state import AuctionState
from .upcasters import UPCASTERS


class AuctionGame:
    """A sealed-bid auction for 2-4 seats (``kind: "auction"``); see ``domain/auction/__init__.py``."""

    kind = "auction"
    title = "Sealed-bid auction"
    schema_version = ev.SCHEMA_VERSION
    upcasters: Mapping[int, Upcaster] = UPCASTERS
    """Schema 1 -> 2: the sealed bid's ``value`` became ``amount`` (domain/auction/upcasters.py)."""
    creation_event = "auction_created"
    """The tag of :class:`~.events.AuctionCreated`, the first event of every auction stream."""
    state_type: type[Any] = AuctionState
    create_body: type[msgspec.Struct] = cmd.AuctionCreateBody
    command_type: Any = cmd.AuctionCommand
    event_type: Any = ev.AuctionEvent
    view_type: type[msgspec.Struct] = AuctionView
    decisions_type: type[msgspec.Struct] = AuctionDecisionsOut
    schema_docs: SchemaDocs = DOCS
    reference: tuple[ReferenceDocument, ...] = ()
    """The auction has no reference data: its rules fit in its views."""

    def create(self, body: cmd.AuctionCreateBody, ctx: Context) -> list[Any]:
        return list(rules.create(body, ctx))

    def decide(self, state: AuctionState, command: object, actor: Actor, ctx: Context) -> list[Any]:
        return list(rules.decide(state, command, actor, ctx))

    def fold(self, events: Iterable[Any], state: AuctionState | None = None) -> AuctionState:
        out = fold(events, state)
        assert out is not None, "an auction stream starts with AuctionCreated"
        return out

    def pending_system_work(self, state: AuctionState) -> bool:
        """Every bid of the open round is in: the system must reveal them."""
        return state.phase == "bidding" and not state.missing_bids()

    def deadline(self, state: AuctionState) -> Deadline | None:
        if state.phase != "bidding" or state.deadline is None:
            return None
        return Deadline(step_version=state.step_version, at=state.deadline)

    def is_over(self, state: AuctionState) -> bool:
        return state.phase == "ended"

    def ends_game(self, event: Any) -> bool:
        return isinstance(event, ev.AuctionEnded)

    def lobby(self, state: AuctionState) -> LobbyInfo:
        status: LobbyStatus = "open" if state.phase == "lobby" else "ended" if state.phase == "ended" else "running"
        return LobbyInfo(
            status=status,
            seats_taken=len(state.seats),
            seats_total=state.player_count,
            private=state.settings.private,
        )

    def awaiting(self, state: AuctionState) -> list[str]:
        """The seats whose bid of the open round is missing."""
        return state.missing_bids()

    def joined_seat(self, events: Sequence[Any]) -> str:
        joined = events[0]
        assert isinstance(joined, ev.AuctionSeatJoined)
        return joined.seat_id

    def has_seat(self, state: AuctionState, seat_id: str) -> bool:
        return state.has_seat(seat_id)

    def reader_of(self, state: AuctionState, seat_id: str) -> str | None:
        """A seat reads with its own eyes: its reader is its seat id."""
        return seat_id if state.has_seat(seat_id) else None

    def readers(self, state: AuctionState) -> list[str]:
        return state.seat_ids()

    def referee_export(self, state: AuctionState) -> bool:
        return state.settings.organizer_is_referee

    def seed_commitment(self, state: AuctionState) -> str:
        return state.seed_commitment

    def spectator_delay(self, state: AuctionState) -> SpectatorDelay:
        return SpectatorDelay()

    def round_began(self, event: Any) -> int | None:
        return None

    def seat_generation(self, state: AuctionState, seat_id: str) -> int:
        return 0

    judge_command_type: Any = None
    """The auction has no judge's console (docs/judge.md): ``POST /judge`` answers 422 ``judge_unsupported``."""

    def prepare_judge(self, state: AuctionState, history: Sequence[Recorded], command: object) -> object:
        return command

    def seat_replacements(self, events: Sequence[Any]) -> dict[str, int]:
        return {}

    def rollback_target(self, event: Any) -> int | None:
        return None

    def view(self, state: AuctionState, reader: str | None) -> AuctionView:
        return view_for(state, reader)

    def views(self, state: AuctionState, readers: Sequence[str | None]) -> dict[str | None, AuctionView]:
        return {r: view_for(state, r) for r in readers}

    def redact_event(self, event: Any, reader: str | None, game_over: bool = False) -> Any:
        return redact_event(event, reader, game_over=game_over)

    def decisions(self, state: AuctionState, seat_id: str | None) -> AuctionDecisionsOut:
        return decisions_for(state, seat_id)

    def describe(self, event: Any) -> str | None:
        return describe_event(event)

    def audit(self, envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
        return audit_export(envelopes, seed, redacted)


GAME = AuctionGame()
