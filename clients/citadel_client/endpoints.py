"""The API's operations, written once for both clients.

Each operation is a method of :class:`Endpoints` that only *builds* a :class:`Call`: the method,
path, query, body and headers of the request, and how to decode a 2xx answer. It does no I/O.
The :class:`endpoint` decorator turns it into a method of the clients: on an
:class:`AsyncEndpoints` (``CitadelClient``) it returns a coroutine, on a :class:`SyncEndpoints`
(``SyncCitadelClient``) the answer itself, with the same parameters and types (``mypy`` and IDEs
see ``await api.decisions(g) -> DecisionsOut`` and ``api.decisions(g) -> DecisionsOut``). Sending,
retrying and streaming live in the clients (``client.py``, ``sync.py``).

Every POST carries an ``Idempotency-Key``, random unless given, created once when the call is
built: the client's retries of that call send the same key, so the server applies it once.
"""

from __future__ import annotations

import functools
import inspect
import uuid
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

import msgspec

from .cards import CardDecisionsOut, CardGameView, CreateCardGameBody, DeckChoice, DeckList
from .models import (
    CommandAccepted,
    CommandBody,
    CreateGameBody,
    DecisionsOut,
    EventOut,
    ExportOut,
    GameCreatedOut,
    GameListOut,
    GameView,
    InvitationOut,
    JoinBody,
    JudgeActionOut,
    LogOut,
    SeatOut,
    SigningKeyOut,
)
from .problem import ApiProblem

P = ParamSpec("P")
T = TypeVar("T")

_enc = msgspec.json.Encoder()
_event_dec = msgspec.json.Decoder(EventOut)


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API and the decoding of its answer (no I/O)."""

    method: str
    path: str
    decode: Callable[[bytes], T]
    """The body of a 2xx answer -> the result."""
    params: Mapping[str, Any] | None = None
    body: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    def answer(self, status: int, content_type: str, content: bytes) -> T:
        """The result of a 2xx answer, or :class:`ApiProblem` for any other."""
        if not 200 <= status < 300:
            raise ApiProblem.from_answer(status, content_type, content)
        return self.decode(content)


def _json(type_: type[T]) -> Callable[[bytes], T]:
    decoder = msgspec.json.Decoder(type_)
    return decoder.decode


def _ndjson(content: bytes) -> list[EventOut]:
    return [_event_dec.decode(line) for line in content.splitlines() if line.strip()]


def _raw(content: bytes) -> bytes:
    return content


def _key(given: str | None) -> str:
    return given or str(uuid.uuid4())


def _post_headers(if_match: int | None, idempotency_key: str | None) -> dict[str, str]:
    h = {"Idempotency-Key": _key(idempotency_key)}
    if if_match is not None:
        h["If-Match"] = f'"{if_match}"'
    return h


def request_headers(token: str | None, headers: Mapping[str, str] | None, has_body: bool) -> dict[str, str]:
    """``headers`` with the bearer ``token`` (if any) and, with a body, ``Content-Type: application/json``."""
    h = dict(headers or {})
    if token:
        h["Authorization"] = f"Bearer {token}"
    if has_body:
        h.setdefault("Content-Type", "application/json")
    return h


def _query(**values: int | None) -> dict[str, int] | None:
    out = {k: v for k, v in values.items() if v is not None}
    return out or None


class endpoint(Generic[P, T]):
    """Makes a :class:`Call`-building method of :class:`Endpoints` a method of both clients:
    ``async`` on :class:`AsyncEndpoints`, plain on :class:`SyncEndpoints`."""

    def __init__(self, build: Callable[Concatenate[Any, P], Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__
        signature = inspect.signature(build)
        self.signature = signature.replace(
            parameters=list(signature.parameters.values())[1:], return_annotation=inspect.Signature.empty
        )
        """The operation's parameters as its callers see them (without ``self``), for ``help()``."""

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, obj: AsyncEndpoints, owner: type[Any]) -> Callable[P, Coroutine[Any, Any, T]]: ...
    @overload
    def __get__(self, obj: SyncEndpoints, owner: type[Any]) -> Callable[P, T]: ...
    def __get__(self, obj: Any, owner: type[Any]) -> Any:
        if obj is None:
            return self
        build = self.build
        if isinstance(obj, AsyncEndpoints):
            asend = obj.send

            async def run_async(*args: Any, **kwargs: Any) -> Any:
                return await asend(build(obj, *args, **kwargs))

            return self._wrap(run_async)
        send = obj.send

        def run(*args: Any, **kwargs: Any) -> Any:
            return send(build(obj, *args, **kwargs))

        return self._wrap(run)

    def _wrap(self, run: Callable[..., Any]) -> Callable[..., Any]:
        wrapped = functools.wraps(self.build)(run)
        del wrapped.__wrapped__  # the signature below, not the builder's (with ``self``)
        wrapped.__signature__ = self.signature  # type: ignore[attr-defined]  # read by inspect.signature
        return wrapped


