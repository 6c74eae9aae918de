"""Request and response bodies of the REST API that belong to no game, and the unions of every
registered game's types that the OpenAPI document shows (a client of any kind finds its types)."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Annotated, Any, Literal

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


InvitationCode = Annotated[
    str,
    msgspec.Meta(
        pattern="^inv_[A-Za-z0-9_-]{24}$",
        description="A private game's invitation code (`inv_` and 24 base64url characters).",
        examples=["inv_3q2-7wBnW0bqlhXy1T4Q9hkZ"],
    ),
]


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/games/{id}/seats``: who takes the next free seat."""

    name: Name
    invitation: InvitationCode | None = None
    """A private game's invitation code, from its organizer (`403 invitation_required` without it,
    `403 invalid_invitation` when it is not this game's). Public games ignore it."""


class InvitationOut(msgspec.Struct):
    """A private game's invitation code: whoever holds it may take a free seat."""

    game_id: str
    invitation_code: str
    """Send it as `invitation` in `POST /v1/games/{game_id}/seats`. Derived from the game and the
    deployment's secret: the same code every time it is asked for."""


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


class UndoRequestIn(msgspec.Struct, forbid_unknown_fields=True):
    """A seat asks to undo its own last command, with its opponents' consent (docs/judge.md)."""

    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500, examples=["misclicked the March"])]
    """Why: shown to the opponents in their `undo_consent` decision, kept in the log and the export."""


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


class GameSummary(msgspec.Struct):
    """A public game as the game list shows it: public facts only (no names, no tokens)."""

    game_id: str
    kind: str
    status: Literal["open", "running", "ended"]
    """`open`: seats can be taken, not started; `running`: started; `ended`: over."""
    seats_taken: int
    """How many seats are taken."""
    seats_total: int
    """How many seats the game has."""
    created_at: str
    """When the game was created (RFC 3339 UTC)."""
    version: int
    """The game's version when the page was read."""


class GameListOut(msgspec.Struct):
    """A page of the public games, newest first."""

    games: list[GameSummary]
    """At most `limit` games, newest first."""
    next_cursor: str | None
    """Pass it as `cursor` for the next page; null on the last page."""


class SeatKey(msgspec.Struct, forbid_unknown_fields=True):
    """A seat to watch: its game and its bearer token."""

    game_id: Annotated[str, msgspec.Meta(pattern="^g_[0-9a-f]{32}$", description="The game's id.")]
    token: Annotated[
        str, msgspec.Meta(min_length=1, max_length=256, description="The seat's bearer token in that game.")
    ]


class TurnsBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/turns``: the seats (one or more games) whose turns to announce."""

    seats: Annotated[list[SeatKey], msgspec.Meta(min_length=1, max_length=32)]
    """1 to 32 seats, each a game id and that game's seat token."""


class TurnItem(msgspec.Struct):
    """The data of an SSE `turn` message: a decision waits for this seat (`your turn in game X`)."""

    game_id: str
    seat_id: str
    version: int
    """The game's version when the decision was seen open: read `…/decisions?min_version=` with it."""
    deadline: str | None
    """When the decision's default applies (RFC 3339 UTC), if it has a deadline."""


class SeatEnded(msgspec.Struct):
    """The data of an SSE `game_ended` message: a watched game is over."""

    game_id: str
    seat_id: str
    version: int
    """The game's final version."""


class TurnsEnd(msgspec.Struct):
    """The data of the last message of a turns stream (`event: end`): every watched game is over."""

    reason: str = "every_game_ended"
    """Why the stream ends: `every_game_ended`."""


class StreamEnd(msgspec.Struct):
    """The data of the last message of a game's SSE stream (`event: end`): the game is over and every
    event was sent; the stream closes."""

    game_id: str
    version: int
    """The game's final version: the `id:` of the last event (nothing will follow it)."""
    reason: str = "game_ended"
    """Why the stream ends: `game_ended`."""
