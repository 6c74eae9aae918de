"""Whole tournaments at once (issue 10, item 7): ``POST /v1/tournaments`` through the real service.

* ten tables created in one call, every token working, every table started with the houses the
  tournament's seed drew (BG-SETUP-02), the draw redone from the revealed seed at the end;
* nothing at all created when one table is invalid (a size outside 3-6, BG-SETUP-01; houses that
  are not the houses in play, BG-SETUP-02), and a retried key gives the same tournament;
* standings across tables after bot games to the end (BG-VIC-01..04), and the archive of a round's
  replays, each verified by ``citadel-verify``.
"""

from __future__ import annotations

import asyncio
import io
import json
import tarfile
import uuid

import httpx
import pytest

from clients.bot import play_seats
from domain.board.mother_of_dragons import houses as mod_houses
from domain.board.setup import houses_for
from domain.core.rng import commit_seed
from domain.core.tournament import draw_houses
from service.store.config import Config
from service.store.keys import Keys
from tests.support.game_client import wait_until
from tests.support.verify_cli import public_key_file, run_verify

SIZES = [3, 4, 5, 6, 3, 4, 5, 6, 3, 4]
NAMESPACE = uuid.UUID("6f1d3c52-8e0b-4b8e-a3f4-5a2e9d7c1b10")
"""service/engine/tournaments.py: TOURNAMENT_NAMESPACE (ids derived from the Idempotency-Key)."""


def _players(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i:03d}" for i in range(n)]


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def test_ten_tables_are_created_at_once_with_every_token(api):
    players = _players(sum(SIZES))
    r = api.post(
        "/v1/tournaments", json={"players": players, "table_sizes": SIZES, "name": "Winter Cup"}, headers=_key()
    )
    assert r.status_code == 201, r.text
    out = r.json()
    assert r.headers["Location"] == f"/v1/tournaments/{out['tournament_id']}"
    assert [t["table"] for t in out["tables"]] == list(range(1, 11))
    seated = [p for t in out["tables"] for p in t["players"]]
    assert seated == players  # seated in the order given, table by table
    for t, size in zip(out["tables"], SIZES):
        assert sorted(t["seat_houses"]) == sorted(houses_for(size)) and t["drawn"]  # BG-SETUP-01/02
    # every player holds one seat token, valid for its table's game and seat
    assert [p["player"] for p in out["players"]] == players
    first = out["players"][0]["seats"][0]
    d = api.get(f"/v1/games/{first['game_id']}/decisions", headers={"Authorization": f"Bearer {first['token']}"})
    assert d.status_code == 200 and d.json()["phase"] == "planning"
    assert [x["house"] for x in d.json()["decisions"]] in ([first["house"]], [])
    # every table started, with the houses the tournament recorded (BG-SETUP-02)
    for t in out["tables"]:
        started = api.get(f"/v1/games/{t['game_id']}/events").text.splitlines()
        dealt = next(json.loads(x)["event"] for x in started if '"game_started"' in x)["houses"]
        assert dealt == {f"seat{i}": h for i, h in enumerate(t["seat_houses"], 1)}
    listing = api.get(f"/v1/tournaments/{out['tournament_id']}").json()
    assert len(listing["tables"]) == 10 and {t["status"]["status"] for t in listing["tables"]} == {"running"}
    assert listing["seed"] is None and listing["seed_commitment"] == out["seed_commitment"]
    # a table's organizer token is that game's organizer token
    org = out["tables"][0]["organizer_token"]
    again = api.post(f"/v1/games/{out['tables'][0]['game_id']}/start", headers={"Authorization": f"Bearer {org}"})
    assert again.status_code == 409 and again.json()["code"] == "game_started"


@pytest.mark.parametrize(
    ("change", "code", "rule"),
    [
        ({"table_sizes": [3, 4, 5, 6, 3, 4, 5, 6, 3, 2, 2]}, "invalid_table_size", "BG-SETUP-01"),
        ({"table_sizes": [3, 4, 5, 6, 3, 4, 5, 3, 3, 7]}, "invalid_table_size", "BG-SETUP-01"),
        ({"houses": [None] * 9 + [["stark", "stark", "lannister", "greyjoy"]]}, "invalid_seat_houses", "BG-SETUP-02"),
        ({"table_sizes": [3, 4, 5, 6, 3, 4, 5, 6, 3, 5]}, "invalid_tournament", None),
        ({"settings": {"decision_timeout_s": 0}}, "invalid_tournament", None),
    ],
)
def test_no_table_is_created_when_one_is_invalid(api, change, code, rule):
    key = _key()
    body = {"players": _players(sum(SIZES)), "table_sizes": SIZES, **change}
    r = api.post("/v1/tournaments", json=body, headers=key)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == code and r.json().get("rule") == rule
    assert "table 10" in r.json()["detail"] or code == "invalid_tournament"
    # the ids the call would have used hold nothing: no tournament, no table
    tid = "t_" + uuid.uuid5(NAMESPACE, key["Idempotency-Key"]).hex
    assert api.get(f"/v1/tournaments/{tid}").status_code == 404
    for table in range(1, 12):
        gid = "g_" + uuid.uuid5(NAMESPACE, f"{tid}/table{table}").hex
        assert api.get(f"/v1/games/{gid}").status_code == 404


