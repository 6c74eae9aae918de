"""Who is calling: bearer tokens, roles, and the guards that replace per-handler role checks.

A token is ``<role>.<mac>`` for one game (``service/engine/tokens.py``): the role is ``org`` (the
organizer) or a seat id. The guards read and verify it once per request and keep the role on the
connection's state; handlers receive it through the ``role`` dependency.

* :func:`token_required` -- 401 without a valid token for this game;
* :func:`organizer_only` -- 403 unless the organizer's token;
* :func:`seat_only` -- 403 unless a seat's token (the organizer does not play).
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from service.engine import tokens
from service.engine.runtime import Runtime

from .errors import ApiError

ORGANIZER = tokens.ORGANIZER
_ANONYMOUS = "-"


def runtime(connection: ASGIConnection[Any, Any, Any, Any]) -> Runtime:
    rt: Runtime = connection.app.state.rt
    return rt


def _bearer(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    h = connection.headers.get("authorization")
    if not h:
        return None
    scheme, _, value = h.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return value.strip()


def role_of(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """The role the request's token grants in the game of its path (None: no token). Cached per request."""
    cached = connection.scope.get("citadel_role")
    if cached is not None:
        return None if cached == _ANONYMOUS else str(cached)
    token = _bearer(connection)
    role = None
    if token is not None:
        game_id = str(connection.path_params.get("game_id", ""))
        role = tokens.verify(runtime(connection).secret, game_id, token)
        if role is None:
            raise ApiError(401, "invalid_token", "the token is not valid for this game", title="Unauthorized")
    connection.scope["citadel_role"] = role or _ANONYMOUS  # type: ignore[typeddict-unknown-key]  # our own scope key
    return role


def token_required(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if role_of(connection) is None:
        raise ApiError(401, "unauthorized", "this operation needs a bearer token", title="Unauthorized")


def organizer_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    token_required(connection, handler)
    if role_of(connection) != ORGANIZER:
        raise ApiError(403, "forbidden", "only the organizer may do this")


def seat_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    token_required(connection, handler)
    if role_of(connection) == ORGANIZER:
        raise ApiError(403, "forbidden", "the organizer does not play; use a seat token")


async def provide_role(request: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """Dependency ``role``: the caller's role in this game, or None for an anonymous reader."""
    return role_of(request)


async def provide_runtime(request: ASGIConnection[Any, Any, Any, Any]) -> Runtime:
    """Dependency ``rt``: the process's runtime (engine, store, configuration)."""
    return runtime(request)
