"""HTTP manners around the whole app: ``HEAD``, conditional ``GET`` (304) and CORS.

Litestar routes a ``HEAD`` only to handlers declared for it, and a handler may not be declared for
both ``GET`` and ``HEAD``; and its CORS middleware overwrites ``Vary`` (losing the compression's
``Accept-Encoding``) and refuses a preflight in plain text. So these three live in one ASGI layer
around Litestar's own handler (``app.asgi_handler``: exception handling, routing, the routes'
middleware such as gzip), where they see every answer, the problems included:

* **HEAD** (RFC 9110 §9.3.2): wherever ``GET`` exists, ``HEAD`` runs the same request as a ``GET``
  and sends its status and headers (``Content-Length``, ``ETag``, ``Content-Encoding``...) without
  the body. A streaming answer (SSE, NDJSON) is ended as if the client had gone once it has started;
  it is never left running. An ``Allow`` header that lists ``GET`` lists ``HEAD`` too.
* **If-None-Match** (RFC 9110 §13.1.2): a ``GET`` or ``HEAD`` answered ``200`` with an ``ETag`` that
  the request's ``If-None-Match`` names (weak comparison; ``*`` names any) becomes ``304 Not
  Modified``: no body, and of the headers only those RFC 9110 §15.4.5 keeps (``ETag``,
  ``Cache-Control``, ``Vary``...). Game answers tag the game's version, reference data a hash of its
  content; an answer without an ``ETag`` (the event streams) is never a 304. Every game read
  (``GET /v1/games/...``) is redacted for the caller's token, so its answers carry
  ``Vary: Authorization``: a browser's cache never revalidates one seat's view for another.
* **CORS** (Fetch standard), only for the origins ``CITADEL_CORS_ORIGINS`` lists (``*``: any; empty,
  the default: off, no CORS header is ever sent). A request from a listed origin gets
  ``Access-Control-Allow-Origin`` and ``Access-Control-Expose-Headers`` (the headers a client needs:
  ``ETag``, ``Location``, ``Retry-After``, ``RateLimit-*``...); a preflight (``OPTIONS`` with
  ``Access-Control-Request-Method``) from a listed origin is answered here, ``204`` with the
  methods and headers the API accepts. Other origins' preflights go on to the app, which answers
  without CORS headers, so the browser refuses the call. Tokens travel in ``Authorization``, not in
  cookies, so credentials are never allowed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]
"""Plain ASGI: the messages as they come (Litestar's typed dicts are narrower than this layer needs)."""

ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID"
EXPOSED_HEADERS = "ETag, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate"
PREFLIGHT_MAX_AGE_S = 600
TOKEN_DEPENDENT = "/v1/games/"
"""Reads under this path are redacted for the caller's token: their answers vary by ``Authorization``."""
KEPT_BY_304 = frozenset({b"etag", b"cache-control", b"vary", b"expires", b"content-location", b"date"})
"""What a 304 keeps of the 200 it replaces (RFC 9110 §15.4.5); the CORS headers are added after."""

Headers = list[tuple[bytes, bytes]]


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k.lower() == name:
            return bytes(v).decode("latin-1")
    return None


def etag_matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 §13.1.2: weak comparison of ``etag`` with each tag of ``If-None-Match`` (``*``: any)."""
    if if_none_match.strip() == "*":
        return True
    mine = etag.strip().removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == mine for tag in if_none_match.split(","))


class HttpManners:
    """The ASGI layer (see the module docstring). ``cors_origins``: the allowed origins, ``("*",)``
    for any, empty for no CORS at all."""

    def __init__(self, app: ASGIApp, cors_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.cors_origins = frozenset(o.rstrip("/") for o in cors_origins)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """An ASGI app (typed loosely: Litestar's ``asgi_handler`` slot takes its own typed dicts)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = _header(scope, b"origin")
        allowed = origin is not None and self._allows(origin)
        if allowed and scope["method"] == "OPTIONS" and _header(scope, b"access-control-request-method"):
            await self._preflight(origin or "", send)
            return
        if allowed:
            send = self._cors(send, origin or "")
        method = scope["method"]
        if method not in ("GET", "HEAD"):
            await self.app(scope, receive, _allow_head(send))  # a 405's or an OPTIONS' Allow
            return
        head = method == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}  # a copy: the server still knows it answers a HEAD
        vary = scope["path"].startswith(TOKEN_DEPENDENT)
        await _Exchange(head, _header(scope, b"if-none-match"), vary, receive, send).run(self.app, scope)

    def _allows(self, origin: str) -> bool:
        return "*" in self.cors_origins or origin.rstrip("/") in self.cors_origins

    def _allow_origin(self, origin: str) -> Headers:
        if "*" in self.cors_origins:
            return [(b"access-control-allow-origin", b"*")]
        return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]

    async def _preflight(self, origin: str, send: Send) -> None:
        headers = [
            *self._allow_origin(origin),
            (b"access-control-allow-methods", ALLOWED_METHODS.encode()),
            (b"access-control-allow-headers", ALLOWED_HEADERS.encode()),
            (b"access-control-max-age", str(PREFLIGHT_MAX_AGE_S).encode()),
            (b"content-length", b"0"),
        ]
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _cors(self, send: Send, origin: str) -> Send:
        extra = [*self._allow_origin(origin), (b"access-control-expose-headers", EXPOSED_HEADERS.encode())]

        async def cors_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _merge_vary([*message.get("headers", ()), *extra])}
            await send(message)

        return cors_send


