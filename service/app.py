"""The REST API (Litestar + msgspec). Conventions: docs/api-conventions.md.

Every handler is thin: authenticate, hand the command to :class:`service.engine.Engine`, answer.
Reads come from the projections when they are fresh enough for ``min_version``, else straight from
the stream (snapshot + tail), so a client always sees its own writes.
"""

from __future__ import annotations

import logging
import time
import typing
from collections.abc import AsyncIterator
from typing import Annotated, TypeVar

import msgspec
from litestar import Litestar, MediaType, Request, Response, get, post
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.params import Parameter
from litestar.response import Stream

from domain.board import commands as cmd
from domain.board.decisions import pending_decisions
from domain.board.redaction import BoardView, redact_event, view_for
from domain.board.state import Settings
from domain.core.envelope import Envelope

from . import auth, metrics
from .api_models import CreateGameBody, DecisionsOut, ExportOut, Health, JoinBody, LogOut, Waiting
from .engine import CommandAccepted, GameCreatedOut, SeatOut, fingerprint
from .errors import ApiError
from .games import LoadedGame, event_decoder, event_encoder
from .logging_setup import configure_logging
from .problems import (
    FieldError,
    api_error_handler,
    http_exception_handler,
    internal_error_handler,
    problems,
    validation_handler,
)
from .projection_reads import read_log, read_view
from .ratelimit import RateLimiter
from .runtime import Runtime, build_runtime

log = logging.getLogger("citadel.api")
_enc = msgspec.json.Encoder()
T = TypeVar("T")
JSON = "application/json"
MAX_BODY = 64 * 1024
MAX_WAIT_S = 30

GameId = Annotated[str, Parameter(description="Game id", pattern=r"^g_[0-9a-f]{32}$", max_length=34)]
IdemKey = Annotated[
    str,
    Parameter(
        header="Idempotency-Key",
        required=False,
        max_length=255,
        description="Makes the POST safe to retry: the same key and body return the first answer byte for byte.",
    ),
]
IfMatch = Annotated[
    str,
    Parameter(
        header="If-Match",
        required=False,
        max_length=32,
        description='The game version the command expects, as its ETag (`"12"`); 409 `stale_version` when the game is at another version (a value that is not a version never matches).',
    ),
]
MinVersion = Annotated[
    int,
    Parameter(
        query="min_version",
        required=False,
        ge=0,
        le=2**31,
        description="Read your writes: the view reflects at least this version.",
    ),
]
BEARER = [{"bearer": []}]


def rt(request: Request) -> Runtime:
    return request.app.state.rt


def _token(request: Request) -> str | None:
    h = request.headers.get("authorization")
    if not h:
        return None
    scheme, _, value = h.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return value.strip()


def _role(request: Request, game_id: str, *, required: bool) -> str | None:
    token = _token(request)
    if token is None:
        if required:
            raise ApiError(401, "unauthorized", "this operation needs a bearer token", title="Unauthorized")
        return None
    role = auth.verify(rt(request).secret, game_id, token)
    if role is None:
        raise ApiError(401, "invalid_token", "the token is not valid for this game", title="Unauthorized")
    return role


def _actor(role: str | None) -> cmd.Actor:
    if role == auth.ORGANIZER:
        return cmd.Actor(kind="organizer")
    if role is None:
        return cmd.Actor(kind="system")  # never used for commands: commands require a token
    return cmd.Actor(kind="seat", seat_id=role)


def _reader(game: LoadedGame, role: str | None) -> str | None:
    if role is None or role == auth.ORGANIZER:
        return None
    seat = game.state.seat(role)
    if seat is None:
        raise ApiError(403, "forbidden", "this seat is not in the game")
    return seat.house


def _expected(if_match: str) -> int | None:
    """The version an ``If-Match`` names. A value that is not a version can never match: -1."""
    if not if_match:
        return None
    value = if_match.removeprefix("W/").strip('"')
    return int(value) if value.isdigit() and len(value) < 12 else -1


def _json(status: int, body: bytes, version: int | None = None) -> Response:
    headers = {"ETag": f'"{version}"'} if version is not None else None
    return Response(content=body, status_code=status, media_type=JSON, headers=headers)


