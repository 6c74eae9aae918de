"""Request and response bodies of the REST API that belong to no game, and the unions of every
registered game's types that the OpenAPI document shows (a client of any kind finds its types)."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Annotated, Any

import msgspec

from domain import registry
from domain.core.envelope import Envelope
from domain.core.head import SignedHead
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
AnyJudgeCommand: Any = _union(
    [g.judge_command_type for g in registry.GAMES.values() if g.judge_command_type is not None]
)
"""Every game's judge's actions (tag ``type``; docs/judge.md); a game accepts only its own."""
AnyEvent: Any = _union([g.event_type for g in registry.GAMES.values()])
AnyView: Any = _union([g.view_type for g in registry.GAMES.values()])
AnyDecisions: Any = _union([g.decisions_type for g in registry.GAMES.values()])
CREATE_BODIES: list[type[msgspec.Struct]] = [g.create_body for g in registry.GAMES.values()]


ExportEvent = Envelope
"""An event of the export (``domain/core/envelope.py``); the document shows its ``event`` as the union of
the games' events (it is kept as the stored JSON so that its hash verifies)."""


class KindOnly(msgspec.Struct):
    """The one field read before a create body is decoded by its game."""

    kind: str = registry.DEFAULT_KIND


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/games/{id}/seats``: who takes the next free seat."""

    name: Name


class EventOut(msgspec.Struct):
    """One event of a game, redacted for the reader: a line of the NDJSON stream, an item of a command's answer."""

    seq: int
    """The event's sequence number: the game's version after it (1, 2, 3...). The cursor for `from`."""
    ts: str
    """When the event was appended (RFC 3339 UTC with milliseconds)."""
    event: AnyEvent  # a runtime union of every game's events, for the document
    """The event, tagged by `type`."""


class CommandAccepted(msgspec.Struct):
    """The answer to an accepted command: the new version and the events it produced, redacted for you."""

    game_id: str
    version: int
    """The game's version after the command (also the `ETag`)."""
    events: list[EventOut]
    """Exactly the events this command appended (follow-ups by the server come later: watch `/events`)."""


class JudgeActionOut(msgspec.Struct):
    """The answer to a judge's action (docs/judge.md)."""

    game_id: str
    version: int
    """The game's version after the action (also the `ETag`)."""
    events: list[EventOut]
    """The event the action appended (`judge_power_set`, `judge_unit_restored`, `judge_rolled_back`, `seat_replaced`)."""
    tokens: dict[str, str] = {}
    """seat id -> its new bearer token, for a seat the action gave to a new player (`replace_player`)."""


class JudgeTokenOut(msgspec.Struct):
    """The judge's bearer token of a game (docs/judge.md)."""

    game_id: str
    judge_token: str
    """Send it as `Authorization: Bearer <token>` to act as the game's judge: read everything live, act."""


class LogOut(msgspec.Struct):
    """A page of the game's public log."""

    game_id: str
    version: int
    """The game's version when the page was read (also the `ETag`)."""
    lines: list[LogLine]
    """Log lines after `from`, oldest first."""
    next_cursor: int | None
    """The `from` of the next page when this one is full; null at the end."""


REPLAY_FORMAT = "citadel-replay/1"
"""The replay file format (docs/replay-format.md, openapi/replay.schema.json); ``citadel-verify`` reads it."""


class ExportOut(msgspec.Struct):
    """A replay export: the file format ``citadel-replay/1`` (docs/replay-format.md)."""

    game_id: str
    version: int
    """The game's version: the number of events (also the `ETag`)."""
    seed_commitment: str
    """sha256 of the seed, published when the game was created."""
    seed: str | None
    """Revealed once the game is over; null before."""
    complete: bool
    """True when no event is redacted, so the hash chain verifies end to end."""
    signed_head: SignedHead
    """The game's chain head at ``version`` (the hash of its last event) signed with the deployment's
    Ed25519 key (``GET /v1/signing-key``): the verifier rejects a truncated or re-hashed export."""
    events: list[Envelope]
    """Every event with its sequence number, time, schema and hash-chain link."""
    redacted: list[int] = []
    """The numbers of the events partly hidden from the caller (their hash cannot be recomputed)."""
    kind: str = registry.DEFAULT_KIND
    """The kind of game (``board``...): which rules the verifier replays."""
    format: str = REPLAY_FORMAT
    """The replay file format and its version."""


class SigningKeyOut(msgspec.Struct):
    """The deployment's public key for chain-head signatures (docs/replay-format.md)."""

    key_id: str
    """``ed25519:`` and the first 16 hex digits of sha256 over the raw public key; named by each ``signed_head``."""
    algorithm: str
    public_key: str
    """Base64 of the raw 32-byte Ed25519 public key (what ``citadel-verify --public-key`` takes)."""
    public_key_pem: str
    """The same key as PEM (SubjectPublicKeyInfo)."""


class Health(msgspec.Struct, omit_defaults=True):
    """A health check's answer."""

    status: str
    """`ok`."""
    redis: str | None = None
    """Readiness only: `ok` when Redis answered."""
