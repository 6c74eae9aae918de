"""The command lane: ``POST /v1/games/{id}/commands`` from a seat, answered without the framework's
per-request machinery.

A player's command is most of what the API does under load, and most of its CPU went to the
framework around it rather than to the game: building a ``Request``, parsing every header into a
multi-dict, resolving the handler's parameters, running the ``before_request`` hook and the guards
through their wrappers, and two middlewares (``bench/http_wrk.py``: about 0.45 ms of API CPU per
command through the route, about 0.3 ms through the lane). The lane is an ASGI layer in front of the
Litestar app that takes the ordinary case and hands everything else to the app untouched:

* it takes a request only when nothing about it needs the framework: ``POST`` to the path with a
  well-formed game id, no query string, a JSON body of a known length within the app's limit, a
  well-formed ``Authorization`` that verifies as a **seat** token of that game, and header values
  within their documented lengths. Any other request (no token, a bad or foreign token, the
  organizer's or the judge's, a ``text/plain`` body, an unknown query parameter, a chunked body...)
  goes to the Litestar route, which answers it exactly as before: that route stays the documented
  one, and the single place where its refusals are written;
* for a request it takes, it runs the same code as the route: the rate limit of the same bucket
  (:meth:`~service.http.ratelimit.RateLimiter.take`), then
  :func:`~service.http.controllers.commands.run_command` (decode, engine, metrics); the answer is
  the route's own (:func:`~service.http.bodies.json_response`), passed through the app's own gzip
  policy (the same :class:`~service.http.compression.GzipUnlessEncoded` class and configuration);
* a refusal raised there (a rule, a stale version, a bad body, the store down) is answered by the
  app's own exception handlers (``problems.py``), found the way Litestar finds them (the exception's
  class and then its bases), so a problem document is the same whichever way the request came in.

``tests/api/test_command_lane.py`` checks that the lane answers the same status, headers and body as
the route for the same requests, and that it refuses nothing the route would accept.
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Litestar, Request
from litestar.types import ASGIApp, Receive, Scope, Send

from service.engine import tokens
from service.store.rate_limits import Client

from . import metrics
from .access import token_in
from .bodies import GAME_ID, MAX_IDEMPOTENCY_KEY, MAX_IF_MATCH, is_json_type, json_response
from .compression import GzipUnlessEncoded, accepts_gzip
from .controllers.commands import run_command
from .ratelimit import MAX_AUTHORIZATION, RateLimiter

PATH = re.compile(f"^/v1/games/({GAME_ID})/commands/?$")
"""The route's path, with the game id's documented pattern (``bodies.GameId``)."""


class CommandLane:
    """ASGI: answers the plain case of a seat's command (see the module docstring), else ``app``."""

    def __init__(self, app: ASGIApp, litestar: Litestar, max_body: int) -> None:
        self.app = app
        self.litestar = litestar
        self.max_body = max_body
        config = litestar.compression_config
        self.gzip = GzipUnlessEncoded(app=_send_answer, config=config) if config is not None else None
        self.gzip_from = config.minimum_size if config is not None else 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """An ASGI app (typed loosely, as ``manners.HttpManners``: Litestar's own slot takes its typed dicts)."""
        taken = self._takes(scope)
        if taken is None:
            await self.app(scope, receive, send)
            return
        game_id, role, idempotency_key, if_match, gzip = taken
        metrics.COMMAND_WAYS.inc("lane")
        body = await _read_body(receive)
        if body is None:
            return  # the client went away before its body arrived: nothing was done
        try:
            limiter: RateLimiter = self.litestar.state.limiter
            await limiter.take(Client(game_id, role), True)
            status, answer = await run_command(self.litestar.state.rt, game_id, role, body, idempotency_key, if_match)
        except Exception as exc:  # every refusal and failure: answered as the app answers it
            await self._problem(exc, scope, receive, send)
            return
        sent = json_response(status, answer).to_asgi_response(self.litestar, None)  # type: ignore[arg-type]  # JsonAnswer reads neither
        if self.gzip is None or not gzip or len(answer) < self.gzip_from:
            # the gzip layer would pass a shorter answer on untouched: skip its per-request set-up
            await sent(scope, receive, send)
            return
        scope["citadel_answer"] = sent
        await self.gzip(scope, receive, send)

    def _takes(self, scope: Any) -> tuple[str, str, str, str, bool] | None:
        """``(game id, seat role, Idempotency-Key, If-Match, takes gzip)`` when the lane takes the
        request, else None."""
        if scope["type"] != "http" or scope["method"] != "POST" or scope["query_string"]:
            return None
        match = PATH.match(scope["path"])
        if match is None:
            return None
        authorization = idempotency_key = if_match = ""
        length = -1
        gzip = False
        for name, value in scope["headers"]:
            if name == b"authorization":
                authorization = value.decode("latin-1")
            elif name == b"content-length":
                length = int(value) if value.isdigit() else -1
            elif name == b"content-type":
                if not is_json_type(value.decode("latin-1")):
                    return None
            elif name == b"idempotency-key":
                idempotency_key = value.decode("latin-1")
            elif name == b"if-match":
                if_match = value.decode("latin-1")
            elif name == b"transfer-encoding":
                return None
            elif name == b"accept-encoding":
                # any header that takes gzip sends the answer through the gzip layer, which decides again
                gzip = gzip or accepts_gzip(value.decode("latin-1"))
        if not 0 <= length <= self.max_body:
            return None
        if not authorization or len(authorization) > MAX_AUTHORIZATION:
            return None
        if len(idempotency_key) > MAX_IDEMPOTENCY_KEY or len(if_match) > MAX_IF_MATCH:
            return None
        token = token_in(authorization)
        if token is None:
            return None
        game_id = match.group(1)
        role = tokens.verify(self.litestar.state.rt.secret, game_id, token)
        if role is None or role in (tokens.ORGANIZER, tokens.JUDGE):
            return None
        return game_id, role, idempotency_key, if_match, gzip

    async def _problem(self, exc: Exception, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer ``exc`` with the app's handler for it (by class, then its bases, as Litestar does)."""
        handlers = self.litestar.exception_handlers
        handler = next((handlers[k] for k in type(exc).__mro__ if k in handlers), None)
        if handler is None:
            raise exc
        request: Request[Any, Any, Any] = Request(scope, receive)
        response = handler(request, exc)
        await response.to_asgi_response(self.litestar, request)(scope, receive, send)


async def _send_answer(scope: Scope, receive: Receive, send: Send) -> None:
    """The answer the lane made for this request (under the gzip layer)."""
    answer: ASGIApp = scope["citadel_answer"]  # type: ignore[typeddict-item]  # our own scope key
    await answer(scope, receive, send)


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None if the client disconnected first."""
    chunks: list[bytes] = []
    while True:
        message: Any = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