def test_a_failure_midway_shows_nothing_and_a_retry_finishes_the_same_tournament(api, sync_redis):
    """Redis refuses the append of table 5 (its key holds a string, not a stream: WRONGTYPE) after the
    others were written: no tournament is visible and no token was handed out; the tables written are
    inert lobby games. The same request retried finishes the same tournament, with the same draw."""
    key = _key()
    tid = "t_" + uuid.uuid5(NAMESPACE, key["Idempotency-Key"]).hex
    ids = ["g_" + uuid.uuid5(NAMESPACE, f"{tid}/table{n}").hex for n in range(1, 11)]
    broken = Keys(ids[4], Config.from_env().partitions).events
    sync_redis.set(broken, "not a stream")
    body = {"players": _players(sum(SIZES), "m"), "table_sizes": SIZES}
    failed = api.post("/v1/tournaments", json=body, headers=key)
    assert failed.status_code >= 500 and "token" not in failed.text
    assert api.get(f"/v1/tournaments/{tid}").status_code == 404
    written = [g for g in ids if api.get(f"/v1/games/{g}").status_code == 200]
    assert ids[4] not in written and len(written) == 9  # every other table was written...
    for g in written:  # ...in its lobby, with no deadline: nothing runs on it
        assert api.get(f"/v1/games/{g}/export").json()["events"][-1]["event"]["type"] == "seat_joined"
    sync_redis.delete(broken)
    done = api.post("/v1/tournaments", json=body, headers=key)
    assert done.status_code == 201, done.text
    assert [t["game_id"] for t in done.json()["tables"]] == ids
    listing = api.get(f"/v1/tournaments/{tid}").json()
    assert {t["status"]["status"] for t in listing["tables"]} == {"running"}
    again = api.post("/v1/tournaments", json=body, headers=key)
    assert again.json() == done.json()


def test_names_must_be_distinct_and_houses_may_be_given(api):
    r = api.post("/v1/tournaments", json={"players": ["a", "b", "a"], "table_sizes": [3]}, headers=_key())
    assert r.status_code == 422 and r.json()["code"] == "invalid_tournament" and "a" in r.json()["detail"]
    given = ["tyrell", "stark", "martell", "greyjoy", "lannister", "baratheon"]
    r = api.post(
        "/v1/tournaments",
        json={"players": _players(9, "g"), "table_sizes": [6, 3], "houses": [given, None], "start": False},
        headers=_key(),
    )
    assert r.status_code == 201, r.text
    t1, t2 = r.json()["tables"]
    assert t1["seat_houses"] == given and not t1["drawn"] and t2["drawn"]
    tid = r.json()["tournament_id"]
    listing = api.get(f"/v1/tournaments/{tid}").json()
    assert {t["status"]["status"] for t in listing["tables"]} == {"lobby"}
    org = {"Authorization": f"Bearer {r.json()['organizer_token']}"}
    assert api.post(f"/v1/tournaments/{tid}/start").status_code == 401
    seat = {"Authorization": f"Bearer {t1['organizer_token']}"}  # a game's token is not the tournament's
    assert api.post(f"/v1/tournaments/{tid}/start", headers=seat).json()["code"] == "invalid_token"
    started = api.post(f"/v1/tournaments/{tid}/start", headers=org)
    assert started.status_code == 200 and started.json()["not_started"] == []
    assert {t["status"]["status"] for t in api.get(f"/v1/tournaments/{tid}").json()["tables"]} == {"running"}


