"""HTTP manners through the live service (issue 11, item 5; service/http/manners.py and the app's
compression): ``HEAD`` wherever ``GET`` exists, ``If-None-Match`` -> ``304`` on the game reads,
gzip for large answers with the event streams still live, and CORS only for the configured origins."""

from __future__ import annotations

import gzip
import time

import httpx
import pytest

from service.processes import api_command
from service.store import embedded_redis
from service.store.config import cors_origins
from tests.api.test_openapi import DOC
from tests.conftest import Procs
from tests.support.game_client import Game, default_like_orders, new_started_game, wait_until

IGNORED = {"date", "transfer-encoding"}
"""Headers that may differ between two answers to the same request (the server frames a body it sends in
chunks; a HEAD sends none)."""


@pytest.fixture(scope="module")
def game(service) -> Game:
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as c:
        return new_started_game(c, players=3)


def _settled(api: httpx.Client, game: Game) -> str:
    """The game's current version, once the public view (the projection) shows it too."""
    version = api.get(f"/v1/games/{game.id}/log").headers["etag"]
    wait_until(lambda: api.get(f"/v1/games/{game.id}").headers["etag"] == version)
    return version


def _get_routes(game: Game) -> list[tuple[str, dict[str, str]]]:
    """Every GET of the API document, its path filled in for a real game, with a seat's token where one
    is needed, and the served document itself."""
    token = next(iter(game.seats.values()))
    organizer_only = {"/v1/games/{game_id}/judge-token", "/v1/games/{game_id}/webhooks"}
    not_for_public_games = {"/v1/games/{game_id}/invitation"}  # 409 not_private (tests/api/test_lobby.py)
    routes = []
    for path, item in DOC["paths"].items():
        if "get" not in item or path in not_for_public_games:
            continue
        filled = path.replace("{game_id}", game.id)
        if "{" in filled:  # a tournament's or a subscription's: none exists here (the layer is the same)
            continue
        holder = game.organizer if path in organizer_only else token
        headers = {"Authorization": f"Bearer {holder}"} if item["get"].get("security") else {}
        routes.append((filled, headers))
    return [*routes, ("/schema/openapi.json", {})]


def _headers(r: httpx.Response, *, body_dependent: bool = True) -> dict[str, str]:
    skip = IGNORED | ({"content-length"} if not body_dependent else set())
    return {k: v for k, v in r.headers.items() if k not in skip}


def test_every_get_route_answers_head_with_the_same_headers_and_no_body(api, game):
    _settled(api, game)
    routes = _get_routes(game)
    assert len(routes) >= 15
    for path, headers in routes:
        got = api.get(path, headers=headers)
        head = api.head(path, headers=headers)
        assert head.status_code == got.status_code == 200, (path, got.status_code, head.status_code, got.text[:200])
        assert head.content == b"", path
        same_body = path != "/metrics"  # counters move between the two requests
        assert _headers(head, body_dependent=same_body) == _headers(got, body_dependent=same_body), path


def test_head_of_an_event_stream_ends_it_and_frees_its_slot(api, game):
    """An SSE stream answered to HEAD is closed at once, and its stream slot released: more HEADs than a
    client may hold streams (``CITADEL_MAX_STREAMS_PER_CLIENT``, 8) all succeed, and a real stream opens after."""
    token = next(iter(game.seats.values()))
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    for _ in range(12):
        started = time.monotonic()
        r = api.head(f"/v1/games/{game.id}/events", headers=headers)
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith("text/event-stream") and r.content == b""
        assert time.monotonic() - started < 5
        time.sleep(0.05)
    with api.stream("GET", f"/v1/games/{game.id}/events", headers=headers) as s:
        assert s.status_code == 200
        lines = s.iter_lines()
        assert [next(lines), next(lines)] == ["retry: 3000", ": stream open"]
    r = api.head(f"/v1/games/{game.id}/events", params={"limit": 2})
    assert r.status_code == 200 and r.content == b"" and r.headers["content-type"] == "application/x-ndjson"


