"""The application layer: the flow of one command, shared by the HTTP API and the workers.

    load (snapshot + tail) -> decide (pure) -> seal envelopes (hash chain) -> atomic append
    -> fold into the cached state -> schedule worker jobs -> answer

A stale append (someone else appended first) is retried from a fresh load when the caller did not
pin a version; with ``If-Match``/``expected_version`` it is a 409. An idempotency key makes a
retried command return its first answer byte for byte, whatever happened since.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import uuid
import weakref
from datetime import UTC, datetime

import msgspec

from domain.board import commands as cmd
from domain.board import decider
from domain.board import events as ev
from domain.board.redaction import redact_event
from domain.board.state import BoardState, Settings
from domain.core.context import Context, parse_rfc3339, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import RuleViolation
from domain.core.hashing import GENESIS

from . import auth
from .errors import ApiError, not_found, stale
from .event_store import Appended, Duplicate, EventStore, Stale
from .games import GameNotFound, GameRepo, LoadedGame, event_encoder

log = logging.getLogger("citadel.engine")

MAX_STALE_RETRIES = 16
GAME_ID_NAMESPACE = uuid.UUID("8a3c1f4e-3b7e-4d7a-9a55-0c1e7c1ad001")


class EventOut(msgspec.Struct):
    seq: int
    ts: str
    event: ev.BoardEvent


class CommandAccepted(msgspec.Struct):
    game_id: str
    version: int
    events: list[EventOut]


class GameCreatedOut(msgspec.Struct):
    game_id: str
    version: int
    player_count: int
    organizer_token: str
    seed_commitment: str


class SeatOut(msgspec.Struct):
    game_id: str
    seat_id: str
    token: str
    version: int


_enc = msgspec.json.Encoder()


def fingerprint(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\x00")
    return h.hexdigest()


def _pack_answer(fp: str, status: int, body: bytes) -> bytes:
    return fp.encode() + b"%03d" % status + body


def _unpack_answer(stored: bytes, fp: str) -> tuple[int, bytes]:
    if stored[:64].decode() != fp:
        raise ApiError(
            422,
            "idempotency_key_reused",
            "this Idempotency-Key was already used with a different request",
        )
    return int(stored[64:67]), stored[67:]


def reader_of(state: BoardState, actor: cmd.Actor) -> str | None:
    if actor.kind == "seat":
        seat = state.seat(actor.seat_id or "")
        return seat.house if seat else None
    return None


class Engine:
    def __init__(self, store: EventStore, repo: GameRepo, scheduler, secret: bytes, clock=None):
        self.store = store
        self.repo = repo
        self.scheduler = scheduler
        self.secret = secret
        self.clock = clock or (lambda: datetime.now(UTC))
        # One command at a time per game in this process: concurrent commands to one game queue up
        # here instead of racing to a stale append. Other processes still race, and lose cleanly.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # -- helpers ---------------------------------------------------------------------------

    def _seal(self, game: LoadedGame | None, events: list[ev.Event], now: datetime) -> list[Envelope]:
        prev = game.head_hash if game else GENESIS
        seq = game.version if game else 0
        ts = rfc3339(now)
        out = []
        for e in events:
            seq += 1
            env = seal(seq, ts, ev.SCHEMA_VERSION, prev, event_encoder.encode(e))
            prev = env.hash
            out.append(env)
        return out

    async def load(self, game_id: str) -> LoadedGame:
        try:
            return await self.repo.load(game_id)
        except GameNotFound:
            raise not_found() from None

    async def _after_append(self, game: LoadedGame, events: list[ev.Event], previous_version: int) -> None:
        state = game.state
        await self.repo.maybe_snapshot(game, previous_version)
        if decider.pending_system_work(state):
            await self.store.redis.sadd(self.store.keys(state.game_id).pending, state.game_id)
            await self.scheduler.resolve_now(state.game_id)
        if any(isinstance(e, ev.StepBegan) and e.deadline for e in events) and state.deadline:
            await self.scheduler.timeout_at(state.game_id, state.step_version, parse_rfc3339(state.deadline))

    # -- create ----------------------------------------------------------------------------

    async def create_game(
        self, player_count: int, settings: Settings, idempotency_key: str | None, fp: str, scenario=None
    ) -> tuple[int, bytes]:
        if idempotency_key:
            game_id = "g_" + uuid.uuid5(GAME_ID_NAMESPACE, idempotency_key).hex
        else:
            game_id = "g_" + uuid.uuid4().hex
        keys = self.store.keys(game_id)
        if idempotency_key:
            stored = await self.store.idempotent_answer(keys, idempotency_key)
            if stored is not None:
                return _unpack_answer(stored, fp)
        seed = secrets.token_hex(32)
        now = self.clock()
        ctx = Context(now=now, seed=seed, game_id=game_id)
        try:
            events = decider.create(
                cmd.CreateGame(player_count=player_count, settings=settings, scenario=scenario), ctx
            )
        except RuleViolation as e:
            raise _problem(e) from None
        envs = self._seal(None, events, now)
        created: ev.GameCreated = events[0]  # type: ignore[assignment]
        body = _enc.encode(
            GameCreatedOut(
                game_id=game_id,
                version=len(envs),
                player_count=player_count,
                organizer_token=auth.issue(self.secret, game_id, auth.ORGANIZER),
                seed_commitment=created.seed_commitment,
            )
        )
        result = await self.store.append(keys, 0, envs, idempotency_key, _pack_answer(fp, 201, body), seed=seed)
        if isinstance(result, Duplicate):
            return _unpack_answer(result.answer, fp)
        if isinstance(result, Stale):
            raise ApiError(409, "game_exists", "a game with this id already exists")
        return 201, body

    # -- every other command ---------------------------------------------------------------

    async def execute(
        self,
        game_id: str,
        actor: cmd.Actor,
        command: object,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        fp: str = "",
        respond=None,
        status: int = 200,
    ) -> tuple[int, bytes]:
        """Run one command to completion. ``respond(state, envelopes, events)`` builds the body."""
        keys = self.store.keys(game_id)
        if idempotency_key:
            stored = await self.store.idempotent_answer(keys, idempotency_key)
            if stored is not None:
                return _unpack_answer(stored, fp)
        async with self._lock(game_id):
            return await self._execute_locked(
                game_id, actor, command, keys, expected_version, idempotency_key, fp, respond, status
            )

    async def _execute_locked(
        self, game_id, actor, command, keys, expected_version, idempotency_key, fp, respond, status
    ) -> tuple[int, bytes]:
        # Optimistic: decide on this process's cached state without reading the stream first; the
        # append script's version check catches a cache that is behind. Anything that depends on
        # the state being current (a rule refusal, an If-Match mismatch) is re-checked on a fresh load.
        game = self.repo.peek(game_id)
        fresh = False
        stale_appends = 0
        while True:
            if game is None or not fresh and game.needs_check:
                game = await self.load(game_id)
                fresh = True
            if expected_version is not None and expected_version != game.version:
                if not fresh:
                    game.needs_check = True
                    continue
                raise stale(game.version, expected_version)
            if game.seed is None:
                game.seed = await self.store.seed(keys) or ""
            now = self.clock()
            ctx = Context(now=now, seed=game.seed, game_id=game_id)
            try:
                events = decider.decide(game.state, command, actor, ctx)
            except RuleViolation as e:
                if not fresh:
                    game.needs_check = True
                    continue
                raise _problem(e) from None
            if not events:
                raise ApiError(409, "nothing_to_do", "the command changes nothing")
            envs = self._seal(game, events, now)
            previous = game.version
            body = (respond or self._accepted)(game.state, actor, envs, events)
            result = await self.store.append(keys, previous, envs, idempotency_key, _pack_answer(fp, status, body))
            if isinstance(result, Appended):
                game.apply(envs)
                game.needs_check = False
                await self._after_append(game, events, previous)
                return status, body
            if isinstance(result, Duplicate):
                return _unpack_answer(result.answer, fp)
            if expected_version is not None and fresh:
                raise stale(result.current_version, expected_version)
            # someone else appended first: fold their events and decide again
            stale_appends += 1
            if stale_appends >= MAX_STALE_RETRIES:
                raise ApiError(503, "contention", "the game is too busy right now; retry", retry_after=1)
            await asyncio.sleep(random.uniform(0, 0.002 * stale_appends))  # jitter between processes
            game.needs_check = True
            fresh = False

    def _accepted(self, state: BoardState, actor: cmd.Actor, envs: list[Envelope], events: list[ev.Event]) -> bytes:
        reader = reader_of(state, actor)
        return _enc.encode(
            CommandAccepted(
                game_id=state.game_id,
                version=envs[-1].seq,
                events=[
                    EventOut(seq=env.seq, ts=env.ts, event=redact_event(e, reader)) for env, e in zip(envs, events)
                ],
            )
        )

    def seat_answer(self, state: BoardState, actor, envs: list[Envelope], events: list[ev.Event]) -> bytes:
        joined: ev.SeatJoined = events[0]  # type: ignore[assignment]
        return _enc.encode(
            SeatOut(
                game_id=state.game_id,
                seat_id=joined.seat_id,
                token=auth.issue(self.secret, state.game_id, joined.seat_id),
                version=envs[-1].seq,
            )
        )


def _problem(e: RuleViolation) -> ApiError:
    extra = {"rule": e.rule} if e.rule else {}
    return ApiError(e.status, e.code, e.detail, **extra)
