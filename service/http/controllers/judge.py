"""The judge's console: ``POST /v1/games/{id}/judge`` (one tagged body per action) and the
organizer's ``GET /v1/games/{id}/judge-token`` (docs/judge.md).

Every action becomes an event of the game's stream with its author and reason, public at once,
in the log and in the export, and re-derived by ``citadel-verify`` like any other batch. Only the
judge's token may act (403 ``forbidden`` for the organizer's and the seats'; 401 without a token).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.params import JSONBody

from domain.core.commands import Actor, RequestUndo
from service.engine import tokens
from service.engine.engine import fingerprint

from .. import metrics
from ..access import judge_only, organizer_only, role_of, runtime, seat_only
from ..bodies import GameId, IdemKey, IfMatch, decode_strict, expected_version, json_response
from ..errors import ApiError
from ..models import AnyJudgeCommand, CommandAccepted, JudgeActionOut, JudgeTokenOut, UndoRequestIn
from ..problems import problems

_enc = msgspec.json.Encoder()


class JudgeController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["judge"]

    @post(
        "/judge",
        summary="A judge's action",
        description="A tagged body (`type`) from the judge's actions, each with the `reason` the log and the "
        "export show: `set_power`, `restore_unit`, `roll_back` (to the end of an earlier command's events, by "
        "one compensating `judge_rolled_back` event: nothing is erased), `undo_last_command` (a rollback to "
        "just before a seat's last command) and `replace_player` (the answer's `tokens` holds the seat's new "
        "token; the old one is refused from then on with 403 `token_replaced`). Only with the judge's token "
        "(`judge_token` of the game's creation, or `GET /judge-token`); 403 for any other. docs/judge.md.",
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[judge_only],
    )
    async def judge_action(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[AnyJudgeCommand],  # the document's union of every game's judge actions
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[JudgeActionOut]:
        rt = runtime(request)
        game = await rt.engine.known(game_id)
        if game.game.judge_command_type is None:
            raise ApiError(422, "judge_unsupported", f"the {game.kind} game has no judge's actions")
        command = decode_strict(await request.body(), game.game.judge_command_type)
        status, body = await rt.engine.judge(
            game_id,
            command,
            expected_version=expected_version(if_match),
            idempotency_key=idempotency_key or None,
            fp=fingerprint("judge", game_id, msgspec.json.encode(command)),
        )
        metrics.COMMANDS.inc("judge_" + str(type(command).__struct_config__.tag))
        return json_response(status, body)

    @post(
        "/undo-requests",
        summary="Ask to undo your last command (with your opponents' consent)",
        description="A seat asks to take back its own last command: one public `undo_requested` event naming the "
        "version the game would return to (just before the first event of that command; everything after it "
        "is undone with it) and a deadline (the game's `decision_timeout_s`). Every other seat then has a "
        "decision `undo_consent` in `GET /decisions`, answered by `POST /commands` with "
        '`{"type": "answer_undo", "consent": true}` (or `false`). A refusal ends the request; so does the '
        "deadline (`undo_expired`: refused by default); nothing is undone. With the last consent the game "
        "rolls back as the judge's `undo_last_command` does: a `judge_rolled_back` event with `author` "
        '`"consent"` and `undone_seat`, audited by `citadel-verify`. One request at a time per game '
        "(409 `undo_pending`); 422 `nothing_to_undo` when the seat sent no command since the start. "
        "docs/judge.md.",
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[seat_only],
    )
    async def request_undo(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[UndoRequestIn],
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[CommandAccepted]:
        rt, role = runtime(request), role_of(request)
        seat_id, generation = tokens.parse_seat(role or "")
        await rt.engine.known(game_id)
        body = decode_strict(await request.body(), UndoRequestIn)
        command = RequestUndo(seat_id=seat_id, reason=body.reason)
        status, answer = await rt.engine.judge(
            game_id,
            command,
            expected_version=expected_version(if_match),
            idempotency_key=idempotency_key or None,
            fp=fingerprint("undo", game_id, role or "", msgspec.json.encode(command)),
            actor=Actor(kind="seat", seat_id=seat_id, generation=generation),
        )
        metrics.COMMANDS.inc("request_undo")
        return json_response(status, answer)

    @get(
        "/judge-token",
        summary="The judge's token (organizer)",
        description="The bearer token of the game's judge, for the organizer to hand over (it is also in the "
        "answer that created the game, `judge_token`). docs/judge.md says who gets which token.",
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def judge_token(self, request: Request[Any, Any, Any], game_id: GameId) -> Response[JudgeTokenOut]:
        rt = runtime(request)
        await rt.engine.known(game_id)  # 404 for a game that does not exist
        out = JudgeTokenOut(game_id=game_id, judge_token=tokens.issue(rt.secret, game_id, tokens.JUDGE))
        return json_response(200, _enc.encode(out))
