"""The REST API (Litestar + msgspec). Conventions: docs/api-conventions.md.

Each resource has its controller (``controllers/``); guards (``access.py``) say who may call what;
handlers are thin: authenticate, hand the command to :class:`service.engine.engine.Engine`, answer.
Reads come from the projections when they are fresh enough for ``min_version``, else straight from
the stream (snapshot + tail), so a client always sees its own writes. Games are known only through
the registry's :class:`~domain.core.game.Game` protocol.
"""

from __future__ import annotations

from typing import Any

import msgspec
import redis.exceptions
from litestar import Litestar, Request
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.openapi.spec import Components, OpenAPIMediaType, Reference, RequestBody, Schema, SecurityScheme

from domain import registry
from domain.core.errors import GameError
from service.engine.runtime import Runtime, build_runtime
from service.store.logs import configure_logging
from service.store.rate_limits import RateLimits

from .controllers.commands import CommandsController
from .controllers.events import EventsController
from .controllers.games import GamesController
from .controllers.ops import OpsController
from .controllers.signing import SigningController
from .controllers.views import ViewsController
from .errors import ApiError
from .models import CREATE_BODIES, JoinBody
from .problems import (
    api_error_handler,
    game_error_handler,
    http_exception_handler,
    internal_error_handler,
    store_unavailable_handler,
    too_deep_handler,
    validation_handler,
)
from .ratelimit import RateLimiter, rate_limited

MAX_BODY = 64 * 1024


def _strict_openapi(app: Litestar) -> None:
    """Request bodies refuse unknown fields (422 ``unknown_field``); say so in the document
    (``additionalProperties: false``), which Litestar does not derive from ``forbid_unknown_fields``."""
    schema = app.openapi_schema
    assert schema.components is not None and schema.components.schemas is not None
    schemas = schema.components.schemas
    strict: list[Any] = [JoinBody, *CREATE_BODIES]
    for game in registry.GAMES.values():
        strict += [t for t in _members(game.command_type)]
        settings = getattr(game.create_body, "__annotations__", {}).get("settings")
        if isinstance(settings, type):
            strict.append(settings)
    for typ in strict:
        for name, s in schemas.items():
            if isinstance(s, Schema) and (name == typ.__name__ or name.endswith("_" + typ.__name__)):
                s.additional_properties = False


def _members(union: Any) -> list[Any]:
    return list(getattr(union, "__args__", (union,)))


def _document_create_body(app: Litestar) -> None:
    """``POST /v1/games`` reads its body by kind (``handlers/games.py``), so Litestar cannot derive
    its schema: document it as one of the registered games' create bodies, each with its schema."""
    schema = app.openapi_schema
    assert schema.components is not None and schema.components.schemas is not None and schema.paths is not None
    (_, components) = msgspec.json.schema_components(CREATE_BODIES, ref_template="#/components/schemas/{name}")
    for name, body in components.items():
        if name not in schema.components.schemas:
            schema.components.schemas[name] = _schema_of(body)
    refs: list[Reference | Schema] = [Reference(ref=f"#/components/schemas/{t.__name__}") for t in CREATE_BODIES]
    op = schema.paths["/v1/games"].post
    assert op is not None
    op.request_body = RequestBody(
        content={"application/json": OpenAPIMediaType(schema=Schema(one_of=refs))},
        required=True,
        description="The game to create; `kind` picks the game (default `board`).",
    )


def _schema_of(raw: dict[str, Any]) -> Schema:
    """A JSON Schema object from msgspec, kept as msgspec wrote it."""
    return _RawSchema(raw)


class _RawSchema(Schema):
    """A schema given as plain JSON (Litestar serializes ``to_schema()``)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        super().__init__()
        self._raw = raw

    def to_schema(self) -> dict[str, Any]:
        return self._raw


async def before_request(request: Request[Any, Any, Any]) -> None:
    """Refuse non-JSON bodies and unknown query parameters (rate limits are the app's first guard:
    ``ratelimit.py``)."""
    await reject_unknown_query_parameters(request)


async def reject_unknown_query_parameters(request: Request[Any, Any, Any]) -> None:
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
        if not hasattr(app.state, "rt"):
            app.state.rt = runtime or build_runtime()
        app.state.limits = RateLimits(app.state.rt.redis, app.state.rt.cfg.partitions, app.state.rt.cfg.cluster)
        app.state.limiter = RateLimiter.from_env(app.state.limits)

    async def shutdown(app: Litestar) -> None:
        if hasattr(app.state, "rt") and runtime is None:
            await app.state.rt.close()

    app = Litestar(
        route_handlers=[
            GamesController,
            CommandsController,
            ViewsController,
            EventsController,
            SigningController,
            OpsController,
        ],
        on_startup=[startup],
        guards=[rate_limited],
        before_request=before_request,
        on_shutdown=[shutdown],
        exception_handlers={
            ApiError: api_error_handler,
            GameError: game_error_handler,
            RecursionError: too_deep_handler,
            redis.exceptions.ConnectionError: store_unavailable_handler,
            redis.exceptions.TimeoutError: store_unavailable_handler,
            ValidationException: validation_handler,
            HTTPException: http_exception_handler,
            Exception: internal_error_handler,
        },
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(
            title="Citadel",
            version="1.0.0",
            description="Event-sourced server for A Game of Thrones: The Board Game (2nd ed.), and any game "
            "registered beside it (`kind`). See docs/api-walkthrough.md for a curl tour.",
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
    _document_create_body(app)
    _strict_openapi(app)
    return app


app = create_app()
