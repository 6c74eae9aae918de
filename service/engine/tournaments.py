"""Whole tournaments at once: ``POST /v1/tournaments`` creates every table in one all-or-nothing call.

The flow (docs/tournaments.md):

1. **Validate everything before writing anything.** The sizes add up to the players, each size is
   one the game allows, the names are distinct, given houses are checked by the game itself: every
   table's creation and every seat's join are *decided* here, in memory, by the game's pure
   ``create``/``decide``. A refusal of any table is a 422 naming the table, and nothing is written.
2. **Intent** (``service/store/tournaments.py``): the fingerprint, the tournament's secret seed and
   the table ids, ``SET NX``. A retry with the same ``Idempotency-Key`` reuses the seed, so it
   draws the same houses and writes the same tables.
3. **Tables**: each game's whole lobby (its creation and every seat taken) is appended to its own
   stream by the event store's script, atomically per game, at version 0. A table that a previous
   attempt already wrote is kept (``Stale`` at version 0: it exists).
4. **Publish**: the tournament record, with ``SET NX``: the one write that makes the tournament
   visible. A failure before it (Redis down in the middle) leaves lobby games nobody has a token of
   and that have no deadline (nothing runs on them), listed in the intent for a day; the request
   fails (503) and its retry finishes the same tournament.
5. **Start** (``start: true``, the default): each table is started by the organizer's ordinary
   ``StartGame`` through the engine. A table that fails to start stays in the lobby, visible as such
   in ``GET /v1/tournaments/{id}``; ``POST /v1/tournaments/{id}/start`` starts the rest.

Every table's houses are given at creation (the board game's ``seat_houses``, BG-SETUP-02): drawn
from the round's secret seed table by table (:func:`domain.core.tournament.draw_houses`) or as the
request gives them. The seed's commitment is published at once and the seed revealed when every
table of the round has ended, so anyone can redo the draw.

Later rounds (:meth:`Tournaments.add_round`) go through the same steps with their own seed, intent
and record (``service/store/tournaments.py``); their tables are numbered after the earlier rounds'.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

import msgspec

from domain import registry
from domain.core.commands import ORGANIZER, Actor, JoinGame, StartGame
from domain.core.context import Context, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import GameError
from domain.core.game import Game
from domain.core.hashing import GENESIS
from domain.core.rng import commit_seed
from domain.core.tournament import TableResult, TableRules, TableStatus, draw_houses
from service.store.event_store import Archived, Duplicate, EventStore, Stale
from service.store.tournaments import Intent, RoundRecord, TableRecord, TournamentRecord, TournamentStore
from service.store.webhooks import WebhookStore

from . import tokens
from .engine import Engine

log = logging.getLogger("citadel.tournaments")

TOURNAMENT_NAMESPACE = uuid.UUID("6f1d3c52-8e0b-4b8e-a3f4-5a2e9d7c1b10")
MAX_PLAYERS = 600
MAX_TABLES = 100
START_CONCURRENCY = 8

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=64, description="A player's name.")]
HouseName = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class TournamentBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/tournaments``: the players and the size of each table; seats are filled in the order
    of ``players`` (the first ``table_sizes[0]`` players at table 1, and so on)."""

    players: Annotated[list[PlayerName], msgspec.Meta(min_length=1, max_length=MAX_PLAYERS)]
    """Every player, each name once; the order seats them (table by table, ``seat1`` first)."""
    table_sizes: Annotated[
        list[Annotated[int, msgspec.Meta(ge=1, le=64)]], msgspec.Meta(min_length=1, max_length=MAX_TABLES)
    ]
    """Players at each table (the board game: 3 to 6, BG-SETUP-01; with ``settings.expansion``
    ``mother_of_dragons`` 3 to 7, MOD-SETUP-01); they add up to the players."""
    name: Annotated[str, msgspec.Meta(max_length=100)] = ""
    """A title for the tournament."""
    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] = registry.DEFAULT_KIND
    """The game of every table (a kind that hosts tournaments: ``board``)."""
    houses: Annotated[list[list[HouseName] | None], msgspec.Meta(max_length=MAX_TABLES)] | None = None
    """Houses by table, each ``seat1`` first (each house in play once, BG-SETUP-02); a table left
    ``null`` (or every table, when this is left out) has its houses drawn from the tournament's seed."""
    settings: Annotated[dict[str, int | bool | str], msgspec.Meta(max_length=16)] = {}
    """The settings of every table, as ``settings`` of ``POST /v1/games`` (checked by the game:
    ``decision_timeout_s``, ``organizer_is_referee``, ``tiebreak_ruleset``...)."""
    start: bool = True
    """Start every table at once (else ``POST /v1/tournaments/{id}/start`` starts them)."""


class RoundBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/tournaments/{id}/rounds``: the next round's tables, seated like the first round's."""

    round: Annotated[int, msgspec.Meta(ge=2, le=100)]
    """The round to create: the next one (2 after the first...). Naming it makes a retry safe: the
    same body finishes or returns the same round, another body is ``409 round_exists``."""
    players: Annotated[list[PlayerName], msgspec.Meta(min_length=1, max_length=MAX_PLAYERS)]
    """The round's players, each a player of the tournament, once; the order seats them."""
    table_sizes: Annotated[
        list[Annotated[int, msgspec.Meta(ge=1, le=64)]], msgspec.Meta(min_length=1, max_length=MAX_TABLES)
    ]
    """Players at each table; they add up to the round's players."""
    houses: Annotated[list[list[HouseName] | None], msgspec.Meta(max_length=MAX_TABLES)] | None = None
    """As in ``POST /v1/tournaments``: per table, given (``seat1`` first) or ``null`` to draw from the round's seed."""
    start: bool = True
    """Start every table of the round at once."""


class SeatTokenOut(msgspec.Struct):
    """A player's seat at one table."""

    table: int
    """The table's number (1-based)."""
    game_id: str
    """The table's game."""
    seat_id: str
    """``seat1``...: the seat's place in the table's order."""
    house: str
    """The house this seat plays (BG-SETUP-02)."""
    token: str
    """The seat's bearer token for this table's game."""


class PlayerTokensOut(msgspec.Struct):
    """A player's seats and their tokens."""

    player: str
    """The player's name."""
    seats: list[SeatTokenOut]
    """One per table the player sits at."""


class TableOut(msgspec.Struct):
    """A table as created."""

    table: int
    """The table's number (1-based, the order of ``table_sizes``)."""
    round: int
    """The round of the tournament the table belongs to."""
    game_id: str
    """The table's game (``/v1/games/{game_id}``)."""
    organizer_token: str
    """The organizer token of this table's game (start it, read its referee export, subscribe webhooks)."""
    players: list[str]
    """Names by seat, ``seat1`` first."""
    seat_houses: list[str]
    """The house of each seat, ``seat1`` first (BG-SETUP-02)."""
    drawn: bool
    """The houses were drawn from the tournament's seed (else given in the request)."""


class TournamentCreatedOut(msgspec.Struct):
    """``POST /v1/tournaments``: every table and every token (keep them: they are not shown again
    except to a retry of the same request)."""

    tournament_id: str
    """``t_`` and 32 hex digits."""
    name: str
    """The tournament's title."""
    kind: str
    """The game of every table."""
    organizer_token: str
    """The tournament's organizer token (``/v1/tournaments/{id}`` operations that need one)."""
    seed_commitment: str
    """sha256 of the tournament's secret seed; the seed is revealed when every table has ended."""
    tables: list[TableOut]
    """Every table, in order."""
    players: list[PlayerTokensOut]
    """Every player, in the order given, with a seat token per table."""


class RoundCreatedOut(msgspec.Struct):
    """``POST /v1/tournaments/{id}/rounds``: the round's tables and its players' tokens."""

    tournament_id: str
    """The tournament."""
    round: int
    """The round created."""
    seed_commitment: str
    """sha256 of the round's secret seed; revealed when every table of the round has ended."""
    tables: list[TableOut]
    """The round's tables (numbered after the earlier rounds')."""
    players: list[PlayerTokensOut]
    """The round's players, in the order given, with their seat tokens."""


class RoundOut(msgspec.Struct):
    """A round's draw."""

    round: int
    """1, 2..."""
    created: str
    """When it was created (RFC 3339 UTC)."""
    seed_commitment: str
    """sha256 of the round's secret seed (its tables' draws)."""
    seed: str | None
    """Revealed once every table of the round has ended."""


class TableStateOut(msgspec.Struct):
    """A table and where it stands."""

    table: int
    """The table's number (1-based)."""
    round: int
    """The round of the tournament the table belongs to."""
    game_id: str
    """The table's game."""
    players: list[str]
    """Names by seat, ``seat1`` first."""
    seat_houses: list[str]
    """The house of each seat, ``seat1`` first."""
    drawn: bool
    """The houses were drawn from the tournament's seed (else given)."""
    version: int
    """The game's version (its number of events)."""
    status: TableStatus
    """Lobby, running or ended; phase, round and winner."""


