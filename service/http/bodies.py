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

GAME_ID = r"g_[0-9a-f]{32}"
"""The shape of a game id (``service/engine/engine.py`` makes them: ``g_`` and a UUID's 32 hex digits)."""
MAX_IDEMPOTENCY_KEY = 255
MAX_IF_MATCH = 32
"""The documented lengths of the two optional command headers (:data:`IdemKey`, :data:`IfMatch`)."""

GameId = Annotated[str, PathParameter(description="Game id", pattern=f"^{GAME_ID}$", max_length=34)]
IdemKey = Annotated[
    str,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        max_length=MAX_IDEMPOTENCY_KEY,
        description="Makes the POST safe to retry: the same key and body return the first answer byte for byte.",
    ),
]
IfMatch = Annotated[
    str,
    HeaderParameter(
        name="If-Match",
        required=False,
        max_length=MAX_IF_MATCH,
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


def is_json_type(content_type: str) -> bool:
    """A POST body must be JSON: ``application/json``, any ``+json`` type, or no media type at all
    (parameters such as ``charset`` aside)."""
    ctype = content_type.split(";")[0].strip().lower()
    return ctype in ("application/json", "") or ctype.endswith("+json")


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
    return JsonAnswer(status, body, {"ETag": f'"{version}"'} if version is not None else {})


_CONTENT_TYPE = (b"content-type", JSON.encode())
_NO_BODY = frozenset({204, 304})


class JsonAnswer(Response[Any]):
    """An answer whose JSON body is already encoded, sent as Litestar's own ``Response`` would send it
    (the same status, the same headers in the same order: the answer's own, lower-cased, then
    ``content-type`` and ``content-length`` unless set) without its per-request work: Litestar's
    ``Response`` builds an ``ASGIResponse`` (a ``MutableScopeHeaders``, its ``setdefault``s, a
    serializer lookup, a render) for every answer, about a tenth of the API's CPU per command.

    Anything this path does not cover (layer headers or cookies, a background task, a ``HEAD``, a
    status without a body) falls back to Litestar's path, so the bytes sent never differ; the route's
    return annotation stays ``Response[...]``, so the OpenAPI document does not change either."""

    __slots__ = ()

    def __init__(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.content = body
        self.status_code = status
        self.headers = headers
        self.cookies = []
        self.background = None
        self.media_type = JSON
        self.encoding = "utf-8"
        self.response_type_encoders = {}

    def to_asgi_response(
        self,
        app: Any,
        request: Any,
        *,
        background: Any = None,
        cookies: Any = None,
        encoded_headers: Any = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: Any = None,
        status_code: int | None = None,
        type_encoders: Any = None,
    ) -> Any:
        status = self.status_code or 200
        if (
            background is not None
            or cookies
            or encoded_headers is not None
            or headers
            or is_head_response
            or self.cookies
            or self.background is not None
            or status in _NO_BODY
            or status < 200
        ):
            return super().to_asgi_response(
                app,
                request,
                background=background,
                cookies=cookies,
                encoded_headers=encoded_headers,
                headers=headers,
                is_head_response=is_head_response,
                media_type=media_type,
                status_code=status_code,
                type_encoders=type_encoders,
            )
        body = self.content
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in self.headers.items()]
        if raw:
            names = {k for k, _ in raw}
            if b"content-type" not in names:
                raw.append(_CONTENT_TYPE)
            if b"content-length" not in names:
                raw.append((b"content-length", str(len(body)).encode()))
        else:
            raw = [_CONTENT_TYPE, (b"content-length", str(len(body)).encode())]
        return _SentAnswer(status, raw, body)


class _SentAnswer:
    """The ASGI answer of a :class:`JsonAnswer`: one start event, one body event."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


def require_long_key(idempotency_key: str, what: str) -> None:
    """A key that creates a game or a seat returns its token on retry: it must not be guessable."""
    if idempotency_key and len(idempotency_key) < 16:
        raise ApiError(
            400,
            "invalid_parameter",
            f"an Idempotency-Key that {what} must have at least 16 characters (use a random UUID)",
        )
