"""``/v1/games``: create a game (of any hosted kind), join it, start it."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.params import JSONBody

from domain import registry
from domain.core.commands import ORGANIZER, StartGame
from service.engine import tokens
from service.engine.engine import GameCreatedOut, SeatOut, fingerprint

from .. import metrics
from ..access import organizer_only, role_of, runtime
from ..bodies import GameId, IdemKey, IfMatch, decode_strict, expected_version, json_response, require_long_key
from ..errors import ApiError
from ..models import CommandAccepted, GameListOut, InvitationOut, JoinBody, KindOnly
from ..problems import problems
from .lobby import Cursor, KindFilter, OpenSeats, PageLimit, StatusFilter, game_list


class GamesController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post(
        "/",
        summary="Create a game",
        description="Creates a game and returns the organizer token. `kind` names the game (`board`, the default: "
        "A Game of Thrones: The Board Game for 3-6 players, BG-SETUP-01); the server hosts the kinds its "
        "`CITADEL_GAMES` lists (422 `unknown_game_kind` otherwise). "
        "The seed behind every shuffle is committed as `seed_commitment` (sha256) and revealed at the end. "
        "With `scenario` a board game starts from a described position (units, orders, Power tokens, tracks, "
        "House cards, round): validated like any input (422 `invalid_scenario` with the rule it breaks); "
        "with `start_at: action` the Action phase opens right after the start. "
        "With `settings.private: true` the game is private: it never appears in `GET /v1/games`, and joining it needs "
        "the `invitation_code` of this answer (null for a public game; `GET /v1/games/{game_id}/invitation` gives it "
        "again).",
        status_code=201,
        responses=problems(400, 409, 413, 415, 422, 429, 503),
        opt={"body": "create"},
    )
    async def create_game(
        self, request: Request[Any, Any, Any], idempotency_key: IdemKey = ""
    ) -> Response[GameCreatedOut]:
        rt = runtime(request)
        # the key names the new game: a short, guessable key could hand its organizer token to another client
        require_long_key(idempotency_key, "creates a game")
        raw = await request.body()
        kind = decode_strict(raw, KindOnly).kind if raw.strip() else registry.DEFAULT_KIND
        body = decode_strict(raw, rt.engine.hosted_game(kind).create_body)
        fp = fingerprint("create", msgspec.json.encode(body))
        status, answer = await rt.engine.create_game(kind, body, idempotency_key or None, fp)
        metrics.COMMANDS.inc("create_game")
        response = json_response(status, answer)
        response.headers["Location"] = f"/v1/games/{msgspec.json.decode(answer, type=_GameIdOnly).game_id}"
        return response

    @get(
        "/",
        opt={"query": {"status", "open_seats", "kind", "cursor", "limit"}},
        summary="List public games",
        description="The public games, newest first, `limit` a page (default 50, at most 200); the next page starts "
        "at `cursor` = the previous page's `next_cursor` (null on the last page). Filters: `status` (`open`, "
        "`running`, `ended`), `open_seats` (`true`: a seat is free), `kind`. Each game shows public facts only: "
        "id, kind, status, seats taken of the total, creation time and current version. Private games "
        "(`settings.private`) are never listed. The list is a projection: a game appears, or changes status, "
        "a moment (normally milliseconds) after its creation, join, start or end.",
        responses=problems(400, 429, 503),
    )
    async def list_games(
        self,
        request: Request[Any, Any, Any],
        status: StatusFilter = None,
        open_seats: OpenSeats = None,
        kind: KindFilter = None,
        cursor: Cursor = None,
        limit: PageLimit = 50,
    ) -> Response[GameListOut]:
        return await game_list(request, status, open_seats, kind, cursor, limit)

    @post(
        "/{game_id:str}/seats",
        summary="Join a game",
        description="Takes the next free seat and returns its secret bearer token. In the board game houses are "
        "dealt at random when the organizer starts the game (BG-SETUP-02). A private game's seat needs its "
        "invitation code in `invitation` (`403 invitation_required` without it, `403 invalid_invitation` with "
        "another code).",
        status_code=201,
        responses=problems(400, 403, 404, 409, 413, 415, 422, 429, 503),
    )
    async def join_game(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[JoinBody],
        idempotency_key: IdemKey = "",
    ) -> Response[SeatOut]:
        rt = runtime(request)
        # a retried join returns the seat's token: the key must not be guessable
        require_long_key(idempotency_key, "joins a game")
        body = decode_strict(await request.body(), JoinBody)
        known = await rt.engine.known(game_id)  # privacy is fixed at creation: a cached state knows it
        if known.game.lobby(known.state).private:
            if body.invitation is None:
                raise ApiError(
                    403, "invitation_required", "this game is private: send its invitation code as `invitation`"
                )
            if not tokens.invitation_ok(rt.secret, game_id, body.invitation):
                raise ApiError(403, "invalid_invitation", "this is not the invitation code of this game")
        fp = fingerprint("join", game_id, msgspec.json.encode(body))
        status, answer = await rt.engine.join(game_id, body.name, idempotency_key or None, fp)
        metrics.COMMANDS.inc("join_game")
        return json_response(status, answer)

    @post(
        "/{game_id:str}/start",
        summary="Start the game (organizer)",
        description="Fills in what the game deals at the start and opens its first step. The board game deals "
        "houses to seats, shuffles the decks and opens the Planning phase of round 1 (BG-ROUND-02: no Westeros "
        "phase in round 1).",
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def start_game(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[CommandAccepted]:
        rt = runtime(request)
        role = role_of(request)
        status, body = await rt.engine.execute(
            game_id,
            ORGANIZER,
            StartGame(),
            expected_version=expected_version(if_match),
            idempotency_key=idempotency_key or None,
            fp=fingerprint("start", game_id, role or ""),
        )
        metrics.COMMANDS.inc("start_game")
        return json_response(status, body)

    @get(
        "/{game_id:str}/invitation",
        summary="A private game's invitation code (organizer)",
        description="The invitation code whoever joins a seat of this private game must send (`invitation` in "
        "`POST /v1/games/{game_id}/seats`): the one of the creation's answer, derived again, so a lost code can "
        "be asked for at any time. A public game has none (`409 not_private`).",
        responses=problems(400, 401, 403, 404, 409, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def invitation(self, request: Request[Any, Any, Any], game_id: GameId) -> Response[InvitationOut]:
        rt = runtime(request)
        game = await rt.engine.known(game_id)
        if not game.game.lobby(game.state).private:
            raise ApiError(409, "not_private", "this game is public: joining it needs no invitation")
        out = InvitationOut(game_id=game_id, invitation_code=tokens.invitation(rt.secret, game_id))
        return json_response(200, msgspec.json.encode(out))


class _GameIdOnly(msgspec.Struct):
    game_id: str
