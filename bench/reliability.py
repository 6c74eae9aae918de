"""One reliability report (issue 8): faults against the real processes, one table of figures.

    .venv/bin/python bench/reliability.py            # every scenario, about 4 minutes
    .venv/bin/python bench/reliability.py --quick    # fewer games, under 90 s
    .venv/bin/python bench/reliability.py --only 2,5 --burst-games 100 --keep-logs

It starts its own embedded Redis (``service.store.embedded_redis``, AOF ``everysec``, a temporary
folder, a free port on 127.0.0.1, so it can be killed with SIGKILL and restarted from its AOF), the
API (uvicorn), the RQ worker (``workers.worker.CitadelWorker``) and the projector,
with the same command lines as ``tests/conftest.py: Procs``; only loopback traffic. Random bots
(``clients.bot.play_game``) are the load. Scenarios, one table row each:

1. ``load``: bots play games; every export is audited (chain, seed, shuffles, rules:
   ``domain.registry.get(kind).audit``, as ``scripts/verify_replay.py``) and the commands the bots
   saw accepted are counted against the stream (*lost*: an accepted answer's version has no event in
   the stream; *duplicated*: a batch of events identical, but for its time, to the batch before it).
2. ``api kill -9``: the API is killed mid-load and started again; the bots' client retries with the
   same ``Idempotency-Key``.
3. ``worker kill -9``: games with a 2-3 s ``decision_timeout_s`` where nobody acts, while bots play;
   the worker is killed and restarted; *lateness* = the ``decision_timed_out`` envelope's ``ts``
   minus the ``deadline`` of the ``step_began`` before it (every timeout in those games).
4. ``projector kill -9``: killed mid-load and restarted; once it caught up, the games' read models
   (views, log, projected version) must equal what ``projections.rebuild.rebuild_all`` writes.
5. ``redis kill -9``: the bots are paused, the commands answered 2xx are noted, 1.5 s pass
   (``appendfsync everysec``), Redis is killed and started again from its AOF 2 s later; every
   noted command must still be in its stream and no service process may exit.
6. ``deadline burst``: ``--burst-games`` games started within a few seconds with a 3 s deadline;
   median and worst lateness of each game's first deadline.
7. ``hostile input``: a fixed list of malformed requests; 5xx answers (must be 0) and answers that
   are not ``application/problem+json``.
8. ``version races``: 8 clients send one seat's orders at once, all pinned (``If-Match``) to the
   same version, round after round: exactly one wins each round, the rest get 409
   ``stale_version``, and the stream holds exactly one batch per win.
9. ``authorization matrix``: every endpoint x every kind of caller (``tests/support/authorization.py``).
10. ``contract fuzzing``: schemathesis sends valid and invalid requests generated from
   ``openapi/openapi.json``; answers >= 500 are counted from its HAR report.

*s to 1st accept*: seconds from the fault (the kill) to the first command answered 2xx after it.
*5xx*: answers >= 500 to the bots (and, in row 7, to the hostile requests), 503 excluded: 503
``store_unavailable`` is the documented answer while Redis is down (counted in the notes).
Threshold: 0 lost, 0 duplicated, every audit clean, every game finished, worst lateness <= 5 s,
0 5xx, no process exited. Exit status 1 when a row fails.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import msgspec
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_commands import CLK_TCK, proc_ticks, two_assignments
from clients import bot
from clients.citadel_client.client import CitadelClient
from clients.citadel_client.models import Command
from domain import registry
from domain.core.envelope import Envelope
from service.processes import api_command, projector_command, worker_command
from service.store import embedded_redis
from service.store.keys import Keys, tag
from tests.support.authorization import CALLERS as AUTH_CALLERS
from tests.support.authorization import MATRIX as AUTH_MATRIX
from tests.support.authorization import check_matrix
from tests.support.game_client import create, decisions, join_all, new_started_game

LATENESS_BOUND_S = 5.0
PLAYERS = 3


# --- the service's processes ---------------------------------------------------------------------


class Service:
    """Embedded Redis (AOF) and the API, worker and projector, each killable and restartable."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.redis_dir = workdir / "redis"
        self.redis_proc, self.redis_port = embedded_redis.start(self.redis_dir, persist=True)
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.port = embedded_redis.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.queue = f"citadel-reliability-{os.getpid()}"
        self.env = {
            **os.environ,
            "REDIS_URL": self.url,
            "CITADEL_QUEUE": self.queue,
            "CITADEL_RATE_LIMIT_PER_S": "0",
            "CITADEL_PROJECTOR_NAME": "projector-reliability",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("CITADEL_QUEUE_URL", None)
        self.procs: dict[str, subprocess.Popen] = {}
        self.exited: list[str] = []
        self.r = redis.Redis.from_url(self.url)

    def command(self, name: str) -> list[str]:
        if name == "api":
            return api_command("127.0.0.1", self.port)
        if name == "worker":
            return worker_command(self.url, self.queue)
        return projector_command()

    def start(self, name: str) -> None:
        with open(self.workdir / f"{name}.log", "ab") as log:
            self.procs[name] = subprocess.Popen(
                [*self.command(name), *(["--no-access-log"] if name == "api" else [])],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self, name: str) -> None:
        p = self.procs.pop(name)
        os.killpg(p.pid, 9)
        p.wait(timeout=10)

    def check_alive(self) -> list[str]:
        """Names of processes that exited on their own since the last check."""
        gone = [n for n, p in self.procs.items() if p.poll() is not None]
        for n in gone:
            self.exited.append(n)
            self.procs.pop(n)
        return gone

    def kill_redis(self) -> None:
        self.redis_proc.kill()
        self.redis_proc.wait(timeout=10)

    def start_redis(self) -> None:
        self.redis_proc, _ = embedded_redis.start(self.redis_dir, port=self.redis_port, persist=True)

    async def wait_ready(self, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base, timeout=1) as c:
            while time.monotonic() < end:
                try:
                    if (await c.get("/readyz")).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError("the API is not ready: " + (self.workdir / "api.log").read_text()[-3000:])

    def stop(self) -> None:
        for name in list(self.procs):
            p = self.procs.pop(name)
            try:
                os.killpg(p.pid, 15)
                p.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(p.pid, 9)
        self.r.close()
        embedded_redis.stop(self.redis_proc)

    def tracebacks(self) -> int:
        return sum(f.read_text(errors="replace").count("Traceback") for f in self.workdir.glob("*.log"))


# --- what the bots saw ---------------------------------------------------------------------------


class Traffic:
    """Every answer to the bots, every command they saw accepted, and a gate that pauses their POSTs."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.accepted: dict[str, list[int]] = defaultdict(list)
        """game id -> the version of each accepted command's answer."""
        self.accept_times: list[float] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.posts_in_flight: set[int] = set()

    def mark(self) -> tuple[Counter[int], int]:
        return self.statuses.copy(), len(self.accept_times)

    def first_accept_after(self, t: float) -> float | None:
        later = [x for x in self.accept_times if x > t]
        return min(later) - t if later else None

    async def on_request(self, request: httpx.Request) -> None:
        if request.method == "POST":
            await self.gate.wait()
            self.posts_in_flight.add(id(request))

    async def on_response(self, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1
        self.posts_in_flight.discard(id(response.request))

    async def pause(self) -> None:
        """Hold new POSTs and wait (at most 5 s: a request that met a transport error never
        answers) for the ones in flight."""
        self.gate.clear()
        end = time.monotonic() + 5
        while self.posts_in_flight and time.monotonic() < end:
            await asyncio.sleep(0.01)


TRAFFIC = Traffic()


def _api(base_url: str, wait_s: int) -> CitadelClient:
    """The bots' client (``clients.bot._api``) with their traffic counted and more transport
    retries (0.2 s, 0.4 s... up to about 40 s), so a bot rides through the API's restart."""
    c = CitadelClient(base_url, timeout=wait_s + 30, max_connections=1, transport_retries=20)
    c.http.event_hooks = {"request": [TRAFFIC.on_request], "response": [TRAFFIC.on_response]}
    return c


async def _post(self: bot.RandomBot, command: Command, version: int) -> int:
    """``RandomBot.post``, noting the accepted answer's version (its retries keep their key)."""
    out = await self.api.command(self.game_id, command, if_match=version, idempotency_key=f"bot-{uuid.uuid4()}")
    TRAFFIC.accepted[self.game_id].append(out.version)
    TRAFFIC.accept_times.append(time.monotonic())
    return out.version


bot._api = _api  # type: ignore[assignment]
bot.RandomBot.post = _post  # type: ignore[method-assign]


# --- helpers shared by the scenarios -------------------------------------------------------------


@dataclass
class Row:
    scenario: str
    games: int = 0
    accepted: int = 0
    lost: int = 0
    duplicated: int = 0
    lateness: str = "-"
    first_accept: str = "-"
    five_xx: int = 0
    ok: bool = True
    notes: list[str] = field(default_factory=list)

    def fail(self, why: str) -> None:
        self.ok = False
        self.notes.append(why)


@dataclass
class Load:
    """Games played by bots in the background."""

    task: asyncio.Task
    played: list[bot.PlayedGame] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def start_load(base: str, games: int, concurrency: int, seed: str) -> Load:
    sem = asyncio.Semaphore(concurrency)
    load = Load(task=None)  # type: ignore[arg-type]

    async def one(i: int) -> None:
        async with sem:
            try:
                load.played.append(await bot.play_game(base, PLAYERS, f"{seed}/{i}", {"decision_timeout_s": 600}))
            except Exception as e:  # a game that could not finish is a finding, not a crash
                load.errors.append(f"{type(e).__name__}: {str(e)[:160]}")

    async def all_games() -> None:
        await asyncio.gather(*(one(i) for i in range(games)))

    load.task = asyncio.create_task(all_games())
    return load


async def wait_accepted(n: int, timeout: float = 60) -> None:
    """Until the bots have ``n`` more accepted commands than now: the load is really running."""
    target = len(TRAFFIC.accept_times) + n
    end = time.monotonic() + timeout
    while len(TRAFFIC.accept_times) < target and time.monotonic() < end:
        await asyncio.sleep(0.02)


def ts_of(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


class Export(msgspec.Struct):
    game_id: str
    version: int
    complete: bool
    events: list[Envelope]
    seed: str | None = None
    kind: str = registry.DEFAULT_KIND


async def export_of(c: httpx.AsyncClient, game_id: str, token: str) -> Export:
    r = await c.get(f"/v1/games/{game_id}/export", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    return msgspec.json.decode(r.content, type=Export)


@dataclass
class Audit:
    games: int = 0
    accepted: int = 0
    lost: int = 0
    duplicated: int = 0
    bad_audits: list[str] = field(default_factory=list)


def count_duplicates(events: list[Envelope]) -> int:
    """Events of batches identical (but for their time) to the batch just before them."""
    batches: list[list[bytes]] = []
    last_ts = None
    for env in events:
        if env.ts != last_ts:
            batches.append([])
            last_ts = env.ts
        batches[-1].append(bytes(env.event))
    return sum(len(b) for prev, b in zip(batches, batches[1:]) if b == prev)


async def audit_games(
    base: str, games: list[tuple[str, str]], accepted_before: dict[str, set[int]] | None = None
) -> Audit:
    """Audit every game's export; count the accepted commands (all of them, or for each game only
    the versions in ``accepted_before``) whose events are not in the stream, and doubled batches."""
    out = Audit(games=len(games))
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        for game_id, token in games:
            ex = await export_of(c, game_id, token)
            report = registry.get(ex.kind).audit(ex.events, ex.seed)
            if not (
                report.chain_ok and report.rules_ok and report.seed_ok is not False and report.shuffles_ok is not False
            ):
                out.bad_audits.append(f"{game_id}: {report.problems[:2]}")
            seqs = {e.seq for e in ex.events}
            versions = (
                set(TRAFFIC.accepted.get(game_id, []))
                if accepted_before is None
                else accepted_before.get(game_id, set())
            )
            out.accepted += len(versions)
            out.lost += sum(1 for v in versions if v not in seqs)
            out.duplicated += count_duplicates(ex.events)
    return out


def lateness_of(events: list[Envelope], first_only: bool = False) -> list[float]:
    """For every ``decision_timed_out``: its ``ts`` minus the deadline of the ``step_began`` before it."""
    out: list[float] = []
    deadline: float | None = None
    for env in events:
        e = msgspec.json.decode(env.event)
        if e.get("type") == "step_began":
            deadline = ts_of(e["deadline"]) if e.get("deadline") else None
        elif e.get("type") == "decision_timed_out" and deadline is not None:
            out.append(ts_of(env.ts) - deadline)
            deadline = None
            if first_only:
                break
    return out


RETRIED_503: Counter[str] = Counter()
"""503 answers to this script's own writes, retried after ``Retry-After`` as the client does."""


async def post(c: httpx.AsyncClient, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """A write, retried after a 503 (``Retry-After``) like ``CitadelClient``; its 2xx body."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for _ in range(20):
        r = await c.post(path, json=body, headers=headers)
        if r.status_code != 503:
            break
        RETRIED_503[r.json().get("code", "?")] += 1
        await asyncio.sleep(float(r.headers.get("retry-after", "1")) * 0.5)
    r.raise_for_status()
    return r.json()


async def create_started(c: httpx.AsyncClient, timeout_s: int) -> tuple[str, str]:
    """A started game of :data:`PLAYERS` seats whose players never act: (game id, organizer token)."""
    created = await post(c, "/v1/games", {"player_count": PLAYERS, "settings": {"decision_timeout_s": timeout_s}})
    game_id, organizer = created["game_id"], created["organizer_token"]
    for i in range(PLAYERS):
        await post(c, f"/v1/games/{game_id}/seats", {"name": f"idle {i + 1}"})
    await post(c, f"/v1/games/{game_id}/start", {}, organizer)
    return game_id, organizer


async def create_many(base: str, timeouts: list[int], concurrency: int = 32) -> list[tuple[str, str]]:
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=concurrency)) as c:

        async def one(t: int) -> tuple[str, str]:
            async with sem:
                return await create_started(c, t)

        return list(await asyncio.gather(*(one(t) for t in timeouts)))


async def wait_first_timeouts(base: str, games: list[tuple[str, str]], timeout: float) -> tuple[list[float], int]:
    """Each game's first lateness, polling the exports until all fired or ``timeout`` passed;
    also the games whose first deadline never fired."""
    lateness: dict[str, float] = {}
    end = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=16)) as c:
        sem = asyncio.Semaphore(16)

        async def look(game_id: str, token: str) -> None:
            async with sem:
                got = lateness_of((await export_of(c, game_id, token)).events, first_only=True)
            if got:
                lateness[game_id] = got[0]

        while time.monotonic() < end and len(lateness) < len(games):
            await asyncio.gather(*(look(g, t) for g, t in games if g not in lateness))
            await asyncio.sleep(0.5)
    return list(lateness.values()), len(games) - len(lateness)


def fill_load_row(row: Row, load: Load, audit: Audit, statuses_before: Counter[int], t_fault: float | None) -> None:
    row.games = len(load.played) + len(load.errors)
    row.accepted = audit.accepted
    row.lost = audit.lost
    row.duplicated = audit.duplicated
    diff = TRAFFIC.statuses - statuses_before
    row.five_xx = sum(n for s, n in diff.items() if s >= 500 and s != 503)
    if diff[503]:
        row.notes.append(f"{diff[503]} x 503")
    if t_fault is not None:
        first = TRAFFIC.first_accept_after(t_fault)
        row.first_accept = "never" if first is None else f"{first:.2f}"
        if first is None:
            row.fail("no command accepted after the fault")
    if load.errors:
        row.fail(f"{len(load.errors)} games did not finish: {load.errors[0]}")
    if audit.bad_audits:
        row.fail(f"{len(audit.bad_audits)} audits failed: {audit.bad_audits[0]}")
    if row.lost or row.duplicated or row.five_xx:
        row.fail("lost/duplicated/5xx")


async def played_load(
    svc: Service, name: str, games: int, concurrency: int, fault: Callable[[], Awaitable[float]] | None
) -> tuple[Row, Load]:
    """Bots play ``games`` games; ``fault`` (when given) runs once they are under way and returns
    the moment of the fault; then every game is audited."""
    row = Row(name)
    statuses_before = TRAFFIC.statuses.copy()
    load = start_load(svc.base, games, concurrency, name)
    t_fault = None
    if fault is not None:
        await wait_accepted(30)
        t_fault = await fault()
    await load.task
    audit = await audit_games(svc.base, [(g.game_id, g.organizer_token) for g in load.played])
    fill_load_row(row, load, audit, statuses_before, t_fault)
    return row, load


def check_processes(svc: Service, row: Row) -> None:
    gone = svc.check_alive()
    if gone:
        row.fail(f"exited: {', '.join(gone)}")


# --- the scenarios -------------------------------------------------------------------------------


async def s1_load(svc: Service, args: argparse.Namespace) -> Row:
    row, _ = await played_load(svc, "1 load + audit", args.games, args.concurrency, None)
    check_processes(svc, row)
    return row


async def s2_api_kill(svc: Service, args: argparse.Namespace) -> Row:
    async def fault() -> float:
        t = time.monotonic()
        svc.kill("api")
        svc.start("api")
        return t

    row, _ = await played_load(svc, "2 api kill -9", args.games, args.concurrency, fault)
    check_processes(svc, row)
    return row


async def s3_worker_kill(svc: Service, args: argparse.Namespace) -> Row:
    idle = await create_many(svc.base, [2 + i % 2 for i in range(args.deadline_games)])
    box: dict[str, float] = {}

    async def fault() -> float:
        t = time.monotonic()
        svc.kill("worker")
        await asyncio.sleep(1.0)
        svc.start("worker")
        box["restarted"] = time.time()
        return t

    row, _ = await played_load(svc, "3 worker kill -9", max(2, args.games // 2), args.concurrency, fault)
    # let the restarted worker fire a few more deadlines of the idle games
    await asyncio.sleep(max(0.0, box["restarted"] + 8 - time.time()))
    late: list[float] = []
    async with httpx.AsyncClient(base_url=svc.base, timeout=30) as c:
        for game_id, token in idle:
            late += lateness_of((await export_of(c, game_id, token)).events)
    if late:
        row.lateness = f"{max(late):.2f}"
        row.notes.append(f"{len(late)} timeouts in {len(idle)} idle games, median {statistics.median(late):.2f} s")
        if max(late) > LATENESS_BOUND_S:
            row.fail(f"a deadline fired {max(late):.1f} s late")
    else:
        row.fail("no deadline fired")
    check_processes(svc, row)
    return row


def read_models(r: redis.Redis, game_id: str) -> dict[str, Any]:
    """Every read model of a game: its views, its log and its projected version."""
    keys = Keys(game_id, 16)
    out: dict[str, Any] = {}
    for k in r.scan_iter(match=f"{tag(keys.partition)}:game:{game_id}:view:*", count=1000):
        out[k.decode()] = r.get(k)
    out["log"] = r.zrange(keys.log, 0, -1, withscores=True)
    out["proj"] = r.hgetall(keys.proj)
    return out


async def s4_projector_kill(svc: Service, args: argparse.Namespace) -> Row:
    from projections.rebuild import rebuild_all
    from service.store.config import Config
    from service.store.redis_client import event_store_redis

    async def fault() -> float:
        t = time.monotonic()
        svc.kill("projector")
        await asyncio.sleep(1.0)
        svc.start("projector")
        return t

    row, load = await played_load(svc, "4 projector kill -9", args.games, args.concurrency, fault)
    games = [g.game_id for g in load.played]

    def caught_up() -> bool:
        for g in games:
            keys = Keys(g, 16)
            if int(svc.r.hget(keys.proj, "version") or 0) != svc.r.xlen(keys.events):
                return False
        return True

    end = time.monotonic() + 30
    while not caught_up() and time.monotonic() < end:
        await asyncio.sleep(0.2)
    if not caught_up():
        row.fail("the projector did not catch up in 30 s")
    before = {g: read_models(svc.r, g) for g in games}
    saved = os.environ.copy()
    os.environ.update({k: v for k, v in svc.env.items() if k.startswith(("REDIS_", "CITADEL_"))})
    try:
        cfg = Config.from_env()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    ar = event_store_redis(cfg)
    try:
        await rebuild_all(cfg, ar)
    finally:
        await ar.aclose()
    differ = [g for g in games if read_models(svc.r, g) != before[g]]
    row.notes.append(f"read models of {len(games) - len(differ)}/{len(games)} games equal a rebuild")
    if differ:
        row.fail(f"{len(differ)} games' read models differ from a rebuild")
    check_processes(svc, row)
    return row


async def s5_redis_kill(svc: Service, args: argparse.Namespace) -> Row:
    row = Row("5 redis kill -9 (AOF)")
    statuses_before = TRAFFIC.statuses.copy()
    load = start_load(svc.base, args.games, args.concurrency, "redis")
    await wait_accepted(30)
    await TRAFFIC.pause()
    noted = {g: set(v) for g, v in TRAFFIC.accepted.items()}
    await asyncio.sleep(1.5)  # appendfsync everysec: what was answered is on disk
    t = time.monotonic()
    svc.kill_redis()
    TRAFFIC.gate.set()
    await asyncio.sleep(2.0)
    svc.start_redis()
    row.notes.append(f"Redis down {time.monotonic() - t:.1f} s")
    await load.task
    ours = [(g.game_id, g.organizer_token) for g in load.played]
    played_ids = {g for g, _ in ours}
    audit_all = await audit_games(svc.base, ours)
    # the commands answered before the kill, in every game (older scenarios' games too)
    noted_here = {g: v for g, v in noted.items() if g in played_ids}
    before = await audit_games(svc.base, ours, noted_here)
    row.notes.append(f"{before.accepted} commands answered before the kill, {before.lost} missing")
    audit_all.lost = max(audit_all.lost, before.lost)
    fill_load_row(row, load, audit_all, statuses_before, t)
    check_processes(svc, row)
    return row


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far: a cost that does not depend on what
    else the machine runs, unlike the lateness."""
    return proc_ticks(pid) / CLK_TCK


def timeouts_applied(worker_log: Path) -> int:
    """Timeouts the workers' sweeps applied so far (their ``defaults`` outcomes, from the log)."""
    if not worker_log.exists():
        return 0
    text = worker_log.read_text(errors="replace")
    return sum(int(n) for n in re.findall(r"'defaults': (\d+)", text))


async def s6_burst(svc: Service, args: argparse.Namespace) -> Row:
    row = Row("6 deadline burst")
    if {3, 5} & args.only:
        row.notes.append("after the worker and Redis faults of 3 and 5 (--only 6 measures it alone)")
    t0 = time.monotonic()
    cpu0 = {n: cpu_seconds(svc.procs[n].pid) for n in ("worker", "projector")}
    applied0 = timeouts_applied(svc.workdir / "worker.log")
    games = await create_many(svc.base, [3] * args.burst_games, concurrency=48)
    row.games = len(games)
    row.notes.append(f"{len(games)} games started in {time.monotonic() - t0:.1f} s")
    if RETRIED_503:
        row.notes.append(f"503s retried while starting them: {dict(RETRIED_503)}")
    late, never = await wait_first_timeouts(svc.base, games, timeout=3 + 30)
    used = {n: cpu_seconds(svc.procs[n].pid) - c for n, c in cpu0.items()}
    # Nobody plays these games: every step times out in turn (a deadline per game every 3 s), so the
    # worker applies many more timeouts than the first ones measured; its log says how many.
    applied = timeouts_applied(svc.workdir / "worker.log") - applied0
    row.notes.append(
        f"{applied} timeouts applied in all; worker CPU per applied timeout (with the reveal or step "
        f"after it) {1000 * used['worker'] / max(1, applied):.2f} ms, projector {1000 * used['projector'] / max(1, applied):.2f} ms"
    )
    if late:
        row.lateness = f"{max(late):.2f}"
        row.notes.append(f"median {statistics.median(late):.2f} s")
    if never:
        row.fail(f"{never} first deadlines never fired (waited 33 s)")
    if late and max(late) > LATENESS_BOUND_S:
        row.fail(f"worst lateness {max(late):.1f} s > {LATENESS_BOUND_S:.0f} s")
    check_processes(svc, row)
    return row


def hostile_requests(game_id: str, token: str) -> list[tuple[str, str, str, dict[str, str], bytes]]:
    """(label, method, path, headers, body): malformed requests, each answered on its own."""
    j = {"Content-Type": "application/json"}
    auth = {**j, "Authorization": f"Bearer {token}"}
    seats = f"/v1/games/{game_id}/seats"
    cmds = f"/v1/games/{game_id}/commands"
    deep = b'{"a":' * 1_000 + b"1" + b"}" * 1_000
    return [
        ("deep object", "POST", "/v1/games", j, deep),
        ("deep array in a command", "POST", cmds, auth, b"[" * 100_000 + b"]" * 100_000),
        ("deep value in a name", "POST", seats, j, b'{"name":' + deep + b"}"),
        ("1 MB body", "POST", "/v1/games", j, b'{"player_count":3,"settings":{"x":"' + b"a" * 1_000_000 + b'"}}'),
        ("1 MB name", "POST", seats, j, b'{"name":"' + b"a" * 1_000_000 + b'"}'),
        ("invalid UTF-8", "POST", seats, j, b'{"name":"\xff\xfe\xfd"}'),
        ("invalid UTF-8 command", "POST", cmds, auth, b'{"type":"\xc3\x28"}'),
        ("not JSON", "POST", "/v1/games", j, b"{player_count: 3"),
        ("empty body", "POST", "/v1/games", j, b""),
        ("text/plain", "POST", "/v1/games", {"Content-Type": "text/plain"}, b'{"player_count":3}'),
        ("application/xml", "POST", seats, {"Content-Type": "application/xml"}, b"<name>x</name>"),
        ("form", "POST", seats, {"Content-Type": "application/x-www-form-urlencoded"}, b"name=x"),
        ("multipart", "POST", seats, {"Content-Type": "multipart/form-data; boundary=b"}, b"--b--"),
        ("no content type", "POST", "/v1/games", {}, b'{"player_count":3}'),
        ("unknown field", "POST", "/v1/games", j, b'{"player_count":3,"bogus":1}'),
        ("unknown field in a name", "POST", seats, j, b'{"name":"x","admin":true}'),
        ("unknown command", "POST", cmds, auth, b'{"type":"win_the_game"}'),
        ("unknown query parameter", "GET", f"/v1/games/{game_id}?debug=1", {}, b""),
        ("huge header (64 KB)", "GET", f"/v1/games/{game_id}", {"X-Big": "a" * 65_536}, b""),
        ("many headers", "GET", f"/v1/games/{game_id}", {f"X-H{i}": "v" for i in range(500)}, b""),
        ("huge bearer token", "POST", cmds, {**j, "Authorization": "Bearer " + "a" * 60_000}, b"{}"),
        ("NUL in a name", "POST", seats, j, b'{"name":"a\\u0000b"}'),
        ("bidi name", "POST", seats, j, '{"name":"\u202eevil"}'.encode()),
        ("zero-width name", "POST", seats, j, '{"name":"a\u200bb"}'.encode()),
        ("markup name", "POST", seats, j, b'{"name":"<script>x</script>"}'),
        ("bad game id", "GET", "/v1/games/%00%ff..%2f", {}, b""),
        ("bad Idempotency-Key", "POST", seats, {**j, "Idempotency-Key": "\x7f" * 300}, b'{"name":"k"}'),
        ("If-Match not a number", "POST", cmds, {**auth, "If-Match": "yesterday"}, b'{"type":"raven_pass"}'),
        ("negative player count", "POST", "/v1/games", j, b'{"player_count":-1e308}'),
        ("huge integer", "POST", "/v1/games", j, b'{"player_count":' + b"9" * 5000 + b"}"),
    ]


async def s7_hostile(svc: Service, args: argparse.Namespace) -> Row:
    row = Row("7 hostile input")
    async with httpx.AsyncClient(base_url=svc.base, timeout=30) as c:
        r = await c.post("/v1/games", json={"player_count": PLAYERS})
        game_id = r.json()["game_id"]
        seat = await c.post(f"/v1/games/{game_id}/seats", json={"name": "target"})
        token = seat.json()["token"]
        requests = hostile_requests(game_id, token)
        not_problem: list[str] = []
        accepted: list[str] = []
        for label, method, path, headers, body in requests:
            try:
                resp = await c.request(method, path, headers=headers, content=body)
            except httpx.HTTPError as e:
                not_problem.append(f"{label}: no answer ({type(e).__name__})")
                continue
            if resp.status_code >= 500:
                row.five_xx += 1
                row.notes.append(f"{label}: {resp.status_code}")
            ctype = resp.headers.get("content-type", "")
            if resp.is_success:
                accepted.append(f"{label}: {resp.status_code}")
            elif not ctype.startswith("application/problem+json"):
                not_problem.append(f"{label}: {resp.status_code} {ctype or 'no content type'} {resp.text[:60]!r}")
    row.games = 1
    row.notes.insert(0, f"{len(requests)} requests, {len(requests) - len(not_problem) - len(accepted)} problem+json")
    if accepted:
        row.notes.append("harmless, accepted: " + ", ".join(accepted))
    if row.five_xx:
        row.fail("5xx on hostile input")
    if not_problem:
        row.fail("not problem+json: " + "; ".join(not_problem))
    check_processes(svc, row)
    return row


async def s8_races(svc: Service, args: argparse.Namespace) -> Row:
    """Racers send the same seat's orders at once, all pinned to the same version (``If-Match``):
    exactly one wins each round, the others get 409 ``stale_version``, and the stream holds exactly
    one batch per win."""
    row = Row("8 version races")
    rounds, racers = (10, 8) if args.quick else (40, 8)
    with httpx.Client(base_url=svc.base, timeout=30) as api:
        game = await asyncio.to_thread(new_started_game, api, 3)
        token = next(iter(game.houses.values()))
        (mine,) = (await asyncio.to_thread(decisions, api, game, token))["decisions"]
    bodies = two_assignments(mine["options"])  # rounds alternate: a doubled batch would show
    wins = conflicts = other = 0
    async with httpx.AsyncClient(base_url=svc.base, timeout=30, limits=httpx.Limits(max_connections=racers)) as c:
        first = await c.post(  # unpinned: its answer gives the version to race on (views may lag)
            f"/v1/games/{game.id}/commands",
            json={"type": "assign_orders", "orders": bodies[1]},
            headers={"Authorization": f"Bearer {token}"},
        )
        version = first.json()["version"]
        for i in range(rounds):
            answers = await asyncio.gather(
                *(
                    c.post(
                        f"/v1/games/{game.id}/commands",
                        json={"type": "assign_orders", "orders": bodies[i % 2]},
                        headers={"Authorization": f"Bearer {token}", "If-Match": f'"{version}"'},
                    )
                    for k in range(racers)
                )
            )
            won = [a for a in answers if a.status_code == 200]
            lost = [a for a in answers if a.status_code == 409 and a.json().get("code") == "stale_version"]
            wins += len(won)
            conflicts += len(lost)
            other += racers - len(won) - len(lost)
            if len(won) != 1:
                row.fail(f"round {i}: {len(won)} winners")
                break
            version = won[0].json()["version"]
        ex = await export_of(c, game.id, token)  # the seat's own export shows its orders: doubles would show
    amends = sum(1 for e in ex.events if msgspec.json.decode(e.event).get("type") == "orders_submitted")
    row.games = 1
    row.accepted = wins
    row.duplicated = count_duplicates(ex.events)
    row.lost = max(0, wins - amends)
    row.notes.append(f"{rounds} rounds x {racers} racers: {wins} won, {conflicts} x 409 stale_version, {other} other")
    wins += 1  # the unpinned first submission
    if other or amends != wins:
        row.fail(f"{other} unexpected answers; {amends} orders batches for {wins} wins")
    check_processes(svc, row)
    return row


async def s9_authorization(svc: Service, args: argparse.Namespace) -> Row:
    """Every endpoint x every kind of caller (``tests/support/authorization.py``): cells answered
    otherwise than the contract."""
    row = Row("9 authorization matrix")

    def run() -> list[str]:
        with httpx.Client(base_url=svc.base, timeout=30) as api:
            game = new_started_game(api, 3)
            other = create(api, 3)
            join_all(api, other, 3)
            return check_matrix(api, game, other)

    wrong = await asyncio.to_thread(run)
    cells = sum(len(v) for v in AUTH_MATRIX.values())
    row.games = 2
    row.notes.append(f"{cells} cells ({len(AUTH_MATRIX)} endpoints x {len(AUTH_CALLERS)} callers), {len(wrong)} wrong")
    if wrong:
        row.fail("; ".join(wrong[:5]))
    check_processes(svc, row)
    return row


async def s10_fuzzing(svc: Service, args: argparse.Namespace) -> Row:
    """schemathesis generates requests from ``openapi/openapi.json`` (valid and invalid) against the
    live service: every answer >= 500 is counted (from its HAR report)."""
    row = Row("10 contract fuzzing")
    har = svc.workdir / "schemathesis.har"
    cmd = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        str(ROOT / "openapi" / "openapi.json"),
        "--url",
        svc.base,
        "--checks",
        "not_a_server_error",
        "--mode",
        "all",
        "--phases",
        "fuzzing" if args.quick else "examples,coverage,fuzzing",
        "--max-examples",
        "10" if args.quick else "40",
        "--seed",
        "1",
        "--continue-on-failure",
        "--request-timeout",
        "10",  # a generated long-poll or event stream must not hold the run
        "--report",
        "har",
        "--report-har-path",
        str(har),
    ]
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output = (await proc.communicate())[0].decode(errors="replace")
    except asyncio.CancelledError:  # the scenario's time is up: do not leave it running
        proc.kill()
        await proc.wait()
        raise
    entries = msgspec.json.decode(har.read_bytes())["log"]["entries"] if har.exists() else []
    statuses = Counter(e["response"]["status"] for e in entries)
    row.five_xx = sum(n for st, n in statuses.items() if st >= 500)
    row.notes.append(
        f"{len(entries)} requests, statuses {dict(sorted(statuses.items()))}, schemathesis exit {proc.returncode}"
    )
    if not entries:
        row.fail("schemathesis sent nothing: " + output[-300:])
    if row.five_xx:
        row.fail("5xx under fuzzing")
    check_processes(svc, row)
    return row


SCENARIOS: dict[int, Callable[[Service, argparse.Namespace], Awaitable[Row]]] = {
    1: s1_load,
    2: s2_api_kill,
    3: s3_worker_kill,
    4: s4_projector_kill,
    5: s5_redis_kill,
    6: s6_burst,
    7: s7_hostile,
    8: s8_races,
    9: s9_authorization,
    10: s10_fuzzing,
}
ORDER = [1, 2, 4, 5, 8, 9, 10, 3, 7, 6]
"""The run order: the idle games of 3 and 6 keep timing out until the end, so they come last."""


# --- the report ----------------------------------------------------------------------------------

HEADER = (
    "scenario",
    "games",
    "accepted",
    "lost",
    "duplicated",
    "worst late s",
    "s to 1st accept",
    "5xx",
    "verdict",
)


def table(rows: list[Row]) -> str:
    cells = [HEADER] + [
        (
            r.scenario,
            str(r.games),
            str(r.accepted),
            str(r.lost),
            str(r.duplicated),
            r.lateness,
            r.first_accept,
            str(r.five_xx),
            "ok" if r.ok else "FAIL",
        )
        for r in rows
    ]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADER))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    notes = [f"  {r.scenario}: {'; '.join(r.notes)}" for r in rows if r.notes]
    return "\n".join(lines + ["", "notes:", *notes])


async def run(args: argparse.Namespace, workdir: Path) -> list[Row]:
    svc = Service(workdir)
    rows: dict[int, Row] = {}
    try:
        for name in ("api", "worker", "projector"):
            svc.start(name)
        await svc.wait_ready()
        for n in ORDER:
            if n not in args.only:
                continue
            t = time.monotonic()
            try:
                limit = args.scenario_timeout * (3 if n == 10 else 1)  # schemathesis starts slowly
                row = await asyncio.wait_for(SCENARIOS[n](svc, args), timeout=limit)
            except Exception as e:  # noqa: BLE001 - one broken scenario is a FAIL row, the report goes on
                row = Row(f"{n} {SCENARIOS[n].__name__[3:]}")
                row.fail(f"{type(e).__name__}: {str(e)[:200]}")
            row.notes.append(f"{time.monotonic() - t:.0f} s")
            rows[n] = row
            print(f"  done: {row.scenario} ({'ok' if row.ok else 'FAIL'})", file=sys.stderr, flush=True)
            for name in ("api", "worker", "projector"):
                if name not in svc.procs:  # a scenario that died half-way: the next one needs it
                    svc.start(name)
            await svc.wait_ready()
    finally:
        svc.stop()
        tracebacks = svc.tracebacks()
        if tracebacks and rows:
            rows[max(rows)].notes.append(f"{tracebacks} tracebacks in the service logs ({workdir})")
    return [rows[n] for n in sorted(rows)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer games: under 90 s")
    ap.add_argument("--games", type=int, help="bot games per load scenario (default 8, quick 3)")
    ap.add_argument("--concurrency", type=int, help="games played at once (default 8, quick 3)")
    ap.add_argument("--deadline-games", type=int, help="idle games with a 2-3 s deadline in scenario 3 (default 6)")
    ap.add_argument("--burst-games", type=int, help="games started at once in scenario 6 (default 300, quick 60)")
    ap.add_argument("--only", default="1,2,3,4,5,6,7,8,9,10", help="scenarios to run, e.g. 2,5")
    ap.add_argument("--keep-logs", action="store_true", help="keep the processes' logs and Redis' folder")
    args = ap.parse_args(argv)
    args.games = args.games or (3 if args.quick else 8)
    args.concurrency = args.concurrency or (3 if args.quick else 8)
    args.deadline_games = args.deadline_games or (4 if args.quick else 6)
    args.burst_games = args.burst_games or (60 if args.quick else 300)
    args.only = {int(x) for x in args.only.split(",") if x.strip()}
    args.scenario_timeout = (
        150 if args.quick else 240
    )  # quick takes 10-35 s per scenario; seen over 60 s on a loaded machine
    workdir = Path(tempfile.mkdtemp(prefix="citadel-reliability-"))
    t0 = time.monotonic()
    try:
        rows = asyncio.run(run(args, workdir))
    finally:
        if not args.keep_logs:
            shutil.rmtree(workdir, ignore_errors=True)
    print(table(rows))
    print(
        f"\n{len(rows)} scenarios in {time.monotonic() - t0:.0f} s" + (f"; logs in {workdir}" if args.keep_logs else "")
    )
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