def _version_of(body: bytes) -> int | None:
    try:
        return msgspec.json.decode(body, type=_Versioned).version
    except msgspec.DecodeError:
        return None


class _Versioned(msgspec.Struct):
    version: int


async def _strict(request: Request, typ: type[T]) -> T:
    """Decode the body again, strictly. Litestar converts ``data`` in lax mode (``0`` -> ``false``,
    ``"3"`` -> ``3``); the API promises JSON types as documented, so a mistyped field is a 422."""
    raw = await request.body()
    try:
        return msgspec.json.decode(raw, type=typ)
    except msgspec.ValidationError as e:
        msg = str(e)
        code = "unknown_field" if "unknown field" in msg else "validation_error"
        field = msg.rsplit("at `", 1)[1].rstrip("`") if "at `" in msg else "body"
        field = field.removeprefix("$.").removeprefix("$")
        if "unknown field `" in msg:
            name = msg.split("unknown field `", 1)[1].split("`", 1)[0]
            field = f"{field}.{name}" if field and field != "body" else name
        message = msg.split(" - at `")[0]
        raise ApiError(
            422, code, f"{field}: {message}", title="Invalid request", errors=[FieldError(field=field, message=message)]
        ) from None
    except msgspec.DecodeError as e:
        raise ApiError(400, "bad_json", f"the body is not valid JSON: {e}") from None


# --- games --------------------------------------------------------------------------------------


@post(
    "/v1/games",
    summary="Create a game",
    description="Creates a board game for 3-6 players (BG-SETUP-01) and returns the organizer token. "
    "The seed behind every shuffle is committed as `seed_commitment` (sha256) and revealed at the end. "
    "With `scenario` the game starts from a described position (units, orders, Power tokens, tracks, "
    "House cards, round): validated like any input (422 `invalid_scenario` with the rule it breaks); "
    "with `start_at: action` the Action phase opens right after the start.",
    status_code=201,
    responses=problems(400, 409, 413, 415, 422, 429),
    tags=["games"],
)
async def create_game(
    request: Request, data: CreateGameBody, idempotency_key: IdemKey = ""
) -> Response[GameCreatedOut]:
    if idempotency_key and len(idempotency_key) < 16:
        # the key names the new game: a short, guessable key could hand its organizer token to another client
        raise ApiError(
            400,
            "invalid_parameter",
            "an Idempotency-Key that creates a game must have at least 16 characters (use a random UUID)",
        )
    data = await _strict(request, CreateGameBody)
    fp = fingerprint("create", msgspec.json.encode(data))
    status, body = await rt(request).engine.create_game(
        data.player_count, data.settings, idempotency_key or None, fp, scenario=data.scenario
    )
    metrics.COMMANDS.inc("create_game")
    response = _json(status, body, _version_of(body))
    response.headers["Location"] = f"/v1/games/{msgspec.json.decode(body, type=_GameIdOnly).game_id}"
    return response


class _GameIdOnly(msgspec.Struct):
    game_id: str


@post(
    "/v1/games/{game_id:str}/seats",
    summary="Join a game",
    description="Takes the next free seat and returns its secret bearer token. Houses are dealt at random when the organizer starts the game (BG-SETUP-02).",
    status_code=201,
    responses=problems(400, 404, 409, 413, 415, 422, 429, 503),
    tags=["games"],
)
async def join_game(
    request: Request, game_id: GameId, data: JoinBody, idempotency_key: IdemKey = ""
) -> Response[SeatOut]:
    engine = rt(request).engine
    if idempotency_key and len(idempotency_key) < 16:
        # a retried join returns the seat's token: the key must not be guessable
        raise ApiError(
            400,
            "invalid_parameter",
            "an Idempotency-Key that joins a game must have at least 16 characters (use a random UUID)",
        )
    data = await _strict(request, JoinBody)
    fp = fingerprint("join", game_id, msgspec.json.encode(data))
    status, body = await engine.execute(
        game_id,
        cmd.Actor(kind="seat"),
        cmd.JoinGame(name=data.name),
        idempotency_key=idempotency_key or None,
        fp=fp,
        respond=engine.seat_answer,
        status=201,
    )
    metrics.COMMANDS.inc("join_game")
    return _json(status, body, _version_of(body))