def test_a_retried_key_returns_the_same_tournament_and_another_body_is_refused(api):
    key = _key()
    body = {"players": _players(7, "r"), "table_sizes": [3, 4]}
    first = api.post("/v1/tournaments", json=body, headers=key)
    again = api.post("/v1/tournaments", json=body, headers=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = api.post("/v1/tournaments", json={**body, "name": "other"}, headers=key)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


@pytest.fixture(scope="module")
def finished(service):
    """A tournament of two 3-player tables played to the end by bots (about 2 s a table)."""
    base, _ = service
    body = {"players": _players(6, "b"), "table_sizes": [3, 3], "settings": {"decision_timeout_s": 60}}
    out = httpx.post(base + "/v1/tournaments", json=body, headers=_key(), timeout=30).json()

    async def play() -> None:
        await asyncio.gather(
            *(
                play_seats(
                    base,
                    t["game_id"],
                    t["organizer_token"],
                    {
                        s["seat_id"]: s["token"]
                        for p in out["players"]
                        for s in p["seats"]
                        if s["game_id"] == t["game_id"]
                    },
                    seed=f"tournament/{t['table']}",
                )
                for t in out["tables"]
            )
        )

    asyncio.run(play())
    return out


def test_BG_VIC_03_04_standings_across_finished_tables(api, finished):
    tid = finished["tournament_id"]
    listing = api.get(f"/v1/tournaments/{tid}").json()
    assert {t["status"]["status"] for t in listing["tables"]} == {"ended"}
    st = api.get(f"/v1/tournaments/{tid}/standings").json()
    assert st["tables_ended"] == 2 and st["tiebreaks"] == ["land_areas", "supply", "iron_throne"]
    table = st["standings"]
    assert [s["rank"] for s in table] == [1, 2, 3, 4, 5, 6]
    # the two table winners (BG-VIC-01/03) come first, then by castles (BG-VIC-02) and the tie-breaks (BG-VIC-04)
    winners = set()
    for t in finished["tables"]:
        exported = api.get(f"/v1/games/{t['game_id']}/export").json()["events"]  # every event, not a page
        game_ended = next(e["event"] for e in exported if e["event"]["type"] == "game_ended")
        seat_of = {h: t["players"][i] for i, h in enumerate(t["seat_houses"])}
        winners.add(seat_of[game_ended["winner"]])
        for s in game_ended["standings"]:
            mine = next(x for x in table if x["player"] == seat_of[s["house"]])
            assert mine["results"] == [s["rank"]] and mine["points"] == s["castles"]
    assert {s["player"] for s in table[:2]} == winners and all(s["wins"] == 1 for s in table[:2])
    keys = [(-s["wins"], -s["points"], [-x for x in s["tiebreaks"]], s["mean_rank"]) for s in table]
    assert keys == sorted(keys)
    # the seed is revealed now, and every draw redone from it matches the tables (BG-SETUP-02)
    seed = listing["seed"]
    assert seed and commit_seed(seed) == finished["seed_commitment"]
    for t in finished["tables"]:
        assert draw_houses(seed, t["table"], houses_for(3)) == t["seat_houses"]


def test_the_archive_of_a_round_holds_every_table_verified(api, finished, tmp_path):
    tid = finished["tournament_id"]
    r = api.get(f"/v1/tournaments/{tid}/export", params={"round": 1})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/octet-stream")
    assert r.headers["content-disposition"].endswith(f'{tid}-round1.tar"')
    with tarfile.open(fileobj=io.BytesIO(r.content)) as tar:
        names = tar.getnames()
        files = {n: tar.extractfile(n).read() for n in names}
    assert names[0] == "tournament.json" and len(names) == 3
    key = public_key_file(api, tmp_path)
    for t in finished["tables"]:
        name = f"table-{t['table']}-{t['game_id']}.json"
        export = json.loads(files[name])
        assert export["complete"] and export["seed"]
        path = tmp_path / name
        path.write_bytes(files[name])
        result = run_verify(path, "--public-key", key)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "VERIFIED" in result.stdout
    assert api.get(f"/v1/tournaments/{tid}/export", params={"round": 2}).status_code == 200


def test_a_second_round_reseats_the_players_with_its_own_seed(api):
    t = api.post(
        "/v1/tournaments",
        json={"players": _players(7, "s"), "table_sizes": [4, 3], "start": False},
        headers=_key(),
    ).json()
    tid, org = t["tournament_id"], {"Authorization": f"Bearer {t['organizer_token']}"}
    body = {"round": 2, "players": list(reversed(_players(6, "s"))), "table_sizes": [3, 3]}
    assert api.post(f"/v1/tournaments/{tid}/rounds", json=body).status_code == 401
    seat = {"Authorization": f"Bearer {t['players'][0]['seats'][0]['token']}"}
    assert api.post(f"/v1/tournaments/{tid}/rounds", json=body, headers=seat).status_code == 401
    # a round refused as a whole: a stranger among its players, or the wrong round number
    bad = api.post(
        f"/v1/tournaments/{tid}/rounds", json={**body, "players": ["zed", *body["players"][1:]]}, headers=org
    )
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_tournament" and "zed" in bad.json()["detail"]
    skip = api.post(f"/v1/tournaments/{tid}/rounds", json={**body, "round": 3}, headers=org)
    assert skip.status_code == 422 and skip.json()["code"] == "invalid_tournament"
    small = api.post(f"/v1/tournaments/{tid}/rounds", json={**body, "table_sizes": [4, 2]}, headers=org)
    assert small.status_code == 422 and small.json()["code"] == "invalid_table_size"  # BG-SETUP-01
    r = api.post(f"/v1/tournaments/{tid}/rounds", json=body, headers=org)
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["round"] == 2 and [x["table"] for x in out["tables"]] == [3, 4]  # numbered after round 1's
    assert out["seed_commitment"] != t["seed_commitment"]  # its own seed
    assert [p["player"] for p in out["players"]] == body["players"]
    again = api.post(f"/v1/tournaments/{tid}/rounds", json=body, headers=org)
    assert again.status_code == 201 and again.json() == out  # a retry returns the same round
    other = api.post(f"/v1/tournaments/{tid}/rounds", json={**body, "table_sizes": [6]}, headers=org)
    assert other.status_code == 409 and other.json()["code"] == "round_exists"
    listing = api.get(f"/v1/tournaments/{tid}").json()
    assert [x["round"] for x in listing["tables"]] == [1, 1, 2, 2]
    assert [(x["round"], x["seed"]) for x in listing["rounds"]] == [(1, None), (2, None)]
    statuses = {x["round"]: x["status"]["status"] for x in listing["tables"]}
    assert statuses == {1: "lobby", 2: "running"}  # round 2 started at once, round 1 was left for later
    with tarfile.open(fileobj=io.BytesIO(api.get(f"/v1/tournaments/{tid}/export", params={"round": 2}).content)) as tar:
        names = tar.getnames()
    assert names == ["tournament.json", *(f"table-{x['table']}-{x['game_id']}.json" for x in out["tables"])]


MOD_SETTINGS = {"expansion": "mother_of_dragons"}


def test_MOD_SETUP_01_a_mother_of_dragons_tournament_seats_3_to_7_dealt_from_the_seven_houses(api):
    """MOD-SETUP-01 at a tournament (``settings.expansion``): tables of 3 to 7, each seat's house drawn
    from the seven houses by the tournament's seed (the first seats of the shuffled seven; the houses
    not drawn are the table's vassals), every table a Mother of Dragons game opening on the
    commanders' choice when it has vassals (MOD-VASSAL-02); given houses among the seven are taken as given."""
    sizes = [3, 7, 5]
    players = _players(sum(sizes), "m")
    given = [None, None, ["arryn", "greyjoy", "martell", "tyrell", "stark"]]
    body = {"players": players, "table_sizes": sizes, "settings": MOD_SETTINGS, "houses": given}
    r = api.post("/v1/tournaments", json=body, headers=_key())
    assert r.status_code == 201, r.text
    out = r.json()
    for t, size, houses in zip(out["tables"], sizes, given):
        assert len(t["seat_houses"]) == size and set(t["seat_houses"]) <= set(mod_houses())
        assert len(set(t["seat_houses"])) == size and t["drawn"] == (houses is None)
        if houses is not None:
            assert t["seat_houses"] == houses
        view = wait_until(lambda url=f"/v1/games/{t['game_id']}": (v := api.get(url).json())["phase"] != "lobby" and v)
        assert "the_eyrie" in view["areas"]  # the 7-house board
        vassals = sorted(set(mod_houses()) - set(t["seat_houses"]))
        assert sorted(view.get("vassals", [])) == vassals
        # MOD-VASSAL-02: the commanders' choice first; with 7 players there is no vassal to command
        assert (view["phase"], view["step"]) == ("planning", "choose_commanders" if vassals else "assign_orders")
    listing = api.get(f"/v1/tournaments/{out['tournament_id']}").json()
    assert {t["status"]["status"] for t in listing["tables"]} == {"running"}


@pytest.mark.parametrize(
    ("sizes", "houses", "rule"),
    [
        ([3, 8], None, "MOD-SETUP-01"),
        ([2, 7], None, "MOD-SETUP-01"),
        ([3], [["arryn", "arryn", "stark"]], "MOD-SETUP-01"),
    ],
)
def test_MOD_SETUP_01_a_mother_of_dragons_tournament_refuses_a_table_outside_3_to_7(api, sizes, houses, rule):
    """A table of 8 (or 2), or a table's given houses not distinct houses of the seven: 422 naming the
    table and the rule; nothing is created."""
    body = {"players": _players(sum(sizes), "x"), "table_sizes": sizes, "settings": MOD_SETTINGS, "houses": houses}
    r = api.post("/v1/tournaments", json=body, headers=_key())
    assert r.status_code == 422 and r.json()["rule"] == rule, r.text
    assert "table" in r.json()["detail"]


def test_BG_SETUP_01_a_base_game_tournament_still_refuses_a_table_of_7(api):
    body = {"players": _players(10, "y"), "table_sizes": [3, 7]}
    r = api.post("/v1/tournaments", json=body, headers=_key())
    assert r.status_code == 422 and r.json()["rule"] == "BG-SETUP-01", r.text
