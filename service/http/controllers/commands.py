"""``POST /v1/games/{id}/commands``: a seat's command, decoded by its game's own types."""

from __future__ import annotations

import time
from typing import Any

import msgspec
from litestar import Controller, Request, Response, post

from domain.core.commands import Actor
from domain.core.errors import GameError
from service.engine import tokens
from service.engine.engine import fingerprint
from service.engine.runtime import Runtime

from .. import metrics
from ..access import role_of, runtime, seat_only
from ..bodies import GameId, IdemKey, IfMatch, decode_strict, expected_version, json_response
from ..errors import ApiError
from ..models import CommandAccepted
from ..problems import problems


class CommandsController(Controller):
    path = "/v1/games/{game_id:str}/commands"
    tags = ["commands"]

    @post(
        "/",
        summary="Submit a command",
        description="A tagged body (`type`) from the game's commands, all listed below with an example each; "
        "`GET /decisions` says which one you must send now (its `commands`). "
        "The answer carries the new `version` and the events produced, redacted for you. Guard with "
        '`If-Match: "<version>"` or leave it out to act on the latest version.',
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[seat_only],
    )
    async def submit_command(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[CommandAccepted]:
        # The body is read once, strictly, with the game's own command types (``bodies.decode_strict``):
        # no ``data`` parameter, so Litestar does not decode it a first time, laxly, for nothing. The
        # document's request body (the union of every game's commands) is set in ``openapi.py``.
        metrics.COMMAND_WAYS.inc("route")
        status, body = await run_command(
            runtime(request), game_id, role_of(request) or "", await request.body(), idempotency_key, if_match
        )
        return json_response(status, body)


async def run_command(
    rt: Runtime, game_id: str, role: str, body: bytes, idempotency_key: str, if_match: str
) -> tuple[int, bytes]:
    """What the command endpoint does once the caller is known to hold a seat of the game (``role``):
    decode the body strictly with the game's own command types, run it through the engine (guarded by
    ``If-Match``, answered once per ``Idempotency-Key``), count it. The one implementation for both
    ways in: the route above, and the command lane (``service/http/command_lane.py``)."""
    seat_id, generation = tokens.parse_seat(role)
    game = await rt.engine.known(game_id)
    command = decode_strict(body, game.game.command_type)
    # an idempotent retry must be the same request: its fingerprint ignores whitespace and key order
    fp = fingerprint("command", game_id, role, msgspec.json.encode(command)) if idempotency_key else ""
    started = time.perf_counter()
    try:
        status, answer = await rt.engine.execute(
            game_id,
            Actor(kind="seat", seat_id=seat_id, generation=generation),
            command,
            expected_version=expected_version(if_match),
            idempotency_key=idempotency_key or None,
            fp=fp,
        )
    except (ApiError, GameError) as e:
        metrics.REJECTED.inc(e.code)
        raise
    metrics.COMMANDS.inc(type(command).__struct_config__.tag)
    metrics.LATENCY.observe(time.perf_counter() - started)
    return status, answer
