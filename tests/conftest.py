"""Shared fixtures: a real Redis, and the real service processes (API, RQ worker, projector).

Redis: ``CITADEL_TEST_REDIS_URL`` if set, else 127.0.0.1:6379 if it answers, else (or with
``CITADEL_TEST_EMBEDDED=1``) an embedded redis-server on a free port, as on a fresh machine. A session
claims a free database among 15..2 (flushed, then marked as taken with a lock key naming its process,
which expires, and which a later session takes over once that process is gone), so test sessions on
one Redis never flush each other's data; tests that need a second database claim one among 8..2 the
same way (:func:`claim_database`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
import redis

from service.processes import api_command, projector_command, worker_command
from service.store import embedded_redis

ROOT = Path(__file__).resolve().parent.parent
# One RQ queue per test session: two sessions on one Redis never run each other's jobs.
QUEUE = os.environ.setdefault("CITADEL_QUEUE", f"citadel-test-{os.getpid()}")
# The shared service measures the game, not the limiter (tests/api/test_rate_limit.py tests it).
os.environ.setdefault("CITADEL_RATE_LIMIT_PER_S", "0")
# The test game (domain/auction) and the card game (domain/cards) are hosted beside the board game:
# tests/api/test_second_game.py and tests/api/test_card_game_api.py play them.
os.environ.setdefault("CITADEL_GAMES", "board,auction,cards")
# Webhooks (docs/webhooks.md): the tests deliver to receivers on the loopback, which a deployment
# refuses unless configured; and retry after half a second instead of two (tests/api/test_webhooks.py).
os.environ.setdefault("CITADEL_WEBHOOK_ALLOW_LOOPBACK", "1")
os.environ.setdefault("CITADEL_WEBHOOK_BACKOFF_S", "0.5")


SESSION_LOCK = "citadel:test-session"


def claim_database(server: str, candidates: range) -> str:
    """The URL of a database of ``server`` that no other test session holds, flushed and marked."""
    for db in candidates:
        r = redis.Redis.from_url(f"{server}/{db}")
        try:
            if _others_connected(r, db):
                continue
            if r.set(SESSION_LOCK, os.getpid(), nx=True, ex=3 * 3600) or _holder_is_gone(r):
                r.flushdb()
                r.set(SESSION_LOCK, os.getpid(), ex=3 * 3600)
                return f"{server}/{db}"
        finally:
            r.close()
    raise RuntimeError(f"every test database {candidates.start}..{candidates.stop + 1} is taken by another session")


def _others_connected(r: redis.Redis, db: int) -> bool:
    """Some other client is connected to database ``db``: the processes of a session killed before its
    teardown (its worker, API, projector) outlive it and keep working there. A worker of that older
    checkout once fired the deadlines of a game of the session that took the database over, with its
    own rules (a seat 'missed 4 deadlines' where the policy said 2); such a database is not taken."""
    me = r.client_id()
    return any(int(c["db"]) == db and int(c["id"]) != me for c in r.client_list())


def _holder_is_gone(r: redis.Redis) -> bool:
    """The session holding this database was killed before it released it (the lock names its
    process id; sessions on another machine sharing this Redis would need CITADEL_TEST_REDIS_URL)."""
    holder = r.get(SESSION_LOCK)
    if holder is None or not holder.isdigit():
        return False
    try:
        os.kill(int(holder), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def release_database(url: str) -> None:
    r = redis.Redis.from_url(url)
    try:
        r.flushdb()
    finally:
        r.close()


def _redis_server() -> tuple[str, object]:
    if os.environ.get("CITADEL_TEST_EMBEDDED") != "1" and embedded_redis.reachable("127.0.0.1", 6379):
        return "redis://127.0.0.1:6379", None
    tmp = Path(tempfile.mkdtemp(prefix="citadel-test-redis-"))
    proc, port = embedded_redis.start(tmp, persist=False)
    return f"redis://127.0.0.1:{port}", (proc, tmp)


@pytest.fixture(scope="session")
def redis_url():
    owned = None
    url = os.environ.get("CITADEL_TEST_REDIS_URL")
    if url:
        release_database(url)  # a given database is the session's own: start it empty
    else:
        server, owned = _redis_server()
        url = claim_database(server, range(15, 1, -1))
    os.environ["REDIS_URL"] = url
    yield url
    if not os.environ.get("CITADEL_TEST_REDIS_URL"):
        release_database(url)
    if owned:
        embedded_redis.stop(owned[0])
        shutil.rmtree(owned[1], ignore_errors=True)


@pytest.fixture(scope="session")
def sync_redis(redis_url):
    r = redis.Redis.from_url(redis_url)
    yield r
    r.close()


class Procs:
    """Start and stop the service's processes with the test's Redis."""

    def __init__(self, redis_url: str, logdir: Path):
        self.env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT)}
        self.logdir = logdir
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str]) -> subprocess.Popen:
        with open(self.logdir / f"{name}.log", "ab") as log:  # the child keeps its own copy of the fd
            p = subprocess.Popen(
                args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs[name] = p
        return p

    def start_api(self, port: int) -> None:
        self.start("api", api_command("127.0.0.1", port))

    def start_worker(self, name: str = "worker") -> None:
        self.start(name, worker_command(self.env["REDIS_URL"], QUEUE))

    def start_projector(self, name: str = "projector") -> None:
        env_name = self.env.get("CITADEL_PROJECTOR_NAME")
        self.env["CITADEL_PROJECTOR_NAME"] = "projector-test"
        self.start(name, projector_command())
        if env_name is None:
            self.env.pop("CITADEL_PROJECTOR_NAME")

    def kill(self, name: str, sig: int = 9) -> None:
        p = self.procs.pop(name)
        os.killpg(p.pid, sig)
        p.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.procs):
            p = self.procs.pop(name)
            try:
                os.killpg(p.pid, 15)
                p.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, 9)
                # reap it: a Popen collected while its process runs warns (ResourceWarning), and the
                # session fails on that warning in whichever test the collection happens (seen under load)
                p.wait(timeout=10)


@pytest.fixture(scope="session")
def service(redis_url, tmp_path_factory):
    """The live service: API + RQ worker with scheduler + projector. Yields (base_url, Procs)."""
    port = embedded_redis.free_port()
    procs = Procs(redis_url, tmp_path_factory.mktemp("logs"))
    procs.start_api(port)
    procs.start_worker()
    procs.start_projector()
    base = f"http://127.0.0.1:{port}"
    # ~2 s when idle; over 20 s was seen on a loaded machine (200 refused probes gave up after ~12 s)
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(base + "/readyz", timeout=0.5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            procs.stop_all()
            raise RuntimeError("API did not start: " + (procs.logdir / "api.log").read_text())
        time.sleep(0.05)
    yield base, procs
    procs.stop_all()


@pytest.fixture()
def api(service):
    base, _ = service
    with httpx.Client(base_url=base, timeout=30) as c:  # room for a loaded machine (was 10 s); no test waits on it
        yield c