@post(
    "/v1/games/{game_id:str}/start",
    summary="Start the game (organizer)",
    description="Deals houses to seats, shuffles the decks and opens the Planning phase of round 1 (BG-ROUND-02: no Westeros phase in round 1).",
    status_code=200,
    responses=problems(400, 401, 403, 404, 409, 415, 422, 429, 503),
    tags=["games"],
    security=BEARER,
)
async def start_game(
    request: Request, game_id: GameId, idempotency_key: IdemKey = "", if_match: IfMatch = ""
) -> Response[CommandAccepted]:
    role = _role(request, game_id, required=True)
    if role != auth.ORGANIZER:
        raise ApiError(403, "forbidden", "only the organizer may start the game")
    status, body = await rt(request).engine.execute(
        game_id,
        _actor(role),
        cmd.StartGame(),
        expected_version=_expected(if_match),
        idempotency_key=idempotency_key or None,
        fp=fingerprint("start", game_id, role),
    )
    metrics.COMMANDS.inc("start_game")
    return _json(status, body, _version_of(body))


@post(
    "/v1/games/{game_id:str}/commands",
    summary="Submit a command",
    description="A tagged body (`type`): `assign_orders`, `raven_replace_order`, `raven_peek_wildling`, "
    "`raven_place_wildling`, `raven_pass`. The answer carries the new `version` and the events produced, "
    'redacted for you. Guard with `If-Match: "<version>"` or leave it out to act on the latest version.',
    status_code=200,
    responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
    tags=["commands"],
    security=BEARER,
)
async def submit_command(
    request: Request, game_id: GameId, data: cmd.PlayerCommand, idempotency_key: IdemKey = "", if_match: IfMatch = ""
) -> Response[CommandAccepted]:
    role = _role(request, game_id, required=True)
    if role == auth.ORGANIZER:
        raise ApiError(403, "forbidden", "the organizer does not play; use a seat token")
    data = await _strict(request, cmd.PlayerCommand)
    raw = msgspec.json.encode(data)  # the fingerprint ignores whitespace and key order of the request
    started = time.perf_counter()
    try:
        status, body = await rt(request).engine.execute(
            game_id,
            _actor(role),
            data,
            expected_version=_expected(if_match),
            idempotency_key=idempotency_key or None,
            fp=fingerprint("command", game_id, role, raw),
        )
    except ApiError as e:
        metrics.REJECTED.inc(e.code)
        raise
    metrics.COMMANDS.inc(type(data).__struct_config__.tag)
    metrics.LATENCY.observe(time.perf_counter() - started)
    return _json(status, body, _version_of(body))


# --- reads --------------------------------------------------------------------------------------


async def _view_bytes(request: Request, game_id: str, reader: str | None, min_version: int) -> bytes:
    r = rt(request)
    keys = r.store.keys(game_id)
    cached = await read_view(r.redis, keys, reader)
    if cached is not None and cached[0] >= min_version:
        return cached[1]
    game = await r.engine.load(game_id)
    if game.version < min_version:
        raise ApiError(
            409, "version_not_reached", f"the game is at version {game.version}", current_version=game.version
        )
    return _enc.encode(view_for(game.state, reader))


@get(
    "/v1/games/{game_id:str}",
    opt={"query": {"min_version"}},
    summary="Public view",
    description="The game as a spectator sees it: no sealed order, hand or deck order.",
    responses=problems(400, 404, 409, 429),
    tags=["views"],
)
async def public_view(request: Request, game_id: GameId, min_version: MinVersion = 0) -> Response[BoardView]:
    body = await _view_bytes(request, game_id, None, min_version)
    return _json(200, body, _version_of(body))


@get(
    "/v1/games/{game_id:str}/view",
    opt={"query": {"min_version"}},
    summary="Your view",
    description="The game as your seat sees it: your own sealed orders, your hand, your raven peek. The organizer gets the public view.",
    responses=problems(400, 401, 403, 404, 409, 429),
    tags=["views"],
    security=BEARER,
)
async def seat_view(request: Request, game_id: GameId, min_version: MinVersion = 0) -> Response[BoardView]:
    role = _role(request, game_id, required=True)
    game = await rt(request).engine.load(game_id)
    body = await _view_bytes(request, game_id, _reader(game, role), min_version)
    return _json(200, body, _version_of(body))


