"""``/v1/tournaments``: create every table of a tournament at once, list them, rank the players, and
archive the replays (docs/tournaments.md; the flow is in ``service/engine/tournaments.py``)."""

from __future__ import annotations

import io
import tarfile
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.params import JSONBody, PathParameter, QueryParameter

from domain.core.hashing import GENESIS
from domain.core.tournament import PlayerStanding, standings
from service.engine import tokens
from service.engine.engine import fingerprint
from service.engine.runtime import Runtime
from service.engine.tournaments import (
    RoundBody,
    RoundCreatedOut,
    TournamentBody,
    TournamentCreatedOut,
    TournamentOut,
    Tournaments,
)
from service.store.tournaments import TournamentStore
from service.store.webhooks import WebhookStore

from .. import metrics
from ..access import runtime
from ..bodies import IdemKey, decode_strict, json_response, require_long_key
from ..errors import ApiError
from ..models import ExportOut
from ..problems import problems

TournamentId = Annotated[str, PathParameter(description="Tournament id", pattern=r"^t_[0-9a-f]{32}$", max_length=34)]
Round = Annotated[
    int,
    QueryParameter(
        name="round",
        ge=0,
        le=100,
        required=False,
        description="Only the tables of this round (0 or absent: every table).",
    ),
]
TAR = "application/octet-stream"
"""The archive is a plain (uncompressed) tar file; ``Content-Disposition`` names it ``<id>.tar``."""
_enc = msgspec.json.Encoder()


class StandingsOut(msgspec.Struct):
    """``GET /v1/tournaments/{id}/standings``."""

    tournament_id: str
    """The tournament."""
    tables: int
    """How many tables it has."""
    tables_ended: int
    """How many of them have ended (only those count)."""
    tiebreaks: list[str]
    """The names of each player's ``tiebreaks`` figures, in the order they count (BG-VIC-04;
    ``iron_throne`` is summed negated: higher is better, like every figure)."""
    standings: list[PlayerStanding]
    """Best first: most tables won, most points (castles and strongholds, BG-VIC-02), the tie-break
    figures, the best mean rank, the name."""


class StartedOut(msgspec.Struct):
    """``POST /v1/tournaments/{id}/start``."""

    tournament_id: str
    """The tournament."""
    not_started: list[int]
    """Tables still in the lobby because their start was refused (see the server log); empty when every table runs."""


def tournaments(connection: ASGIConnection[Any, Any, Any, Any]) -> Tournaments:
    """The tournament service of this app (built once, on the app's runtime)."""
    state = connection.app.state
    if not hasattr(state, "tournaments"):
        rt: Runtime = runtime(connection)
        state.tournaments = Tournaments(
            rt.engine, rt.store, TournamentStore(rt.redis), rt.secret, webhooks=WebhookStore(rt.redis)
        )
    t: Tournaments = state.tournaments
    return t


async def tournament_organizer(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """401 without the tournament's organizer token (``org.<mac>`` derived for the tournament id)."""
    header = connection.headers.get("authorization")
    if not header:
        raise ApiError(
            401, "unauthorized", "this operation needs the tournament's organizer token", title="Unauthorized"
        )
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "unauthorized", "use 'Authorization: Bearer <token>'", title="Unauthorized")
    tid = str(connection.path_params.get("tournament_id", ""))
    role = tokens.verify(runtime(connection).secret, tid, value.strip())
    if role is None:
        raise ApiError(401, "invalid_token", "the token is not valid for this tournament", title="Unauthorized")
    if role != tokens.ORGANIZER:
        raise ApiError(403, "forbidden", "only the tournament's organizer may do this")


