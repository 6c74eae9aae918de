"""Tournament records in Redis: what ``POST /v1/tournaments`` created, and the intent before it.

A tournament's tables are ordinary games, each in its own partition (so its own Redis Cluster slot),
appended by the event store's script one game at a time: no single script can write them all. What
makes a tournament visible is therefore one key, written last (:meth:`TournamentStore.publish`):

* ``citadel:tournament:<id>:intent`` -- written first, before any table (``SET NX``, expires after a
  day): the request's fingerprint, the tournament's secret seed and the table game ids. A retry with
  the same ``Idempotency-Key`` finds it and finishes the same tournament (the same seed, so the same
  draw; tables already written are kept); an operator finds here the tables of a call that never
  finished (lobby games nobody holds a token of, with no deadline: inert).
* ``citadel:tournament:<id>`` -- the record (:class:`TournamentRecord`), written once every table is
  in its stream, with ``SET NX``. Until then ``GET /v1/tournaments/<id>`` is 404 and no token was
  handed out: a half-written tournament is never visible.
* ``citadel:tournament:<id>:seed`` -- the secret seed of the draw, kept apart from the record
  (which is served) and revealed by the API once every table has ended.
* ``citadel:game-tournament`` -- a hash game id -> tournament id (the webhooks of a tournament
  follow its tables, ``service/store/webhooks.py``).

These keys carry no partition hash tag: each operation touches one key, which is all Redis Cluster
asks.
"""

from __future__ import annotations

from typing import Any

import msgspec

INTENT_TTL_S = 24 * 3600
"""How long the intent of an unfinished creation is kept (a retry must come within it)."""
GAME_TOURNAMENT = "citadel:game-tournament"


def record_key(tournament_id: str) -> str:
    return f"citadel:tournament:{tournament_id}"


def intent_key(tournament_id: str) -> str:
    return f"citadel:tournament:{tournament_id}:intent"


def seed_key(tournament_id: str) -> str:
    return f"citadel:tournament:{tournament_id}:seed"


class TableRecord(msgspec.Struct, frozen=True):
    table: int
    """1-based, in the order of the request's ``table_sizes``."""
    round: int
    game_id: str
    players: list[str]
    """The players' names by seat: ``seat1`` first."""
    seat_houses: list[str]
    """The house of each seat, ``seat1`` first (recorded in the table's ``game_created`` event too)."""
    drawn: bool
    """True: the houses were drawn from the tournament's seed (domain/core/tournament.py); False: given."""


class TournamentRecord(msgspec.Struct, frozen=True):
    tournament_id: str
    name: str
    kind: str
    created: str
    """RFC 3339 UTC."""
    seed_commitment: str
    """sha256 of the tournament's secret seed (the draw's), revealed when every table has ended."""
    players: list[str]
    tables: list[TableRecord]
    fingerprint: str
    """Of the creating request: a retry with its key and another body is ``idempotency_key_reused``."""


class Intent(msgspec.Struct, frozen=True):
    fingerprint: str
    seed: str
    game_ids: list[str]


_enc = msgspec.json.Encoder()
_record = msgspec.json.Decoder(TournamentRecord)
_intent = msgspec.json.Decoder(Intent)


class TournamentStore:
    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def record(self, tournament_id: str) -> TournamentRecord | None:
        raw = await self.redis.get(record_key(tournament_id))
        return _record.decode(raw) if raw else None

    async def claim_intent(self, tournament_id: str, intent: Intent) -> Intent:
        """Write the intent unless one exists; the intent that holds (ours or the earlier one)."""
        if await self.redis.set(intent_key(tournament_id), _enc.encode(intent), nx=True, ex=INTENT_TTL_S):
            return intent
        raw = await self.redis.get(intent_key(tournament_id))
        return _intent.decode(raw) if raw else intent

    async def publish(self, record: TournamentRecord, seed: str) -> TournamentRecord:
        """Make the tournament visible (the last write of a creation); the record that holds."""
        await self.redis.set(seed_key(record.tournament_id), seed)
        await self.redis.hset(GAME_TOURNAMENT, mapping={t.game_id: record.tournament_id for t in record.tables})
        if not await self.redis.set(record_key(record.tournament_id), _enc.encode(record), nx=True):
            existing = await self.record(record.tournament_id)
            if existing is not None:
                record = existing
        await self.redis.delete(intent_key(record.tournament_id))
        return record

    async def seed(self, tournament_id: str) -> str | None:
        raw = await self.redis.get(seed_key(tournament_id))
        return raw.decode() if raw else None

    async def tournament_of(self, game_id: str) -> str | None:
        raw = await self.redis.hget(GAME_TOURNAMENT, game_id)
        return raw.decode() if raw else None
