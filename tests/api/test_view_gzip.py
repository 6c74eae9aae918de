"""Projected views are stored gzipped and sent as stored (issue 12; service/store/view_gzip.py,
service/http/controllers/views.py, service/http/compression.py), through the live service.

A client that takes gzip gets the stored bytes themselves, completed with the version; one that does
not gets the same JSON plain. Either way: the same ``ETag`` (the version), ``Vary: Accept-Encoding``
(and ``Authorization``), ``304`` to ``If-None-Match``, ``HEAD`` with the ``GET``'s headers. The JSON
is the one a fold of the game serves (``at_version``), byte for byte, for an open game and a finished
one; and a view stored as JSON by the previous version is still served."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib

import httpx
import pytest

from clients.bot import play_game
from service.http.compression import accepts_gzip
from service.store.config import Config
from service.store.keys import Keys
from service.store.view_gzip import TAIL, gzipped, is_packed, pack, plain_json
from tests.api.test_watch_page import CHROMIUM, NO_BROWSER
from tests.support.game_client import Game, new_started_game, wait_until

PARTITIONS = Config.from_env().partitions
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def raw_get(api: httpx.Client, path: str, headers: dict[str, str]) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (not decoded)."""
    with api.stream("GET", path, headers=headers) as r:
        return r, b"".join(r.iter_raw())


def settled(api: httpx.Client, game_id: str) -> str:
    """The game's version once the public view (the projection) shows it."""
    version = api.get(f"/v1/games/{game_id}/log").headers["etag"]
    wait_until(lambda: api.get(f"/v1/games/{game_id}").headers["etag"] == version)
    return version


@pytest.fixture(scope="module")
def open_game(service) -> Game:
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as c:
        return new_started_game(c, players=3)


@pytest.fixture(scope="module")
def finished(service):
    base, _ = service
    return asyncio.run(play_game(base, 3, seed="view-gzip", settings={"decision_timeout_s": 60}))


def check_served(
    api: httpx.Client,
    sync_redis,
    game_id: str,
    reader: str | None,
    auth: dict[str, str],
    fold: tuple[str, dict] | None,
) -> None:
    path = f"/v1/games/{game_id}" if reader is None else f"/v1/games/{game_id}/view"
    version = settled(api, game_id)
    # the API answers from a fold while the projection is behind (read your writes): wait for the projector
    key = Keys(game_id, PARTITIONS).view(reader)
    wait_until(lambda: sync_redis.get(key) is not None)
    stored = sync_redis.get(key)
    assert stored is not None and is_packed(stored)

    zipped, body = raw_get(api, path, {**auth, **GZIP})
    assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
    assert body.startswith(stored[:-TAIL])  # the stored bytes as they are, then the version and trailer
    assert int(zipped.headers["content-length"]) == len(body) < len(stored) + 40
    plain, plain_body = raw_get(api, path, {**auth, **PLAIN})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert gzip.decompress(body) == plain_body
    assert zipped.headers["etag"] == plain.headers["etag"] == version
    assert json.loads(plain_body)["version"] == int(version.strip('"'))
    for r in (zipped, plain):
        vary = {v.strip() for v in r.headers["vary"].split(",")}
        assert {"Accept-Encoding", "Authorization"} <= vary, r.headers["vary"]

    if fold is not None:  # the same bytes a fold of the game serves at that version
        fold_path, fold_auth = fold
        folded = api.get(fold_path, params={"at_version": version.strip('"')}, headers={**fold_auth, **PLAIN})
        assert folded.status_code == 200, folded.text
        assert folded.content == plain_body

    for enc in (GZIP, PLAIN):
        r = api.get(path, headers={**auth, **enc, "If-None-Match": version})
        assert r.status_code == 304 and r.content == b"" and r.headers["etag"] == version
        assert "Accept-Encoding" in r.headers["vary"]
        assert api.get(path, headers={**auth, **enc, "If-None-Match": '"1"'}).status_code == 200
        head = api.head(path, headers={**auth, **enc})
        got = zipped if enc is GZIP else plain
        assert head.status_code == 200 and head.content == b""
        assert head.headers.get("content-encoding") == got.headers.get("content-encoding")
        assert head.headers["content-length"] == got.headers["content-length"]
        assert head.headers["etag"] == version


def test_an_open_games_views_are_sent_as_stored_gzipped_and_plain_alike(api, sync_redis, open_game):
    organizer = open_game.auth(open_game.organizer)
    check_served(api, sync_redis, open_game.id, None, {}, (f"/v1/games/{open_game.id}", organizer))
    house, token = next(iter(open_game.houses.items()))
    mine = open_game.auth(token)
    # a seat's past view is not shown while the game runs (tests/api/test_projection_writes.py compares
    # it with the fold's rendering)
    check_served(api, sync_redis, open_game.id, house, mine, None)


