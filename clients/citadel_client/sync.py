"""The blocking client of the Citadel API over httpx: the same operations as the async
:class:`~.client.CitadelClient` (both come from :class:`~.endpoints.Endpoints`), without ``await``.

    with SyncCitadelClient("http://127.0.0.1:8000") as api:
        game = api.create_game(3)
        seat = api.join(game.game_id, "Alice")
        me = api.with_token(seat.token)
        for e in me.iter_sse(game.game_id):        # blocks between events, ends with the game
            ...

Retries (:mod:`.retry`) and event streams (:mod:`.sse`) behave exactly as in the async client.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx
import msgspec

from .endpoints import Call, SyncEndpoints, request_headers
from .models import EventOut
from .problem import ApiProblem
from .retry import RetryPolicy
from .sse import RECONNECT_S, EventCursor, SseParser

T = TypeVar("T")


class SyncCitadelClient(SyncEndpoints):
    """The API at ``base_url``, as the holder of ``token`` (none: a spectator / anyone); blocking.
    Not for sharing between threads while a stream is open on it (httpx's pool is, this is not)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        http: httpx.Client | None = None,
        timeout: float = 40.0,
        max_connections: int = 4,
        retries: int = 20,
        transport_retries: int = 5,
        rng: random.Random | None = None,
    ):
        """As :class:`~.client.CitadelClient`, with an ``httpx.Client``."""
        self.base_url = base_url.rstrip("/")
        self.token = token
        self._own_http = http is None
        self.http = http or httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
        )
        self.policy = RetryPolicy(retries=retries, transport_retries=transport_retries, rng=rng or random.Random())
        self.requests = 0
        """HTTP requests sent by this client (retries and reconnections included)."""

    def with_token(self, token: str | None, *, rng: random.Random | None = None) -> Self:
        """A client for another token over the same connection pool (closing it closes nothing)."""
        return type(self)(
            self.base_url,
            token,
            http=self.http,
            retries=self.policy.retries,
            transport_retries=self.policy.transport_retries,
            rng=rng or self.policy.rng,
        )

    def close(self) -> None:
        if self._own_http:
            self.http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- sending -----------------------------------------------------------------------------------

    def request(
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
                r = self.http.request(method, path, params=params, content=body, headers=h)
            except httpx.TransportError:
                delay = self.policy.after_error(attempt)
                if delay is None:
                    raise
            else:
                delay = self.policy.after_answer(attempt, r.status_code, r.headers.get("retry-after"))
                if delay is None:
                    return r
            attempt += 1
            time.sleep(delay)

    def send(self, call: Call[T]) -> T:
        """Send ``call`` (:meth:`request`) and decode its answer, or raise :class:`ApiProblem`."""
        r = self.request(call.method, call.path, params=call.params, body=call.body, headers=call.headers)
        return call.answer(r.status_code, r.headers.get("content-type", ""), r.content)

    def call(
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
        return self.send(Call(method, path, decoder.decode, params, body, headers or {}))

    # --- following a game ---------------------------------------------------------------------------

    def _cursor(self, game_id: str, after: int) -> EventCursor:
        cursor = EventCursor(after)
        if after > 0:  # starting after the game's last event: nothing will come
            cursor.begin(self.events(game_id, after - 1, limit=1))
        return cursor

    def iter_events(
        self, game_id: str, after: int = 0, *, wait: int = 30, limit: int | None = None
    ) -> Iterator[EventOut]:
        """As :meth:`CitadelClient.iter_events <.client.CitadelClient.iter_events>` (NDJSON long-polls)."""
        cursor = self._cursor(game_id, after)
        while not cursor.ended:
            for e in self.events(game_id, cursor.version, wait=wait, limit=limit):
                taken = cursor.take(e)
                if taken is not None:
                    yield taken

    def iter_sse(self, game_id: str, after: int = 0) -> Iterator[EventOut]:
        """As :meth:`CitadelClient.iter_sse <.client.CitadelClient.iter_sse>` (Server-Sent Events,
        resumed with ``Last-Event-ID``). Stop early with ``contextlib.closing``."""
        cursor = self._cursor(game_id, after)
        failures = 0
        while not cursor.ended:
            h = request_headers(self.token, {"Accept": "text/event-stream"}, False)
            if cursor.version:
                h["Last-Event-ID"] = str(cursor.version)
            path = f"/v1/games/{game_id}/events"
            self.requests += 1
            try:
                with self.http.stream("GET", path, params={"from": cursor.version}, headers=h) as r:
                    if not r.is_success:
                        r.read()
                        delay = self.policy.after_answer(failures, r.status_code, r.headers.get("retry-after"))
                        if delay is None:
                            raise ApiProblem.from_answer(r.status_code, r.headers.get("content-type", ""), r.content)
                    else:
                        parser = SseParser()
                        for line in r.iter_lines():
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
            time.sleep(delay)
