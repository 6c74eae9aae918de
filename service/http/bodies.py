"""Request bodies and headers, read strictly.

Litestar converts ``data`` in lax mode (``0`` -> ``false``, ``"3"`` -> ``3``); the API promises JSON
types as documented, so bodies are decoded again here, strictly, with the game's own types: a
mistyped field is a 422 naming the field, an unknown one a 422 ``unknown_field``.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Request, Response
from litestar.params import HeaderParameter, PathParameter, QueryParameter

from .errors import ApiError
from .problems import FieldError

T = TypeVar("T")
JSON = "application/json"

GameId = Annotated[str, PathParameter(description="Game id", pattern=r"^g_[0-9a-f]{32}$", max_length=34)]
IdemKey = Annotated[
    str,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        max_length=255,
        description="Makes the POST safe to retry: the same key and body return the first answer byte for byte.",
    ),
]
IfMatch = Annotated[
    str,
    HeaderParameter(
        name="If-Match",
        required=False,
        max_length=32,
        description='The game version the command expects, as its ETag (`"12"`); 409 `stale_version` when the game is at another version (a value that is not a version never matches).',
    ),
]
MinVersion = Annotated[
    int,
    QueryParameter(
        name="min_version",
        required=False,
        ge=0,
        le=2**31,
        description="Read your writes: the view reflects at least this version.",
    ),
]


@cache
def _decoder(typ: Any) -> msgspec.json.Decoder[Any]:
    """One decoder per type: ``msgspec.json.decode(type=...)`` would rebuild a union's type
    information on every call (6 % of a command's time under load)."""
    return msgspec.json.Decoder(typ)


def decode_strict(raw: bytes, typ: Any) -> Any:
    """``raw`` as ``typ``, strictly; a 422 naming the failing field, or a 400 for broken JSON."""
    try:
        return _decoder(typ).decode(raw)
    except msgspec.ValidationError as e:
        msg = str(e)
        code = "unknown_field" if "unknown field" in msg else "validation_error"
        field = msg.rsplit("at `", 1)[1].rstrip("`") if "at `" in msg else "body"
        field = field.removeprefix("$.").removeprefix("$")
        if "unknown field `" in msg:
            name = msg.split("unknown field `", 1)[1].split("`", 1)[0]
            field = f"{field}.{name}" if field and field != "body" else name
        message = msg.split(" - at `")[0]
        raise ApiError(
            422,
            code,
            f"{field}: {message}",
            title="Invalid request",
            errors=[FieldError(field=field, message=message)],
        ) from None
    except msgspec.DecodeError as e:
        raise ApiError(400, "bad_json", f"the body is not valid JSON: {e}") from None


async def strict_body(request: Request[Any, Any, Any], typ: type[T]) -> T:
    result: T = decode_strict(await request.body(), typ)
    return result


def expected_version(if_match: str) -> int | None:
    """The version an ``If-Match`` names. A value that is not a version can never match: -1."""
    if not if_match:
        return None
    value = if_match.removeprefix("W/").strip('"')
    return int(value) if value.isdigit() and len(value) < 12 else -1


class _Versioned(msgspec.Struct):
    version: int


_versioned = msgspec.json.Decoder(_Versioned)
"""Built once: ``msgspec.json.decode(type=...)`` looks the type's decoder up on every call."""


def version_of(body: bytes) -> int | None:
    try:
        return _versioned.decode(body).version
    except msgspec.DecodeError:
        return None


def json_response(status: int, body: bytes, version: int | None = None) -> Response[Any]:
    """A JSON answer; its ``ETag`` is the game's version when the body carries one."""
    if version is None:
        version = version_of(body)
    headers = {"ETag": f'"{version}"'} if version is not None else None
    return Response(content=body, status_code=status, media_type=JSON, headers=headers)


def require_long_key(idempotency_key: str, what: str) -> None:
    """A key that creates a game or a seat returns its token on retry: it must not be guessable."""
    if idempotency_key and len(idempotency_key) < 16:
        raise ApiError(
            400,
            "invalid_parameter",
            f"an Idempotency-Key that {what} must have at least 16 characters (use a random UUID)",
        )
