"""The application layer: the flow of one command, shared by the HTTP API and the workers.

    load (snapshot + tail) -> decide (pure, the game's Decider) -> seal envelopes (hash chain)
    -> fold into the cached state -> atomic append (with the markers the workers need)
    -> enqueue worker jobs -> answer

The batch is folded in before the append answers, so the append script can mark what the workers
must do next in the same atomic step; until it answers, readers in this process wait for it
(``LoadedGame.settling``), and if it was not stored the state is forgotten and read again.

A stale append (someone else appended first) is retried from a fresh load when the caller did not
pin a version; with ``If-Match``/``expected_version`` it is a ``stale_version`` conflict. An
idempotency key makes a retried command return its first answer byte for byte, whatever happened
since. The engine knows games only through :class:`~domain.core.game.Game` (found by kind in
:mod:`domain.registry`); it raises :class:`~domain.core.errors.GameError` with a kind, never an
HTTP status.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import uuid
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec

from domain import registry
from domain.core.commands import JUDGE, Actor, JoinGame
from domain.core.context import Context, parse_rfc3339, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import GameError
from domain.core.game import Deadline, Game
from domain.core.hashing import GENESIS
from domain.core.rederive import Recorded
from service.store.event_store import Appended, Archived, DueTimeout, Duplicate, EventStore, Stale
from service.store.games import GameNotFound, GameRepo, LoadedGame
from service.store.keys import Keys

from . import tokens
from .dispatch import Dispatcher

log = logging.getLogger("citadel.engine")

MAX_STALE_RETRIES = 16
GAME_ID_NAMESPACE = uuid.UUID("8a3c1f4e-3b7e-4d7a-9a55-0c1e7c1ad001")


class EventOut(msgspec.Struct):
    seq: int
    ts: str
    event: msgspec.Raw


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
    kind: str = registry.DEFAULT_KIND
    invitation_code: str | None = None
    """A private game's invitation: whoever joins a seat must send it (null for a public game)."""
    judge_token: str = ""
    """The judge's bearer token (docs/judge.md): the organizer hands it to the game's judge."""


class JudgeAnswer(msgspec.Struct):
    """The answer to a judge's action: the new version, its event, and the new token of a seat the
    action gave to another player (``replace_player``)."""

    game_id: str
    version: int
    events: list[EventOut]
    tokens: dict[str, str] = {}
    """seat id -> its new bearer token, for each seat the action gave to a new player."""


class SeatOut(msgspec.Struct):
    game_id: str
    seat_id: str
    token: str
    version: int


Responder = Callable[[LoadedGame, Actor, list[Envelope], list[Any]], bytes]
"""Builds the answer body of an accepted command from the game before it, the actor, and the batch."""

_enc = msgspec.json.Encoder()


