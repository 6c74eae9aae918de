"""An async client of the Citadel API over httpx.

    async with CitadelClient("http://127.0.0.1:8000") as api:
        game = await api.create_game(4, settings={"decision_timeout_s": 60})
        seat = await api.join(game.game_id, "Alice")
        org = api.with_token(game.organizer_token)       # shares the connection pool
        ...
        await org.start(game.game_id)
        me = api.with_token(seat.token)
        ds = await me.decisions(game.game_id)
        await me.command(game.game_id, Bid(amount=2), if_match=ds.version)

Every error answer raises :class:`ApiProblem` (status, ``code``, ``detail`` from the
``application/problem+json`` body). Connection errors, 429 (rate limited) and 503 (busy) are
retried after a pause (``Retry-After``, with jitter) a bounded number of times.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Mapping
from types import TracebackType
from typing import Any, TypeVar

import httpx
import msgspec

from .models import (
    Command,
    CommandAccepted,
    CreateGameBody,
    DecisionsOut,
    EventOut,
    ExportOut,
    GameCreatedOut,
    GameView,
    JoinBody,
    JudgeActionOut,
    Problem,
    SeatOut,
)

T = TypeVar("T")

_enc = msgspec.json.Encoder()
_event_dec = msgspec.json.Decoder(EventOut)


class ApiProblem(Exception):
    """An error answer of the API: ``status``, the problem's ``code`` and ``detail`` (and the whole
    :class:`Problem` as ``problem``)."""

    def __init__(self, status: int, code: str, detail: str, problem: Problem | None = None, body: str = ""):
        self.status = status
        self.code = code
        self.detail = detail
        self.problem = problem if problem is not None else Problem(status=status, code=code, detail=detail)
        self.body = body
        super().__init__(f"{status} {code}: {detail}" if code else f"{status}: {detail or body}")

    @classmethod
    def from_response(cls, r: httpx.Response) -> ApiProblem:
        ctype = r.headers.get("content-type", "")
        if "json" in ctype:
            try:
                p = msgspec.json.decode(r.content, type=Problem)
            except msgspec.DecodeError:
                pass
            else:
                return cls(r.status_code, p.code, p.detail, p, r.text)
        return cls(r.status_code, "", r.text[:500], None, r.text)


class CitadelClient:
    """The API at ``base_url``, as the holder of ``token`` (none: a spectator / anyone)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        http: httpx.AsyncClient | None = None,
        timeout: float = 40.0,
        max_connections: int = 1,
        retries: int = 20,
        transport_retries: int = 5,
        rng: random.Random | None = None,
    ):
        """``http``: an httpx client to share (not closed by this one); otherwise one is made with
        ``timeout`` and ``max_connections`` and closed by :meth:`aclose`. ``rng`` draws the retry
        jitter."""
        self.base_url = base_url.rstrip("/")
        self.token = token
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
        )
        self.retries = retries
        self.transport_retries = transport_retries
        self.rng = rng or random.Random()
        self.requests = 0
        """HTTP requests sent by this client (retries included)."""

    def with_token(self, token: str | None, *, rng: random.Random | None = None) -> CitadelClient:
        """A client for another token over the same connection pool (closing it closes nothing)."""
        return CitadelClient(
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

    async def __aenter__(self) -> CitadelClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # --- plumbing ----------------------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One request with this client's token; connection errors, 429 and 503 are retried after
        a pause. Returns the final answer whatever its status (see :meth:`call`)."""
        h = dict(headers or {})
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        if body is not None:
            h.setdefault("Content-Type", "application/json")
        attempt = 0
        while True:
            self.requests += 1
            try:
                r = await self.http.request(method, path, params=params, content=body, headers=h)
            except httpx.TransportError:
                if attempt >= self.transport_retries:
                    raise
                attempt += 1
                await asyncio.sleep(0.2 * attempt)
                continue
            if r.status_code in (429, 503) and attempt < self.retries:
                attempt += 1
                await asyncio.sleep(_retry_after(r) * self.rng.uniform(0.2, 1))
                continue
            return r

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
        """:meth:`request`, then the 2xx body decoded as ``type``, or :class:`ApiProblem`."""
        r = await self.request(method, path, params=params, body=body, headers=headers)
        if not r.is_success:
            raise ApiProblem.from_response(r)
        return msgspec.json.decode(r.content, type=type)

    # --- the API -----------------------------------------------------------------------------------

    async def create_game(
        self,
        player_count: int,
        settings: Mapping[str, Any] | None = None,
        scenario: Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> GameCreatedOut:
        """``POST /v1/games``. The key names the game (a retry with it finds the same game), so it
        is random unless given."""
        body = CreateGameBody(
            player_count=player_count,
            settings=dict(settings or {}),
            scenario=dict(scenario) if scenario is not None else None,
        )
        return await self.call(
            "POST",
            "/v1/games",
            GameCreatedOut,
            body=_enc.encode(body),
            headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
        )

    async def join(self, game_id: str, name: str, *, idempotency_key: str | None = None) -> SeatOut:
        """``POST /v1/games/{id}/seats``: take a free seat; the answer holds the seat's token."""
        return await self.call(
            "POST",
            f"/v1/games/{game_id}/seats",
            SeatOut,
            body=_enc.encode(JoinBody(name=name)),
            headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
        )

    async def start(
        self, game_id: str, *, if_match: int | None = None, idempotency_key: str | None = None
    ) -> CommandAccepted:
        """``POST /v1/games/{id}/start`` (the organizer's token)."""
        return await self.call(
            "POST", f"/v1/games/{game_id}/start", CommandAccepted, headers=_command_headers(if_match, idempotency_key)
        )

    async def judge(
        self,
        game_id: str,
        action: Mapping[str, Any],
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> JudgeActionOut:
        """``POST /v1/games/{id}/judge`` (the judge's token): one action, tagged by ``type``, with its
        ``reason`` (``{"type": "set_power", "house": "stark", "power": 4, "reason": "..."}``;
        docs/judge.md lists them)."""
        return await self.call(
            "POST",
            f"/v1/games/{game_id}/judge",
            JudgeActionOut,
            body=_enc.encode(dict(action)),
            headers=_command_headers(if_match, idempotency_key or str(uuid.uuid4())),
        )

    async def decisions(self, game_id: str, *, min_version: int | None = None) -> DecisionsOut:
        """``GET /v1/games/{id}/decisions``: what this token's seat must decide, with the legal options."""
        params = {"min_version": min_version} if min_version is not None else None
        return await self.call("GET", f"/v1/games/{game_id}/decisions", DecisionsOut, params=params)

    async def command(
        self,
        game_id: str,
        command: Command,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandAccepted:
        """``POST /v1/games/{id}/commands``. ``if_match``: the version the command was decided at
        (409 ``stale_version`` if the game moved on). The idempotency key is random unless given."""
        return await self.call(
            "POST",
            f"/v1/games/{game_id}/commands",
            CommandAccepted,
            body=_enc.encode(command),
            headers=_command_headers(if_match, idempotency_key or str(uuid.uuid4())),
        )

    async def view(self, game_id: str, *, min_version: int | None = None, own: bool = False) -> GameView:
        """The public view (``GET /v1/games/{id}``), or with ``own`` this token's (``/view``)."""
        return msgspec.convert(await self.view_json(game_id, min_version=min_version, own=own), GameView)

    async def view_json(self, game_id: str, *, min_version: int | None = None, own: bool = False) -> dict[str, Any]:
        """The whole view as JSON (the board, houses, tracks...)."""
        params = {"min_version": min_version} if min_version is not None else None
        path = f"/v1/games/{game_id}/view" if own else f"/v1/games/{game_id}"
        return await self.call("GET", path, dict[str, Any], params=params)

    async def events(self, game_id: str, after: int = 0, *, wait: int = 0, limit: int | None = None) -> list[EventOut]:
        """``GET /v1/games/{id}/events`` (NDJSON): the events after version ``after``; with ``wait``
        (seconds, at most 30) a long-poll that answers as soon as there is one."""
        params: dict[str, Any] = {"from": after, "wait": wait}
        if limit is not None:
            params["limit"] = limit
        r = await self.request("GET", f"/v1/games/{game_id}/events", params=params)
        if not r.is_success:
            raise ApiProblem.from_response(r)
        return [_event_dec.decode(line) for line in r.content.splitlines() if line.strip()]

    async def export(self, game_id: str) -> ExportOut:
        """``GET /v1/games/{id}/export``: every event with its hash-chain link (complete, with the
        seed, once the game has ended)."""
        return msgspec.json.decode(await self.export_bytes(game_id), type=ExportOut)

    async def export_bytes(self, game_id: str) -> bytes:
        """The export as the server sent it (for ``scripts/verify_replay.py``)."""
        r = await self.request("GET", f"/v1/games/{game_id}/export")
        if not r.is_success:
            raise ApiProblem.from_response(r)
        return r.content


def _command_headers(if_match: int | None, idempotency_key: str | None) -> dict[str, str]:
    h: dict[str, str] = {}
    if idempotency_key:
        h["Idempotency-Key"] = idempotency_key
    if if_match is not None:
        h["If-Match"] = f'"{if_match}"'
    return h


def _retry_after(r: httpx.Response) -> float:
    try:
        return float(r.headers.get("retry-after", "1"))
    except ValueError:
        return 1.0
