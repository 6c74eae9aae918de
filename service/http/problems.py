"""RFC 9457 problem details: the one error format of the API, and the handlers that produce it."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, SerializationException, ValidationException
from litestar.openapi import ResponseSpec

from domain import registry
from domain.core.errors import ErrorKind, GameError

from .errors import ApiError

log = logging.getLogger("citadel.api")
PROBLEM = "application/problem+json"


class FieldError(msgspec.Struct):
    """One invalid field or parameter."""

    field: str
    """The member or parameter: dotted for nested members (`settings.decision_timeout_s`), or a JSON path."""
    message: str
    """What is wrong with it."""


class Problem(msgspec.Struct, omit_defaults=True):
    """RFC 9457 problem details with a stable machine ``code``."""

    type: str
    """`https://citadel.example/problems/<code>`."""
    title: str
    """A short summary derived from the code (`Not your turn`), or `Invalid request`, `Unauthorized`."""
    status: int
    """The HTTP status."""
    detail: str
    """What happened, for humans (may change; branch on `code`)."""
    code: str
    """The stable, machine-readable code: branch on it."""
    instance: str | None = None
    """The request path."""
    errors: list[FieldError] | None = None
    """Validation problems: one entry per invalid field or parameter."""
    current_version: int | None = None
    """`stale_version`, `version_not_reached`: the game's version now (also the `ETag`)."""
    rule: str | None = None
    """The id of the game's rule that refused the move (`BG-PLAN-02`)."""
    retry_after: int | None = None
    """Seconds to wait before retrying (also `Retry-After`)."""


_enc = msgspec.json.Encoder()


def problem_response(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    instance: str | None = None,
    headers: dict | None = None,
    **extra: Any,
) -> Response:
    body = Problem(
        type=f"https://citadel.example/problems/{code}",
        title=title or code.replace("_", " ").capitalize(),
        status=status,
        detail=detail,
        code=code,
        instance=instance,
        **extra,
    )
    return Response(content=_enc.encode(body), status_code=status, media_type=PROBLEM, headers=headers)


def api_error_handler(request: Request, exc: ApiError) -> Response:
    headers = {}
    if exc.status == 409 and "current_version" in exc.extra:
        headers["ETag"] = f'"{exc.extra["current_version"]}"'
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="citadel"' + (
            ', error="invalid_token"' if exc.code == "invalid_token" else ""
        )
    if "retry_after" in exc.extra:
        headers["Retry-After"] = str(exc.extra["retry_after"])
    extra = dict(exc.extra)
    limit = extra.pop("rate_limit", None)
    if limit is not None:
        headers.update(
            {"RateLimit-Limit": str(limit), "RateLimit-Remaining": "0", "RateLimit-Reset": headers["Retry-After"]}
        )
    return problem_response(
        exc.status, exc.code, exc.detail, title=exc.title, instance=request.url.path, headers=headers or None, **extra
    )


STATUS_OF_KIND: dict[ErrorKind, int] = {
    "invalid": 422,
    "conflict": 409,
    "forbidden": 403,
    "not_found": 404,
    "unavailable": 503,
}
"""How the HTTP layer answers each kind of refusal from the games and the engine."""


def api_error_of(exc: GameError) -> ApiError:
    """The HTTP problem for a refused command: the status from its kind, the rest as it is."""
    extra = dict(exc.extra)
    if exc.rule:
        extra["rule"] = exc.rule
    return ApiError(STATUS_OF_KIND[exc.kind], exc.code, exc.detail, **extra)


def game_error_handler(request: Request, exc: GameError) -> Response:
    return api_error_handler(request, api_error_of(exc))


def _classify_validation(exc: ValidationException) -> tuple[int, str, list[FieldError]]:
    """Body fields that fail validation are 422; query, path and header parameters are 400."""
    errors: list[FieldError] = []
    extra = exc.extra if isinstance(exc.extra, list) else []
    code = "validation_error"
    status = 422
    for item in extra:
        if not isinstance(item, dict):
            continue
        msg = str(item.get("message", ""))
        key = str(item.get("key", "body"))
        if "unknown field `" in msg:
            key = msg.split("unknown field `", 1)[1].split("`", 1)[0]  # name the field, not "data"
        errors.append(FieldError(field=key, message=msg))
        if item.get("source") != "body":
            code, status = "invalid_parameter", 400
        low = msg.lower()
        if "unknown field" in low:
            code = "unknown_field"
        elif "malformed" in low or "json" in low and "invalid" in low:
            code, status = "bad_json", 400
    detail = str(exc.detail)
    if "malformed" in detail.lower() or "decode" in detail.lower():
        code, status = "bad_json", 400
    if any(e.field == "data" and e.message in ("'data'", "") for e in errors):
        return 400, "bad_json", [FieldError(field="body", message="a JSON body is required")]
    return status, code, errors


