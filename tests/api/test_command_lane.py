"""The command lane (service/http/command_lane.py) answers what the Litestar route answers.

A chunked body (no ``Content-Length``) is never taken by the lane, so the same request sent with a
known length (the lane) and chunked (the route) shows both ways in side by side: same status, same
headers (but ``date``), same body, for an accepted command, its idempotent retry, a rule's refusal,
a stale ``If-Match``, a malformed and a mistyped body. Which requests the lane takes is checked on
the selection itself (:meth:`CommandLane._takes`), case by case.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Iterator
from types import SimpleNamespace

import httpx
import pytest
from litestar import Litestar
from litestar.config.compression import CompressionConfig

from service.engine import tokens
from service.http.app import GZIP_MIN_BYTES
from service.http.bodies import json_response
from service.http.command_lane import CommandLane
from service.http.compression import GzipUnlessEncoded
from tests.support.game_client import decisions, default_like_orders, new_started_game


def _chunked(body: bytes) -> Iterator[bytes]:
    yield body


def _ways(api: httpx.Client) -> dict[str, int]:
    """How many seat command requests the API answered by each way (``GET /metrics``)."""
    out = {"lane": 0, "route": 0}
    for line in api.get("/metrics").text.splitlines():
        if line.startswith("citadel_command_requests_total{"):
            out[line.split('"')[1]] = int(line.rsplit(" ", 1)[1])
    return out


def _both(api: httpx.Client, path: str, body: bytes, headers: dict[str, str]) -> tuple[httpx.Response, httpx.Response]:
    """The same request through the lane (a known length), then through the route (chunked); the
    API's own count says each went the way meant (the shared test service: one API process, and no
    other test runs at the same time)."""
    h = {"Content-Type": "application/json", **headers}
    before = _ways(api)
    lane = api.post(path, content=body, headers=h)
    after_lane = _ways(api)
    route = api.post(path, content=_chunked(body), headers=h)
    after_route = _ways(api)
    assert "content-length" in lane.request.headers and "transfer-encoding" in route.request.headers
    assert after_lane == {"lane": before["lane"] + 1, "route": before["route"]}
    assert after_route == {"lane": after_lane["lane"], "route": after_lane["route"] + 1}
    return lane, route


def _same(a: httpx.Response, b: httpx.Response) -> None:
    assert a.status_code == b.status_code, (a.text, b.text)
    assert a.content == b.content
    strip = {"date"}
    assert [(k, v) for k, v in a.headers.multi_items() if k not in strip] == [
        (k, v) for k, v in b.headers.multi_items() if k not in strip
    ]


@pytest.fixture()
def game(api):
    g = new_started_game(api, players=3)
    seat, token = next(iter(g.seats.items()))
    options = decisions(api, g, token)["decisions"][0]["options"]
    return g, token, options


def test_an_accepted_command_and_its_retry_answer_the_same_both_ways(api, game):
    g, token, options = game
    orders = default_like_orders(options)
    body = json.dumps({"type": "assign_orders", "orders": orders}).encode()
    auth = {"Authorization": f"Bearer {token}", "Idempotency-Key": "lane-retry-1"}
    lane, route = _both(api, f"/v1/games/{g.id}/commands", body, auth)
    assert lane.status_code == 200, lane.text
    _same(lane, route)  # the route answered the retry of the lane's command: the stored first answer
    assert lane.headers["etag"] == f'"{lane.json()["version"]}"'


def test_refusals_answer_the_same_both_ways(api, game):
    g, token, options = game
    path = f"/v1/games/{g.id}/commands"
    auth = {"Authorization": f"Bearer {token}"}
    wrong_area = b'{"type": "assign_orders", "orders": {"the_moon": "march_0"}}'
    for body, headers, status, code in [
        (wrong_area, auth, 422, None),  # a rule's refusal (BG-ORDER-01 / BG-PLAN-02)
        (b'{"type": "assign_orders", "orders": 3}', auth, 422, "validation_error"),
        (b'{"type": "assign_orders", "orders": {}, "extra": 1}', auth, 422, "unknown_field"),
        (b'{"type": "assign_orders", ', auth, 400, "bad_json"),
        (b'{"type": "no_such_command"}', auth, 422, None),
        (b'{"type": "assign_orders", "orders": {}}', {**auth, "If-Match": '"1"'}, 409, "stale_version"),
    ]:
        lane, route = _both(api, path, body, headers)
        assert lane.status_code == status, lane.text
        if code is not None:
            assert lane.json()["code"] == code
        _same(lane, route)


def _lane() -> tuple[CommandLane, bytes]:
    secret = b"s" * 32
    app = Litestar(route_handlers=[])
    app.state.rt = SimpleNamespace(secret=secret)
    return CommandLane(app, app, max_body=64 * 1024), secret


GAME = "g_" + "0" * 32


def _scope(headers: dict[str, str], path: str = f"/v1/games/{GAME}/commands", **over) -> dict:
    return {
        "type": "http",
        "method": "POST",
        "path": path,
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        **over,
    }


def test_the_lane_takes_only_a_seats_plain_command():
    lane, secret = _lane()
    seat = tokens.issue(secret, GAME, "seat1")
    plain = {"Authorization": f"Bearer {seat}", "Content-Type": "application/json", "Content-Length": "20"}
    assert lane._takes(_scope(plain)) == (GAME, "seat1", "", "", False)
    assert lane._takes(_scope({**plain, "Idempotency-Key": "k", "If-Match": '"3"'})) == (
        GAME,
        "seat1",
        "k",
        '"3"',
        False,
    )
    assert lane._takes(_scope({**plain, "Accept-Encoding": "gzip, br"}))[-1] is True
    assert lane._takes(_scope({**plain, "Accept-Encoding": "gzip;q=0, br"}))[-1] is False
    assert lane._takes(_scope({**plain, "Content-Type": "application/json; charset=utf-8"})) is not None
    assert lane._takes(_scope(plain, path=f"/v1/games/{GAME}/commands/")) is not None
    refused = {
        "no token": {k: v for k, v in plain.items() if k != "Authorization"},
        "the organizer": {**plain, "Authorization": f"Bearer {tokens.issue(secret, GAME, tokens.ORGANIZER)}"},
        "the judge": {**plain, "Authorization": f"Bearer {tokens.issue(secret, GAME, tokens.JUDGE)}"},
        "another game's token": {**plain, "Authorization": f"Bearer {tokens.issue(secret, 'g_' + '1' * 32, 'seat1')}"},
        "a forged token": {**plain, "Authorization": f"Bearer {seat[:-2]}xx"},
        "not a bearer": {**plain, "Authorization": f"Basic {seat}"},
        "an oversized Authorization": {**plain, "Authorization": f"Bearer {seat}" + " " * 300},
        "text/plain": {**plain, "Content-Type": "text/plain"},
        "chunked": {**{k: v for k, v in plain.items() if k != "Content-Length"}, "Transfer-Encoding": "chunked"},
        "too large": {**plain, "Content-Length": str(64 * 1024 + 1)},
        "a long Idempotency-Key": {**plain, "Idempotency-Key": "k" * 256},
        "a long If-Match": {**plain, "If-Match": '"' + "1" * 40 + '"'},
    }
    for why, headers in refused.items():
        assert lane._takes(_scope(headers)) is None, why
    assert lane._takes(_scope(plain, query_string=b"x=1")) is None, "a query string"
    assert lane._takes(_scope(plain, method="GET")) is None, "another method"
    assert lane._takes(_scope(plain, path="/v1/games/g_short/commands")) is None, "a malformed game id"
    assert lane._takes(_scope(plain, path=f"/v1/games/{GAME}/decisions")) is None, "another path"


def test_a_large_answer_is_gzipped_by_the_apps_own_gzip_layer_and_a_short_one_is_not():
    """The lane sends an answer of the app's gzip threshold or more through the app's own gzip class
    (``compression.GzipUnlessEncoded`` with the app's configuration) when the client takes gzip."""
    app = Litestar(
        route_handlers=[],
        compression_config=CompressionConfig(
            backend="gzip", minimum_size=GZIP_MIN_BYTES, middleware_class=GzipUnlessEncoded
        ),
    )
    lane = CommandLane(app, app, max_body=64 * 1024)
    assert lane.gzip_from == GZIP_MIN_BYTES

    def sent(body: bytes) -> tuple[dict, bytes]:
        messages: list[dict] = []

        async def send(m: dict) -> None:
            messages.append(m)

        async def receive() -> dict:
            return {"type": "http.disconnect"}

        scope = _scope({"Accept-Encoding": "gzip"})
        scope["citadel_answer"] = json_response(200, body).to_asgi_response(app, None)  # type: ignore[arg-type]
        assert lane.gzip is not None
        asyncio.run(lane.gzip(scope, receive, send))  # type: ignore[arg-type]
        return dict(messages[0]["headers"]), messages[1]["body"]

    big = b'{"version":7,"events":[' + b",".join([b'{"seq":1}'] * 200) + b"]}"
    assert len(big) >= GZIP_MIN_BYTES
    headers, body = sent(big)
    assert headers[b"content-encoding"] == b"gzip" and gzip.decompress(body) == big
    small = b'{"version":7,"events":[]}'
    headers, body = sent(small)
    assert b"content-encoding" not in headers and body == small