def _merge_vary(headers: Iterable[tuple[bytes, bytes]]) -> Headers:
    """One ``Vary`` header listing every name any ``Vary`` header named (compression's ``Accept-Encoding``,
    the views' ``Authorization``, CORS' ``Origin``)."""
    out: Headers = []
    names: list[str] = []
    for k, v in headers:
        if k.lower() == b"vary":
            for name in v.decode("latin-1").split(","):
                if name.strip() and name.strip().lower() not in (n.lower() for n in names):
                    names.append(name.strip())
        else:
            out.append((k, v))
    if names:
        out.append((b"vary", ", ".join(names).encode("latin-1")))
    return out


class _Exchange:
    """One ``GET`` or ``HEAD``: passes the answer on, or its head only (``HEAD``, ``304``)."""

    def __init__(self, head: bool, if_none_match: str | None, vary: bool, receive: Receive, send: Send) -> None:
        self.head = head
        self.if_none_match = if_none_match
        self.vary = vary
        self.receive = receive
        self.send = send
        self.bodiless = False
        """True once the head of an answer without a body was sent: the rest of the body is dropped."""
        self.started_body = asyncio.Event()

    async def run(self, app: ASGIApp, scope: Scope) -> None:
        await app(scope, self._receive, self._send)

    async def _receive(self) -> Message:
        if not self.bodiless:
            return await self.receive()
        # The client gets no body: a streaming answer is ended as if the client had gone, once it has
        # started (so that its clean-up, such as releasing a stream slot, runs).
        await self.started_body.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            status = message["status"]
            headers = [(k, _with_head(v)) if k.lower() == b"allow" else (k, v) for k, v in headers]
            if self.vary:
                headers = _merge_vary([*headers, (b"vary", b"Authorization")])
            if status == 200 and self.if_none_match is not None:
                etag = next((v.decode("latin-1") for k, v in headers if k.lower() == b"etag"), None)
                if etag is not None and etag_matches(self.if_none_match, etag):
                    status = 304
                    headers = [(k, v) for k, v in headers if k.lower() in KEPT_BY_304]
            if self.head or status == 304:
                self.bodiless = True
                await self.send({**message, "status": status, "headers": headers})
                await self.send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await self.send({**message, "headers": headers})
            return
        if message["type"] == "http.response.body" and self.bodiless:
            self.started_body.set()
            return
        await self.send(message)


def _allow_head(send: Send) -> Send:
    async def allow_send(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(k, _with_head(v)) if k.lower() == b"allow" else (k, v) for k, v in message.get("headers", ())]
            message = {**message, "headers": headers}
        await send(message)

    return allow_send


def _with_head(allow: bytes) -> bytes:
    methods = [m.strip() for m in allow.decode("latin-1").split(",") if m.strip()]
    if "GET" in methods and "HEAD" not in methods:
        methods.insert(methods.index("GET") + 1, "HEAD")
    return ", ".join(methods).encode("latin-1")
