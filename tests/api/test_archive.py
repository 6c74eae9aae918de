"""Finished games compacted into one archive key, and still served (service/store/archive.py, issue 12).

One complete game is played by bots through the real service; its end marks it to be archived
``CITADEL_ARCHIVE_AFTER_S`` later. The test then moves that mark to now, so the real worker's sweep
archives it at once, and checks that every read of the game (views, log, export, NDJSON and SSE
events, the game list) answers byte for byte what it answered before, that the export still audits
and verifies, and that what the game holds in Redis shrank to its archive, snapshot and seed.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import msgspec
import pytest

from clients.bot import play_game
from service.engine.dispatch import RESOLVE
from service.http.controllers.events import EXPORT_PAGE
from service.store.config import Config
from service.store.keys import Keys
from tests.support.export_checks import check_export, export_decoder
from tests.support.game_client import wait_until
from tests.support.verify_cli import public_key_file, run_verify

SETTINGS = {"decision_timeout_s": 60}
ARCHIVE_AFTER_S = Config.from_env().archive_after_s


def reads(base: str, game_id: str, organizer: str, seats: dict[str, str]) -> dict[str, bytes]:
    """Every read of a finished game, each paged through to its end."""
    out: dict[str, bytes] = {}
    with httpx.Client(base_url=base, timeout=30) as c:
        out["public view"] = c.get(f"/v1/games/{game_id}").content
        for seat, token in sorted(seats.items()):
            out[f"view {seat}"] = c.get(
                f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"}
            ).content
        cursor, pages = 0, []
        while cursor is not None:
            page = c.get(f"/v1/games/{game_id}/log", params={"from": cursor, "limit": 50})
            assert page.status_code == 200, page.text
            pages.append(page.content)
            cursor = page.json()["next_cursor"]
        out["log pages"] = b"\n".join(pages)
        out["export (organizer)"] = c.get(
            f"/v1/games/{game_id}/export", headers={"Authorization": f"Bearer {organizer}"}
        ).content
        out["export (anonymous)"] = c.get(f"/v1/games/{game_id}/export").content
        after, lines = 0, []
        while True:
            page = c.get(f"/v1/games/{game_id}/events", params={"from": after, "limit": 300}).content
            if not page:
                break
            lines.append(page)
            after = json.loads(page.splitlines()[-1])["seq"]
        out["events (NDJSON)"] = b"".join(lines)
    return out


def game_keys(sync_redis, keys: Keys) -> dict[str, int]:
    """The game's own keys and their bytes."""
    prefix = keys.events.rsplit(":", 1)[0] + ":"
    return {
        k.decode().removeprefix(prefix): sync_redis.memory_usage(k, samples=0)
        for k in sync_redis.scan_iter(match=prefix + "*", count=1000)
    }


@pytest.fixture(scope="module")
def archived(service, sync_redis):
    """(played game, keys, reads at the end, the game's keys at the end, its archive mark's score
    and its idempotency answers' TTL at the end, reads after archiving, keys after archiving)."""
    base, _ = service
    played = asyncio.run(play_game(base, 3, seed="archive-1", settings=SETTINGS))
    keys = Keys(played.game_id, Config.from_env().partitions)
    wait_until(lambda: int(sync_redis.hget(keys.proj, "version") or 0) >= played.version, timeout=60)
    ended_at = time.time()
    mark = sync_redis.zscore(keys.to_archive, played.game_id)
    idem_ttl = sync_redis.ttl(keys.idem)
    before = reads(base, played.game_id, played.organizer_token, played.seats)
    keys_before = game_keys(sync_redis, keys)
    sync_redis.zadd(keys.to_archive, {played.game_id: time.time() - 1})  # due now: the next sweep archives it
    wait_until(lambda: sync_redis.exists(keys.archive) and not sync_redis.exists(keys.events), timeout=60)
    after = reads(base, played.game_id, played.organizer_token, played.seats)
    return {
        "played": played,
        "keys": keys,
        "before": before,
        "keys_before": keys_before,
        "mark": mark,
        "ended_at": ended_at,
        "idem_ttl": idem_ttl,
        "after": after,
        "keys_after": game_keys(sync_redis, keys),
    }


def test_the_end_marks_the_game_for_archiving_and_its_idempotency_answers_end_with_it(archived):
    assert archived["mark"] is not None, "the ending batch did not mark the game"
    assert archived["mark"] == pytest.approx(archived["ended_at"] + ARCHIVE_AFTER_S, abs=60)
    assert 0 < archived["idem_ttl"] <= ARCHIVE_AFTER_S + 60, "idempotency answers still kept for a day"