def fingerprint(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\x00")
    return h.hexdigest()


def not_found(what: str = "game") -> GameError:
    return GameError(f"no such {what}, or you may not see it", kind="not_found", code="not_found")


def stale(current: int, expected: int) -> GameError:
    named = f"not {expected}" if expected >= 0 else "and If-Match does not name a version"
    return GameError(
        f"the game is at version {current}, {named}; reload and retry",
        kind="conflict",
        code="stale_version",
        current_version=current,
    )


def _pack_answer(fp: str, status: int, body: bytes) -> bytes:
    return fp.encode() + b"%03d" % status + body


def _unpack_answer(stored: bytes, fp: str) -> tuple[int, bytes]:
    if stored[:64].decode() != fp:
        raise GameError("this Idempotency-Key was already used with a different request", code="idempotency_key_reused")
    return int(stored[64:67]), stored[67:]


def archived() -> GameError:
    return GameError(
        "the game ended and was archived: it takes no more commands", kind="conflict", code="game_archived"
    )


def reader_of(game: LoadedGame, actor: Actor) -> str | None:
    """Whose eyes the actor reads an answer with: a seat's, else the public's."""
    if actor.kind == "seat" and actor.seat_id:
        return game.game.reader_of(game.state, actor.seat_id)
    return None


class Engine:
    def __init__(
        self,
        store: EventStore,
        repo: GameRepo,
        scheduler: Dispatcher,
        secret: bytes,
        clock: Callable[[], datetime] | None = None,
        kinds: tuple[str, ...] = (registry.DEFAULT_KIND,),
    ) -> None:
        self.store = store
        self.repo = repo
        self.scheduler = scheduler
        self.secret = secret
        self.clock = clock or (lambda: datetime.now(UTC))
        self.kinds = kinds
        """The kinds of game this deployment lets clients create (``CITADEL_GAMES``)."""
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

    @staticmethod
    def _seal(schema: int, head_hash: str, version: int, events: list[Any], now: datetime) -> list[Envelope]:
        prev, seq, ts = head_hash, version, rfc3339(now)
        out = []
        for e in events:
            seq += 1
            env = seal(seq, ts, schema, prev, _enc.encode(e))
            prev = env.hash
            out.append(env)
        return out

    async def known(self, game_id: str) -> LoadedGame:
        """The game as this process last saw it, with no I/O when it is cached: good for what never
        changes (its kind); for its current state use :meth:`load`."""
        return self.repo.peek(game_id) or await self.load(game_id)

    async def load(self, game_id: str) -> LoadedGame:
        try:
            return await self.repo.load(game_id)
        except GameNotFound:
            raise not_found() from None

    async def load_at(self, game_id: str, version: int) -> LoadedGame:
        """The game as it stood at ``version`` (a past state: never cached, never written to)."""
        try:
            return await self.repo.load_at(game_id, version)
        except GameNotFound:
            raise not_found() from None

    def _markers(
        self, after: LoadedGame, first_seq: int, before: Deadline | None, deadline: Deadline | None
    ) -> tuple[bool, DueTimeout | None]:
        """What the workers must know of the state after a batch: does it wait for a resolution,
        and did the batch open a step with a deadline, or move the deadline of the step (a time bank
        started or stopped, the clocks resumed: docs/clocks.md)? ``before``: the deadline before the
        batch; ``deadline``: the one after it (``Game.deadline`` of the new state, read once by the caller)."""
        game, state = after.game, after.state
        pending = game.pending_system_work(state)
        due = None
        if deadline is not None and (deadline.step_version >= first_seq or deadline != before):
            due = DueTimeout(deadline.step_version, parse_rfc3339(deadline.at).timestamp())
        return pending, due

    async def _dispatch(self, game_id: str, pending: bool) -> None:
        """Resolve at once what waits for a worker; deadlines need nothing here: the append recorded
        them and the workers' sweep fires them."""
        if pending:
            await self.scheduler.resolve_now(game_id)

    # -- create ----------------------------------------------------------------------------

    def hosted_game(self, kind: str) -> Game:
        """The game of ``kind`` if this deployment hosts it, else ``unknown_game_kind``."""
        if kind not in self.kinds or kind not in registry.GAMES:
            raise GameError(f"kind: this server hosts {', '.join(self.kinds)}, not {kind!r}", code="unknown_game_kind")
        return registry.get(kind)

    async def create_game(self, kind: str, body: Any, idempotency_key: str | None, fp: str) -> tuple[int, bytes]:
        game = self.hosted_game(kind)
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
        events = game.create(body, Context(now=now, seed=seed, game_id=game_id))
        envs = self._seal(game.schema_version, GENESIS, 0, events, now)
        state = game.fold(events)
        body_out = _enc.encode(
            GameCreatedOut(
                game_id=game_id,
                version=len(envs),
                player_count=body.player_count,
                organizer_token=tokens.issue(self.secret, game_id, tokens.ORGANIZER),
                seed_commitment=game.seed_commitment(state),
                kind=kind,
                invitation_code=tokens.invitation(self.secret, game_id) if game.lobby(state).private else None,
                judge_token=tokens.issue(self.secret, game_id, tokens.JUDGE),
            )
        )
        result = await self.store.append(keys, 0, envs, idempotency_key, _pack_answer(fp, 201, body_out), seed=seed)
        if isinstance(result, Duplicate):
            return _unpack_answer(result.answer, fp)
        if isinstance(result, Stale | Archived):
            raise GameError("a game with this id already exists", kind="conflict", code="game_exists")
        return 201, body_out

    # -- every other command ---------------------------------------------------------------

    async def execute(
        self,
        game_id: str,
        actor: Actor,
        command: object,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        fp: str = "",
        respond: Responder | None = None,
        status: int = 200,
    ) -> tuple[int, bytes]:
        """Run one command to completion. ``respond(game, actor, envelopes, events)`` builds the body."""
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
        self,
        game_id: str,
        actor: Actor,
        command: object,
        keys: Keys,
        expected_version: int | None,
        idempotency_key: str | None,
        fp: str,
        respond: Responder | None,
        status: int,
    ) -> tuple[int, bytes]:
        # Optimistic: decide on this process's cached state without reading the stream first; the
        # append script's version check catches a cache that is behind. Anything that depends on
        # the state being current (a rule refusal, an If-Match mismatch) is re-checked on a fresh load.
        game = self.repo.peek(game_id)
        fresh = False
        stale_appends = 0
        while True:
            if game is None or not fresh and (game.needs_check or self.repo.read_first(game_id)):
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
                events = game.game.decide(game.state, command, actor, ctx)
            except GameError:
                if not fresh:
                    game.needs_check = True
                    continue
                raise
            if not events:
                raise GameError("the command changes nothing", kind="conflict", code="nothing_to_do")
            previous = game.version
            envs = self._seal(game.game.schema_version, game.head_hash, previous, events, now)
            body = (respond or self._accepted)(game, actor, envs, events)
            deadline_before = game.game.deadline(game.state)
            over_before = game.game.is_over(game.state)
            # a judge's rollback re-derives the state from the events before its target
            rolls_back = any(game.game.rollback_target(e) is not None for e in events)
            history = await self.store.read(keys, 0, count=previous) if rolls_back else []
            # a game other processes write too may lose the append: keep the state before the batch
            before = game.snapshot() if self.repo.read_first(game_id) else None
            game.begin_settling()
            stored = False
            result: Appended | Duplicate | Stale | Archived | None = None
            try:
                game.apply(envs, history=history)
                after = game.game.deadline(game.state)
                pending, due = self._markers(game, previous + 1, deadline_before, after)
                void = (
                    deadline_before.step_version
                    if deadline_before is not None
                    and (after is None or after.step_version != deadline_before.step_version)
                    else None
                )
                ends = now.timestamp() if game.game.is_over(game.state) and not over_before else None
                result = await self.store.append(
                    keys,
                    previous,
                    envs,
                    idempotency_key,
                    _pack_answer(fp, status, body) if idempotency_key else b"",  # kept only for a key
                    pending=pending,
                    deadline=due,
                    void_deadline=void,
                    ends=ends,
                )
                stored = isinstance(result, Appended)
            finally:
                if not stored:
                    self.repo.forget(game_id, restore=before if isinstance(result, Stale) else None)
                game.settle(stored)
            if isinstance(result, Appended):
                game.needs_check = False
                await self.repo.maybe_snapshot(game, previous)
                await self._dispatch(game_id, pending)
                return status, body
            if isinstance(result, Duplicate):
                return _unpack_answer(result.answer, fp)
            if isinstance(result, Archived):
                raise archived()
            if expected_version is not None and fresh:
                raise stale(result.current_version, expected_version)
            # someone else appended first: fold their events and decide again
            self.repo.lost_race(game_id)
            stale_appends += 1
            if stale_appends >= MAX_STALE_RETRIES:
                raise GameError(
                    "the game is too busy right now; retry", kind="unavailable", code="contention", retry_after=1
                )
            await asyncio.sleep(random.uniform(0, 0.002 * stale_appends))  # jitter between processes
            game = None  # forgotten above: load again
            fresh = False

    def _accepted(self, game: LoadedGame, actor: Actor, envs: list[Envelope], events: list[Any]) -> bytes:
        reader = reader_of(game, actor)
        redact = game.game.redact_event
        return _enc.encode(
            CommandAccepted(
                game_id=game.game_id,
                version=envs[-1].seq,
                events=[
                    EventOut(seq=env.seq, ts=env.ts, event=msgspec.Raw(_enc.encode(redact(e, reader))))
                    for env, e in zip(envs, events)
                ],
            )
        )

    def seat_answer(self, game: LoadedGame, actor: Actor, envs: list[Envelope], events: list[Any]) -> bytes:
        seat_id = game.game.joined_seat(events)
        return _enc.encode(
            SeatOut(
                game_id=game.game_id,
                seat_id=seat_id,
                token=tokens.issue(self.secret, game.game_id, seat_id),
                version=envs[-1].seq,
            )
        )

    async def join(self, game_id: str, name: str, idempotency_key: str | None, fp: str) -> tuple[int, bytes]:
        return await self.execute(
            game_id,
            Actor(kind="seat"),
            JoinGame(name=name),
            idempotency_key=idempotency_key,
            fp=fp,
            respond=self.seat_answer,
            status=201,
        )

    # -- the judge (docs/judge.md) ------------------------------------------------------------

    async def judge(
        self,
        game_id: str,
        command: object,
        *,
        expected_version: int | None,
        idempotency_key: str | None,
        fp: str,
        actor: Actor = JUDGE,
    ) -> tuple[int, bytes]:
        """Run a judge's action (or, with a seat's ``actor``, a seat's undo request: docs/judge.md).
        The game first settles what needs the stream so far (``Game.prepare_judge``: an undo's
        target, a rollback's batch boundary), at a version the append is then pinned to; when the
        game moved on meanwhile, it is prepared again."""
        keys = self.store.keys(game_id)
        if idempotency_key:
            stored = await self.store.idempotent_answer(keys, idempotency_key)
            if stored is not None:
                return _unpack_answer(stored, fp)
        for _ in range(MAX_STALE_RETRIES):
            game = await self.load(game_id)
            version = game.version
            if expected_version is not None and expected_version != version:
                raise stale(version, expected_version)
            envs = await self.store.read(keys, 0, count=version) if version else []
            history = [Recorded(seq=e.seq, ts=parse_rfc3339(e.ts), event=game.decode(e)) for e in envs]
            prepared = game.game.prepare_judge(game.state, history, command)
            try:
                return await self.execute(
                    game_id,
                    actor,
                    prepared,
                    expected_version=version,
                    idempotency_key=idempotency_key,
                    fp=fp,
                    respond=self._judged if actor.kind == "judge" else None,
                )
            except GameError as e:
                if e.code != "stale_version" or expected_version is not None:
                    raise
        raise GameError("the game is too busy right now; retry", kind="unavailable", code="contention", retry_after=1)

    def _judged(self, game: LoadedGame, actor: Actor, envs: list[Envelope], events: list[Any]) -> bytes:
        return _enc.encode(
            JudgeAnswer(
                game_id=game.game_id,
                version=envs[-1].seq,
                events=[
                    EventOut(seq=env.seq, ts=env.ts, event=msgspec.Raw(_enc.encode(e))) for env, e in zip(envs, events)
                ],
                tokens={
                    seat: tokens.issue(self.secret, game.game_id, tokens.seat_role(seat, generation))
                    for seat, generation in game.game.seat_replacements(events).items()
                },
            )
        )
