"""Kill the worker or the projector mid-work, restart it: nothing is lost or doubled.

These tests run their own processes on a separate Redis database so the kills do not disturb the
shared service of the other tests. Fault-injection hooks (unset in production) widen the windows:
``CITADEL_FAULT_JOB_DELAY_S`` holds a resolve job before its append; ``CITADEL_FAULT_ACK_DELAY_S``
holds the projector between writing read models and acknowledging the feed.
"""

from __future__ import annotations

import gzip
import json
import time
from datetime import datetime

import httpx
import pytest
import redis

from service.store import embedded_redis
from service.store.view_gzip import gzipped, is_packed
from tests.conftest import QUEUE, Procs, claim_database, release_database
from tests.support.game_client import new_started_game, submit_all_orders, wait_until


@pytest.fixture()
def isolated(redis_url, tmp_path):
    url = claim_database(redis_url.rsplit("/", 1)[0], range(8, 1, -1))
    r = redis.Redis.from_url(url)
    procs = Procs(url, tmp_path)
    port = embedded_redis.free_port()
    procs.start_api(port)
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: _ready(base), timeout=60)  # starting a process: ~2 s, over 20 s on a loaded machine
    client = httpx.Client(base_url=base, timeout=10)
    yield client, procs, r
    client.close()
    procs.stop_all()
    r.close()
    release_database(url)


def _ready(base):
    try:
        return httpx.get(base + "/readyz", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


def _event_types(api, g):
    lines = api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=g.auth(g.organizer)).text.splitlines()
    return [json.loads(x)["event"]["type"] for x in lines]


def test_worker_killed_mid_job_loses_and_doubles_nothing(isolated):
    api, procs, r = isolated
    procs.start_projector()
    procs.env["CITADEL_FAULT_JOB_DELAY_S"] = "4"
    procs.start_worker("slow-worker")
    procs.env.pop("CITADEL_FAULT_JOB_DELAY_S")
    g = new_started_game(api, players=3)
    submit_all_orders(api, g)
    # the worker has taken the resolve job and is inside it
    wait_until(lambda: _started(r), timeout=60)
    procs.kill("slow-worker")
    assert "orders_revealed" not in _event_types(api, g)
    procs.start_worker("fresh-worker")
    wait_until(lambda: "orders_revealed" in _event_types(api, g), timeout=30)
    time.sleep(4)  # let the back-up job and any duplicate run too
    types = _event_types(api, g)
    assert types.count("orders_revealed") == 1
    assert types.count("step_began") == 2  # planning opened, raven step opened: nothing doubled


def _started(r) -> bool:
    from rq import Queue
    from rq.registry import StartedJobRegistry

    return len(StartedJobRegistry(queue=Queue(QUEUE, connection=r))) > 0


def test_projector_killed_mid_batch_reprojects_without_doubling(isolated):
    api, procs, r = isolated
    procs.start_worker()
    procs.env["CITADEL_FAULT_ACK_DELAY_S"] = "3"
    procs.start_projector("slow-projector")
    procs.env.pop("CITADEL_FAULT_ACK_DELAY_S")
    g = new_started_game(api, players=4)
    version = submit_all_orders(api, g)
    # the projector has written read models for the batch but not acknowledged it
    from service.store.keys import Keys, feed_key

    keys = Keys(g.id, 16)
    wait_until(lambda: int(r.hget(keys.proj, "version") or 0) > 0, timeout=60)
    pending_before = sum(r.xpending(feed_key(p), "projector")["pending"] for p in range(16))
    assert pending_before > 0
    procs.kill("slow-projector")
    procs.start_projector("projector")  # same consumer name: re-reads its pending entries first
    final_version = wait_until(
        lambda: (v := api.get(f"/v1/games/{g.id}", params={"min_version": version}).json()["version"]) > version and v,
        timeout=60,
    )
    wait_until(lambda: int(r.hget(keys.proj, "version") or 0) == final_version, timeout=60)
    wait_until(lambda: sum(r.xpending(feed_key(p), "projector")["pending"] for p in range(16)) == 0, timeout=60)
    # the log has exactly one line per describable event, none doubled
    log = api.get(f"/v1/games/{g.id}/log", params={"limit": 1000}).json()["lines"]
    seqs = [line["seq"] for line in log]
    assert len(seqs) == len(set(seqs))
    assert seqs == sorted(seqs) and seqs[-1] == final_version
    # and the projected public view is served at the final version (its body is stored gzipped without
    # its version, service/store/view_gzip.py, and served with the projected version)
    stored = r.get(keys.view(None))
    assert is_packed(stored) and json.loads(gzip.decompress(gzipped(stored, 0)))["version"] == 0
    assert api.get(f"/v1/games/{g.id}").json()["version"] == final_version


