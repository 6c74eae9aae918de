"""A game's events: the live stream (NDJSON long-poll or Server-Sent Events), the log, the export.

Every event leaves through the game's one redaction function for the reader, until the game is
over: from then on everything is public.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get
from litestar.params import QueryParameter
from litestar.response import Stream

from domain.core.envelope import Envelope
from domain.core.hashing import GENESIS
from service.engine.runtime import Runtime
from service.engine.spectators import delayed, visible_version
from service.store.games import LoadedGame
from service.store.keys import Keys
from service.store.rate_limits import Client, RateLimits
from service.store.read_models import LogLine, log_lines

from ..access import ORGANIZER, client_of, role_of, runtime, verified_role
from ..bodies import JSON, GameId, json_response
from ..errors import ApiError
from ..models import ExportOut, LogOut, StreamEnd
from ..problems import problems
from ..ratelimit import ANONYMOUS_FACTOR
from .views import reader_for, sees_everything, spectator_version

MAX_WAIT_S = 30
STREAM_TTL_S = 60
"""Expiry of a client's open-streams count: longer than any long-poll, refreshed by open SSE streams
every :data:`STREAM_REFRESH_S`; what an API process that died with streams open leaves behind."""
STREAM_REFRESH_S = 20
_releases: set[asyncio.Task[None]] = set()
_enc = msgspec.json.Encoder()

FromVersion = Annotated[
    int, QueryParameter(name="from", ge=0, le=2**31, description="Return events after this version.")
]
Wait = Annotated[
    int,
    QueryParameter(
        name="wait",
        ge=0,
        le=MAX_WAIT_S,
        description="NDJSON: if nothing is newer, wait up to this many seconds for new events.",
    ),
]
Limit = Annotated[int, QueryParameter(name="limit", ge=1, le=1000, description="Page size.")]


class EventLine(msgspec.Struct):
    seq: int
    ts: str
    event: msgspec.Raw


def _line(game: LoadedGame, env: Envelope, reader: str | None, over: bool) -> bytes:
    e = game.game.redact_event(game.decode(env), reader, game_over=over)
    return _enc.encode(EventLine(seq=env.seq, ts=env.ts, event=msgspec.Raw(_enc.encode(e)))) + b"\n"


async def claim_stream_slot(request: Request[Any, Any, Any], rt: Runtime) -> Client:
    """SSE streams and long-polls hold a connection each: at most ``CITADEL_MAX_STREAMS`` per process
    (503 beyond), and at most ``CITADEL_MAX_STREAMS_PER_CLIENT`` per client across replicas (429
    beyond; ten times that for a client known by its address only), counted in Redis."""
    if rt.open_streams >= rt.cfg.max_streams:
        raise ApiError(
            503, "too_many_streams", "too many open event streams on this server; retry shortly", retry_after=5
        )
    client, identified = client_of(request)
    cap = rt.cfg.max_streams_per_client * (1 if identified else ANONYMOUS_FACTOR)
    rt.open_streams += 1
    try:
        ok = cap <= 0 or await _limits(request).claim_stream(client, cap, STREAM_TTL_S)
    except BaseException:
        rt.open_streams -= 1
        raise
    if not ok:
        rt.open_streams -= 1
        raise ApiError(
            429,
            "too_many_streams",
            f"at most {cap} open event streams per client; close one or retry shortly",
            retry_after=5,
        )
    return client


def _limits(request: Request[Any, Any, Any]) -> RateLimits:
    limits: RateLimits = request.app.state.limits
    return limits


async def _release_slot(rt: Runtime, limits: RateLimits, client: Client) -> None:
    rt.open_streams -= 1
    if rt.cfg.max_streams_per_client > 0:
        await limits.release_stream(client)


async def released(
    rt: Runtime, limits: RateLimits, client: Client, stream: AsyncIterator[bytes]
) -> AsyncIterator[bytes]:
    refreshed = time.monotonic()
    try:
        async for chunk in stream:
            yield chunk
            if rt.cfg.max_streams_per_client > 0 and time.monotonic() - refreshed > STREAM_REFRESH_S:
                refreshed = time.monotonic()
                await limits.refresh_stream(client, STREAM_TTL_S)
    finally:
        # A task of its own: the stream may end by cancellation, which would cancel an await here.
        task = asyncio.ensure_future(_release_slot(rt, limits, client))
        _releases.add(task)
        task.add_done_callback(_releases.discard)


async def _wait_for(rt: Runtime, keys: Keys, after: int, wait: int, limit: int) -> list[Envelope]:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        res = await rt.blocking_read(
            {keys.events: f"{after}-0"},
            count=limit,
            block=int(min(1000, (deadline - time.monotonic()) * 1000)) or 1,
        )
        if res:
            return await rt.store.read(keys, after, count=limit)
    return []


SSE_RETRY_MS = 3000
"""The ``retry:`` each SSE stream opens with: how long an ``EventSource`` waits before reconnecting."""


def sse_event(seq: int, event: msgspec.Struct) -> bytes:
    """One event as an SSE message: ``id`` its ``seq``, ``event`` its ``type``, ``data`` the event."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, str(event.__struct_config__.tag).encode(), _enc.encode(event))