@get(
    "/v1/games/{game_id:str}/decisions",
    opt={"query": {"min_version"}},
    summary="What you must decide now",
    description="Your pending decisions with their legal options, deadline and the default applied at the deadline; plus who else the game waits for.",
    responses=problems(400, 401, 403, 404, 409, 429),
    tags=["views"],
    security=BEARER,
)
async def decisions(request: Request, game_id: GameId, min_version: MinVersion = 0) -> Response[DecisionsOut]:
    role = _role(request, game_id, required=True)
    game = await rt(request).engine.load(game_id)
    if game.version < min_version:
        raise ApiError(
            409, "version_not_reached", f"the game is at version {game.version}", current_version=game.version
        )
    all_ = pending_decisions(game.state)
    mine = [d for d in all_ if role != auth.ORGANIZER and d.seat_id == role]
    out = DecisionsOut(
        game_id=game_id,
        version=game.version,
        phase=game.state.phase,
        step=game.state.step,
        decisions=mine,
        waiting_for=[
            Waiting(seat_id=d.seat_id, house=d.house, kind=d.options.__struct_config__.tag, deadline=d.deadline)
            for d in all_
            if getattr(d.options, "submitted", None) is None  # sealed orders in: amendable, not awaited
        ],
    )
    return _json(200, _enc.encode(out), game.version)


FromVersion = Annotated[int, Parameter(query="from", ge=0, le=2**31, description="Return events after this version.")]
Wait = Annotated[
    int,
    Parameter(
        query="wait",
        ge=0,
        le=MAX_WAIT_S,
        description="NDJSON: if nothing is newer, wait up to this many seconds for new events.",
    ),
]
Limit = Annotated[int, Parameter(query="limit", ge=1, le=1000, description="Page size.")]


class EventLine(msgspec.Struct):
    seq: int
    ts: str
    event: object


@get(
    "/v1/games/{game_id:str}/events",
    opt={"query": {"from", "wait", "limit"}},
    summary="Event log (NDJSON or Server-Sent Events)",
    description="Each event after `from`, redacted for the caller. `Accept: text/event-stream` gives an endless SSE stream "
    "(`id:` = version, resume with `Last-Event-ID`, keep-alive comments every 15 s); otherwise NDJSON lines "
    "`{seq, ts, event}` (`application/x-ndjson`), waiting up to `wait` seconds when nothing is newer. Without a token you read as a spectator.",
    responses=problems(400, 401, 404, 429, 503),
    tags=["events"],
    media_type="application/x-ndjson",
)
async def events(
    request: Request, game_id: GameId, from_: FromVersion = 0, wait: Wait = 0, limit: Limit = 1000
) -> Stream:
    role = _role(request, game_id, required=False)
    r = rt(request)
    game = await r.engine.load(game_id)
    reader = _reader(game, role)
    keys = r.store.keys(game_id)
    sse = "text/event-stream" in request.headers.get("accept", "")
    if sse or wait:
        _claim_stream_slot(r)
    if sse:
        last = request.headers.get("last-event-id")
        start = int(last) if last and last.isdigit() else from_
        return Stream(
            _released(r, _sse(r, keys, start, reader, over=game.state.phase == "ended")),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"},
        )
    try:
        envs = await r.store.read(keys, from_, count=limit)
        if not envs and wait:
            envs = await _wait_for(r, keys, from_, wait, limit)
    finally:
        if wait:
            r.open_streams -= 1
    over = game.state.phase == "ended"
    lines = [_line(e, reader, over) for e in envs]
    return Stream(iter(lines), media_type="application/x-ndjson")


def _line(env: Envelope, reader: str | None, over: bool) -> bytes:
    e = redact_event(event_decoder.decode(env.event), reader, game_over=over)
    return _enc.encode(EventLine(seq=env.seq, ts=env.ts, event=msgspec.Raw(event_encoder.encode(e)))) + b"\n"


def _claim_stream_slot(r: Runtime) -> None:
    """SSE streams and long-polls hold a connection each: at most ``CITADEL_MAX_STREAMS`` per process."""
    if r.open_streams >= r.cfg.max_streams:
        raise ApiError(
            503, "too_many_streams", "too many open event streams on this server; retry shortly", retry_after=5
        )
    r.open_streams += 1


