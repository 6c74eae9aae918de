"""The replay file format ``citadel-replay/1``: the body of ``GET /v1/games/{id}/export``.

Its JSON Schema is ``openapi/replay.schema.json`` (generated from :class:`ReplayFile` by
``citadel-verify --schema``; a test keeps it fresh and validates real exports against it); the
prose is docs/replay-format.md. Reading a file never raises: :func:`read` returns the file or a
sentence that says what is wrong and where.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.head import SignedHead

FORMAT = "citadel-replay/1"
"""The format this verifier reads. A file of another format is refused, not guessed at."""


class ReplayFile(msgspec.Struct, kw_only=True):
    """One game's replay: its events in the hash chain, and the service's signature over the head."""

    format: str
    """``citadel-replay/1``."""
    game_id: str
    kind: str = "board"
    """The game (``board``, ``auction``...): which rules re-derive the events."""
    version: int
    """How many events the game had when exported (the events are numbered 1..version)."""
    seed_commitment: str
    """sha256 of the game's secret seed, as published in its creation event."""
    seed: str | None = None
    """The seed, revealed once the game is over (null before)."""
    complete: bool
    """No event is redacted for the reader who exported it."""
    redacted: list[int] = []
    """The numbers of the events partly hidden from that reader."""
    signed_head: SignedHead | None = None
    """The chain head at ``version`` signed with the deployment's key (required by the verifier)."""
    events: list[Envelope]


def schema() -> dict[str, Any]:
    """The JSON Schema of the format (openapi/replay.schema.json)."""
    body = msgspec.json.schema(ReplayFile)
    defs = body.get("$defs", {})
    envelope = defs.get("Envelope")
    if envelope is not None:  # an event body is the game's event: an object tagged by "type"
        envelope["properties"]["event"] = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string"}},
            "description": "The event, tagged by `type`; each game's event types are in openapi/openapi.json.",
        }
    root = defs.get("ReplayFile", {})
    root["properties"]["format"] = {"const": FORMAT}
    root["required"] = sorted({*root.get("required", []), "signed_head"})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://citadel.example/replay.schema.json",
        "title": "Citadel replay file (citadel-replay/1)",
        "description": "The body of GET /v1/games/{id}/export; see docs/replay-format.md.",
        **body,
    }


def read(data: bytes) -> tuple[ReplayFile | None, list[str], str | None]:
    """(the file, warnings, None) or (None, [], why it cannot be read)."""
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError) as e:
        return None, [], f"not JSON: {e}"
    if not isinstance(raw, dict):
        return None, [], f"not a replay file: the top level is a JSON {type(raw).__name__}, not an object"
    fmt = raw.get("format")
    if fmt is None:
        return (
            None,
            [],
            (
                "not a citadel-replay/1 file: it has no 'format' (an export made before replays were signed "
                "cannot be verified)"
            ),
        )
    if fmt != FORMAT:
        return None, [], f"format {fmt!r} is not one this verifier reads ({FORMAT})"
    known = set(ReplayFile.__struct_fields__)
    warnings = [f"unknown top-level field {k!r} ignored" for k in sorted(raw) if k not in known]
    try:
        replay = msgspec.json.decode(data, type=ReplayFile)  # unknown fields are ignored (and reported above)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        return None, [], f"malformed: {e}"
    return replay, warnings, None