class TournamentsController(Controller):
    path = "/v1/tournaments"
    tags = ["tournaments"]

    @post(
        "/",
        summary="Create a tournament: every table at once",
        description="Creates every table of a tournament in one all-or-nothing call: the players are seated in "
        "the order given, `table_sizes[0]` at table 1 and so on (the board game: 3-6 a table, BG-SETUP-01; "
        "3-7 with `settings.expansion: mother_of_dragons`, houses drawn from the seven, MOD-SETUP-01). "
        "Everything is validated before anything is written (422 naming the table: `invalid_tournament`, "
        "`invalid_table_size`, `invalid_seat_houses`...). Each table's houses are drawn from the tournament's "
        "secret seed (its `seed_commitment` is published now, the seed revealed when every table has ended) or "
        "given in `houses`. The tournament becomes visible only once every table is written; a retry with the "
        "same `Idempotency-Key` finishes an interrupted call. The answer holds every token: the tournament's "
        "organizer token, each table's organizer token, and each player's seat token at each table. "
        "With `start` (default) every table is started at once.",
        status_code=201,
        responses=problems(400, 413, 415, 422, 429, 503),
    )
    async def create_tournament(
        self, request: Request[Any, Any, Any], data: JSONBody[TournamentBody], idempotency_key: IdemKey = ""
    ) -> Response[TournamentCreatedOut]:
        require_long_key(idempotency_key, "creates a tournament")
        body = decode_strict(await request.body(), TournamentBody)
        service = tournaments(request)
        record = await service.create(body, idempotency_key or None, fingerprint("tournament", _enc.encode(body)))
        metrics.COMMANDS.inc("create_tournament")
        response = json_response(201, _enc.encode(service.created_answer(record)))
        response.headers["Location"] = f"/v1/tournaments/{record.tournament_id}"
        return response

    @post(
        "/{tournament_id:str}/rounds",
        summary="Add the next round (tournament organizer)",
        description="Creates every table of the next round (`round`: 2 after the first...) in one all-or-nothing "
        "call, like `POST /v1/tournaments`: the round's players (each a player of the tournament, once) seated in "
        "the order given by `table_sizes`, houses drawn from the round's own secret seed (its commitment in the "
        "answer, the seed revealed when the round has ended) or given, the tournament's settings. Tables are "
        "numbered after the earlier rounds'. A retry with the same body returns the same round; another body for "
        "an existing round is 409 `round_exists`. The tables join the tournament's webhook subscriptions.",
        status_code=201,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
    )
    async def add_round(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId, data: JSONBody[RoundBody]
    ) -> Response[RoundCreatedOut]:
        body = decode_strict(await request.body(), RoundBody)
        service = tournaments(request)
        fp = fingerprint("round", tournament_id, _enc.encode(body))
        record = await service.add_round(tournament_id, body, fp)
        metrics.COMMANDS.inc("add_round")
        return json_response(201, _enc.encode(service.round_answer(tournament_id, record)))

    @get(
        "/{tournament_id:str}",
        summary="A tournament's tables and their state",
        description="Every table with its game id, players by seat, houses (and whether they were drawn), version "
        "and state (`lobby`, `running`, `ended` with the winner). `seed` is revealed once every table has ended: "
        "redo each draw with it (docs/tournaments.md). Public, like the games.",
        responses=problems(400, 404, 429, 503),
    )
    async def get_tournament(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId
    ) -> Response[TournamentOut]:
        service = tournaments(request)
        out, _, _ = await service.overview(await service.get(tournament_id))
        return json_response(200, _enc.encode(out))

    @get(
        "/{tournament_id:str}/standings",
        summary="Standings across the tables",
        description="Every player ranked over the tables that have ended: most tables won, then the most castle and "
        "stronghold areas summed (BG-VIC-02), then the game's tie-break figures summed in the order of its ruleset "
        "(BG-VIC-04: `faq_v2` land areas, Supply, Iron Throne position), then the best mean rank, then the name. "
        "Players whose tables run are listed with zeros.",
        responses=problems(400, 404, 429, 503),
    )
    async def get_standings(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId
    ) -> Response[StandingsOut]:
        service = tournaments(request)
        record = await service.get(tournament_id)
        _, results, names = await service.overview(record)
        out = StandingsOut(
            tournament_id=tournament_id,
            tables=len(record.tables),
            tables_ended=len(results),
            tiebreaks=names,
            standings=standings(record.players, results),
        )
        return json_response(200, _enc.encode(out))

    @post(
        "/{tournament_id:str}/start",
        summary="Start every table still in the lobby (tournament organizer)",
        description="Starts each table that is not started yet (after `start: false`, or a start that failed); "
        "tables already started are left alone, so calling it twice is harmless.",
        status_code=200,
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
    )
    async def start_tournament(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId
    ) -> Response[StartedOut]:
        service = tournaments(request)
        failed = await service.start_all(await service.tables(await service.get(tournament_id)))
        return json_response(200, _enc.encode(StartedOut(tournament_id=tournament_id, not_started=failed)))

    @get(
        "/{tournament_id:str}/export",
        summary="Every table's replay in one archive",
        description="A tar archive of the public replay export (`citadel-replay/1`, as `GET /v1/games/{id}/export` "
        "without a token) of every table, or of one `round`'s tables: `table-<n>-<game_id>.json` each, plus "
        "`tournament.json` (the tables and the seed commitment; the seed once every table has ended). Each file "
        "is verified on its own by `citadel-verify FILE --public-key KEY`; tables that have not ended are "
        "redacted as for any spectator.",
        responses=problems(400, 404, 429, 503),
        media_type=TAR,
        opt={"query": {"round"}},
    )
    async def export_tournament(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId, round_: Round = 0
    ) -> Response[bytes]:
        service = tournaments(request)
        record = await service.get(tournament_id)
        overview, _, _ = await service.overview(record)
        tables = [t for t in await service.tables(record) if not round_ or t.round == round_]
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            _add(tar, "tournament.json", _enc.encode(_manifest(overview, round_)))
            for t in tables:
                body = await public_export(runtime(request), t.game_id)
                _add(tar, f"table-{t.table}-{t.game_id}.json", _enc.encode(body))
        name = f"{tournament_id}-round{round_}.tar" if round_ else f"{tournament_id}.tar"
        return Response(
            content=buf.getvalue(),
            status_code=200,
            media_type=TAR,
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )


def _manifest(overview: TournamentOut, round_: int) -> TournamentOut:
    if not round_:
        return overview
    return msgspec.structs.replace(overview, tables=[t for t in overview.tables if t.round == round_])


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


async def public_export(rt: Runtime, game_id: str) -> ExportOut:
    """A game's replay export as a spectator reads it (``GET /v1/games/{id}/export`` without a token):
    complete with the seed once the game has ended, redacted before. Signed over exactly its events."""
    game = await rt.engine.load(game_id)
    keys = rt.store.keys(game_id)
    envs = (await rt.store.read(keys, 0, count=game.version)) if game.version else []
    ended = game.game.is_over(game.state)
    out_envs = []
    redacted = []
    for env in envs:
        e = game.decode(env)
        red = game.game.redact_event(e, None, game_over=ended)
        if red is not e:
            redacted.append(env.seq)
            env = msgspec.structs.replace(env, event=msgspec.Raw(_enc.encode(red)))
        out_envs.append(env)
    signer = await rt.signing.signer()
    head = signer.sign(game_id, game.kind, len(envs), envs[-1].hash if envs else GENESIS)
    return ExportOut(
        game_id=game_id,
        version=len(envs),
        seed_commitment=game.game.seed_commitment(game.state),
        seed=await rt.store.seed(keys) if ended else None,
        complete=not redacted,
        signed_head=head,
        events=out_envs,
        redacted=redacted,
        kind=game.kind,
    )
