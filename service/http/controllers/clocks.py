"""``/v1/games/{id}/pause`` and ``/resume``: a judge stops and restarts a game's clocks (docs/clocks.md).

While paused no deadline fires, no time bank runs and the game accepts no decision; on resume every
deadline and running bank moves by the paused time. Each is an event with its author and reason
(``clocks_paused``, ``clocks_resumed``), in the log and the export, and re-derived by the audit.
Who may: :func:`~service.http.access.clock_keeper_only` (today the organizer).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, Response, post
from litestar.params import JSONBody

from domain.core.commands import PauseClocks, ResumeClocks
from service.engine.engine import fingerprint

from .. import metrics
from ..access import clock_keeper_only, judge_actor, role_of, runtime
from ..bodies import GameId, IdemKey, IfMatch, decode_strict, expected_version, json_response
from ..models import CommandAccepted
from ..problems import problems

_CLOCKS = (
    "Only while the game runs (409 `clocks_not_running` in the lobby or after the end). "
    "Today the organizer's token may (a judge's token joins it); 403 for a seat."
)


class ClocksController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["games"]

    @post(
        "/pause",
        summary="Pause the clocks (judge)",
        description="Stops every clock of the game: no deadline fires, no time bank runs, and the game accepts no "
        "decision (409 `clocks_paused`) until the clocks are resumed. Recorded as a `clocks_paused` event with its "
        "author and `reason`. 409 `clocks_paused` when already paused. " + _CLOCKS,
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[clock_keeper_only],
    )
    async def pause(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[PauseClocks],
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[CommandAccepted]:
        command = decode_strict(await request.body(), PauseClocks)
        return await _run(request, game_id, command, "pause_clocks", idempotency_key, if_match)

    @post(
        "/resume",
        summary="Resume the clocks (judge)",
        description="Restarts the clocks: the step's deadline and every running time bank move by the paused time, "
        "so nobody loses or gains time. Recorded as a `clocks_resumed` event with its author, `reason` and the "
        "paused time. 409 `clocks_running` when not paused. " + _CLOCKS,
        status_code=200,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[clock_keeper_only],
    )
    async def resume(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[ResumeClocks],
        idempotency_key: IdemKey = "",
        if_match: IfMatch = "",
    ) -> Response[CommandAccepted]:
        command = decode_strict(await request.body(), ResumeClocks)
        return await _run(request, game_id, command, "resume_clocks", idempotency_key, if_match)


async def _run(
    request: Request[Any, Any, Any],
    game_id: GameId,
    command: PauseClocks | ResumeClocks,
    name: str,
    idempotency_key: str,
    if_match: str,
) -> Response[CommandAccepted]:
    rt = runtime(request)
    role = role_of(request) or ""
    status, body = await rt.engine.execute(
        game_id,
        judge_actor(role),
        command,
        expected_version=expected_version(if_match),
        idempotency_key=idempotency_key or None,
        fp=fingerprint(name, game_id, role, msgspec.json.encode(command)),
    )
    metrics.COMMANDS.inc(name)
    return json_response(status, body)
