"""Hostile input gets a 4xx problem, never a 500 (issue 8, items 4, 5 and 8): bodies nested too deep
for the decoder, names carrying control, bidirectional or markup characters, and a store that does
not answer (503 ``store_unavailable`` with ``Retry-After``, not a 500)."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.engine.runtime import build_runtime
from service.http.app import create_app
from service.store import embedded_redis
from service.store.config import Config
from tests.support.game_client import create, join_all

DEEP_OBJECT = b'{"a":' * 1_000 + b"1" + b"}" * 1_000
DEEP_IN_A_FIELD = b'{"name":' + b'{"a":' * 1_000 + b"1" + b"}" * 1_000 + b"}"
DEEP_ARRAY = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("body", [DEEP_OBJECT, DEEP_IN_A_FIELD, DEEP_ARRAY], ids=["object", "in_a_field", "array"])
def test_a_body_nested_too_deep_is_a_400_everywhere(api, body):
    game = create(api, 3)
    join_all(api, game, 3)
    seat_token = next(iter(game.seats.values()))
    headers = {"Content-Type": "application/json"}
    for path, token in (
        ("/v1/games", None),
        (f"/v1/games/{game.id}/seats", None),
        (f"/v1/games/{game.id}/commands", seat_token),
    ):
        h = {**headers, **({"Authorization": f"Bearer {token}"} if token else {})}
        r = api.post(path, content=body, headers=h)
        assert r.status_code in (400, 413, 422), (path, r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    "name",
    ["\u202eevil", "a\x00b", "tab\there", "<script>x</script>", "zero\u200bwidth", "\ufeffbom", "line\u2028sep"],
)
def test_a_name_with_control_bidi_or_markup_characters_is_refused(api, name):
    game = create(api, 3)
    r = api.post(f"/v1/games/{game.id}/seats", json={"name": name})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "validation_error"
    assert api.get(f"/v1/games/{game.id}").json()["seats"] == []  # nothing changed


@pytest.mark.parametrize("name", ["Ada", "Ser Jaime Lannister", "Dæmon Targaryen", "Tom & Jerry", "岳飞"])
def test_ordinary_names_are_welcome(api, name):
    game = create(api, 3)
    r = api.post(f"/v1/games/{game.id}/seats", json={"name": name})
    assert r.status_code == 201, r.text


def test_a_store_that_does_not_answer_is_a_503_with_retry_after():
    dead = f"redis://127.0.0.1:{embedded_redis.free_port()}/0"
    cfg = Config(
        redis_url=dead,
        queue_url=dead,
        cluster=False,
        partitions=16,
        secret="test-secret",
        snapshot_every=64,
        queue_name="unused",
    )
    with TestClient(app=create_app(build_runtime(cfg))) as client:
        r = client.get("/v1/games/g_" + "0" * 32)
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "store_unavailable"
        assert r.headers["Retry-After"] == "1"
        r = client.post("/v1/games", json={"player_count": 3})
        assert r.status_code == 503 and r.json()["code"] == "store_unavailable"


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /v1/games HTTP/1.1\r\nHost: x\r\nIdempotency-Key: \x7f\x7f\r\n\r\n",
        b"GET /v1/games HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n",
        b"GET /v1/ games HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ids=["del_in_a_header", "space_in_a_header_name", "space_in_the_target", "bad_chunk"],
)
def test_a_request_the_http_parser_refuses_is_a_problem_too(service, raw):
    """Refused before the app sees it (uvicorn's parser), yet answered like every other error."""
    import json
    import socket
    from urllib.parse import urlsplit

    url = urlsplit(service[0])
    with socket.create_connection((url.hostname, url.port), timeout=5) as s:
        s.sendall(raw)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().lower().split("\r\n")
    assert lines[0].startswith("http/1.1 400"), answer
    assert "content-type: application/problem+json" in lines, answer
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (400, "malformed_request") and problem["detail"]