class Endpoints:
    """The API's operations (one :class:`Call` builder each); see the module's docstring."""

    @endpoint
    def create_game(
        self,
        player_count: int,
        settings: Mapping[str, Any] | None = None,
        scenario: Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> Call[GameCreatedOut]:
        """``POST /v1/games``. The key names the game (a retry with it finds the same game), so it
        is random unless given (at least 16 characters)."""
        body = CreateGameBody(
            player_count=player_count,
            settings=dict(settings or {}),
            scenario=dict(scenario) if scenario is not None else None,
        )
        return Call(
            "POST",
            "/v1/games",
            _json(GameCreatedOut),
            body=_enc.encode(body),
            headers={"Idempotency-Key": _key(idempotency_key)},
        )

    @endpoint
    def create_card_game(
        self,
        decks: Sequence[str | DeckList | DeckChoice],
        settings: Mapping[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> Call[GameCreatedOut]:
        """``POST /v1/games`` with ``kind: "cards"``: a joust (2 decks) or a melee (3 to 6) with one deck per seat, in seat order,
        each a legal deck by name (``cards.LEGAL_DECKS``), a :class:`~.cards.DeckList` or a
        :class:`~.cards.DeckChoice` (422 ``illegal_deck`` names the broken rule). The key names the
        game, as for :meth:`create_game`."""
        body = CreateCardGameBody.of(decks, dict(settings or {}))
        return Call(
            "POST",
            "/v1/games",
            _json(GameCreatedOut),
            body=_enc.encode(body),
            headers={"Idempotency-Key": _key(idempotency_key)},
        )

    @endpoint
    def join(
        self, game_id: str, name: str, *, invitation: str | None = None, idempotency_key: str | None = None
    ) -> Call[SeatOut]:
        """``POST /v1/games/{id}/seats``: take a free seat; the answer holds the seat's token. A
        private game needs its ``invitation`` code."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/seats",
            _json(SeatOut),
            body=_enc.encode(JoinBody(name=name, invitation=invitation)),
            headers={"Idempotency-Key": _key(idempotency_key)},
        )

    @endpoint
    def list_games(
        self,
        *,
        status: str | None = None,
        open_seats: bool | None = None,
        kind: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> Call[GameListOut]:
        """``GET /v1/games``: a page of public games, newest first (``next_cursor`` for the next)."""
        params: dict[str, Any] = {"status": status, "kind": kind, "cursor": cursor, "limit": limit}
        if open_seats is not None:
            params["open_seats"] = "true" if open_seats else "false"
        return Call("GET", "/v1/games", _json(GameListOut), params={k: v for k, v in params.items() if v is not None})

    @endpoint
    def invitation(self, game_id: str) -> Call[InvitationOut]:
        """``GET /v1/games/{id}/invitation``: a private game's invitation code (the organizer's token)."""
        return Call("GET", f"/v1/games/{game_id}/invitation", _json(InvitationOut))

    @endpoint
    def start(
        self, game_id: str, *, if_match: int | None = None, idempotency_key: str | None = None
    ) -> Call[CommandAccepted]:
        """``POST /v1/games/{id}/start`` (the organizer's token)."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/start",
            _json(CommandAccepted),
            headers=_post_headers(if_match, idempotency_key),
        )

    @endpoint
    def pause(
        self, game_id: str, reason: str, *, if_match: int | None = None, idempotency_key: str | None = None
    ) -> Call[CommandAccepted]:
        """``POST /v1/games/{id}/pause`` (a judge; today the organizer's token): stop every clock
        (docs/clocks.md). 409 ``clocks_paused`` when already paused."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/pause",
            _json(CommandAccepted),
            body=_enc.encode({"reason": reason}),
            headers=_post_headers(if_match, idempotency_key),
        )

    @endpoint
    def resume(
        self, game_id: str, reason: str, *, if_match: int | None = None, idempotency_key: str | None = None
    ) -> Call[CommandAccepted]:
        """``POST /v1/games/{id}/resume``: restart the clocks; deadlines and running banks move by
        the paused time. 409 ``clocks_running`` when not paused."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/resume",
            _json(CommandAccepted),
            body=_enc.encode({"reason": reason}),
            headers=_post_headers(if_match, idempotency_key),
        )

    @endpoint
    def judge(
        self,
        game_id: str,
        action: Mapping[str, Any],
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Call[JudgeActionOut]:
        """``POST /v1/games/{id}/judge`` (the judge's token): one action, tagged by ``type``, with its
        ``reason`` (``{"type": "set_power", "house": "stark", "power": 4, "reason": "..."}``;
        docs/judge.md lists them)."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/judge",
            _json(JudgeActionOut),
            body=_enc.encode(dict(action)),
            headers=_post_headers(if_match, idempotency_key),
        )

    @endpoint
    def decisions(self, game_id: str, *, min_version: int | None = None) -> Call[DecisionsOut]:
        """``GET /v1/games/{id}/decisions``: what this token's seat must decide, with the legal options."""
        return Call(
            "GET", f"/v1/games/{game_id}/decisions", _json(DecisionsOut), params=_query(min_version=min_version)
        )

    @endpoint
    def card_decisions(self, game_id: str, *, min_version: int | None = None) -> Call[CardDecisionsOut]:
        """``GET /v1/games/{id}/decisions`` of a card game: this token's decision (if any), its kind
        and legal options (``cards.CardDecision``), and the seats the game waits for."""
        return Call(
            "GET", f"/v1/games/{game_id}/decisions", _json(CardDecisionsOut), params=_query(min_version=min_version)
        )

    @endpoint
    def card_view(self, game_id: str, *, min_version: int | None = None, own: bool = False) -> Call[CardGameView]:
        """A card game's public view (``GET /v1/games/{id}``), or with ``own`` this token's (``/view``:
        your hand, plot deck and facedown cards too), typed."""
        path = f"/v1/games/{game_id}/view" if own else f"/v1/games/{game_id}"
        return Call("GET", path, _json(CardGameView), params=_query(min_version=min_version))

    @endpoint
    def command(
        self,
        game_id: str,
        command: CommandBody,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Call[CommandAccepted]:
        """``POST /v1/games/{id}/commands``. ``if_match``: the version the command was decided at
        (409 ``stale_version`` if the game moved on). The idempotency key is random unless given."""
        return Call(
            "POST",
            f"/v1/games/{game_id}/commands",
            _json(CommandAccepted),
            body=_enc.encode(command),
            headers=_post_headers(if_match, idempotency_key),
        )

    @endpoint
    def view(self, game_id: str, *, min_version: int | None = None, own: bool = False) -> Call[GameView]:
        """The public view (``GET /v1/games/{id}``), or with ``own`` this token's (``/view``): the
        common fields (phase, step, round, winner, seats...); :meth:`view_json` has the whole board."""
        path = f"/v1/games/{game_id}/view" if own else f"/v1/games/{game_id}"
        return Call("GET", path, _json(GameView), params=_query(min_version=min_version))

    @endpoint
    def view_json(self, game_id: str, *, min_version: int | None = None, own: bool = False) -> Call[dict[str, Any]]:
        """The whole view as JSON (the board, houses, tracks...)."""
        path = f"/v1/games/{game_id}/view" if own else f"/v1/games/{game_id}"
        return Call("GET", path, _json(dict[str, Any]), params=_query(min_version=min_version))

    @endpoint
    def events(self, game_id: str, after: int = 0, *, wait: int = 0, limit: int | None = None) -> Call[list[EventOut]]:
        """``GET /v1/games/{id}/events`` (NDJSON): the events after version ``after``; with ``wait``
        (seconds, at most 30) a long-poll that answers as soon as there is one. To follow a game,
        see the clients' ``iter_events`` and ``iter_sse``."""
        params: dict[str, Any] = {"from": after, "wait": wait}
        if limit is not None:
            params["limit"] = limit
        return Call("GET", f"/v1/games/{game_id}/events", _ndjson, params=params)

    @endpoint
    def log(self, game_id: str, after: int = 0, *, limit: int | None = None) -> Call[LogOut]:
        """``GET /v1/games/{id}/log``: the public log's lines after version ``after`` (the next page
        starts at ``next_cursor``)."""
        params: dict[str, Any] = {"from": after}
        if limit is not None:
            params["limit"] = limit
        return Call("GET", f"/v1/games/{game_id}/log", _json(LogOut), params=params)

    @endpoint
    def export(self, game_id: str) -> Call[ExportOut]:
        """``GET /v1/games/{id}/export``: every event with its hash-chain link (complete, with the
        seed, once the game has ended)."""
        return Call("GET", f"/v1/games/{game_id}/export", _json(ExportOut))

    @endpoint
    def export_bytes(self, game_id: str) -> Call[bytes]:
        """The export as the server sent it (what ``citadel-verify`` reads)."""
        return Call("GET", f"/v1/games/{game_id}/export", _raw)

    @endpoint
    def signing_key(self) -> Call[SigningKeyOut]:
        """``GET /v1/signing-key``: the public key that verifies exports (``citadel-verify --public-key``)."""
        return Call("GET", "/v1/signing-key", _json(SigningKeyOut))


class AsyncEndpoints(Endpoints):
    """The operations as coroutines: a subclass sends a :class:`Call` with ``await send(call)``."""

    async def send(self, call: Call[T]) -> T:
        raise NotImplementedError


class SyncEndpoints(Endpoints):
    """The operations as plain methods: a subclass sends a :class:`Call` with ``send(call)``."""

    def send(self, call: Call[T]) -> T:
        raise NotImplementedError