def test_head_of_a_missing_game_or_a_post_only_route_is_the_gets_problem(api, game):
    missing = "g_" + "0" * 32
    for method in ("GET", "HEAD"):
        r = api.request(method, f"/v1/games/{missing}")
        assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
        r = api.request(method, f"/v1/games/{game.id}/commands")
        assert r.status_code == 405 and "HEAD" not in r.headers["allow"]
    r = api.post("/v1/reference/board", json={})
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, OPTIONS"
    assert api.options("/v1/reference/board").headers["allow"] == "GET, HEAD, OPTIONS"


def test_game_reads_answer_304_to_their_current_version_and_200_once_it_moved(api, game):
    token = next(iter(game.seats.values()))
    auth = {"Authorization": f"Bearer {token}"}
    version = _settled(api, game)
    reads = [
        (f"/v1/games/{game.id}", {}),
        (f"/v1/games/{game.id}/view", auth),
        (f"/v1/games/{game.id}/decisions", auth),
        (f"/v1/games/{game.id}/log", {}),
        (f"/v1/games/{game.id}/export", auth),
    ]
    for path, headers in reads:
        r = api.get(path, headers={**headers, "If-None-Match": version})
        assert r.status_code == 304 and r.content == b"", path
        assert r.headers["etag"] == version and "Authorization" in r.headers["vary"], path
        r = api.head(path, headers={**headers, "If-None-Match": f'W/{version}, "1"'})
        assert r.status_code == 304, path
        assert api.get(path, headers={**headers, "If-None-Match": '"1"'}).status_code == 200, path
    # a seat submits its orders: the version moves on, and the old tag now gets the new answer
    house, seat_token = next(iter(game.houses.items()))
    mine = api.get(f"/v1/games/{game.id}/decisions", headers={"Authorization": f"Bearer {seat_token}"}).json()
    orders = default_like_orders(mine["decisions"][0]["options"])
    r = api.post(
        f"/v1/games/{game.id}/commands",
        json={"type": "assign_orders", "orders": orders},
        headers={"Authorization": f"Bearer {seat_token}"},
    )
    assert r.status_code == 200, r.text
    moved = f'"{r.json()["version"]}"'
    r = api.get(f"/v1/games/{game.id}", params={"min_version": moved.strip('"')}, headers={"If-None-Match": version})
    assert r.status_code == 200 and r.headers["etag"] == moved and r.json()["version"] == int(moved.strip('"'))
    r = api.get(f"/v1/games/{game.id}/decisions", headers={"If-None-Match": version, **auth})
    assert r.status_code == 200 and r.headers["etag"] == moved


def test_the_event_streams_are_never_304(api, game):
    r = api.get(f"/v1/games/{game.id}/events", headers={"If-None-Match": "*"})
    assert r.status_code == 200 and "etag" not in r.headers and r.content