def sse_end(game_id: str, version: int) -> bytes:
    return b"event: end\ndata: %s\n\n" % _enc.encode(StreamEnd(game_id=game_id, version=version))


async def _delayed_read(rt: Runtime, game: LoadedGame, keys: Keys, after: int, wait: int, limit: int) -> list[Envelope]:
    """NDJSON for a delayed spectator: the events after ``after`` that the delay lets through,
    waiting up to ``wait`` seconds (checking every second) for one to age enough."""
    deadline = time.monotonic() + wait
    while True:
        game = await rt.engine.load(game.game_id)
        visible = await visible_version(rt.store, game, rt.engine.clock())
        envs = [e for e in await rt.store.read(keys, after, count=limit) if e.seq <= visible] if visible > after else []
        if envs or time.monotonic() >= deadline:
            return envs
        await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


async def _sse(
    rt: Runtime,
    game: LoadedGame,
    keys: Keys,
    after: int,
    reader: str | None,
    ended: bool,
    spectator: bool = False,
    sees_all: bool = False,
) -> AsyncIterator[bytes]:
    """SSE: every event after ``after``, then new ones as they come; a keep-alive comment every 15 s.
    Once the game's last event is sent (the game had ended, or its ending event came through), an
    ``end`` message, and the stream closes. Blocking reads stay well under the client's socket
    timeout. ``sees_all`` (the judge) reads everything unredacted. A delayed spectator
    (``spectator``) gets no event newer than the delay allows: the cut is made again before each
    read, so events come through as they age, and the stream ends only after the last one did."""
    last_beat = time.monotonic()
    final = game.version if ended else None  # the version after which nothing more will come
    over = ended or sees_all  # unredacted: everything is public from the end on, and to the judge
    yield b"retry: %d\n: stream open\n\n" % SSE_RETRY_MS
    while True:
        envs = await rt.store.read(keys, after, count=500)
        if spectator and envs:
            game = await rt.engine.load(game.game_id)
            visible = await visible_version(rt.store, game, rt.engine.clock())
            envs = [e for e in envs if e.seq <= visible]
            if not envs:
                await asyncio.sleep(1)  # newer events are there: they come through as they age
        for env in envs:
            raw = game.decode(env)
            if game.game.ends_game(raw):
                over, final = True, env.seq
            e = game.game.redact_event(raw, reader, game_over=over)
            yield sse_event(env.seq, e)
            after = env.seq
            last_beat = time.monotonic()
        if envs:
            continue
        if final is not None and after >= final:  # the last event is sent: nothing more will come
            yield sse_end(keys.game_id, after)
            return
        await rt.blocking_read({keys.events: f"{after}-0"}, count=1, block=1000)
        if time.monotonic() - last_beat > 15:
            last_beat = time.monotonic()
            yield b": keep-alive\n\n"


EXPORT_PAGE = 500
"""Events read per ``XRANGE`` by the export and the derived log: no request reads a long game's
whole stream at once."""
_EVENTS_MARK = b'"events":[]'