def test_rebuild_recreates_every_read_model_from_the_streams(isolated):
    api, procs, r = isolated
    procs.start_worker()
    procs.start_projector()
    g = new_started_game(api, players=3)
    version = submit_all_orders(api, g)
    from service.store.keys import Keys

    keys = Keys(g.id, 16)
    wait_until(lambda: int(r.hget(keys.proj, "version") or 0) > version, timeout=60)
    before = {k: r.get(k) for k in [keys.view(None), *(keys.view(h) for h in g.houses)]}
    log_before = r.zrange(keys.log, 0, -1)
    listed = wait_until(lambda: api.get("/v1/games").json()["games"], timeout=60)
    procs.kill("projector", sig=15)
    r.delete(keys.proj, keys.log, *before, *r.keys("{lobby}:*"))
    assert api.get("/v1/games").json()["games"] == []
    import subprocess
    import sys

    from tests.conftest import ROOT

    out = subprocess.run(
        [sys.executable, "-m", "projections.rebuild"], cwd=ROOT, env=procs.env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    after = {k: r.get(k) for k in before}
    assert after == before
    assert r.zrange(keys.log, 0, -1) == log_before
    assert api.get("/v1/games").json()["games"] == listed, "the lobby index is rebuilt too"


def _timed_out_at(api, g) -> float | None:
    """When the first ``decision_timed_out`` was appended (its envelope time), if it was."""
    export = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json()
    for env in export["events"]:
        if env["event"]["type"] == "decision_timed_out":
            return datetime.fromisoformat(env["ts"].replace("Z", "+00:00")).timestamp()
    return None


def _deadline_of(api, g) -> float:
    """The deadline of the first step that set one (from the stream, not a projection)."""
    export = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json()
    first = next(e["event"]["deadline"] for e in export["events"] if e["event"].get("deadline"))
    return datetime.fromisoformat(first.replace("Z", "+00:00")).timestamp()


def test_a_deadline_fires_within_5_s_though_a_worker_died(isolated):
    """Issue 8, item 1: a worker killed before a deadline (it used to hold RQ's scheduler lock for a
    minute, delaying every deadline); the sweep of the restarted worker fires it within 5 s of its time."""
    api, procs, r = isolated
    procs.start_projector()
    _start_worker_up(procs, "doomed-worker")  # it has swept once and holds its place
    g = new_started_game(api, players=3, timeout_s=4)
    procs.kill("doomed-worker")
    up = _start_worker_up(procs, "fresh-worker")
    deadline = _deadline_of(api, g)
    fired = wait_until(lambda: _timed_out_at(api, g), timeout=60)
    # counted from the deadline, or from the fresh worker's first sweep if a loaded machine started
    # it later than that (a process start was seen to take over 20 s): the 5 s is the sweep's promise
    # (docs: swept at start-up and every CITADEL_SWEEP_S = 1 s), not the time to start a process
    assert fired - max(deadline, up) <= 5.0, f"the deadline fired {fired - max(deadline, up):.1f} s late"


def test_a_deadline_missed_while_no_worker_ran_fires_within_5_s_of_the_restart(isolated):
    api, procs, r = isolated
    procs.start_projector()
    g = new_started_game(api, players=3, timeout_s=1)
    time.sleep(3)  # the deadline passes with no worker at all
    assert _timed_out_at(api, g) is None
    up = _start_worker_up(procs, "late-worker")
    fired = wait_until(lambda: _timed_out_at(api, g), timeout=60)
    # from the worker's first sweep, not from the launch: a loaded machine may take 20 s to start a process
    assert fired - up <= 5.0, f"the deadline fired {fired - up:.1f} s after the worker's first sweep"


def _start_worker_up(procs: Procs, name: str) -> float:
    """Start a worker and wait until it is up: the time its ready file says it first swept
    (``CITADEL_READY_FILE``, written after each sweep that reached Redis)."""
    ready = procs.logdir / f"{name}.ready"
    procs.env["CITADEL_READY_FILE"] = str(ready)
    try:
        procs.start_worker(name)
    finally:
        procs.env.pop("CITADEL_READY_FILE")
    wait_until(ready.exists, timeout=60)
    return float(ready.read_text())
