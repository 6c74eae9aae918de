"""Request and response bodies of the REST API that belong to no game, and the unions of every
registered game's types that the OpenAPI document shows (a client of any kind finds its types)."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Annotated, Any

import msgspec

from domain import registry
from domain.core.envelope import Envelope
from service.store.read_models import LogLine

Name = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=64,
        pattern="^[^\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff<>]+$",
        description="1 to 64 characters; no control, format or bidirectional characters, no `<` or `>` "
        "(names are shown to every other player and in the log).",
    ),
]


def _union(types: list[Any]) -> Any:
    return reduce(or_, types)


AnyCommand: Any = _union([g.command_type for g in registry.GAMES.values()])
"""Every game's player commands (tag ``type``); a game accepts only its own."""
AnyEvent: Any = _union([g.event_type for g in registry.GAMES.values()])
AnyView: Any = _union([g.view_type for g in registry.GAMES.values()])
AnyDecisions: Any = _union([g.decisions_type for g in registry.GAMES.values()])
CREATE_BODIES: list[type[msgspec.Struct]] = [g.create_body for g in registry.GAMES.values()]


class KindOnly(msgspec.Struct):
    """The one field read before a create body is decoded by its game."""

    kind: str = registry.DEFAULT_KIND


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Name


class EventOut(msgspec.Struct):
    seq: int
    ts: str
    event: AnyEvent  # a runtime union of every game's events, for the document


class CommandAccepted(msgspec.Struct):
    """The answer to an accepted command: the new version and the events it produced, redacted for you."""

    game_id: str
    version: int
    events: list[EventOut]


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
    kind: str = registry.DEFAULT_KIND
    """The kind of game (``board``...): which rules the verifier replays."""


class Health(msgspec.Struct, omit_defaults=True):
    status: str
    redis: str | None = None