async def _redacted_pages(
    rt: Runtime, game: LoadedGame, keys: Keys, upto: int, reader: str | None, over: bool
) -> AsyncIterator[tuple[Envelope, bool]]:
    """The first ``upto`` events, read :data:`EXPORT_PAGE` at a time, each redacted for ``reader``
    (nothing is, with ``over``), and whether it was."""
    after = 0
    while after < upto:
        page = await rt.store.read(keys, after, count=min(EXPORT_PAGE, upto - after))
        if not page:
            return  # pragma: no cover - a stream shorter than the version it was loaded at
        for env in page:
            after = env.seq
            if not over:
                e = game.decode(env)
                red = game.game.redact_event(e, reader, game_over=False)
                if red is not e:
                    yield msgspec.structs.replace(env, event=msgspec.Raw(_enc.encode(red))), True
                    continue
            yield env, False


async def _export_chunks(shell: bytes, envs: AsyncIterator[tuple[Envelope, bool]]) -> AsyncIterator[bytes]:
    """The export's JSON, streamed: ``shell`` is the whole document with no event (its
    ``"events":[]``), and the events are written into it page by page, byte for byte what encoding
    the whole document at once gives."""
    at = shell.index(_EVENTS_MARK) + len(_EVENTS_MARK) - 1
    yield shell[:at]
    chunk: list[bytes] = []
    first = True
    async for env, _ in envs:
        chunk.append(_enc.encode(env) if first else b"," + _enc.encode(env))
        first = False
        if len(chunk) >= EXPORT_PAGE:
            yield b"".join(chunk)
            chunk = []
    yield b"".join(chunk) + shell[at:]


async def derived_log(rt: Runtime, game: LoadedGame, keys: Keys, after: int, limit: int, upto: int) -> list[LogLine]:
    """At most ``limit`` log lines of the events after ``after`` up to ``upto``, narrated from the
    events themselves, read :data:`EXPORT_PAGE` at a time (for a game whose projection is behind,
    or that was archived and has none)."""
    over = game.game.is_over(game.state)
    lines: list[LogLine] = []
    while after < upto and len(lines) < limit:
        envs = [e for e in await rt.store.read(keys, after, count=EXPORT_PAGE) if e.seq <= upto]
        if not envs:
            break
        lines += log_lines(game.game, ((e, game.decode(e)) for e in envs), over)
        after = envs[-1].seq
    return lines[:limit]


