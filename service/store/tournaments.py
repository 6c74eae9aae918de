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
* ``citadel:tournament:<id>:seed`` (``…:seed:<n>`` for round ``n`` > 1) -- the secret seed of a
  round's draw, kept apart from the record (which is served) and revealed by the API once every
  table of the round has ended.
* ``citadel:tournament:<id>:rounds`` -- a hash round number -> :class:`RoundRecord`, for rounds 2, 3...
  (``POST /v1/tournaments/<id>/rounds``): a round becomes visible when its field is written
  (``HSETNX``), after its tables, with its own intent ``…:round<n>:intent`` before them.
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


def seed_key(tournament_id: str, round_: int = 1) -> str:
    base = f"citadel:tournament:{tournament_id}:seed"
    return base if round_ == 1 else f"{base}:{round_}"


def round_intent_key(tournament_id: str, round_: int) -> str:
    return intent_key(tournament_id) if round_ == 1 else f"citadel:tournament:{tournament_id}:round{round_}:intent"


def rounds_key(tournament_id: str) -> str:
    return f"citadel:tournament:{tournament_id}:rounds"


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
    """The tournament and its first round (later rounds: :class:`RoundRecord`)."""

    tournament_id: str
    name: str
    kind: str
    created: str
    """RFC 3339 UTC."""
    seed_commitment: str
    """sha256 of round 1's secret seed (its draw), revealed when every table of round 1 has ended."""
    players: list[str]
    tables: list[TableRecord]
    fingerprint: str
    """Of the creating request: a retry with its key and another body is ``idempotency_key_reused``."""
    settings: dict[str, int | bool | str] = {}
    """The settings of every table, of every round."""


class RoundRecord(msgspec.Struct, frozen=True):
    """A later round (2, 3...): its own tables, players and seed."""

    round: int
    created: str
    seed_commitment: str
    """sha256 of this round's secret seed, revealed when every table of the round has ended."""
    players: list[str]
    tables: list[TableRecord]
    fingerprint: str


class Intent(msgspec.Struct, frozen=True):
    fingerprint: str
    seed: str
    game_ids: list[str]


_enc = msgspec.json.Encoder()
_record = msgspec.json.Decoder(TournamentRecord)
_round = msgspec.json.Decoder(RoundRecord)
_intent = msgspec.json.Decoder(Intent)


class TournamentStore:
    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def record(self, tournament_id: str) -> TournamentRecord | None:
        raw = await self.redis.get(record_key(tournament_id))
        return _record.decode(raw) if raw else None

    async def rounds(self, tournament_id: str) -> list[RoundRecord]:
        """The rounds after the first, in order."""
        raw = await self.redis.hgetall(rounds_key(tournament_id))
        return sorted((_round.decode(v) for v in raw.values()), key=lambda r: r.round)

    async def claim_intent(self, tournament_id: str, intent: Intent, round_: int = 1) -> Intent:
        """Write the intent of a round unless one exists; the intent that holds (ours or the earlier one)."""
        key = round_intent_key(tournament_id, round_)
        if await self.redis.set(key, _enc.encode(intent), nx=True, ex=INTENT_TTL_S):
            return intent
        raw = await self.redis.get(key)
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

    async def publish_round(self, tournament_id: str, record: RoundRecord, seed: str) -> RoundRecord:
        """Make a later round visible (``HSETNX``: the last write of the round); the round that holds."""
        await self.redis.set(seed_key(tournament_id, record.round), seed)
        await self.redis.hset(GAME_TOURNAMENT, mapping={t.game_id: tournament_id for t in record.tables})
        if not await self.redis.hsetnx(rounds_key(tournament_id), str(record.round), _enc.encode(record)):
            raw = await self.redis.hget(rounds_key(tournament_id), str(record.round))
            if raw:
                record = _round.decode(raw)
        await self.redis.delete(round_intent_key(tournament_id, record.round))
        return record

    async def seed(self, tournament_id: str, round_: int = 1) -> str | None:
        raw = await self.redis.get(seed_key(tournament_id, round_))
        return raw.decode() if raw else None

    async def tournament_of(self, game_id: str) -> str | None:
        raw = await self.redis.hget(GAME_TOURNAMENT, game_id)
        return raw.decode() if raw else None
