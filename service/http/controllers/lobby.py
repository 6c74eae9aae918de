"""The lobby: the list of public games (``GET /v1/games``), and one stream of "your turn" across a
client's seats in several games (``POST /v1/turns``).

The list is read from the lobby index (``service/store/lobby.py``), which the projector keeps; each
listed game's current version is read from its stream. Private games are never listed.

The turns stream watches the versions of the seats' games (one pipelined ``XLEN`` per second for
them all, which works the same on Redis Cluster, where the games' streams live in different slots),
and folds a game only when its version moved. See ``docs/lobby.md``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, post
from litestar.params import JSONBody, QueryParameter
from litestar.response import Stream

from service.engine import tokens
from service.engine.runtime import Runtime
from service.store.lobby import CURSOR_PATTERN, Bucket, LobbyIndex

from ..access import JUDGE, ORGANIZER, runtime
from ..bodies import decode_strict, json_response
from ..errors import ApiError
from ..models import GameListOut, GameSummary, SeatEnded, TurnItem, TurnsBody, TurnsEnd
from ..problems import problems
from .events import SSE_RETRY_MS, claim_stream_slot, released
from .views import reader_for

TURNS_POLL_S = 1.0
"""How often a turns stream looks at its games' versions: a turn is announced within about this."""
KEEP_ALIVE_S = 15

StatusFilter = Annotated[
    Literal["open", "running", "ended"] | None,
    QueryParameter(description="Only games in this status: `open` (not started), `running` (started), `ended` (over)."),
]
OpenSeats = Annotated[
    bool | None,
    QueryParameter(
        name="open_seats",
        description="`true`: only games with a free seat (open and not full); `false`: only games without one.",
    ),
]
KindFilter = Annotated[
    str | None,
    QueryParameter(description="Only games of this kind (`board`, ...).", pattern="^[a-z_]{1,32}$"),
]
Cursor = Annotated[
    str | None,
    QueryParameter(
        description="Where the page starts: the `next_cursor` of the previous page (opaque).",
        pattern=CURSOR_PATTERN,
        max_length=48,
    ),
]
PageLimit = Annotated[int, QueryParameter(ge=1, le=200, description="Page size (1 to 200, default 50).")]

_enc = msgspec.json.Encoder()


def buckets_for(status: str | None, open_seats: bool | None) -> list[Bucket]:
    """The lobby index's lists that hold the games matching both filters."""
    by_status: dict[str | None, list[Bucket]] = {
        None: ["free", "full", "running", "ended"],
        "open": ["free", "full"],
        "running": ["running"],
        "ended": ["ended"],
    }
    chosen = by_status[status]
    if open_seats is True:
        return [b for b in chosen if b == "free"]
    if open_seats is False:
        return [b for b in chosen if b != "free"]
    return chosen


async def versions(rt: Runtime, game_ids: list[str]) -> list[int]:
    """The current version of each game, in one pipelined round trip (``XLEN`` of each stream, or
    the version an archived game was archived at: ``service/store/archive.py``)."""
    if not game_ids:
        return []
    pipe = rt.redis.pipeline(transaction=False)
    for g in game_ids:
        keys = rt.store.keys(g)
        pipe.xlen(keys.events)
        pipe.hget(keys.archive, "v")
    got = await pipe.execute()
    return [int(n) or int(v or 0) for n, v in zip(got[::2], got[1::2])]


async def game_list(
    request: Request[Any, Any, Any],
    status: str | None,
    open_seats: bool | None,
    kind: str | None,
    cursor: str | None,
    limit: int,
) -> Response[GameListOut]:
    """A page of ``GET /v1/games`` (the handler is in ``games.py``, beside the other ``/v1/games`` operations)."""
    rt = runtime(request)
    lobby: LobbyIndex = request.app.state.lobby
    page = await lobby.page(buckets_for(status, open_seats), kind, cursor, limit)
    current = await versions(rt, [e.game_id for e in page.entries])
    games = [
        GameSummary(
            game_id=e.game_id,
            kind=e.kind,
            status=e.status,
            seats_taken=e.seats_taken,
            seats_total=e.seats_total,
            created_at=e.created_at,
            version=max(v, e.version),
        )
        for e, v in zip(page.entries, current)
    ]
    return json_response(200, _enc.encode(GameListOut(games=games, next_cursor=page.next_cursor)))


def sse_message(event: str, data: msgspec.Struct) -> bytes:
    """One SSE message: ``event`` names it, ``data`` is ``data`` as JSON."""
    return b"event: %s\ndata: %s\n\n" % (event.encode(), _enc.encode(data))