class EventsController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["events"]

    @get(
        "/events",
        opt={"query": {"from", "wait", "limit"}},
        summary="Event log (NDJSON or Server-Sent Events)",
        description="Each event after `from`, redacted for the caller. `Accept: text/event-stream` gives an SSE stream "
        "(`retry: 3000` first, `id:` = version, resume with `Last-Event-ID`, keep-alive comments every 15 s) that ends "
        "once the game has ended: after the last event it sends `event: end` with `data: {game_id, version, reason}` "
        "(`version` = the final version) and closes; a request for an ended game that asks for nothing new "
        "(`Last-Event-ID` or `from` at the final version) is answered `204 No Content`, which tells an `EventSource` "
        "to stop reconnecting. Otherwise NDJSON lines "
        "`{seq, ts, event}` (`application/x-ndjson`), waiting up to `wait` seconds when nothing is newer. Without a token you read as a spectator. "
        "A client (a seat or the organizer, else an address) may hold at most `CITADEL_MAX_STREAMS_PER_CLIENT` (8) SSE streams and long-polls "
        "open at once across all servers (`429 too_many_streams` beyond).",
        responses=problems(400, 401, 404, 429, 503),
        media_type="application/x-ndjson",
    )
    async def events(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        from_: FromVersion = 0,
        wait: Wait = 0,
        limit: Limit = 1000,
    ) -> Stream:
        rt = runtime(request)
        role = role_of(request)
        game = await rt.engine.load(game_id)
        reader = reader_for(game, role)
        keys = rt.store.keys(game_id)
        sse = "text/event-stream" in request.headers.get("accept", "")
        ended = game.game.is_over(game.state)
        sees_all = sees_everything(role)
        spectator = role is None and delayed(game)
        if sse:
            last = request.headers.get("last-event-id")
            start = int(last) if last and last.isdigit() else from_
            if ended and start >= game.version:
                return Stream(iter(()), status_code=204, headers={"Cache-Control": "no-cache"})
        client = await claim_stream_slot(request, rt) if sse or wait else None
        if sse:
            assert client is not None
            return Stream(
                released(rt, _limits(request), client, _sse(rt, game, keys, start, reader, ended, spectator, sees_all)),
                media_type="text/event-stream",
                headers={"Cache-Control": "no-cache", "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"},
            )
        try:
            if spectator:
                envs = await _delayed_read(rt, game, keys, from_, wait, limit)
            else:
                envs = await rt.store.read(keys, from_, count=limit)
                if not envs and wait:
                    envs = await _wait_for(rt, keys, from_, wait, limit)
        finally:
            if client is not None:
                await _release_slot(rt, _limits(request), client)
        lines = [_line(game, e, reader, ended or sees_all) for e in envs]
        return Stream(iter(lines), media_type="application/x-ndjson")

    @get(
        "/log",
        opt={"query": {"from", "limit"}},
        summary="Game log",
        description="Human-readable public log lines, paginated by `from` cursor (a version).",
        responses=problems(400, 404, 429, 503),
    )
    async def game_log(
        self, request: Request[Any, Any, Any], game_id: GameId, from_: FromVersion = 0, limit: Limit = 200
    ) -> Response[LogOut]:
        rt = runtime(request)
        game = await rt.engine.load(game_id)
        keys = rt.store.keys(game_id)
        visible = await spectator_version(rt, game, verified_role(request))
        version = game.version if visible is None else visible
        if await rt.projections.version(keys) >= game.version:
            lines = await rt.projections.log(keys, from_, limit)
        else:  # the projection is behind, or the game was archived: derived from its events, page by page
            lines = await derived_log(rt, game, keys, from_, limit, version)
        lines = [line for line in lines if line.seq <= version]  # a delayed spectator's cut
        nxt = lines[-1].seq if len(lines) == limit else None
        out = LogOut(game_id=game_id, version=version, lines=lines, next_cursor=nxt)
        return json_response(200, _enc.encode(out), version)

    @get(
        "/export",
        summary="Replay export",
        description="The replay file (format `citadel-replay/1`, docs/replay-format.md, JSON Schema `openapi/replay.schema.json`): "
        "every event with its sequence number, timestamp, schema and hash-chain link, the game's `kind`, and `signed_head`: "
        "the chain head at `version` (the hash of the last event) signed with the deployment's Ed25519 key "
        "(public key at `GET /v1/signing-key`). "
        "Before the game ends hidden fields are redacted for the caller (`complete: false`, their numbers in `redacted`); "
        "in tournament mode (`settings.organizer_is_referee`) the organizer's export is complete at any time "
        "(the seed stays secret until the end). After the end the export is complete for everyone and the seed is revealed. "
        "`citadel-verify FILE --public-key KEY` checks the signature, the chain, the seed commitment and the shuffles, "
        "and re-derives every event from the players' commands offline.",
        responses=problems(400, 401, 404, 429, 503),
    )
    async def export(self, request: Request[Any, Any, Any], game_id: GameId) -> Response[ExportOut]:
        rt = runtime(request)
        role = role_of(request)
        game = await rt.engine.load(game_id)
        reader = reader_for(game, role)
        keys = rt.store.keys(game_id)
        # exactly the events of the loaded version: the head signed below is the head of this state
        visible = await spectator_version(rt, game, role)
        upto = game.version if visible is None else visible  # a delayed spectator's cut
        ended = game.game.is_over(game.state) and upto == game.version
        # Complete after the end, and for a referee organizer (organizer_is_referee) at any time.
        # and for the judge, live (docs/judge.md).
        over = ended or sees_everything(role) or (role == ORGANIZER and game.game.referee_export(game.state))
        last = await rt.store.read(keys, upto - 1, count=1) if upto else []
        signer = await rt.signing.signer()
        head = signer.sign(game_id, game.kind, upto, last[0].hash if last else GENESIS)
        redacted = (
            [] if over else [env.seq async for env, red in _redacted_pages(rt, game, keys, upto, reader, over) if red]
        )
        body = ExportOut(
            game_id=game_id,
            version=upto,
            seed_commitment=game.game.seed_commitment(game.state),
            seed=await rt.store.seed(keys) if ended else None,
            complete=not redacted,
            signed_head=head,
            events=[],
            redacted=redacted,
            kind=game.kind,
        )
        # streamed page by page; the annotation above documents the body it adds up to
        return Stream(  # type: ignore[return-value]
            _export_chunks(_enc.encode(body), _redacted_pages(rt, game, keys, upto, reader, over)),
            media_type=JSON,
            headers={"ETag": f'"{upto}"'},
        )