async def _released(r: Runtime, stream: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    try:
        async for chunk in stream:
            yield chunk
    finally:
        r.open_streams -= 1


async def _wait_for(r: Runtime, keys, after: int, wait: int, limit: int) -> list[Envelope]:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        res = await r.blocking.xread(
            {keys.events: f"{after}-0"}, count=limit, block=int(min(1000, (deadline - time.monotonic()) * 1000)) or 1
        )
        if res:
            return await r.store.read(keys, after, count=limit)
    return []


async def _sse(r: Runtime, keys, after: int, reader: str | None, over: bool) -> AsyncIterator[bytes]:
    """Endless SSE: every event after ``after``, then new ones as they come; a keep-alive comment
    every 15 s. Blocking reads stay well under the client's socket timeout."""
    last_beat = time.monotonic()
    yield b": stream open\n\n"
    while True:
        envs = await r.store.read(keys, after, count=500)
        for env in envs:
            raw = event_decoder.decode(env.event)
            over = over or raw.__struct_config__.tag == "game_ended"  # everything is public from the end on
            e = redact_event(raw, reader, game_over=over)
            yield b"id: %d\nevent: %s\ndata: %s\n\n" % (
                env.seq,
                e.__struct_config__.tag.encode(),
                event_encoder.encode(e),
            )
            after = env.seq
            last_beat = time.monotonic()
        if envs:
            continue
        await r.blocking.xread({keys.events: f"{after}-0"}, count=1, block=1000)
        if time.monotonic() - last_beat > 15:
            last_beat = time.monotonic()
            yield b": keep-alive\n\n"


@get(
    "/v1/games/{game_id:str}/log",
    opt={"query": {"from", "limit"}},
    summary="Game log",
    description="Human-readable public log lines, paginated by `from` cursor (a version).",
    responses=problems(400, 404, 429),
    tags=["events"],
)
async def game_log(request: Request, game_id: GameId, from_: FromVersion = 0, limit: Limit = 200) -> Response[LogOut]:
    r = rt(request)
    game = await r.engine.load(game_id)
    lines = await read_log(r, game, from_, limit)
    nxt = lines[-1].seq if len(lines) == limit else None
    return _json(
        200, _enc.encode(LogOut(game_id=game_id, version=game.version, lines=lines, next_cursor=nxt)), game.version
    )


@get(
    "/v1/games/{game_id:str}/export",
    summary="Replay export",
    description="Every event with its sequence number, timestamp, schema and hash-chain link. Before the game ends hidden "
    "fields are redacted for the caller (`complete: false`); in tournament mode (`settings.organizer_is_referee`) "
    "the organizer's export is complete at any time (the seed stays secret until the end). After the end the export is complete for everyone and the seed is revealed; "
    "`scripts/verify_replay.py` checks the chain, the seed commitment and the shuffles, and re-folds the game offline.",
    responses=problems(400, 401, 404, 429),
    tags=["events"],
)
async def export(request: Request, game_id: GameId) -> Response[ExportOut]:
    role = _role(request, game_id, required=False)
    r = rt(request)
    game = await r.engine.load(game_id)
    reader = _reader(game, role)
    keys = r.store.keys(game_id)
    envs = await r.store.read(keys, 0)
    # Complete after the end, and for a referee organizer (settings.organizer_is_referee) at any time.
    referee = role == auth.ORGANIZER and game.state.settings.organizer_is_referee
    over = game.state.phase == "ended" or referee
    out_envs = []
    complete = True
    for env in envs:
        e = event_decoder.decode(env.event)
        red = redact_event(e, reader, game_over=over)
        if red is not e:
            complete = False
            env = msgspec.structs.replace(env, event=msgspec.Raw(event_encoder.encode(red)))
        out_envs.append(env)
    seed = await r.store.seed(keys) if game.state.phase == "ended" else None
    body = ExportOut(
        game_id=game_id,
        version=game.version,
        seed_commitment=game.state.seed_commitment,
        seed=seed,
        complete=complete,
        events=out_envs,
    )
    return _json(200, _enc.encode(body), game.version)


# --- operations ---------------------------------------------------------------------------------


@get("/healthz", summary="Liveness", tags=["ops"], description="The process is up.")
async def healthz() -> Response[Health]:
    return _json(200, _enc.encode(Health(status="ok")))


@get("/readyz", summary="Readiness", tags=["ops"], description="Redis answers.", responses=problems(503))
async def readyz(request: Request) -> Response[Health]:
    try:
        await rt(request).redis.ping()
    except Exception as e:  # noqa: BLE001
        raise ApiError(503, "not_ready", f"redis: {e}") from None
    return _json(200, _enc.encode(Health(status="ok", redis="ok")))


@get(
    "/metrics",
    summary="Prometheus metrics",
    tags=["ops"],
    media_type=MediaType.TEXT,
    description="Counters and latency histogram in the Prometheus text format.",
)
async def metrics_endpoint() -> str:
    return metrics.render()


STRICT_BODIES = (CreateGameBody, JoinBody, Settings, *typing.get_args(cmd.PlayerCommand))


def _strict_openapi(app: Litestar) -> None:
    """Request bodies refuse unknown fields (422 ``unknown_field``); say so in the document
    (``additionalProperties: false``), which Litestar does not derive from ``forbid_unknown_fields``."""
    schemas = app.openapi_schema.components.schemas
    for typ in STRICT_BODIES:
        for name, schema in schemas.items():
            if name == typ.__name__ or name.endswith("_" + typ.__name__):
                schema.additional_properties = False


async def before_request(request: Request) -> None:
    """Rate limit per token (or address), then refuse non-JSON bodies and unknown query parameters."""
    if request.url.path.startswith("/v1/"):
        token = request.headers.get("authorization")
        if token:
            request.app.state.limiter.check(token)
        else:  # anonymous reads and lobby calls: per address, ten times the rate (proxies share one)
            request.app.state.anonymous_limiter.check(request.client.host if request.client else "?")
    await reject_unknown_query_parameters(request)


async def reject_unknown_query_parameters(request: Request) -> None:
    """Unknown query parameters are refused (400 ``unknown_parameter``), like unknown body fields:
    a misspelt ``min_verison`` must not be silently ignored."""
    if request.method == "POST":
        ctype = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
        if ctype not in ("application/json", "") and not ctype.endswith("+json"):
            raise ApiError(415, "unsupported_media_type", f"send JSON bodies as application/json, not {ctype}")
    allowed = request.route_handler.opt.get("query", set())
    unknown = sorted(k for k in request.query_params if k not in allowed)
    if unknown:
        raise ApiError(400, "unknown_parameter", f"unknown query parameter(s): {', '.join(unknown)}")


def create_app(runtime: Runtime | None = None) -> Litestar:
    configure_logging()

    async def startup(app: Litestar) -> None:
        app.state.limiter = RateLimiter.from_env()
        app.state.anonymous_limiter = RateLimiter.from_env(factor=10)
        if not hasattr(app.state, "rt"):
            app.state.rt = runtime or build_runtime()

    async def shutdown(app: Litestar) -> None:
        if hasattr(app.state, "rt") and runtime is None:
            await app.state.rt.close()

    app = Litestar(
        route_handlers=[
            create_game,
            join_game,
            start_game,
            submit_command,
            public_view,
            seat_view,
            decisions,
            events,
            game_log,
            export,
            healthz,
            readyz,
            metrics_endpoint,
        ],
        on_startup=[startup],
        before_request=before_request,
        on_shutdown=[shutdown],
        exception_handlers={
            ApiError: api_error_handler,
            ValidationException: validation_handler,
            HTTPException: http_exception_handler,
            Exception: internal_error_handler,
        },
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(
            title="Citadel",
            version="1.0.0",
            description="Event-sourced server for A Game of Thrones: The Board Game (2nd ed.). "
            "See docs/api-walkthrough.md for a curl tour.",
            path="/schema",
            render_plugins=[ScalarRenderPlugin()],
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(
                        type="http", scheme="bearer", description="A seat token or the organizer token of this game."
                    )
                }
            ),
        ),
        debug=False,
    )
    _strict_openapi(app)
    return app


app = create_app()