async def _turns(rt: Runtime, seats: list[tuple[str, str]]) -> AsyncIterator[bytes]:
    """SSE: a ``turn`` message whenever a decision opens for one of ``seats`` (each ``(game, seat)``),
    including the ones open when the stream starts; ``game_ended`` when a game is over; ``end`` and
    the stream closes when every game is over."""
    yield b"retry: %d\n: stream open\n\n" % SSE_RETRY_MS
    games = list(dict.fromkeys(g for g, _ in seats))
    seen: dict[str, int] = {}
    announced: dict[tuple[str, str], int | None] = {}
    """Per seat, the step whose turn was last announced (None: not its turn)."""
    ended: set[str] = set()
    last_beat = time.monotonic()
    while True:
        live = [g for g in games if g not in ended]
        for game_id, version in zip(live, await versions(rt, live)):
            if seen.get(game_id) == version:
                continue
            game = await rt.engine.load(game_id)
            seen[game_id] = game.version
            if game.game.is_over(game.state):
                ended.add(game_id)
                for g, seat in seats:
                    if g == game_id:
                        yield sse_message("game_ended", SeatEnded(game_id=g, seat_id=seat, version=game.version))
                last_beat = time.monotonic()
                continue
            awaited = set(game.game.awaiting(game.state))
            deadline = game.game.deadline(game.state)
            step = deadline.step_version if deadline else game.version
            for g, seat in seats:
                if g != game_id:
                    continue
                turn = step if seat in awaited else None
                if turn is not None and announced.get((g, seat)) != turn:
                    item = TurnItem(
                        game_id=g, seat_id=seat, version=game.version, deadline=deadline.at if deadline else None
                    )
                    yield sse_message("turn", item)
                    last_beat = time.monotonic()
                announced[(g, seat)] = turn
        if len(ended) == len(games):
            yield sse_message("end", TurnsEnd())
            return
        if time.monotonic() - last_beat > KEEP_ALIVE_S:
            last_beat = time.monotonic()
            yield b": keep-alive\n\n"
        await asyncio.sleep(TURNS_POLL_S)


class LobbyController(Controller):
    tags = ["lobby"]

    @post(
        "/v1/turns",
        status_code=200,
        summary="Your turns across games (SSE)",
        description="One Server-Sent Events stream for several seats, in one game or several (1 to 32 pairs of a game "
        "id and that game's seat token, in the body: tokens never go in a URL). It opens with `retry: 3000`, then "
        "sends `event: turn` with `data: {game_id, seat_id, version, deadline}` for each seat that has a decision "
        "open, and again each time a new decision opens for one of them (within about a second); "
        "`event: game_ended` with `data: {game_id, seat_id, version}` when a game is over; and, once every game is "
        "over, `event: end` with `data: {reason}`, then it closes. While idle it writes a `: keep-alive` comment "
        "every 15 s. Nothing to resume: a new request announces every turn open at that moment again. Read the "
        "decision itself with `GET /v1/games/{game_id}/decisions?min_version=<version>`. A browser's `EventSource` "
        "cannot send a body: read the stream with `fetch`. Counts as one open stream of the caller's address "
        "(`429 too_many_streams` beyond).",
        media_type="text/event-stream",
        responses=problems(400, 401, 403, 404, 413, 422, 429, 503),
    )
    async def turns(self, request: Request[Any, Any, Any], data: JSONBody[TurnsBody]) -> Stream:
        rt = runtime(request)
        body = decode_strict(await request.body(), TurnsBody)
        seats: list[tuple[str, str]] = []
        for i, s in enumerate(body.seats):
            role = tokens.verify(rt.secret, s.game_id, s.token)
            if role is None:
                raise ApiError(
                    401, "invalid_token", f"seats[{i}].token is not valid for game {s.game_id}", title="Unauthorized"
                )
            if role in (ORGANIZER, JUDGE):
                raise ApiError(
                    403, "forbidden", f"seats[{i}]: the organizer and the judge have no turns; use a seat token"
                )
            game = await rt.engine.load(s.game_id)  # 404 for a game that does not exist (any more)
            reader_for(game, role)  # 403 for a seat the judge gave to another player since (token_replaced)
            seats.append((s.game_id, tokens.parse_seat(role)[0]))
        client = await claim_stream_slot(request, rt)
        return Stream(
            released(rt, request.app.state.limits, client, _turns(rt, list(dict.fromkeys(seats)))),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"},
        )