class TournamentOut(msgspec.Struct):
    """``GET /v1/tournaments/{id}``: the tournament and its tables."""

    tournament_id: str
    """``t_`` and 32 hex digits."""
    name: str
    """The tournament's title."""
    kind: str
    """The game of every table."""
    created: str
    """When it was created (RFC 3339 UTC)."""
    players: list[str]
    """Every player, in the order given."""
    seed_commitment: str
    """sha256 of the first round's secret seed (the draw of its houses); each round's in ``rounds``."""
    seed: str | None
    """The first round's seed, revealed once every table of it has ended: redo each draw with it
    (docs/tournaments.md)."""
    rounds: list[RoundOut]
    """Every round's seed commitment (and seed once it has ended)."""
    tables: list[TableStateOut]
    """Every table of every round, in order."""


class InvalidTournament(GameError):
    """A tournament the service refuses before writing anything (422)."""


def _refuse(detail: str, code: str = "invalid_tournament", rule: str | None = None) -> InvalidTournament:
    return InvalidTournament(detail, kind="invalid", code=code, rule=rule)


def tournament_id_for(idempotency_key: str | None) -> str:
    return "t_" + (uuid.uuid5(TOURNAMENT_NAMESPACE, idempotency_key) if idempotency_key else uuid.uuid4()).hex


def table_game_id(tournament_id: str, table: int) -> str:
    return "g_" + uuid.uuid5(TOURNAMENT_NAMESPACE, f"{tournament_id}/table{table}").hex


@dataclass(frozen=True)
class _Plan:
    """What a round's tables are made of (validated), before the seed is known."""

    tournament_id: str
    round: int
    first_table: int
    """The number of the round's first table (tables are numbered across rounds)."""
    players: list[str]
    sizes: list[int]
    houses: list[list[str] | None] | None
    settings: dict[str, int | bool | str]
    game: Game
    rules: TableRules


def _round_exists(round_: int, why: str) -> GameError:
    return GameError(f"round {round_} exists: {why}", kind="conflict", code="round_exists")


class _Table(msgspec.Struct):
    """A table decided in memory, ready to append."""

    record: TableRecord
    envelopes: list[Envelope]
    seed: str


def seat_tokens(
    secret: bytes, tables: list[TableRecord], players: list[str]
) -> tuple[list[TableOut], list[PlayerTokensOut]]:
    """The tables and every player's seat tokens (derived, not stored: a retry gets the same)."""
    out = []
    by_player: dict[str, list[SeatTokenOut]] = {p: [] for p in players}
    for t in tables:
        out.append(
            TableOut(
                table=t.table,
                round=t.round,
                game_id=t.game_id,
                organizer_token=tokens.issue(secret, t.game_id, tokens.ORGANIZER),
                players=t.players,
                seat_houses=t.seat_houses,
                drawn=t.drawn,
            )
        )
        for i, (name, house) in enumerate(zip(t.players, t.seat_houses), 1):
            seat_id = f"seat{i}"
            by_player[name].append(
                SeatTokenOut(
                    table=t.table,
                    game_id=t.game_id,
                    seat_id=seat_id,
                    house=house,
                    token=tokens.issue(secret, t.game_id, seat_id),
                )
            )
    return out, [PlayerTokensOut(player=p, seats=by_player[p]) for p in players]


def created_answer(secret: bytes, record: TournamentRecord) -> TournamentCreatedOut:
    """The answer of a creation, derived from the record alone, so a retried request gets the same."""
    tables, players = seat_tokens(secret, record.tables, record.players)
    return TournamentCreatedOut(
        tournament_id=record.tournament_id,
        name=record.name,
        kind=record.kind,
        organizer_token=tokens.issue(secret, record.tournament_id, tokens.ORGANIZER),
        seed_commitment=record.seed_commitment,
        tables=tables,
        players=players,
    )


def round_answer(secret: bytes, tournament_id: str, record: RoundRecord) -> RoundCreatedOut:
    """The answer of a new round, derived from its record alone."""
    tables, players = seat_tokens(secret, record.tables, record.players)
    return RoundCreatedOut(
        tournament_id=tournament_id,
        round=record.round,
        seed_commitment=record.seed_commitment,
        tables=tables,
        players=players,
    )


