"""The REST API (Litestar + msgspec). Conventions: docs/api-conventions.md.

Each resource has its controller (``controllers/``); guards (``access.py``) say who may call what;
handlers are thin: authenticate, hand the command to :class:`service.engine.engine.Engine`, answer.
Reads come from the projections when they are fresh enough for ``min_version``, else straight from
the stream (snapshot + tail), so a client always sees its own writes. Games are known only through
the registry's :class:`~domain.core.game.Game` protocol.
"""

from __future__ import annotations

import gc
from functools import partial
from typing import Any

from litestar import Litestar, Request, Response
from litestar.config.compression import CompressionConfig
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException, ValidationException
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from domain.core.errors import GameError
from service.engine.runtime import Runtime, build_runtime
from service.store.config import Config
from service.store.lobby import LobbyIndex
from service.store.logs import configure_logging
from service.store.rate_limits import RateLimits
from service.store.redis_client import STORE_UNREACHABLE

from . import openapi
from .bodies import is_json_type
from .command_lane import CommandLane
from .compression import GzipUnlessEncoded
from .controllers.clocks import ClocksController
from .controllers.commands import CommandsController
from .controllers.events import EventsController
from .controllers.games import GamesController
from .controllers.judge import JudgeController
from .controllers.lobby import LobbyController
from .controllers.ops import OpsController
from .controllers.reference import reference_routes
from .controllers.signing import SigningController
from .controllers.tournaments import TournamentsController
from .controllers.views import ViewsController
from .controllers.watch import WatchController
from .controllers.webhooks import WebhooksController
from .errors import ApiError
from .manners import HttpManners
from .problems import (
    api_error_handler,
    game_error_handler,
    http_exception_handler,
    internal_error_handler,
    runtime_error_handler,
    store_unavailable_handler,
    too_deep_handler,
    validation_handler,
)
from .ratelimit import RateLimiter, rate_limited

MAX_BODY = 64 * 1024
GZIP_MIN_BYTES = 1024
"""Answers this large or larger are gzipped for clients that accept it (a whole answer at once; a
stream chunk by chunk, each flushed as it is written, so SSE and NDJSON are never held back)."""


async def before_request(request: Request[Any, Any, Any]) -> Response[None] | None:
    """Refuse non-JSON bodies and unknown query parameters (rate limits are the app's first guard:
    ``ratelimit.py``); answer OPTIONS with every method of the path. It runs on every request, so
    it reads the scope directly and parses the query only when there is one."""
    method = request.scope["method"]
    if method == "OPTIONS":
        return options_answer(request)
    if method == "POST":
        reject_non_json(request)
    if request.scope["query_string"]:
        reject_unknown_query_parameters(request)
    return None


def options_answer(request: Request[Any, Any, Any]) -> Response[None]:
    """``204`` with ``Allow``: every method of the path. Litestar's own OPTIONS handler lists the
    methods of the path's first handler only (it is built then, and kept when a GET joins a POST on
    the same path: ``/v1/games/{id}/webhooks``)."""
    paths = request.route_handler.paths
    methods = {m for route in request.app.routes if route.path in paths for m in getattr(route, "methods", ())}
    return Response(content=None, status_code=204, headers={"Allow": ", ".join(sorted(methods | {"OPTIONS"}))})


def reject_non_json(request: Request[Any, Any, Any]) -> None:
    """A POST body must be JSON (415 ``unsupported_media_type``); no ``Content-Type`` counts as JSON."""
    ctype = request.headers.get("content-type", "application/json")
    if not is_json_type(ctype):
        ctype = ctype.split(";")[0].strip().lower()
        raise ApiError(415, "unsupported_media_type", f"send JSON bodies as application/json, not {ctype}")


def reject_unknown_query_parameters(request: Request[Any, Any, Any]) -> None:
    """Unknown query parameters are refused (400 ``unknown_parameter``), like unknown body fields:
    a misspelt ``min_verison`` must not be silently ignored."""
    allowed = request.route_handler.opt.get("query", set())
    unknown = sorted(k for k in request.query_params if k not in allowed)
    if unknown:
        raise ApiError(400, "unknown_parameter", f"unknown query parameter(s): {', '.join(unknown)}")


