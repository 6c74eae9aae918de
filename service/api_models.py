"""Request and response bodies of the REST API that are not domain types."""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.board.decisions import Decision
from domain.board.scenario import Scenario
from domain.board.state import Settings
from domain.core.envelope import Envelope

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class CreateGameBody(msgspec.Struct, forbid_unknown_fields=True):
    player_count: Annotated[int, msgspec.Meta(ge=3, le=6)]
    """3 to 6 (BG-SETUP-01)."""
    settings: Settings = msgspec.field(default_factory=Settings)
    scenario: Scenario | None = None
    """Scenario fixture: start from a described position instead of the standard setup."""


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Name


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


class LogLine(msgspec.Struct):
    seq: int
    ts: str
    text: str


class LogOut(msgspec.Struct):
    game_id: str
    version: int
    lines: list[LogLine]
    next_cursor: int | None


class ExportOut(msgspec.Struct):
    game_id: str
    version: int
    seed_commitment: str
    seed: str | None
    """Revealed once the game is over; null before."""
    complete: bool
    """True when no event is redacted, so the hash chain verifies end to end."""
    events: list[Envelope]


class Health(msgspec.Struct, omit_defaults=True):
    status: str
    redis: str | None = None
