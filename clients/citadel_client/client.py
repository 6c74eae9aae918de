"""The async client of the Citadel API over httpx.

    async with CitadelClient("http://127.0.0.1:8000") as api:
        game = await api.create_game(4, settings={"decision_timeout_s": 60})
        seat = await api.join(game.game_id, "Alice")
        org = api.with_token(game.organizer_token)       # shares the connection pool
        await org.start(game.game_id)
        me = api.with_token(seat.token)
        ds = await me.decisions(game.game_id)
        await me.command(game.game_id, AssignOrders(orders={...}), if_match=ds.version)
        async for e in me.iter_sse(game.game_id, after=ds.version):   # to the end of the game
            ...

The operations are those of :class:`~.endpoints.Endpoints` (shared with
:class:`~.sync.SyncCitadelClient`). Every error answer raises :class:`ApiProblem`. Connection errors,
429 and 503 are retried as :mod:`.retry` says (``Retry-After`` honoured).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Mapping
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx
import msgspec

from .endpoints import AsyncEndpoints, Call, request_headers
from .models import EventOut
from .problem import ApiProblem
from .retry import RetryPolicy
from .sse import RECONNECT_S, EventCursor, SseParser

T = TypeVar("T")


class CitadelClient(AsyncEndpoints):
    """The API at ``base_url``, as the holder of ``token`` (none: a spectator / anyone); async."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        http: httpx.AsyncClient | None = None,
        timeout: float = 40.0,
        max_connections: int = 4,
        retries: int = 20,
        transport_retries: int = 5,
        rng: random.Random | None = None,
    ):
        """``http``: an httpx client to share (not closed by this one); otherwise one is made with
        ``timeout`` and ``max_connections`` and closed by :meth:`aclose`. An open event stream holds
        a connection of its own. ``retries``/``transport_retries``: see :class:`RetryPolicy`; ``rng``
        draws the retry jitter."""
        self.base_url = base_url.rstrip("/")
        self.token = token
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
        )
        self.policy = RetryPolicy(retries=retries, transport_retries=transport_retries, rng=rng or random.Random())
        self.requests = 0
        """HTTP requests sent by this client (retries and reconnections included)."""

    @property
    def retries(self) -> int:
        return self.policy.retries

    @property
    def transport_retries(self) -> int:
        return self.policy.transport_retries

    @property
    def rng(self) -> random.Random:
        return self.policy.rng

    def with_token(self, token: str | None, *, rng: random.Random | None = None) -> Self:
        """A client for another token over the same connection pool (closing it closes nothing)."""
        return type(self)(
            self.base_url,
            token,
            http=self.http,
            retries=self.retries,
            transport_retries=self.transport_retries,
            rng=rng or self.rng,
        )

    async def aclose(self) -> None:
        if self._own_http:
            await self.http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # --- sending -----------------------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One request with this client's token, sent again after connection errors, 429 and 503
        (:class:`RetryPolicy`). Returns the final answer whatever its status."""
        h = request_headers(self.token, headers, body is not None)
        attempt = 0
        while True:
            self.requests += 1
            try:
                r = await self.http.request(method, path, params=params, content=body, headers=h)
            except httpx.TransportError:
                delay = self.policy.after_error(attempt)
                if delay is None:
                    raise
            else:
                delay = self.policy.after_answer(attempt, r.status_code, r.headers.get("retry-after"))
                if delay is None:
                    return r
            attempt += 1
            await asyncio.sleep(delay)

    async def send(self, call: Call[T]) -> T:
        """Send ``call`` (:meth:`request`) and decode its answer, or raise :class:`ApiProblem`."""
        r = await self.request(call.method, call.path, params=call.params, body=call.body, headers=call.headers)
        return call.answer(r.status_code, r.headers.get("content-type", ""), r.content)

    async def call(
        self,
        method: str,
        path: str,
        type: type[T],
        *,
        params: Mapping[str, Any] | None = None,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> T:
        """Any request whose 2xx JSON answer is decoded as ``type`` (for what the client lacks)."""
        decoder = msgspec.json.Decoder(type)
        return await self.send(Call(method, path, decoder.decode, params, body, headers or {}))

    # --- following a game ---------------------------------------------------------------------------

    async def _cursor(self, game_id: str, after: int) -> EventCursor:
        cursor = EventCursor(after)
        if after > 0:  # starting after the game's last event: nothing will come
            cursor.begin(await self.events(game_id, after - 1, limit=1))
        return cursor

    async def iter_events(
        self, game_id: str, after: int = 0, *, wait: int = 30, limit: int | None = None
    ) -> AsyncIterator[EventOut]:
        """Every event after version ``after``, in order, as it happens, by NDJSON long-polls of up
        to ``wait`` seconds; ends after the game's ending event (``game_ended``). A dropped
        connection is retried from the last event delivered: none is lost or repeated."""
        cursor = await self._cursor(game_id, after)
        while not cursor.ended:
            for e in await self.events(game_id, cursor.version, wait=wait, limit=limit):
                taken = cursor.take(e)
                if taken is not None:
                    yield taken

    async def iter_sse(self, game_id: str, after: int = 0) -> AsyncIterator[EventOut]:
        """Every event after version ``after``, in order, as it happens, over Server-Sent Events
        (events carry no ``ts`` there); ends after the game's ending event, an ``event: end``
        message, or when the server closes the stream after the end. A dropped or closed stream
        is reopened with ``Last-Event-ID`` (after the server's ``retry:``, if it sent one): no event
        is lost or repeated. The stream holds one connection while it is open: stop early with
        ``contextlib.aclosing``."""
        cursor = await self._cursor(game_id, after)
        failures = 0
        while not cursor.ended:
            h = request_headers(self.token, {"Accept": "text/event-stream"}, False)
            if cursor.version:
                h["Last-Event-ID"] = str(cursor.version)
            path = f"/v1/games/{game_id}/events"
            self.requests += 1
            try:
                async with self.http.stream("GET", path, params={"from": cursor.version}, headers=h) as r:
                    if not r.is_success:
                        await r.aread()
                        delay = self.policy.after_answer(failures, r.status_code, r.headers.get("retry-after"))
                        if delay is None:
                            raise ApiProblem.from_answer(r.status_code, r.headers.get("content-type", ""), r.content)
                    else:
                        parser = SseParser()
                        async for line in r.aiter_lines():
                            message = parser.feed(line)
                            e = cursor.message(message) if message is not None else None
                            if e is not None:
                                failures = 0
                                yield e
                            if cursor.ended:
                                return
                        delay = cursor.retry_s if cursor.retry_s is not None else RECONNECT_S
            except httpx.TransportError:
                delay = self.policy.after_error(failures)
                if delay is None:
                    raise
                delay = max(delay, cursor.retry_s or 0.0)
            failures += 1
            await asyncio.sleep(delay)


__all__ = ["ApiProblem", "CitadelClient"]