def validation_handler(request: Request, exc: ValidationException) -> Response:
    status, code, errors = _classify_validation(exc)
    detail = "; ".join(f"{e.field}: {e.message}" for e in errors) or str(exc.detail)
    return problem_response(
        status, code, detail, title="Invalid request", instance=request.url.path, errors=errors or None
    )


_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


def http_exception_handler(request: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    code = _HTTP_CODES.get(status, "error" if status < 500 else "internal_error")
    if isinstance(exc.__cause__, SerializationException):
        code = "bad_json"
    headers = dict(exc.headers or {})
    return problem_response(status, code, str(exc.detail), instance=request.url.path, headers=headers or None)


def too_deep_handler(request: Request, exc: RecursionError) -> Response:
    """A body nested deeper than the JSON decoder recurses is malformed input, not a server error."""
    return problem_response(
        400, "bad_json", "the body is nested too deeply to be a request of this API", instance=request.url.path
    )


def store_unavailable_handler(request: Request, exc: Exception) -> Response:
    """The event store does not answer (a restart, a failover): retry shortly; nothing was half-done,
    because every write is one atomic script."""
    log.warning("event store unavailable on %s %s: %s", request.method, request.url.path, exc)
    return problem_response(
        503,
        "store_unavailable",
        "the event store is not reachable right now; retry shortly",
        instance=request.url.path,
        headers={"Retry-After": "1"},
        retry_after=1,
    )


def lost_connection(exc: Exception) -> bool:
    """uvloop (the API's event loop) raises ``RuntimeError`` when a client writes on a connection
    the store closed (a master killed in a failover); redis-py drops that connection, so the next
    request reconnects. It is the store being unreachable, not a bug (seen in the Cluster failover
    test: one 500 on ``GET /decisions``)."""
    return isinstance(exc, RuntimeError) and "the handler is closed" in str(exc)


def runtime_error_handler(request: Request, exc: Exception) -> Response:
    """:func:`store_unavailable_handler` for a connection the store closed (:func:`lost_connection`),
    else :func:`internal_error_handler`."""
    if lost_connection(exc):
        return store_unavailable_handler(request, exc)
    return internal_error_handler(request, exc)


def internal_error_handler(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem_response(
        500, "internal_error", "an unexpected error occurred; it has been logged", instance=request.url.path
    )


class ProblemCode(msgspec.Struct, frozen=True):
    """One problem ``code`` the API returns, its status, and the operations that can return it."""

    status: int
    code: str
    meaning: str
    operations: tuple[str, ...] = ()
    """``"POST /v1/games"``-style ids; empty: every operation that documents ``status``."""

    def applies(self, operation: str) -> bool:
        return not self.operations or operation in self.operations

    def example(self, path: str) -> dict[str, Any]:
        return msgspec.to_builtins(
            Problem(
                type=f"https://citadel.example/problems/{self.code}",
                title=self.code.replace("_", " ").capitalize(),
                status=self.status,
                detail=self.meaning,
                code=self.code,
                instance=path,
            )
        )


CREATE = "POST /v1/games"
JOIN = "POST /v1/games/{game_id}/seats"
START = "POST /v1/games/{game_id}/start"
COMMAND = "POST /v1/games/{game_id}/commands"
PAUSE = "POST /v1/games/{game_id}/pause"
RESUME = "POST /v1/games/{game_id}/resume"
EVENTS = "GET /v1/games/{game_id}/events"
INVITATION = "GET /v1/games/{game_id}/invitation"
TURNS = "POST /v1/turns"
JUDGE = "POST /v1/games/{game_id}/judge"
UNDO = "POST /v1/games/{game_id}/undo-requests"
TOURNAMENT = "POST /v1/tournaments"
ROUND = "POST /v1/tournaments/{tournament_id}/rounds"
WEBHOOKS = ("POST /v1/games/{game_id}/webhooks", "POST /v1/tournaments/{tournament_id}/webhooks")
POSTS = (CREATE, JOIN, START, COMMAND, PAUSE, RESUME, JUDGE, UNDO, TOURNAMENT, *WEBHOOKS)
NOWHERE = ("-",)
"""Codes of no documented operation (a method or route that does not exist): in the code list only."""
MIN_VERSION = ("GET /v1/games/{game_id}", "GET /v1/games/{game_id}/view", "GET /v1/games/{game_id}/decisions")

SERVICE_CODES: tuple[ProblemCode, ...] = (
    ProblemCode(400, "bad_json", "the body is not valid JSON", (CREATE, JOIN, COMMAND, TURNS, JUDGE, UNDO)),
    ProblemCode(400, "invalid_parameter", "a query, path or header parameter fails validation"),
    ProblemCode(400, "unknown_parameter", "a query parameter the operation does not know"),
    ProblemCode(400, "bad_request", "any other malformed request"),
    ProblemCode(401, "unauthorized", "no token where one is required, or not `Bearer <token>`"),
    ProblemCode(401, "invalid_token", "the token is not valid for this game"),
    ProblemCode(403, "forbidden", "the token may not do this"),
    ProblemCode(
        403,
        "at_version_forbidden",
        "`at_version` while the game runs is for its organizer; everyone may read past versions once it ended",
        ("GET /v1/games/{game_id}", "GET /v1/games/{game_id}/view"),
    ),
    ProblemCode(403, "invitation_required", "the game is private: joining needs its invitation code", (JOIN,)),
    ProblemCode(403, "invalid_invitation", "the invitation code is not this game's", (JOIN,)),
    ProblemCode(409, "not_private", "the game is public: it has no invitation code", (INVITATION,)),
    ProblemCode(
        403,
        "token_replaced",
        "the judge gave this seat to another player: this token is void",
        (
            "GET /v1/games/{game_id}/view",
            "GET /v1/games/{game_id}/decisions",
            "GET /v1/games/{game_id}/events",
            "GET /v1/games/{game_id}/export",
            TURNS,
        ),
    ),
    ProblemCode(404, "not_found", "no such game"),
    ProblemCode(
        409,
        "stale_version",
        "`If-Match` names another version (see `current_version`)",
        (START, COMMAND, JUDGE, UNDO),
    ),
    ProblemCode(409, "version_not_reached", "`min_version` is beyond the game's version", MIN_VERSION),
    ProblemCode(409, "game_exists", "a game with this id already exists", (CREATE, TOURNAMENT, ROUND)),
    ProblemCode(
        409, "game_archived", "the game ended and was archived (docs/memory.md): it takes no more commands", (JUDGE,)
    ),
    ProblemCode(409, "nothing_to_do", "the command would change nothing", (COMMAND,)),
    ProblemCode(409, "game_full", "every seat is taken", (JOIN,)),
    ProblemCode(409, "game_started", "the game has started", (JOIN, START)),
    ProblemCode(409, "seats_missing", "not every seat is taken yet", (START,)),
    ProblemCode(409, "clocks_paused", "a judge paused the clocks: no decision until they resume", (COMMAND, PAUSE)),
    ProblemCode(409, "clocks_running", "the clocks are not paused", (RESUME,)),
    ProblemCode(
        409, "clocks_not_running", "the game is in its lobby or over: it has no clocks to pause", (PAUSE, RESUME)
    ),
    ProblemCode(413, "payload_too_large", "the body is over 64 KiB"),
    ProblemCode(415, "unsupported_media_type", "send JSON bodies as `application/json`"),
    ProblemCode(422, "validation_error", "a body member of the wrong type, out of range or not matching its pattern"),
    ProblemCode(422, "unknown_field", "the body has a member the API does not know"),
    ProblemCode(422, "idempotency_key_reused", "this `Idempotency-Key` was used with another request", POSTS),
    ProblemCode(422, "unknown_game_kind", "this server does not host this `kind`", (CREATE, TOURNAMENT)),
    ProblemCode(422, "judge_unsupported", "this kind of game has no judge's actions", (JUDGE,)),
    ProblemCode(
        422,
        "invalid_tournament",
        "a tournament or round whose players, table sizes or houses do not fit together (nothing was created)",
        (TOURNAMENT, ROUND),
    ),
    ProblemCode(
        422,
        "webhook_url_refused",
        "a webhook URL the deployment may not call (scheme, credentials, a private or loopback address, not in "
        "`CITADEL_WEBHOOK_ALLOWED_HOSTS`)",
        WEBHOOKS,
    ),
    ProblemCode(
        422,
        "invalid_table_size",
        "a table size the game does not allow (the board game: 3-6, BG-SETUP-01; nothing was created)",
        (TOURNAMENT, ROUND),
    ),
    ProblemCode(
        409, "round_exists", "this round of the tournament exists (or is being created) with another body", (ROUND,)
    ),
    ProblemCode(429, "rate_limited", "too many requests from this client; see `Retry-After` and `RateLimit-*`"),
    ProblemCode(
        429, "too_many_streams", "too many open event streams of this client; see `Retry-After`", (EVENTS, TURNS)
    ),
    ProblemCode(503, "contention", "the game changed under this command each time; retry after `Retry-After`", POSTS),
    ProblemCode(
        503, "too_many_streams", "too many open streams on this server; retry after `Retry-After`", (EVENTS, TURNS)
    ),
    ProblemCode(503, "store_unavailable", "the event store is not reachable; retry after `Retry-After`"),
    ProblemCode(503, "not_ready", "Redis does not answer", ("GET /readyz",)),
    ProblemCode(500, "internal_error", "a bug; it has been logged"),
    ProblemCode(405, "method_not_allowed", "wrong HTTP method for the path", NOWHERE),
    ProblemCode(406, "not_acceptable", "mapped from the framework; not normally produced", NOWHERE),
    ProblemCode(400, "error", "another client error the framework reports (its status says which)", NOWHERE),
)
"""The service's own codes (``docs/api-conventions.md``, *Problem codes*)."""


def problem_catalogue() -> list[ProblemCode]:
    """Every code the API returns: the service's, then each hosted game's refusals (``POST /commands``;
    a game's ``invalid`` codes also on ``POST /v1/games``, which its rules validate)."""
    out = list(SERVICE_CODES)
    seen = {(c.status, c.code) for c in out}
    for game in registry.GAMES.values():
        for code, (kind, meaning) in game.schema_docs.problem_codes.items():
            status = STATUS_OF_KIND[kind]
            if (status, code) in seen:
                continue
            seen.add((status, code))
            ops = (COMMAND, CREATE, JUDGE, UNDO) if kind == "invalid" else (COMMAND, JUDGE, UNDO)
            out.append(ProblemCode(status, code, meaning, ops))
    return out


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the problems an operation can return."""
    descriptions = {
        400: "Malformed or missing JSON (`bad_json`), invalid or unknown parameters (`invalid_parameter`, `unknown_parameter`; an `Authorization` header over 256 bytes is an `invalid_parameter`)",
        401: "Missing or malformed bearer token (`unauthorized`), or a token not valid for this game (`invalid_token`)",
        403: "The token may not do this (`forbidden`)",
        404: "No such game, or not visible to this token (`not_found`)",
        409: "Stale version (`stale_version`, with `current_version`), not your turn (`not_your_turn`), wrong phase (`wrong_phase`, `game_started`, `game_full`, `seats_missing`, `timeout_void`...), clocks paused or not (`clocks_paused`, `clocks_running`, `clocks_not_running`), an answer to a decision that is no longer open (`decision_closed`), version not reached (`version_not_reached`)",
        413: "Request body too large (`payload_too_large`)",
        415: "The body is not JSON (`unsupported_media_type`)",
        429: "Too many requests from this client (`rate_limited`: a seat or organizer of this game, else the address), "
        "see `Retry-After` and `RateLimit-*`; or too many open event streams of this client (`too_many_streams`), see `Retry-After`",
        422: "Invalid fields (`validation_error`, `unknown_field`), a position the rules could not produce (`invalid_scenario`), an illegal move (`illegal_move` and rule-specific codes, with the `rule` id), a reused idempotency key (`idempotency_key_reused`)",
        503: "The game is momentarily contended (`contention`) or the server has too many open streams (`too_many_streams`); retry after `Retry-After`",
    }
    return {
        s: ResponseSpec(
            data_container=Problem, description=descriptions[s], media_type=PROBLEM, generate_examples=False
        )
        for s in statuses
    }