def test_large_answers_are_gzipped_for_clients_that_accept_it(service):
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as c:
        plain = c.get("/v1/reference/board", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        with c.stream("GET", "/v1/reference/board", headers={"Accept-Encoding": "gzip"}) as r:
            raw = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "gzip" and "Accept-Encoding" in r.headers["vary"]
        assert gzip.decompress(raw) == plain.content and len(raw) < len(plain.content) / 3
        assert r.headers["etag"] == plain.headers["etag"]
        small = c.get("/healthz", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in small.headers  # under GZIP_MIN_BYTES: not worth it


def test_ndjson_and_sse_stay_live_when_gzipped(service, game):
    """Compressed streams are flushed chunk by chunk: an event appended while an SSE stream is open reaches
    the client at once, not when a compression buffer fills (the read timeout is far below the 15 s
    keep-alive)."""
    base, _ = service
    with httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=5)) as c:
        plain = c.get(f"/v1/games/{game.id}/events", headers={"Accept-Encoding": "identity"})
        zipped = c.get(f"/v1/games/{game.id}/events", headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["content-encoding"] == "gzip" and zipped.text == plain.text
        version = int(c.get(f"/v1/games/{game.id}/log").headers["etag"].strip('"'))
        sse = {"Accept": "text/event-stream", "Accept-Encoding": "gzip"}
        with c.stream("GET", f"/v1/games/{game.id}/events", params={"from": version}, headers=sse) as s:
            assert s.headers["content-encoding"] == "gzip"
            lines = (line for line in s.iter_lines() if line)  # not the blank lines that end messages
            assert [next(lines), next(lines)] == ["retry: 3000", ": stream open"]
            house, token = list(game.houses.items())[-1]
            mine = c.get(f"/v1/games/{game.id}/decisions", headers={"Authorization": f"Bearer {token}"}).json()
            r = c.post(
                f"/v1/games/{game.id}/commands",
                json={"type": "assign_orders", "orders": default_like_orders(mine["decisions"][0]["options"])},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200, r.text
            assert next(lines) == f"id: {version + 1}"
            assert next(lines) == "event: orders_submitted"


def test_cors_origins_are_origins():
    assert cors_origins("") == ()
    assert cors_origins(" https://a.example , http://localhost:5173/ ") == (
        "https://a.example",
        "http://localhost:5173",
    )
    assert cors_origins("*") == ("*",)
    for bad in ("a.example", "https://a.example/page"):
        with pytest.raises(ValueError, match="CITADEL_CORS_ORIGINS"):
            cors_origins(bad)


def test_without_configured_origins_no_cors_header_is_sent(api):
    origin = {"Origin": "https://watch.example"}
    r = api.get("/v1/reference", headers=origin)
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = api.options("/v1/reference", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert not any(k.startswith("access-control-") for k in r.headers)


@pytest.fixture(scope="module")
def cors_api(redis_url, tmp_path_factory):
    """An API of its own, with ``CITADEL_CORS_ORIGINS`` set."""
    procs = Procs(redis_url, tmp_path_factory.mktemp("cors"))
    procs.env["CITADEL_CORS_ORIGINS"] = "https://watch.example, http://localhost:5173"
    port = embedded_redis.free_port()
    procs.start("api", api_command("127.0.0.1", port))
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as c:
            wait_until(lambda: _ready(c), timeout=60)
            yield c
    finally:
        procs.stop_all()


def _ready(c: httpx.Client) -> bool:
    try:
        return c.get("/readyz").status_code == 200
    except httpx.HTTPError:
        return False


def test_a_listed_origin_may_call_and_read_the_headers_it_needs(cors_api):
    origin = "https://watch.example"
    r = cors_api.get("/v1/reference/board", headers={"Origin": origin, "Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == origin
    exposed = {h.strip() for h in r.headers["access-control-expose-headers"].split(",")}
    assert {"ETag", "Location", "Retry-After", "RateLimit-Reset"} <= exposed
    vary = {v.strip() for v in r.headers["vary"].split(",")}
    assert {"Origin", "Accept-Encoding"} <= vary  # one Vary, naming both
    assert "access-control-allow-credentials" not in r.headers
    problem = cors_api.get("/v1/games/g_" + "0" * 32, headers={"Origin": origin})
    assert problem.status_code == 404 and problem.headers["access-control-allow-origin"] == origin
    not_modified = cors_api.get("/v1/reference", headers={"Origin": origin, "If-None-Match": "*"})
    assert not_modified.status_code == 304 and not_modified.headers["access-control-allow-origin"] == origin


def test_a_listed_origins_preflight_names_the_methods_and_headers_of_the_api(cors_api):
    r = cors_api.options(
        "/v1/games/g_" + "0" * 32 + "/commands",
        headers={
            "Origin": "http://localhost:5173",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, if-match",
        },
    )
    assert r.status_code == 204 and r.content == b""
    assert r.headers["access-control-allow-origin"] == "http://localhost:5173"
    assert {"GET", "HEAD", "POST"} <= {m.strip() for m in r.headers["access-control-allow-methods"].split(",")}
    allowed = {h.strip().lower() for h in r.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-match", "if-none-match", "last-event-id"} <= allowed
    assert r.headers["vary"] == "Origin" and int(r.headers["access-control-max-age"]) > 0


def test_another_origin_gets_no_cors_header(cors_api):
    other = {"Origin": "https://evil.example"}
    r = cors_api.get("/v1/reference", headers=other)
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = cors_api.options("/v1/reference", headers={**other, "Access-Control-Request-Method": "GET"})
    assert not any(k.startswith("access-control-") for k in r.headers)
