"""Views of a game: the public view, a seat's view, and what a seat must decide now."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get
from litestar.params import QueryParameter

from service.engine import tokens
from service.engine.runtime import Runtime
from service.engine.spectators import delayed, visible_version
from service.store.games import LoadedGame
from service.store.read_models import ProjectedView, view_json

from ..access import JUDGE, ORGANIZER, role_of, runtime, token_required, verified_role
from ..bodies import JSON, GameId, MinVersion, json_response
from ..compression import accepts_gzip
from ..errors import ApiError
from ..models import AnyDecisions, AnyView
from ..problems import problems

_enc = msgspec.json.Encoder()

AtVersion = Annotated[
    int | None,
    QueryParameter(
        name="at_version",
        required=False,
        ge=1,
        le=2**31,
        description="The view as the game stood at this version (after its event number `at_version`), "
        "folded from the event stream and redacted for you as it was then (a seat sees its own hand and "
        "sealed orders, the organizer and spectators the public view). For the organizer at any time; "
        "for everyone once the game has ended (403 `at_version_forbidden` otherwise). Beyond the current "
        "version: 409 `version_not_reached`. Takes precedence over `min_version`.",
    ),
]


def reader_for(game: LoadedGame, role: str | None) -> str | None:
    """Whose eyes a role reads with: a seat's (403 if the seat is not in the game, or if the judge
    gave it to another player since this token was issued), else the public's (the organizer, the
    judge and spectators; the judge reads the events complete: :func:`sees_everything`)."""
    if role is None or role in (ORGANIZER, JUDGE):
        return None
    seat_id, generation = tokens.parse_seat(role)
    if not game.game.has_seat(game.state, seat_id):
        raise ApiError(403, "forbidden", "this seat is not in the game")
    if game.game.seat_generation(game.state, seat_id) != generation:
        raise ApiError(403, "token_replaced", "the judge gave this seat to another player: this token is void")
    return game.game.reader_of(game.state, seat_id)


def sees_everything(role: str | None) -> bool:
    """The judge reads every event complete, live (docs/judge.md)."""
    return role == JUDGE


def version_not_reached(game: LoadedGame) -> ApiError:
    return ApiError(409, "version_not_reached", f"the game is at version {game.version}", current_version=game.version)


async def spectator_version(rt: Runtime, game: LoadedGame, role: str | None) -> int | None:
    """The version a spectator (``role`` None) may see when the organizer set a delay, else None
    (everyone else, and every game without a delay, reads live)."""
    if role is not None or not delayed(game):
        return None
    return await visible_version(rt.store, game, rt.engine.clock())


async def delayed_view_bytes(
    rt: Runtime, game: LoadedGame, visible: int, min_version: int, at_version: int | None
) -> bytes:
    """The public view as a delayed spectator may see it: at ``visible`` (or an earlier ``at_version``)."""
    want = at_version if at_version is not None else max(visible, min_version)
    if want > visible:
        raise ApiError(
            409, "version_not_reached", f"spectators see this game up to version {visible}", current_version=visible
        )
    if at_version is not None and not game.game.is_over(game.state):
        raise ApiError(
            403,
            "at_version_forbidden",
            "a past version of the game is shown to the organizer while the game runs, and to everyone once it has ended",
        )
    past = await rt.engine.load_at(game.game_id, want) if want < game.version else game
    return view_json(past.game.view(past.state, None))


async def current_view(rt: Runtime, game_id: str, reader: str | None, min_version: int) -> ProjectedView | bytes:
    """The view from the projection when it is recent enough, else folded from the stream (its JSON)."""
    cached = await rt.projections.view_with_version(rt.store.keys(game_id), reader)
    if cached is not None and cached.version >= min_version:
        return cached
    game = await rt.engine.load(game_id)
    if game.version < min_version:
        raise version_not_reached(game)
    return view_json(game.game.view(game.state, reader))


def view_response(request: Request[Any, Any, Any], view: ProjectedView | bytes) -> Response[Any]:
    """A current view's answer. A projected view goes as it is stored, gzipped, to a client that
    takes gzip (``Content-Encoding: gzip``), else as JSON; either way with the same ``ETag`` (the
    version: the API's one validator of a game, whatever the coding) and ``Vary: Accept-Encoding``.
    A folded view is JSON, gzipped by the app's compression like any answer."""
    if isinstance(view, bytes):
        return json_response(200, view)
    headers = {"ETag": f'"{view.version}"', "Vary": "Accept-Encoding"}
    zipped = view.gzipped() if accepts_gzip(request.headers.get("accept-encoding")) else None
    if zipped is not None:
        return Response(content=zipped, media_type=JSON, headers={**headers, "Content-Encoding": "gzip"})
    return Response(content=view.json(), media_type=JSON, headers=headers)


async def past_view_bytes(
    rt: Runtime, game_id: str, role: str | None, at_version: int, *, public: bool = False
) -> bytes:
    """The view at ``at_version`` for ``role`` (see :data:`AtVersion`): the game's first events
    folded through its own fold, then its one redaction for the reader (the public's with
    ``public``)."""
    game = await rt.engine.load(game_id)
    if role not in (ORGANIZER, JUDGE) and not game.game.is_over(game.state):
        raise ApiError(
            403,
            "at_version_forbidden",
            "a past version of the game is shown to the organizer while the game runs, and to everyone once it has ended",
        )
    if at_version > game.version:
        raise version_not_reached(game)
    reader = None if public else reader_for(game, role)
    past = await rt.engine.load_at(game_id, at_version)
    return view_json(past.game.view(past.state, reader))


class ViewsController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["views"]

    @get(
        "/",
        opt={"query": {"min_version", "at_version"}},
        summary="Public view",
        description="The game as a spectator sees it: nothing hidden (no sealed order, hand or deck order). "
        "When the organizer set a spectators' delay (`settings.spectator_delay_rounds`, `spectator_delay_s`), a "
        "caller without a valid token sees the game as it stood that far back (docs/judge.md). "
        "With `at_version` the board as it stood at that version (a bearer token is needed while the game "
        "runs: the organizer's).",
        responses=problems(400, 401, 403, 404, 409, 429, 503),
    )
    async def public_view(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        min_version: MinVersion = 0,
        at_version: AtVersion = None,
    ) -> Response[AnyView]:
        rt = runtime(request)
        game = await rt.engine.known(game_id)
        if delayed(game):  # a streamed table: spectators see it behind a delay
            game = await rt.engine.load(game_id)
            visible = await spectator_version(rt, game, verified_role(request))
            if visible is not None:
                return json_response(200, await delayed_view_bytes(rt, game, visible, min_version, at_version))
        if at_version is not None:
            return json_response(200, await past_view_bytes(rt, game_id, role_of(request), at_version, public=True))
        return view_response(request, await current_view(rt, game_id, None, min_version))

    @get(
        "/view",
        opt={"query": {"min_version", "at_version"}},
        summary="Your view",
        description="The game as your seat sees it: in the board game your own sealed orders, your hand, your "
        "raven peek. The organizer gets the public view. With `at_version` the game as it stood at that "
        "version, as you saw it then (the organizer at any time, everyone once the game has ended).",
        responses=problems(400, 401, 403, 404, 409, 429, 503),
        security=[{"bearer": []}],
        guards=[token_required],
    )
    async def seat_view(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        min_version: MinVersion = 0,
        at_version: AtVersion = None,
    ) -> Response[AnyView]:
        rt = runtime(request)
        role = role_of(request)
        if at_version is not None:
            return json_response(200, await past_view_bytes(rt, game_id, role, at_version))
        game = await rt.engine.load(game_id)
        return view_response(request, await current_view(rt, game_id, reader_for(game, role), min_version))

    @get(
        "/decisions",
        opt={"query": {"min_version"}},
        summary="What you must decide now",
        description="Your pending decisions with their legal options, deadline and the default applied at the "
        "deadline; plus who else the game waits for.",
        responses=problems(400, 401, 403, 404, 409, 429, 503),
        security=[{"bearer": []}],
        guards=[token_required],
    )
    async def decisions(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        min_version: MinVersion = 0,
    ) -> Response[AnyDecisions]:
        rt = runtime(request)
        role = role_of(request)
        game = await rt.engine.load(game_id)
        if game.version < min_version:
            raise version_not_reached(game)
        seat = None if role in (ORGANIZER, JUDGE) else tokens.parse_seat(role or "")[0]
        if seat is not None:
            reader_for(game, role)  # 403 for a replaced player's token
        out = game.game.decisions(game.state, seat)
        return json_response(200, _enc.encode(out), game.version)
