"""The engine is game-agnostic: the test game ``auction`` (domain/auction, registered next to the
board game in domain/registry.py) plays through the real API, RQ worker and projector with no line
of the service naming it: create by ``kind``, join, start, sealed bids, the worker's reveal, a
timeout default, views per seat and public, the decisions, the live stream, the log, the export and
the offline verifier."""

from __future__ import annotations

import json
import time

import httpx

from tests.support.verify_cli import public_key_file, run_verify


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait(api: httpx.Client, game_id: str, pred, what: str, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        view = api.get(f"/v1/games/{game_id}").json()
        if pred(view):
            return view
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}: {view}")


def _new_game(api: httpx.Client, rounds: int, timeout_s: int) -> tuple[str, str, dict[str, str]]:
    r = api.post(
        "/v1/games",
        json={"kind": "auction", "player_count": 2, "settings": {"rounds": rounds, "decision_timeout_s": timeout_s}},
    )
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["kind"] == "auction"
    gid, org = created["game_id"], created["organizer_token"]
    seats = {}
    for name in ("ada", "bob"):
        j = api.post(f"/v1/games/{gid}/seats", json={"name": name})
        assert j.status_code == 201, j.text
        seats[j.json()["seat_id"]] = j.json()["token"]
    s = api.post(f"/v1/games/{gid}/start", headers=_auth(org))
    assert s.status_code == 200, s.text
    return gid, org, seats


def test_a_second_game_plays_through_the_real_service(api, tmp_path):
    gid, org, seats = _new_game(api, rounds=2, timeout_s=600)
    s1, s2 = sorted(seats)

    # decisions: each seat is asked for a bid with its legal range and the documented default
    d = api.get(f"/v1/games/{gid}/decisions", headers=_auth(seats[s1])).json()
    assert [x["kind"] for x in d["decisions"]] == ["place_bid"]
    assert d["decisions"][0]["max_amount"] == 10 and "0" in d["decisions"][0]["default"]
    assert sorted(d["waiting_for"]) == [s1, s2]

    # a sealed bid: the bidder sees it, the other seat and spectators do not
    r = api.post(f"/v1/games/{gid}/commands", json={"type": "place_bid", "amount": 4}, headers=_auth(seats[s1]))
    assert r.status_code == 200, r.text
    v = r.json()["version"]
    mine = api.get(f"/v1/games/{gid}/view", params={"min_version": v}, headers=_auth(seats[s1])).json()
    theirs = api.get(f"/v1/games/{gid}/view", params={"min_version": v}, headers=_auth(seats[s2])).json()
    public = api.get(f"/v1/games/{gid}", params={"min_version": v}).json()

    def bid_of(view: dict, seat: str) -> int | None:
        return next(s["bid"] for s in view["seats"] if s["seat_id"] == seat)

    assert bid_of(mine, s1) == 4
    assert bid_of(theirs, s1) is None and bid_of(public, s1) is None
    stream = api.get(f"/v1/games/{gid}/events", headers=_auth(seats[s2])).text
    assert '"amount":4' not in stream and '"amount":null' in stream

    # the game's own rules refuse through the API with a clear problem; a board command is not its command
    too_much = api.post(f"/v1/games/{gid}/commands", json={"type": "place_bid", "amount": 11}, headers=_auth(seats[s2]))
    assert too_much.status_code == 422 and too_much.json()["code"] == "illegal_move"
    foreign = api.post(f"/v1/games/{gid}/commands", json={"type": "raven_pass"}, headers=_auth(seats[s2]))
    assert foreign.status_code == 422, foreign.text

    # the last bid: the worker reveals the round (ResolvePending), the projector shows it
    r = api.post(f"/v1/games/{gid}/commands", json={"type": "place_bid", "amount": 2}, headers=_auth(seats[s2]))
    assert r.status_code == 200, r.text
    view = _wait(api, gid, lambda v: len(v["results"]) == 1, "the worker's reveal")
    assert view["results"][0]["winner"] == s1 and view["results"][0]["price"] == 4

    # round 2 times out with nobody bidding: the game is not over before the deadline
    assert view["phase"] == "bidding" and view["round"] == 2


def test_a_second_game_times_out_to_its_default_and_verifies_offline(api, tmp_path):
    key = public_key_file(api, tmp_path)
    gid, org, seats = _new_game(api, rounds=1, timeout_s=1)
    # nobody bids: at the deadline the worker applies the default (a bid of 0) and reveals
    view = _wait(api, gid, lambda v: v["phase"] == "ended", "the timeout default", timeout=60)
    assert view["results"][0]["bids"] == dict.fromkeys(seats, 0)
    assert view["winner"] in seats
    log = api.get(f"/v1/games/{gid}/log").json()
    assert log["lines"], "the projector wrote the game's log"
    export = api.get(f"/v1/games/{gid}/export").json()
    assert export["kind"] == "auction" and export["complete"] and export["seed"]
    assert any(e["event"]["type"] == "auction_bid_sealed" and e["event"]["by_default"] for e in export["events"])
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    ok = run_verify(path, "--public-key", key)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "(auction)" in ok.stdout and "VERIFIED" in ok.stdout
    # a changed bid is caught offline
    for e in export["events"]:
        if e["event"]["type"] == "auction_bids_revealed":
            e["event"]["bids"] = {s: 9 for s in seats}
    path.write_text(json.dumps(export))
    bad = run_verify(path, "--public-key", key)
    assert bad.returncode == 1 and "REJECTED" in bad.stdout, bad.stdout


def test_a_kind_the_server_does_not_host_is_a_clear_422(api):
    r = api.post("/v1/games", json={"kind": "chess", "player_count": 2})
    assert r.status_code == 422 and r.json()["code"] == "unknown_game_kind"
    # a request without a kind still means the board game
    r = api.post("/v1/games", json={"player_count": 3})
    assert r.status_code == 201 and r.json()["kind"] == "board"