def test_a_finished_games_views_log_and_events_are_served_gzipped_and_plain(api, sync_redis, finished):
    gid = finished.game_id
    anyone: dict[str, str] = {}
    check_served(api, sync_redis, gid, None, anyone, (f"/v1/games/{gid}", anyone))
    seat, token = next(iter(finished.seats.items()))
    view = api.get(f"/v1/games/{gid}/view", headers={"Authorization": f"Bearer {token}"}).json()
    auth = {"Authorization": f"Bearer {token}"}
    check_served(api, sync_redis, gid, view["reader"], auth, (f"/v1/games/{gid}/view", auth))
    for path in (f"/v1/games/{gid}/log", f"/v1/games/{gid}/events"):
        zipped, body = raw_get(api, path, GZIP)
        plain = api.get(path, headers=PLAIN)
        assert zipped.status_code == plain.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip" and gzip.decompress(body) == plain.content


def test_a_view_stored_as_json_by_the_previous_version_is_still_served(api, sync_redis, service):
    """A deployment upgrades while a game is open: its views were stored as JSON with the version
    mark. They are served as before (the app's compression gzips them for a client that takes it)."""
    base, _ = service
    game = new_started_game(api, players=3)
    version = settled(api, game.id)
    expected = api.get(f"/v1/games/{game.id}", headers=PLAIN).content
    old = json.loads(expected)
    old["version"] = -1
    key = Keys(game.id, PARTITIONS).view(None)
    sync_redis.set(key, json.dumps(old, separators=(",", ":")).encode())  # as the previous projector stored it
    plain = api.get(f"/v1/games/{game.id}", headers=PLAIN)
    assert plain.status_code == 200 and plain.headers["etag"] == version
    assert json.loads(plain.content) == json.loads(expected)
    zipped, body = raw_get(api, f"/v1/games/{game.id}", GZIP)
    assert zipped.headers["content-encoding"] == "gzip" and gzip.decompress(body) == plain.content
    assert zipped.headers["etag"] == version
    assert api.get(f"/v1/games/{game.id}", headers={"If-None-Match": version}).status_code == 304


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        (None, False),
        ("", False),
        ("identity", False),
        ("gzip", True),
        ("GZIP", True),
        ("deflate, gzip;q=0.5", True),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("br, *", True),
        ("*;q=0", False),
        ("*, gzip;q=0", False),
        ("x-gzip", True),
        ("gzipped", False),
    ],
)
def test_who_takes_gzip_follows_rfc_9110_accept_encoding(header, takes):
    assert accepts_gzip(header) is takes


def test_a_client_refusing_gzip_gets_plain_json_of_a_large_answer(api, open_game):
    r = api.get(f"/v1/games/{open_game.id}", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert r.status_code == 200 and "content-encoding" not in r.headers and len(r.content) > 1024
    r = api.get("/v1/reference/board", headers={"Accept-Encoding": "gzip;q=0"})
    assert r.status_code == 200 and "content-encoding" not in r.headers and len(r.content) > 1024


@pytest.mark.parametrize(
    "body",
    [
        b'{"game_id":"g","version":-1,"x":[1,{"version":3}]}',
        b'{"a":1,"version":-1}',
        b'{"version":-1}',
        b'{"version":-1,"b":"\\u00e9t\\u00e9"}',
    ],
)
def test_a_packed_view_completes_to_a_valid_gzip_member_at_any_version(body):
    """Wherever the version member stands, the stored form is deterministic and completes, at any
    version, to a gzip member whose CRC and length check (``gzip.decompress`` verifies both) and whose
    JSON is the view's with that version, last; plain JSON gives the same bytes."""
    stored = pack(body, b'"version":-1')
    assert stored == pack(body, b'"version":-1') and is_packed(stored) and not is_packed(body)
    for version in (0, 7, 10**9):
        served = gzip.decompress(gzipped(stored, version))
        assert served == plain_json(stored, version)
        assert json.loads(served) == {**json.loads(body), "version": version}
        assert served.endswith(b'"version":%d}' % version)
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # as HTTP clients inflate: one member, nothing after
        assert d.decompress(gzipped(stored, version)) == served and d.eof and d.unused_data == b""


def test_a_version_mark_that_is_not_a_top_level_member_is_refused():
    with pytest.raises(ValueError):
        pack(b'["version":-1]', b'"version":-1')


@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
def test_a_browser_reads_a_projected_view_sent_as_stored(service, api, open_game):
    """Chromium (which asks for gzip by itself) fetches the public view: it gets the stored gzip
    member completed with the version, decodes it and reads the same JSON as a plain client."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the dev extras) drives the browser")
    base, _ = service
    settled(api, open_game.id)
    plain = api.get(f"/v1/games/{open_game.id}", headers=PLAIN)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{base}/watch/{open_game.id}")
            got = page.evaluate(
                """async (path) => {
                    const r = await fetch(path);
                    return {encoding: r.headers.get("content-encoding"), text: await r.text()};
                }""",
                f"/v1/games/{open_game.id}",
            )
        finally:
            browser.close()
    assert got["encoding"] == "gzip"
    assert got["text"].encode() == plain.content