def guards_without_copies(app: Litestar) -> None:
    """Run each route's guards with the route handler itself instead of a copy.

    Litestar calls every guard as ``guard(connection, copy(handler))``: a shallow copy of the whole
    route handler per guard per request, about 50 µs here, so 0.1 ms of every guarded command (the
    app's rate-limit guard and the route's own). Citadel's guards (``access.py``, ``ratelimit.py``)
    never look at the handler, let alone change it; so each HTTP route handler of the app gets an
    ``authorize_connection`` of its own that runs the same guards, in the same order, without the
    copy. (Handlers that cannot take an attribute keep Litestar's.)"""
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if isinstance(handler, HTTPRouteHandler) and hasattr(handler, "__dict__"):
                handler.authorize_connection = partial(_authorize, handler)  # type: ignore[method-assign]  # per instance, see above


async def _authorize(handler: HTTPRouteHandler, connection: ASGIConnection[Any, Any, Any, Any]) -> None:
    for guard in handler.resolve_guards():
        await guard(connection, handler)  # type: ignore[misc]  # Litestar's guards may be sync or async; ours are async


def freeze_startup_objects() -> None:
    """Move everything built so far (modules, the app and its routes, the OpenAPI schema, the
    runtime) out of the garbage collector's reach (``gc.freeze``): it lives as long as the process,
    yet every full collection walked all of it again. Measured with ``bench/http_wrk.py``
    (docs/benchmarks.md): the closed loop's p99 63–82 ms without, 25–40 ms with."""
    gc.collect()
    gc.freeze()


def create_app(runtime: Runtime | None = None) -> Litestar:
    configure_logging()

    async def startup(app: Litestar) -> None:
        if not hasattr(app.state, "rt"):
            app.state.rt = runtime or build_runtime()
        app.state.lobby = LobbyIndex(app.state.rt.redis)
        app.state.limits = RateLimits(app.state.rt.redis, app.state.rt.cfg.partitions, app.state.rt.cfg.cluster)
        app.state.limiter = RateLimiter.from_env(app.state.limits)
        freeze_startup_objects()

    async def shutdown(app: Litestar) -> None:
        if hasattr(app.state, "rt") and runtime is None:
            await app.state.rt.close()

    app = Litestar(
        route_handlers=[
            GamesController,
            LobbyController,
            CommandsController,
            ClocksController,
            ViewsController,
            EventsController,
            JudgeController,
            SigningController,
            TournamentsController,
            WebhooksController,
            OpsController,
            WatchController,
            *reference_routes(),
        ],
        on_startup=[startup],
        guards=[rate_limited],
        before_request=before_request,
        on_shutdown=[shutdown],
        exception_handlers={
            ApiError: api_error_handler,
            GameError: game_error_handler,
            RecursionError: too_deep_handler,
            RuntimeError: runtime_error_handler,
            **{kind: store_unavailable_handler for kind in STORE_UNREACHABLE},
            ValidationException: validation_handler,
            HTTPException: http_exception_handler,
            Exception: internal_error_handler,
        },
        request_max_body_size=MAX_BODY,
        compression_config=CompressionConfig(
            backend="gzip",
            minimum_size=GZIP_MIN_BYTES,
            gzip_compress_level=6,
            middleware_class=GzipUnlessEncoded,
        ),
        openapi_config=OpenAPIConfig(
            title="Citadel",
            version="1.0.0",
            description="Event-sourced server for A Game of Thrones: The Board Game (2nd ed.), and any game "
            "registered beside it (`kind`). See docs/api-walkthrough.md for a curl tour. Every `GET` also answers "
            "`HEAD` (same headers, no body); answers of 1 KiB or more are gzipped for clients that accept it; "
            "browser pages of the origins in `CITADEL_CORS_ORIGINS` may call the API (CORS is off by default).",
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
    openapi.install(app)
    guards_without_copies(app)
    # HEAD, If-None-Match and CORS wrap everything Litestar answers, its problems included (manners.py).
    cors = (runtime.cfg if runtime is not None else Config.from_env()).cors_origins
    # A seat's plain command skips the framework's per-request work (command_lane.py), under the same manners.
    app.asgi_handler = HttpManners(CommandLane(app.asgi_handler, app, MAX_BODY), cors)
    return app


app = create_app()