def test_archiving_keeps_only_the_archive_the_snapshot_and_the_seed(archived, sync_redis):
    keys = archived["keys"]
    assert {"events", "idem", "log", "proj", "view:public"} <= set(archived["keys_before"])
    assert set(archived["keys_after"]) <= {"archive", "snap", "seed"}, archived["keys_after"]
    assert "archive" in archived["keys_after"]
    assert sum(archived["keys_after"].values()) < sum(archived["keys_before"].values()) / 4
    assert sync_redis.zscore(keys.to_archive, keys.game_id) is None, "the mark outlived the archiving"
    assert int(sync_redis.hget(keys.archive, "v")) == archived["played"].version


@pytest.mark.parametrize(
    "read",
    [
        "public view",
        "log pages",
        "export (organizer)",
        "export (anonymous)",
        "events (NDJSON)",
    ],
)
def test_every_read_of_an_archived_game_is_what_it_was(archived, read):
    assert read in archived["before"], sorted(archived["before"])
    assert archived["after"][read] == archived["before"][read]


def test_every_seats_view_of_an_archived_game_is_what_it_was(archived):
    views = [name for name in archived["before"] if name.startswith("view ")]
    assert len(views) == 3
    for name in views:
        assert archived["after"][name] == archived["before"][name], name


def test_the_archived_export_audits_and_verifies(archived, api, tmp_path):
    body = archived["after"]["export (organizer)"]
    assert archived["played"].version > EXPORT_PAGE, "the export is read in several pages"
    checked = check_export(body)
    assert checked.events == archived["played"].version
    assert checked.final_state.winner == archived["played"].winner
    # the streamed export is byte for byte the document encoded whole
    assert msgspec.json.encode(export_decoder.decode(body)) == body
    path = tmp_path / "archived.json"
    path.write_bytes(body)
    result = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_archived_game_streams_its_events_over_sse_then_ends(archived, service):
    base, _ = service
    played = archived["played"]
    with httpx.Client(base_url=base, timeout=30) as c:
        with c.stream("GET", f"/v1/games/{played.game_id}/events", headers={"Accept": "text/event-stream"}) as r:
            body = b"".join(r.iter_bytes())
        ids = [int(line[4:]) for line in body.split(b"\n") if line.startswith(b"id: ")]
        assert ids == list(range(1, played.version + 1))
        assert b"event: end" in body
        done = c.get(
            f"/v1/games/{played.game_id}/events",
            headers={"Accept": "text/event-stream", "Last-Event-ID": str(played.version)},
        )
        assert done.status_code == 204


def test_the_game_list_shows_an_archived_games_version(archived, api):
    played = archived["played"]
    cursor, found = None, None
    for _ in range(50):
        page = api.get("/v1/games", params={"status": "ended", "limit": 100, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200, page.text
        found = next((g for g in page.json()["games"] if g["game_id"] == played.game_id), None)
        cursor = page.json().get("next_cursor")
        if found or not cursor:
            break
    assert found is not None and found["version"] == played.version


def test_an_archived_game_takes_no_more_events(archived, sync_redis):
    """The append script refuses an archived game at any expected version (a reused creation key
    would otherwise start a new game on top of it)."""
    from domain.core.hashing import GENESIS
    from service.engine.runtime import build_runtime
    from service.store.event_store import Archived

    async def append_at(version: int) -> object:
        rt = build_runtime()
        try:
            envs = await rt.store.read(archived["keys"], 0, count=1)
            assert envs and envs[0].prev_hash == GENESIS
            return await rt.store.append(archived["keys"], version, envs)
        finally:
            await rt.close()

    for version in (0, archived["played"].version):
        assert asyncio.run(append_at(version)) == Archived(archived["played"].version)


def test_no_resolve_job_and_no_deadline_mark_outlive_the_game(archived, sync_redis):
    """RQ deletes a resolve job's hash once it succeeded (``result_ttl=0``), and each batch that
    ends a step removes that step's deadline mark: the finished game leaves neither behind."""
    assert RESOLVE.result_ttl == 0
    game_id = archived["played"].game_id
    deadlines = [m.decode() for m in sync_redis.zrange(archived["keys"].deadlines, 0, -1)]
    assert not [m for m in deadlines if m.startswith(game_id + "@")]

    def leftover_jobs() -> list[bytes]:
        return [
            k
            for k in sync_redis.scan_iter(match="rq:job:*", count=1000)
            if sync_redis.type(k) == b"hash" and game_id.encode() in (sync_redis.hget(k, "description") or b"")
        ]

    wait_until(lambda: not leftover_jobs(), timeout=60)
