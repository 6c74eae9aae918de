"""Who is calling: bearer tokens, roles, and the guards that replace per-handler role checks.

A token is ``<role>.<mac>`` for one game (``service/engine/tokens.py``): the role is ``org`` (the
organizer) or a seat id. The guards read and verify it once per request and keep the role in the
request's scope; handlers read it with :func:`role_of` (and the runtime with :func:`runtime`):
plain calls, not Litestar dependencies, which cost a tenth of a command's time under load.

* :func:`token_required` -- 401 without a valid token for this game;
* :func:`organizer_only` -- 403 unless the organizer's token;
* :func:`judge_only` -- 403 unless the judge's token (docs/judge.md);
* :func:`seat_only` -- 403 unless a seat's token (the organizer and the judge do not play);
* :func:`clock_keeper_only` -- 403 unless the token's role may pause and resume the clocks
  (:func:`judge_actor`, ``domain.core.commands.may_keep_clocks``: the judge and the organizer).

:func:`client_of` says whom the per-client limits count (rate limits, open streams): the role in
the game of the path when the token is valid for it, else the client's address.

Guards are coroutines: Litestar runs a plain function guard in a worker thread, a thread hop per
request (measured: 13 % of the API's time under load).
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from domain.core.commands import JUDGE as JUDGE_ACTOR
from domain.core.commands import ORGANIZER as ORGANIZER_ACTOR
from domain.core.commands import Actor, may_keep_clocks
from service.engine import tokens
from service.engine.runtime import Runtime
from service.store.rate_limits import Client

from .errors import ApiError

ORGANIZER = tokens.ORGANIZER
JUDGE = tokens.JUDGE
_ANONYMOUS = "-"


def runtime(connection: ASGIConnection[Any, Any, Any, Any]) -> Runtime:
    rt: Runtime = connection.app.state.rt
    return rt


def token_in(header: str) -> str | None:
    """The token of ``Bearer <token>`` (scheme in any case), or None if malformed."""
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _bearer(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    h = connection.headers.get("authorization")
    if not h:
        return None
    token = token_in(h)
    if token is None:
        raise ApiError(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return token


def client_of(connection: ASGIConnection[Any, Any, Any, Any]) -> tuple[Client, bool]:
    """Whom the per-client limits count, and whether it is a verified identity: ``(game, role)`` for a
    token valid for the game of the path, else the client's address (anonymous calls, and any token
    that does not verify). Never raises; cached per request (a verified role is kept for the guards)."""
    cached: tuple[Client, bool] | None = connection.scope.get("citadel_client")  # type: ignore[assignment]  # our own scope key: the scope TypedDict does not know it
    if cached is not None:
        return cached
    out: tuple[Client, bool] | None = None
    game_id = connection.path_params.get("game_id")
    h = connection.headers.get("authorization")
    token = token_in(h) if h and game_id else None
    if token is not None:
        role = tokens.verify(runtime(connection).secret, str(game_id), token)
        if role is not None:
            connection.scope["citadel_role"] = role  # type: ignore[typeddict-unknown-key]  # our own scope key
            out = (Client(str(game_id), role), True)
    if out is None:
        out = (Client(None, connection.client.host if connection.client else "?"), False)
    connection.scope["citadel_client"] = out  # type: ignore[typeddict-unknown-key]  # our own scope key
    return out


def verified_role(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """The role of a token valid for the game of the path, or None (no token, or one that does not
    verify); never raises: for public reads, where a token is not needed, only whether the caller is
    a spectator (None) matters (the spectators' delay, service/engine/spectators.py)."""
    client, identified = client_of(connection)
    return client.name if identified else None


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


async def token_required(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if role_of(connection) is None:
        raise ApiError(401, "unauthorized", "this operation needs a bearer token", title="Unauthorized")


async def organizer_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await token_required(connection, handler)
    if role_of(connection) != ORGANIZER:
        raise ApiError(403, "forbidden", "only the organizer may do this")


async def judge_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await token_required(connection, handler)
    if role_of(connection) != JUDGE:
        raise ApiError(403, "forbidden", "only the game's judge may do this (the judge token, docs/judge.md)")


async def seat_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await token_required(connection, handler)
    if role_of(connection) in (ORGANIZER, JUDGE):
        raise ApiError(403, "forbidden", "the organizer and the judge do not play; use a seat token")


def judge_actor(role: str) -> Actor:
    """The actor a clock keeper's action runs as, from the token's role: the one place a role maps
    to the domain for the clocks."""
    if role == ORGANIZER:
        return ORGANIZER_ACTOR
    if role == JUDGE:
        return JUDGE_ACTOR
    return Actor(kind="seat", seat_id=role)


async def clock_keeper_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Pausing and resuming the clocks (docs/clocks.md): 403 unless the role may keep the clocks."""
    await token_required(connection, handler)
    if not may_keep_clocks(judge_actor(role_of(connection) or "")):
        raise ApiError(403, "forbidden", "only the judge or the organizer may pause or resume the clocks")
