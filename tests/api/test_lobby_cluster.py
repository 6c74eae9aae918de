"""The lobby on a real Redis Cluster (three masters): the game list's index lives in one slot
(``{lobby}``), written by the projector while the games' streams live in their partitions' slots
on other nodes; the list reads each listed game's version and the turns stream watches games in
several slots with one pipelined round trip. docs/architecture.md, *The lobby is one index in one slot*.
"""

from __future__ import annotations

import httpx
import pytest

from service.store import embedded_redis
from service.store.keys import Keys
from tests.conftest import Procs
from tests.support.game_client import api_ready, wait_until
from tests.support.redis_cluster import LocalCluster
from tests.support.sse import StreamReader

pytestmark = pytest.mark.slow


def _game(api: httpx.Client, *, private: bool = False, start: bool = True) -> tuple[str, dict[str, str]]:
    created = api.post("/v1/games", json={"kind": "auction", "player_count": 2, "settings": {"private": private}})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    seats = {}
    for name in ("ada", "bob"):
        body = {"name": name, "invitation": created.json()["invitation_code"]} if private else {"name": name}
        j = api.post(f"/v1/games/{gid}/seats", json=body)
        assert j.status_code == 201, j.text
        seats[j.json()["seat_id"]] = j.json()["token"]
    if start:
        s = api.post(f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {created.json()['organizer_token']}"})
        assert s.status_code == 200, s.text
    return gid, seats


def test_the_list_and_the_turns_stream_work_across_cluster_slots(tmp_path):
    cluster = LocalCluster(tmp_path / "cluster")
    procs = Procs(cluster.url, tmp_path)
    procs.env.update({"CITADEL_CLUSTER": "1"})
    port = embedded_redis.free_port()
    base = f"http://127.0.0.1:{port}"
    api = httpx.Client(base_url=base, timeout=10)
    try:
        procs.start_api(port)
        procs.start_projector()
        wait_until(lambda: api_ready(api), timeout=60)
        games = [_game(api, start=i < 2) for i in range(4)]
        hidden, _ = _game(api, private=True, start=False)
        ids = [g for g, _ in games]
        for _ in range(8):  # game ids are random: all four in one partition is 1 in 4096; add a game then
            if len({Keys(g, 16).partition for g in ids}) > 1:
                break
            games.append(_game(api, start=False))
            ids.append(games[-1][0])
        assert len({Keys(g, 16).partition for g in ids}) > 1, "the games' streams span slots"

        def listed() -> list[dict]:
            out, cursor = [], None
            while True:
                page = api.get("/v1/games", params={"limit": 2, **({"cursor": cursor} if cursor else {})}).json()
                out += page["games"]
                if not (cursor := page["next_cursor"]):
                    return out

        every = wait_until(lambda: (lst := listed()) and {g["game_id"] for g in lst} >= set(ids) and lst, timeout=60)
        assert [g["game_id"] for g in every] == list(reversed(ids)) and hidden not in {g["game_id"] for g in every}

        def running() -> list[str]:
            return [g["game_id"] for g in api.get("/v1/games", params={"status": "running"}).json()["games"]]

        # the projector lists a start a moment after it (a loaded machine: not at once)
        assert wait_until(lambda: running() == [ids[1], ids[0]], timeout=60)

        # turns across two games whose streams live in different slots: one turn each
        (a, seats_a), (b, seats_b) = games[0], games[1]
        for _ in range(64):  # game ids are random: 1 in 16 pairs share a partition; take another game then
            if Keys(a, 16).partition != Keys(b, 16).partition:
                break
            b, seats_b = _game(api, start=True)
        assert Keys(a, 16).partition != Keys(b, 16).partition
        mine_a, mine_b = sorted(seats_a.items())[0], sorted(seats_b.items())[1]
        body = {"seats": [{"game_id": a, "token": mine_a[1]}, {"game_id": b, "token": mine_b[1]}]}
        stream = StreamReader(base, "POST", "/v1/turns", json=body)
        assert stream.status == 200
        turns = {(t["game_id"], t["seat_id"]) for t in (stream.next("turn").json(), stream.next("turn").json())}
        assert turns == {(a, mine_a[0]), (b, mine_b[0])}
        stream.close()
    finally:
        api.close()
        procs.stop_all()
        cluster.stop()
