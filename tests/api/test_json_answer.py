"""``bodies.JsonAnswer``: the prebuilt answer path sends the bytes Litestar's ``Response`` sends."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar import Response

from service.http.bodies import JSON, JsonAnswer, json_response


def _sent(response: Response[Any], **kwargs: Any) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    async def receive() -> dict[str, Any]:
        return {}

    asgi = response.to_asgi_response(app=None, request=None, **kwargs)  # type: ignore[arg-type]
    asyncio.run(asgi({}, receive, send))  # type: ignore[arg-type]
    return messages


def _litestar(status: int, body: bytes, headers: dict[str, str]) -> Response[Any]:
    return Response(content=body, status_code=status, media_type=JSON, headers=headers or None)


@pytest.mark.parametrize(
    ("status", "body", "location"),
    [
        (200, b'{"version":12,"events":[]}', None),
        (201, b'{"game_id":"g_1","version":1}', "/v1/games/g_1"),
        (200, b'{"games":[]}', None),
        (202, b"[]", None),
    ],
)
def test_json_answer_sends_what_litestar_sends(status: int, body: bytes, location: str | None) -> None:
    fast = json_response(status, body)
    assert isinstance(fast, JsonAnswer)
    if location is not None:
        fast.headers["Location"] = location
    slow = _litestar(status, body, dict(fast.headers))
    route_kwargs: dict[str, Any] = {"cookies": [], "headers": {}, "media_type": JSON, "status_code": 200}
    assert _sent(fast, **route_kwargs) == _sent(slow, **route_kwargs)
    assert _sent(fast, **route_kwargs)[0]["headers"][-2:] == [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]


def test_json_answer_falls_back_to_litestar_for_layer_headers() -> None:
    """A header set by a layer (``response_headers``) is merged exactly as Litestar merges it."""
    body = b'{"version":3}'
    kwargs: dict[str, Any] = {"cookies": [], "headers": {"Cache-Control": "no-store"}, "media_type": JSON}
    assert _sent(json_response(200, body), **kwargs) == _sent(_litestar(200, body, {"ETag": '"3"'}), **kwargs)
    assert (b"cache-control", b"no-store") in _sent(json_response(200, body), **kwargs)[0]["headers"]