_enc = msgspec.json.Encoder()


class Tournaments:
    def __init__(
        self,
        engine: Engine,
        store: EventStore,
        tournaments: TournamentStore,
        secret: bytes,
        webhooks: WebhookStore | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.engine = engine
        self.store = store
        self.tournaments = tournaments
        self.secret = secret
        self.webhooks = webhooks
        """Where a tournament's webhook subscriptions are watched (its later rounds' tables join them)."""
        self.clock = clock or (lambda: datetime.now(UTC))

    # -- validating and deciding, before any write --------------------------------------------

    def rules(self, kind: str) -> tuple[Game, TableRules]:
        game = self.engine.hosted_game(kind)
        rules = registry.TOURNAMENT_RULES.get(kind)
        if rules is None:
            raise _refuse(f"kind: {kind!r} does not host tournaments", code="unknown_game_kind")
        return game, rules

    @staticmethod
    def validate(
        kind: str, rules: TableRules, players: list[str], sizes: list[int], houses: list[list[str] | None] | None
    ) -> None:
        """Everything that needs no seed: counts, names, sizes, the shape of ``houses``."""
        if len(set(players)) != len(players):
            dup = sorted({p for p in players if players.count(p) > 1})
            raise _refuse(f"players: each name once; repeated: {', '.join(dup)}")
        if sum(sizes) != len(players):
            raise _refuse(f"table_sizes add up to {sum(sizes)} seats for {len(players)} players")
        for i, n in enumerate(sizes, 1):
            if not rules.min_players <= n <= rules.max_players:
                raise _refuse(
                    f"table {i}: {n} players; a {kind} table seats {rules.min_players}-{rules.max_players}",
                    code="invalid_table_size",
                    rule=rules.size_rule,
                )
        if houses is not None and len(houses) != len(sizes):
            raise _refuse(f"houses: {len(houses)} entries for {len(sizes)} tables (null to draw)")

    def decide_tables(self, plan: _Plan, seed: str, now: datetime) -> list[_Table]:
        """Every table's lobby decided in memory (creation and every join), or a refusal naming the
        table (by its place in the request)."""
        out = []
        first = 0
        ts = rfc3339(now)
        for i, size in enumerate(plan.sizes, 1):
            players = plan.players[first : first + size]
            first += size
            number = plan.first_table + i - 1
            given = plan.houses[i - 1] if plan.houses is not None else None
            drawn = draw_houses(seed, number, plan.rules.houses(size))[:size]  # MOD-SETUP-01: 7 houses, n seats
            seat_houses = list(given) if given is not None else drawn
            game_id = table_game_id(plan.tournament_id, number)
            game_seed = secrets.token_hex(32)
            raw = _enc.encode({"player_count": size, "settings": plan.settings, "seat_houses": seat_houses})
            try:
                create_body = msgspec.json.decode(raw, type=plan.game.create_body, strict=True)
            except msgspec.ValidationError as e:
                raise _refuse(f"table {i}: {e}") from None
            ctx = Context(now=now, seed=game_seed, game_id=game_id)
            try:
                events = plan.game.create(create_body, ctx)
                state = plan.game.fold(events)
                for name in players:
                    joined = plan.game.decide(state, JoinGame(name=name), Actor(kind="seat"), ctx)
                    state = plan.game.fold(joined, state)
                    events.extend(joined)
            except GameError as e:
                raise InvalidTournament(f"table {i}: {e.detail}", kind="invalid", code=e.code, rule=e.rule) from None
            envs: list[Envelope] = []
            prev = GENESIS
            for seq, event in enumerate(events, 1):
                env = seal(seq, ts, plan.game.schema_version, prev, _enc.encode(event))
                prev = env.hash
                envs.append(env)
            record = TableRecord(
                table=number,
                round=plan.round,
                game_id=game_id,
                players=list(players),
                seat_houses=seat_houses,
                drawn=given is None,
            )
            out.append(_Table(record=record, envelopes=envs, seed=game_seed))
        return out

    async def _write(self, plan: _Plan, fp: str, now: datetime) -> tuple[list[_Table], str]:
        """Steps 2-3 of the module docstring: the intent, then every table's lobby; the tables and
        the round's seed (the intent's, when a previous attempt wrote one)."""
        seed = secrets.token_hex(32)
        tables = self.decide_tables(plan, seed, now)  # every table validated before anything is written
        intent = await self.tournaments.claim_intent(
            plan.tournament_id,
            Intent(fingerprint=fp, seed=seed, game_ids=[t.record.game_id for t in tables]),
            plan.round,
        )
        if intent.fingerprint != fp:
            if plan.round == 1:
                self._same_request(intent.fingerprint, fp)
            raise _round_exists(plan.round, "another request is creating it")
        if intent.seed != seed:  # a retry: the same seed, so the same draw
            seed = intent.seed
            tables = self.decide_tables(plan, seed, now)
        await asyncio.gather(*(self._append(t) for t in tables))
        return tables, seed

    # -- create ---------------------------------------------------------------------------------

    async def create(self, body: TournamentBody, idempotency_key: str | None, fp: str) -> TournamentRecord:
        """Create (or, for a retried key, finish) the tournament and its first round; see the module docstring."""
        tournament_id = tournament_id_for(idempotency_key)
        existing = await self.tournaments.record(tournament_id)
        if existing is not None:
            self._same_request(existing.fingerprint, fp)
            if body.start:
                await self.start_all(existing.tables)
            return existing
        game, kind_rules = self.rules(body.kind)
        rules = kind_rules.for_settings(body.settings)  # an expansion's table sizes and houses
        self.validate(body.kind, rules, body.players, body.table_sizes, body.houses)
        plan = _Plan(tournament_id, 1, 1, body.players, body.table_sizes, body.houses, body.settings, game, rules)
        now = self.clock()
        tables, seed = await self._write(plan, fp, now)
        record = TournamentRecord(
            tournament_id=tournament_id,
            name=body.name,
            kind=body.kind,
            created=rfc3339(now),
            seed_commitment=commit_seed(seed),
            players=list(body.players),
            tables=[t.record for t in tables],
            fingerprint=fp,
            settings=dict(body.settings),
        )
        record = await self.tournaments.publish(record, seed)
        if body.start:
            await self.start_all(record.tables)
        return record

    async def add_round(self, tournament_id: str, body: RoundBody, fp: str) -> RoundRecord:
        """Create (or, retried with the same body, finish) round ``body.round``: all or nothing, like
        the first (module docstring), with its own seed; its tables join the tournament's webhooks."""
        record = await self.get(tournament_id)
        rounds = await self.tournaments.rounds(tournament_id)
        done = next((r for r in rounds if r.round == body.round), None)
        if done is not None:
            if done.fingerprint != fp:
                raise _round_exists(body.round, "it was created with another body")
            if body.start:
                await self.start_all(done.tables)
            return done
        expected = 2 + len(rounds)
        if body.round != expected:
            raise _refuse(f"round: the next round of this tournament is {expected}, not {body.round}")
        unknown = sorted(set(body.players) - set(record.players))
        if unknown:
            raise _refuse(f"players: not players of this tournament: {', '.join(unknown)}")
        game, kind_rules = self.rules(record.kind)
        rules = kind_rules.for_settings(record.settings)
        self.validate(record.kind, rules, body.players, body.table_sizes, body.houses)
        first = 1 + len(record.tables) + sum(len(r.tables) for r in rounds)
        plan = _Plan(
            tournament_id, body.round, first, body.players, body.table_sizes, body.houses, record.settings, game, rules
        )
        now = self.clock()
        tables, seed = await self._write(plan, fp, now)
        if self.webhooks is not None and await self.webhooks.has_subscriptions(tournament_id):
            # the tables are in their lobby: their events from now on reach the tournament's subscribers
            await self.webhooks.watch(
                {t.record.game_id: (self.store.keys(t.record.game_id).partition, len(t.envelopes)) for t in tables}
            )
        round_record = RoundRecord(
            round=body.round,
            created=rfc3339(now),
            seed_commitment=commit_seed(seed),
            players=list(body.players),
            tables=[t.record for t in tables],
            fingerprint=fp,
        )
        round_record = await self.tournaments.publish_round(tournament_id, round_record, seed)
        if body.start:
            await self.start_all(round_record.tables)
        return round_record

    @staticmethod
    def _same_request(stored: str, fp: str) -> None:
        if stored != fp:
            raise GameError(
                "this Idempotency-Key was already used with a different request", code="idempotency_key_reused"
            )

    async def _append(self, table: _Table) -> None:
        """One table's lobby, atomically. A table a previous attempt of the same request wrote
        (version 0 taken) is kept: its seats are checked to be ours (the creation event differs only
        by its seed's commitment and time)."""
        keys = self.store.keys(table.record.game_id)
        result = await self.store.append(keys, 0, table.envelopes, seed=table.seed)
        if isinstance(result, Duplicate):  # pragma: no cover - no idempotency key is sent
            raise AssertionError("a table append carries no idempotency key")
        if isinstance(result, Archived):  # a finished game already holds this id
            raise GameError(
                f"table {table.record.table}: its game id holds another game", kind="conflict", code="game_exists"
            )
        if isinstance(result, Stale):
            written = await self.store.read(keys, 0, count=len(table.envelopes))
            ours = [bytes(e.event) for e in table.envelopes[1:]]
            if [bytes(e.event) for e in written[1:]] != ours:
                raise GameError(
                    f"table {table.record.table}: its game id holds another game", kind="conflict", code="game_exists"
                )

    async def start_all(self, tables: list[TableRecord]) -> list[int]:
        """Start every table still in the lobby; the tables that could not be started (left in the lobby)."""
        sem = asyncio.Semaphore(START_CONCURRENCY)

        async def start(t: TableRecord) -> int | None:
            async with sem:
                try:
                    await self.engine.execute(t.game_id, ORGANIZER, StartGame())
                except GameError as e:
                    if e.code == "game_started":
                        return None
                    log.warning("table %d (%s) not started: %s", t.table, t.game_id, e.detail)
                    return t.table
                return None

        failed = await asyncio.gather(*(start(t) for t in tables))
        return [t for t in failed if t is not None]

    # -- answers ----------------------------------------------------------------------------

    def seats(self, tables: list[TableRecord], players: list[str]) -> tuple[list[TableOut], list[PlayerTokensOut]]:
        return seat_tokens(self.secret, tables, players)

    def created_answer(self, record: TournamentRecord) -> TournamentCreatedOut:
        return created_answer(self.secret, record)

    def round_answer(self, tournament_id: str, record: RoundRecord) -> RoundCreatedOut:
        return round_answer(self.secret, tournament_id, record)

    async def get(self, tournament_id: str) -> TournamentRecord:
        record = await self.tournaments.record(tournament_id)
        if record is None:
            raise GameError("no such tournament", kind="not_found", code="not_found")
        return record

    async def tables(self, record: TournamentRecord) -> list[TableRecord]:
        """Every table of every round, in order."""
        return [*record.tables, *(t for r in await self.tournaments.rounds(record.tournament_id) for t in r.tables)]

    async def overview(self, record: TournamentRecord) -> tuple[TournamentOut, list[TableResult], list[str]]:
        """Every table's state, the results of the ended ones, and the names of the game's
        tie-break figures (for the standings)."""
        _, rules = self.rules(record.kind)
        later = await self.tournaments.rounds(record.tournament_id)
        all_tables = [*record.tables, *(t for r in later for t in r.tables)]
        loaded = await asyncio.gather(*(self.engine.load(t.game_id) for t in all_tables))
        tables = []
        results = []
        ended_rounds: dict[int, bool] = {}
        for t, g in zip(all_tables, loaded):
            status = rules.status(g.state)
            ended_rounds[t.round] = ended_rounds.get(t.round, True) and status.status == "ended"
            tables.append(
                TableStateOut(
                    table=t.table,
                    round=t.round,
                    game_id=t.game_id,
                    players=t.players,
                    seat_houses=t.seat_houses,
                    drawn=t.drawn,
                    version=g.version,
                    status=status,
                )
            )
            seat_results = rules.results(g.state)
            if seat_results is not None:
                seats = {f"seat{i}": name for i, name in enumerate(t.players, 1)}
                results.append(TableResult(table=t.table, players=seats, results=seat_results))
        tid = record.tournament_id
        rounds = [
            RoundOut(
                round=1,
                created=record.created,
                seed_commitment=record.seed_commitment,
                seed=await self.tournaments.seed(tid) if ended_rounds.get(1) else None,
            )
        ]
        for r in later:
            seed = await self.tournaments.seed(tid, r.round) if ended_rounds.get(r.round) else None
            rounds.append(RoundOut(round=r.round, created=r.created, seed_commitment=r.seed_commitment, seed=seed))
        out = TournamentOut(
            tournament_id=tid,
            name=record.name,
            kind=record.kind,
            created=record.created,
            players=record.players,
            seed_commitment=record.seed_commitment,
            seed=rounds[0].seed,
            rounds=rounds,
            tables=tables,
        )
        names = rules.tiebreak_names(loaded[0].state) if loaded else []
        return out, results, names
