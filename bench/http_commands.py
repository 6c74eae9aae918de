"""Accepted commands per second through HTTP, with latency, against the real service processes.

    .venv/bin/python bench/http_commands.py [--workers 1,2] [--seconds 12] [--clients 64] [--games 100]
                                            [--rates 300,1000] [--flow-games 64] [--profile PY_SPY]

What it does, in one run:

1. Picks a Redis: ``REDIS_URL`` if set (used as is, never flushed), else 127.0.0.1:6379 database 14
   (``FLUSHDB`` first), else an embedded ``redis-server`` (``service.embedded_redis``, no persistence).
2. Baselines, before any service process runs:
   * raw ``XADD`` throughput from redis-py asyncio with ``--clients`` tasks, one ``XADD`` per round
     trip (not pipelined), a payload the size of a stored ``OrdersSubmitted`` envelope, over 100
     streams; and the same pipelined 16 per round trip;
   * the engine in this process (``Engine.execute``, no HTTP, no worker jobs), the same amend
     workload with ``--clients`` tasks: the ceiling of the command path in one Python process.
3. For each API worker count in ``--workers``: starts the processes of ``citadel api|worker|projector``
   with the CLI's own command lines (uvicorn ``service.http.app:app --workers N``, the RQ worker with its
   scheduler, the projector); creates ``--games`` games of ``--players`` players (create, join every seat, start)
   with ``--clients`` concurrent asyncio tasks (one ``httpx.AsyncClient`` with one connection each); then the measured **amend** phase: every house
   but the last in turn order re-submits (amends) a legal ``assign_orders``, alternating between two
   legal assignments, for ``--warmup`` + ``--seconds`` seconds (only the last ``--seconds`` count);
   then the **open-loop** phase(s): the same amend commands offered at ``--rates`` per second
   (300/s and 1,000/s, the issue's floor, by default), latency counted from the moment each was due;
   then the **full-flow** phase: ``--flow-games`` new games each driven from creation to the end of
   Planning (create, join x4, start, assign_orders x4, the worker reveals, raven_pass).
   Only 200/201 answers count as accepted. CPU used by each process during the amend phase is read
   from /proc (and ``INFO cpu`` for Redis) to show where the two cores go.
4. Prints a summary table and the ratio HTTP commands/s / raw XADD/s. The issue's floor is
   1,000 accepted commands/s with p99 < 50 ms. In the closed loop 64 clients without think time
   see 64 / throughput seconds of latency on average (Little's law), so the p99 part of the floor
   is judged on the open-loop phase at 1,000/s.

The client runs on the same 2-core machine as the service, so it takes its share of the CPU: the
CPU table says how much.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx
import msgspec
import redis
import redis.asyncio as aioredis

from service.processes import api_command, projector_command, worker_command
from service.store import embedded_redis

CLK_TCK = os.sysconf("SC_CLK_TCK")
TIMEOUT_S = 3600  # decision deadline of the benchmark's games: no timeout fires during a run


# --- small helpers ------------------------------------------------------------------------------


def pct(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100 * (len(sorted_values) - 1)))))
    return sorted_values[i]


@dataclass
class Stats:
    """Latencies (seconds) of accepted answers, and counts by status."""

    lat: list[float] = field(default_factory=list)
    status: dict[int, int] = field(default_factory=dict)
    elapsed: float = 0.0

    def add(self, status: int, dt: float) -> None:
        self.status[status] = self.status.get(status, 0) + 1
        if status in (200, 201):
            self.lat.append(dt)

    @property
    def accepted(self) -> int:
        return self.status.get(200, 0) + self.status.get(201, 0)

    @property
    def rate(self) -> float:
        return self.accepted / self.elapsed if self.elapsed else 0.0

    def ms(self, p: float) -> float:
        return pct(sorted(self.lat), p) * 1000

    def others(self) -> str:
        rest = {k: v for k, v in sorted(self.status.items()) if k not in (200, 201)}
        return ", ".join(f"{k}: {v}" for k, v in rest.items()) or "none"


def two_assignments(options: dict) -> tuple[dict[str, str], dict[str, str]]:
    """Two different legal ``assign_orders`` bodies built from a decision's options (regular tokens only)."""
    regular = [t for t, n in sorted(options["tokens"].items()) if t not in options["special_tokens"] for _ in range(n)]
    areas = options["areas"]
    a = dict(zip(areas, regular))
    b = dict(zip(areas, list(reversed(regular))))
    if a == b and len(areas) > 1:  # same tokens both ways: swap two areas
        vals = list(a.values())
        vals[0], vals[1] = vals[1], vals[0]
        b = dict(zip(areas, vals))
    return a, b


# --- Redis --------------------------------------------------------------------------------------


class RedisChoice:
    def __init__(self) -> None:
        self.proc = None
        self.tmp: Path | None = None
        env_url = os.environ.get("REDIS_URL")
        if env_url:
            self.url, self.owned, self.what = env_url, False, f"REDIS_URL={env_url} (not flushed)"
        elif embedded_redis.reachable("127.0.0.1", 6379):
            self.url, self.owned, self.what = "redis://127.0.0.1:6379/1", True, "127.0.0.1:6379 db 1 (flushed)"
        else:
            self.tmp = Path(tempfile.mkdtemp(prefix="citadel-bench-redis-"))
            self.proc, port = embedded_redis.start(self.tmp, persist=False)
            self.url, self.owned = f"redis://127.0.0.1:{port}/0", True
            self.what = f"embedded redis-server on {port} (no persistence)"
        r = redis.Redis.from_url(self.url)
        info = r.info("server")
        self.version = info.get("redis_version", "?")
        self.aof = r.config_get("appendonly").get("appendonly", "?") if self.owned else "?"
        r.close()

    def flush(self) -> None:
        if self.owned:
            r = redis.Redis.from_url(self.url)
            r.flushdb()
            r.close()

    def cpu_seconds(self) -> float:
        r = redis.Redis.from_url(self.url)
        info = r.info("cpu")
        r.close()
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def close(self) -> None:
        if self.proc is not None:
            embedded_redis.stop(self.proc)
            shutil.rmtree(self.tmp, ignore_errors=True)


def envelope_payload_size() -> int:
    """The size of a stored envelope holding a 4-player game's ``OrdersSubmitted``."""
    from domain.board import commands as cmd
    from domain.board import decider
    from domain.board.state import Settings
    from domain.board.timeouts import default_orders
    from domain.core.context import Context
    from domain.core.envelope import seal

    ctx = Context(now=datetime.now(UTC), seed="s", game_id="g_" + "0" * 32)
    events = decider.create(cmd.CreateGame(player_count=4, settings=Settings()), ctx)
    state = decider.fold(events)
    for i in range(4):
        decider.fold(decider.decide(state, cmd.JoinGame(name=f"player {i + 1}"), cmd.Actor(kind="seat"), ctx), state)
    decider.fold(decider.decide(state, cmd.StartGame(), cmd.Actor(kind="organizer"), ctx), state)
    house = state.turn_order()[0]
    seat = next(s.seat_id for s in state.seats if s.house == house)
    out = decider.decide(
        state, cmd.AssignOrders(orders=default_orders(state, house)), cmd.Actor(kind="seat", seat_id=seat), ctx
    )
    env = seal(state.version + 1, "2025-01-01T00:00:00.000Z", 1, "0" * 64, msgspec.json.encode(out[0]))
    return len(msgspec.json.encode(env))


async def xadd_bench(url: str, payload: bytes, seconds: float, tasks: int, pipeline: int) -> tuple[float, float, float]:
    """(XADD/s, p50 ms, p99 ms of one round trip) with ``tasks`` concurrent tasks."""
    r = aioredis.from_url(url, max_connections=tasks + 8)
    streams = [f"bench:xadd:{i}" for i in range(100)]
    await r.delete(*streams)
    lat: list[float] = []
    done = 0
    end = time.perf_counter() + seconds

    async def one(i: int) -> None:
        nonlocal done
        k = i
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            if pipeline:
                p = r.pipeline(transaction=False)
                for j in range(pipeline):
                    p.xadd(streams[(k + j) % 100], {"e": payload})
                await p.execute()
                done += pipeline
            else:
                await r.xadd(streams[k % 100], {"e": payload})
                done += 1
            lat.append(time.perf_counter() - t0)
            k += tasks

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(tasks)))
    el = time.perf_counter() - t0
    await r.delete(*streams)
    await r.aclose()
    lat.sort()
    return done / el, pct(lat, 50) * 1000, pct(lat, 99) * 1000


async def engine_bench(url: str, games: int, players: int, tasks: int, seconds: float, warmup: float) -> Stats:
    """The amend workload through ``Engine.execute`` in this process: no HTTP, no worker jobs."""
    from domain.board import commands as cmd
    from domain.board.decisions import pending_decisions
    from domain.board.game import BoardCreateBody
    from domain.board.state import Settings
    from service.engine.dispatch import NullScheduler
    from service.engine.engine import fingerprint
    from service.engine.runtime import build_runtime
    from service.store.config import Config

    cfg = Config(
        redis_url=url,
        queue_url=url,
        cluster=False,
        partitions=16,
        secret="bench",
        snapshot_every=64,
        queue_name="citadel-bench",
    )
    rt = build_runtime(cfg, scheduler=NullScheduler())
    engine = rt.engine
    org = cmd.Actor(kind="organizer")
    work = []
    for _ in range(games):
        create = BoardCreateBody(player_count=players, settings=Settings(decision_timeout_s=TIMEOUT_S))
        _, body = await engine.create_game("board", create, None, "")
        gid = msgspec.json.decode(body)["game_id"]
        for i in range(players):
            await engine.execute(gid, cmd.Actor(kind="seat"), cmd.JoinGame(name=f"p{i}"))
        await engine.execute(gid, org, cmd.StartGame())
        state = (await engine.load(gid)).state
        seat_of = {s.house: s.seat_id for s in state.seats}
        for d in pending_decisions(state):
            if d.house == state.turn_order()[-1]:
                continue
            a, b = two_assignments(msgspec.to_builtins(d.options))
            work.append(
                [
                    gid,
                    cmd.Actor(kind="seat", seat_id=seat_of[d.house]),
                    cmd.AssignOrders(orders=a),
                    cmd.AssignOrders(orders=b),
                    0,
                ]
            )
    random.Random(1).shuffle(work)
    cycle = itertools.cycle(work)
    stats = Stats()
    start = time.perf_counter()
    measure_from = start + warmup
    end = measure_from + seconds

    async def client() -> None:
        from domain.core.errors import GameError
        from service.http.problems import STATUS_OF_KIND

        while time.perf_counter() < end:
            w = next(cycle)
            w[4] ^= 1
            command = w[2 + w[4]]
            t0 = time.perf_counter()
            try:
                status, _ = await engine.execute(w[0], w[1], command, fp=fingerprint("command", w[0], w[1].seat_id))
            except GameError as e:
                status = STATUS_OF_KIND[e.kind]
            if t0 >= measure_from:
                stats.add(status, time.perf_counter() - t0)

    await asyncio.gather(*(client() for _ in range(tasks)))
    stats.elapsed = time.perf_counter() - measure_from
    await rt.close()
    return stats


# --- the service's processes --------------------------------------------------------------------


def proc_ticks(pid: int, children_too: bool = False) -> int:
    """CPU clock ticks (user + system) a process used so far, from Linux ``/proc`` (0 when gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    # after the ')' : state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    t = int(parts[11]) + int(parts[12])
    if children_too:
        t += int(parts[13]) + int(parts[14])
    return t


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if ppid == pid:
            out.append(int(d))
    return out


def service_commands(redis_url: str, port: int, workers: int) -> dict[str, list[str]]:
    """The command lines ``citadel api|worker|projector`` run (service/processes.py), so the
    benchmark follows the service's own flags."""
    os.environ["REDIS_URL"] = redis_url
    os.environ.pop("CITADEL_QUEUE_URL", None)
    os.environ["CITADEL_QUEUE"] = "citadel"
    return {
        "api": api_command("127.0.0.1", port, workers),
        "worker": worker_command(redis_url, "citadel"),
        "projector": projector_command(),
    }


class Service:
    """uvicorn (N workers) + RQ worker + projector, each in its own process group."""

    def __init__(self, redis_url: str, workers: int, logdir: Path):
        self.port = embedded_redis.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.logdir = logdir
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "PYTHONPATH": str(ROOT),
            "CITADEL_QUEUE": "citadel",
            "CITADEL_RATE_LIMIT_PER_S": os.environ.get("CITADEL_RATE_LIMIT_PER_S", "0"),
        }  # measure the game, not the limiter
        self.procs: dict[str, subprocess.Popen] = {}
        self.commands = service_commands(redis_url, self.port, workers)
        for name, args in self.commands.items():
            self._start(name, args)

    def _start(self, name: str, args: list[str]) -> None:
        log = open(self.logdir / f"{name}-w{self.workers}.log", "ab")
        self.procs[name] = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, p in self.procs.items():
                if p.poll() is not None:
                    raise RuntimeError(f"{name} exited early; see {self.logdir}")
            try:
                if httpx.get(self.base + "/readyz", timeout=0.5).status_code == 200:
                    # with several workers, wait until every one of them is up
                    if self.workers == 1 or len(_children(self.procs["api"].pid)) >= self.workers:
                        time.sleep(0.5)
                        return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"API did not become ready; see {self.logdir}")

    def api_pids(self) -> list[int]:
        master = self.procs["api"].pid
        if self.workers == 1:
            return [master]
        return [pid for pid in _children(master) if proc_ticks(pid) >= 0] + [master]

    def cpu_ticks(self) -> dict[str, int]:
        api = sum(proc_ticks(p) for p in self.api_pids())
        worker = self.procs["worker"].pid
        w = proc_ticks(worker, children_too=True) + sum(proc_ticks(c) for c in _children(worker))
        return {"api": api, "rq worker": w, "projector": proc_ticks(self.procs["projector"].pid)}

    def stop(self) -> None:
        for p in self.procs.values():
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs.values():
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=5)


# --- the HTTP workload --------------------------------------------------------------------------


@dataclass
class HttpGame:
    id: str
    organizer: str
    seats: dict[str, str] = field(default_factory=dict)  # seat_id -> token
    houses: dict[str, str] = field(default_factory=dict)  # house -> token
    turn_order: list[str] = field(default_factory=list)
    raven_holder: str = ""
    version: int = 0


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Http:
    """One httpx.AsyncClient. By default every client task has its own, with one keep-alive
    connection: httpcore's pool scans all its connections for every request, so one shared pool of
    64 connections costs the client several times more CPU (``--shared-pool`` measures that)."""

    def __init__(self, base: str, connections: int):
        self.c = httpx.AsyncClient(
            base_url=base,
            timeout=60,
            limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        )

    async def write(self, stats: Stats | None, method: str, url: str, **kw) -> httpx.Response:
        t0 = time.perf_counter()
        r = await self.c.request(method, url, **kw)
        if stats is not None:
            stats.add(r.status_code, time.perf_counter() - t0)
        return r

    async def new_game(self, players: int, stats: Stats | None) -> HttpGame:
        r = await self.write(
            stats, "POST", "/v1/games", json={"player_count": players, "settings": {"decision_timeout_s": TIMEOUT_S}}
        )
        assert r.status_code == 201, r.text
        body = r.json()
        g = HttpGame(id=body["game_id"], organizer=body["organizer_token"])
        for i in range(players):
            r = await self.write(stats, "POST", f"/v1/games/{g.id}/seats", json={"name": f"player {i + 1}"})
            assert r.status_code == 201, r.text
            g.seats[r.json()["seat_id"]] = r.json()["token"]
        r = await self.write(stats, "POST", f"/v1/games/{g.id}/start", headers=_auth(g.organizer))
        assert r.status_code == 200, r.text
        body = r.json()
        g.version = body["version"]
        started = next(e["event"] for e in body["events"] if e["event"]["type"] == "game_started")
        g.houses = {house: g.seats[seat] for seat, house in started["houses"].items()}
        r = await self.c.get(f"/v1/games/{g.id}", params={"min_version": g.version})
        assert r.status_code == 200, r.text
        tracks = r.json()["tracks"]
        g.turn_order = tracks["iron_throne"]
        g.raven_holder = tracks["kings_court"][0]
        return g

    async def my_decision(self, g: HttpGame, house: str) -> dict | None:
        r = await self.c.get(f"/v1/games/{g.id}/decisions", headers=_auth(g.houses[house]))
        assert r.status_code == 200, r.text
        mine = r.json()["decisions"]
        return mine[0] if mine else None

    async def close(self) -> None:
        await self.c.aclose()


def make_clients(base: str, n: int, shared: bool) -> list[Http]:
    if shared:
        return [Http(base, n)] * n
    return [Http(base, 1) for _ in range(n)]


async def run_pool(clients: list[Http], items: list, fn) -> None:
    """One task per client; the tasks take items from one shared iterator."""
    it = iter(items)

    async def worker(http: Http) -> None:
        for x in it:
            await fn(http, x)

    await asyncio.gather(*(worker(h) for h in clients))


@dataclass
class RunResult:
    workers: int
    setup: Stats
    setup_games: int
    amend: Stats
    sequential_games: int
    cpu: dict[str, float]
    flow: Stats | None = None
    flow_games: int = 0
    flow_elapsed: float = 0.0
    reveal_ms: list[float] = field(default_factory=list)
    flow_failed: int = 0
    profiles: list[tuple[str, Path]] = field(default_factory=list)
    open_loop: list[tuple[float, Stats, int]] = field(default_factory=list)  # (offered rate, stats, not sent)


async def http_run(svc: Service, rc: RedisChoice, args) -> RunResult:
    clients = make_clients(svc.base, args.clients, args.shared_pool)
    # -- setup: create, join, start ---------------------------------------------------------
    setup = Stats()
    games: list[HttpGame] = []

    async def make(http: Http, _: int) -> None:
        games.append(await http.new_game(args.players, setup))

    t0 = time.perf_counter()
    await run_pool(clients, list(range(args.games)), make)
    setup.elapsed = time.perf_counter() - t0

    # -- the amend workload: all houses but the last one in turn order --------------------------
    work = []
    sequential = 0

    async def options(http: Http, g: HttpGame) -> None:
        nonlocal sequential
        for house in g.turn_order[:-1]:
            d = await http.my_decision(g, house)
            if d is None:  # sequential placement: only the current house may place
                sequential += 1
                continue
            a, b = two_assignments(d["options"])
            work.append(
                [
                    g.id,
                    _auth(g.houses[house]),
                    {"type": "assign_orders", "orders": a},
                    {"type": "assign_orders", "orders": b},
                    0,
                ]
            )

    await run_pool(clients, games, options)
    random.Random(7).shuffle(work)
    cycle = itertools.cycle(work)
    amend = Stats()
    start = time.perf_counter()
    measure_from = start + args.warmup
    end = measure_from + args.seconds
    cpu0: dict[str, float] = {}

    async def client(http: Http) -> None:
        while time.perf_counter() < end:
            w = next(cycle)
            w[4] ^= 1
            t0 = time.perf_counter()
            r = await http.c.post(f"/v1/games/{w[0]}/commands", json=w[2 + w[4]], headers=w[1])
            if t0 >= measure_from:
                amend.add(r.status_code, time.perf_counter() - t0)

    spies: list[tuple[str, subprocess.Popen, Path]] = []

    async def cpu_marks() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        cpu0.update(snapshot_cpu(svc, rc))
        cpu0["_t"] = time.perf_counter()
        if args.profile:
            targets = [(f"api-{pid}", pid) for pid in svc.api_pids() if pid != svc.procs["api"].pid or svc.workers == 1]
            targets += [("projector", svc.procs["projector"].pid), ("bench-client", os.getpid())]
            for name, pid in targets:
                out = svc.logdir / f"pyspy-w{svc.workers}-{name}.txt"
                spies.append(
                    (
                        name,
                        subprocess.Popen(
                            [
                                args.profile,
                                "record",
                                "--pid",
                                str(pid),
                                "--duration",
                                str(max(1, int(args.seconds) - 1)),
                                "--rate",
                                "200",
                                "--nonblocking",
                                "--format",
                                "raw",
                                "-o",
                                str(out),
                            ],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                        ),
                        out,
                    )
                )

    tasks = [asyncio.create_task(client(h)) for h in clients]
    await cpu_marks()
    await asyncio.gather(*tasks)
    cpu1 = snapshot_cpu(svc, rc)
    amend.elapsed = time.perf_counter() - measure_from
    wall = time.perf_counter() - cpu0.pop("_t")
    cpu = {k: (cpu1[k] - cpu0[k]) / wall for k in cpu1}
    machine = cpu.pop("_machine")
    cpu["other processes"] = max(0.0, machine - sum(cpu.values()))
    res = RunResult(
        workers=svc.workers, setup=setup, setup_games=len(games), amend=amend, sequential_games=sequential, cpu=cpu
    )
    for name, p, out in spies:
        p.wait(timeout=60)
        res.profiles.append((name, out))

    # -- open loop: the same amend workload offered at a fixed rate -----------------------------
    for rate in args.rates:
        res.open_loop.append((rate, *await open_loop(clients, cycle, rate, args.open_seconds)))

    # -- the full flow ---------------------------------------------------------------------------
    if args.flow_games:
        res.flow = Stats()
        flow_end = time.perf_counter() + args.flow_timeout

        async def full_game(http: Http, _: int) -> None:
            if time.perf_counter() > flow_end:
                return
            try:
                g = await http.new_game(args.players, res.flow)
                for house in g.turn_order:
                    d = await http.my_decision(g, house)
                    a, _ = two_assignments(d["options"])
                    r = await http.write(
                        res.flow,
                        "POST",
                        f"/v1/games/{g.id}/commands",
                        json={"type": "assign_orders", "orders": a},
                        headers=_auth(g.houses[house]),
                    )
                    assert r.status_code == 200, r.text
                    g.version = r.json()["version"]
                # the RQ worker reveals the orders: long-poll the event log until the raven step opens
                t_last = time.perf_counter()
                seen = False
                while not seen and time.perf_counter() < flow_end + 30:
                    r = await http.c.get(
                        f"/v1/games/{g.id}/events",
                        params={"from": g.version, "wait": 10},
                        headers=_auth(g.houses[g.raven_holder]),
                    )
                    for line in r.text.splitlines():
                        e = msgspec.json.decode(line)
                        g.version = e["seq"]
                        ev = e["event"]
                        if ev["type"] == "step_began" and ev["step"] == "messenger_raven":
                            seen = True
                if not seen:
                    res.flow_failed += 1
                    return
                res.reveal_ms.append((time.perf_counter() - t_last) * 1000)
                r = await http.write(
                    res.flow,
                    "POST",
                    f"/v1/games/{g.id}/commands",
                    json={"type": "raven_pass"},
                    headers=_auth(g.houses[g.raven_holder]),
                )
                assert r.status_code == 200, r.text
                res.flow_games += 1
            except (AssertionError, httpx.HTTPError) as e:
                res.flow_failed += 1
                print(f"  full flow: a game failed: {str(e)[:200]}", flush=True)

        t0 = time.perf_counter()
        await run_pool(clients, list(range(args.flow_games)), full_game)
        res.flow.elapsed = time.perf_counter() - t0
        res.flow_elapsed = res.flow.elapsed
    for h in set(clients):
        await h.close()
    return res


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy (all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return (sum(v[:8]) - idle) / CLK_TCK


async def open_loop(clients: list[Http], cycle, rate: float, seconds: float) -> tuple[Stats, int]:
    """Offer ``rate`` amend commands per second (evenly spaced) for ``seconds``, with at most one
    request in flight per client. Latency runs from the moment a request was due, so time spent
    waiting for a free client counts (no coordinated omission). Requests still waiting 2 s after
    the end are not sent and are reported."""
    stats = Stats()
    start = time.perf_counter() + 0.2
    end = start + seconds
    total = int(rate * seconds)
    counter = itertools.count()
    not_sent = 0

    async def client(http: Http) -> None:
        nonlocal not_sent
        while True:
            k = next(counter)
            if k >= total:
                return
            due = start + k / rate
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            elif now > end + 2.0:
                not_sent += 1
                continue
            w = next(cycle)
            w[4] ^= 1
            r = await http.c.post(f"/v1/games/{w[0]}/commands", json=w[2 + w[4]], headers=w[1])
            stats.add(r.status_code, time.perf_counter() - due)

    await asyncio.gather(*(client(h) for h in clients))
    stats.elapsed = max(seconds, time.perf_counter() - start)
    return stats, not_sent


def snapshot_cpu(svc: Service, rc: RedisChoice) -> dict[str, float]:
    out = {k: v / CLK_TCK for k, v in svc.cpu_ticks().items()}
    out["_machine"] = machine_busy_seconds()
    out["redis-server"] = rc.cpu_seconds()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    out["bench client"] = ru.ru_utime + ru.ru_stime
    return out


def print_profile(title: str, path: Path, top: int = 22) -> None:
    """Summarise py-spy's collapsed stacks: share of samples per function, inclusive and self."""
    if not path.exists():
        print(f"\nprofile {title}: no samples ({path})")
        return
    incl: dict[str, int] = {}
    self_: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        n_ = int(n)
        total += n_
        frames = [f.strip() for f in stack.split(";")]
        frames = [
            f.split(" (", 1)[0] + " (" + f.split(" (", 1)[1].split(":")[0].rsplit("/", 1)[-1] + ")" if " (" in f else f
            for f in frames
        ]
        for f in set(frames):
            incl[f] = incl.get(f, 0) + n_
        self_[frames[-1]] = self_.get(frames[-1], 0) + n_
    if not total:
        return
    print(f"\nprofile {title}: {total} CPU samples ({path})")
    print(f"  {'inclusive (without the event loop frames)':<67}| self")
    # frames in (almost) every sample are the event loop's scaffolding: leave them out
    a = sorted(((k, v) for k, v in incl.items() if v < 0.75 * total), key=lambda kv: -kv[1])[:top]
    b = sorted(self_.items(), key=lambda kv: -kv[1])[:top]
    for i in range(top):
        left = f"{100 * a[i][1] / total:5.1f}% {a[i][0][:60]}" if i < len(a) else ""
        right = f"{100 * b[i][1] / total:5.1f}% {b[i][0][:60]}" if i < len(b) else ""
        print(f"  {left:<67}| {right}")


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description="Accepted HTTP commands per second against the real service.")
    ap.add_argument("--workers", default="1,2", help="API worker counts to try, comma-separated")
    ap.add_argument("--clients", type=int, default=64, help="concurrent client tasks")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=12.0, help="measured seconds of the amend phase")
    ap.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds before that")
    ap.add_argument(
        "--rates", default="300,1000", help="open-loop phases: offered amend commands/s, comma-separated ('' to skip)"
    )
    ap.add_argument("--open-seconds", type=float, default=6.0, help="seconds of each open-loop phase")
    ap.add_argument("--flow-games", type=int, default=64, help="games driven through the full flow (0: skip)")
    ap.add_argument("--flow-timeout", type=float, default=30.0, help="stop starting full-flow games after this")
    ap.add_argument("--xadd-seconds", type=float, default=3.0)
    ap.add_argument("--engine-seconds", type=float, default=5.0, help="in-process engine baseline (0: skip)")
    ap.add_argument(
        "--shared-pool",
        action="store_true",
        help="one httpx.AsyncClient with --clients connections shared by every task (default: one client each)",
    )
    ap.add_argument("--keep-logs", action="store_true", help="keep the service logs (their folder is printed)")
    ap.add_argument(
        "--profile",
        nargs="?",
        const="py-spy",
        default=None,
        metavar="PY_SPY",
        help="sample the API worker(s), the projector and this client with py-spy during the amend phase "
        "(path to py-spy, default: py-spy on PATH); implies --keep-logs",
    )
    args = ap.parse_args()
    worker_counts = [int(x) for x in args.workers.split(",") if x.strip()]
    args.rates = [float(x) for x in args.rates.split(",") if x.strip()]
    if args.profile:
        found = shutil.which(args.profile)
        if not found:
            sys.exit(f"--profile: {args.profile} not found (pip install py-spy, or give its path)")
        args.profile = found
        args.keep_logs = True

    rc = RedisChoice()
    logdir = Path(tempfile.mkdtemp(prefix="citadel-bench-logs-"))
    print(
        f"http_commands  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  "
        f"{os.cpu_count()} cores  load avg {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(f"redis: {rc.what}, version {rc.version}, appendonly {rc.aof}", flush=True)
    b0 = machine_busy_seconds()
    time.sleep(1.0)
    busy = machine_busy_seconds() - b0
    print(
        f"machine busy before the run: {busy:.2f} of {os.cpu_count()} cores"
        + ("  (WARNING: something else is running; figures will be lower and noisier)" if busy > 0.15 else ""),
        flush=True,
    )
    results: list[RunResult] = []
    try:
        rc.flush()
        size = envelope_payload_size()
        payload = b"x" * size
        xadd, xp50, xp99 = asyncio.run(xadd_bench(rc.url, payload, args.xadd_seconds, args.clients, 0))
        print(
            f"raw XADD, {args.clients} tasks, 1 per round trip, {size} B: {xadd:,.0f}/s (p50 {xp50:.2f} ms, p99 {xp99:.2f} ms)",
            flush=True,
        )
        xaddp, _, _ = asyncio.run(xadd_bench(rc.url, payload, args.xadd_seconds, args.clients, 16))
        print(f"raw XADD, {args.clients} tasks, pipelined 16 per round trip: {xaddp:,.0f}/s", flush=True)
        eng = None
        if args.engine_seconds:
            eng = asyncio.run(engine_bench(rc.url, args.games, args.players, args.clients, args.engine_seconds, 1.0))
            print(
                f"engine in-process (no HTTP): {eng.rate:,.0f} commands/s, p50 {eng.ms(50):.1f} ms, "
                f"p99 {eng.ms(99):.1f} ms, rejected: {eng.others()}",
                flush=True,
            )
        for n in worker_counts:
            rc.flush()
            svc = Service(rc.url, n, logdir)
            try:
                svc.wait_ready()
                print(f"--- {n} API worker(s): service up on {svc.base}", flush=True)
                for name, cmdline in svc.commands.items():
                    print(
                        f"    {name}: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmdline))}",
                        flush=True,
                    )
                res = asyncio.run(http_run(svc, rc, args))
            finally:
                svc.stop()
            results.append(res)
            a = res.amend
            print(
                f"  setup: {res.setup_games} games in {res.setup.elapsed:.1f} s ({res.setup.rate:,.0f} writes/s)"
                + (
                    f"; {res.sequential_games} house(s) left out of the amend phase (sequential placement)"
                    if res.sequential_games
                    else ""
                ),
                flush=True,
            )
            print(
                f"  amend: {a.accepted} accepted in {a.elapsed:.1f} s = {a.rate:,.0f}/s, p50 {a.ms(50):.1f} ms, "
                f"p99 {a.ms(99):.1f} ms, other answers: {a.others()}",
                flush=True,
            )
            for rate, st, missed in res.open_loop:
                print(
                    f"  open loop {rate:,.0f}/s offered: {st.accepted / st.elapsed:,.0f}/s accepted, p50 {st.ms(50):.1f} ms, "
                    f"p99 {st.ms(99):.1f} ms (from the due time), not sent: {missed}, other answers: {st.others()}",
                    flush=True,
                )
            if res.flow:
                f = res.flow
                print(
                    f"  full flow: {res.flow_games} games in {f.elapsed:.1f} s, {f.rate:,.0f} writes/s, "
                    f"p50 {f.ms(50):.1f} ms, p99 {f.ms(99):.1f} ms, failed {res.flow_failed}",
                    flush=True,
                )
    finally:
        rc.flush()
        rc.close()
        if not args.keep_logs:
            shutil.rmtree(logdir, ignore_errors=True)
        else:
            print(f"service logs: {logdir}")

    # -- summary ---------------------------------------------------------------------------------
    print()
    print("=" * 100)
    print(
        f"SUMMARY  {args.clients} concurrent clients, {args.games} games x {args.players} players, "
        f"amend phase {args.seconds:g} s measured after {args.warmup:g} s warm-up"
    )
    print("=" * 100)
    hdr = f"{'workload':<44} {'accepted/s':>11} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}  other answers"
    print(hdr)
    print("-" * len(hdr))
    print(
        f"{'raw XADD (1 per round trip)':<44} {xadd:>11,.0f} {xp50:>8.2f} {'':>8} {xp99:>8.2f} {'':>8}  payload {size} B"
    )
    print(f"{'raw XADD (pipelined 16 per round trip)':<44} {xaddp:>11,.0f}")
    if eng:
        print(
            f"{'engine in-process, amend (no HTTP)':<44} {eng.rate:>11,.0f} {eng.ms(50):>8.1f} {eng.ms(90):>8.1f} "
            f"{eng.ms(99):>8.1f} {eng.ms(100):>8.1f}  {eng.others()}"
        )
    for r in results:
        a = r.amend
        print(
            f"{f'HTTP amend, {r.workers} API worker(s)':<44} {a.rate:>11,.0f} {a.ms(50):>8.1f} {a.ms(90):>8.1f} "
            f"{a.ms(99):>8.1f} {a.ms(100):>8.1f}  {a.others()}"
        )
        for rate, st, missed in r.open_loop:
            label = f"HTTP amend, open loop {rate:,.0f}/s, {r.workers} w"
            print(
                f"{label:<44} {st.accepted / st.elapsed:>11,.0f} {st.ms(50):>8.1f} {st.ms(90):>8.1f} "
                f"{st.ms(99):>8.1f} {st.ms(100):>8.1f}  {st.others()}" + (f", not sent: {missed}" if missed else "")
            )
        s = r.setup
        print(
            f"{f'HTTP setup (create/join/start), {r.workers} w':<44} {s.rate:>11,.0f} {s.ms(50):>8.1f} {s.ms(90):>8.1f} "
            f"{s.ms(99):>8.1f} {s.ms(100):>8.1f}  {s.others()}"
        )
        if r.flow:
            f = r.flow
            print(
                f"{f'HTTP full flow (all writes), {r.workers} w':<44} {f.rate:>11,.0f} {f.ms(50):>8.1f} {f.ms(90):>8.1f} "
                f"{f.ms(99):>8.1f} {f.ms(100):>8.1f}  {f.others()}"
            )
    print()
    for r in results:
        if r.flow:
            rv = sorted(r.reveal_ms)
            print(
                f"full flow, {r.workers} API worker(s): {r.flow_games} games to the end of Planning in {r.flow_elapsed:.1f} s "
                f"= {r.flow_games / r.flow_elapsed if r.flow_elapsed else 0:.1f} games/s ({r.flow_failed} failed); "
                f"last order -> reveal seen (RQ job): p50 {pct(rv, 50):.0f} ms, p99 {pct(rv, 99):.0f} ms"
            )
    print()
    ncpu = os.cpu_count() or 2
    print(
        f"CPU during the amend phase (cores busy, out of {ncpu}; 'other processes' = the machine's busy time not ours):"
    )
    names = ["api", "rq worker", "projector", "redis-server", "bench client", "other processes"]
    print(f"  {'workers':<8}" + "".join(f"{n:>16}" for n in names) + f"{'total':>8}")
    for r in results:
        print(
            f"  {r.workers:<8}" + "".join(f"{r.cpu.get(n, 0):>16.2f}" for n in names) + f"{sum(r.cpu.values()):>8.2f}"
        )
    print()
    print("CPU milliseconds per accepted amend command (cores busy / commands per second):")
    svc_names = ["api", "projector", "redis-server", "rq worker"]
    print(
        f"  {'workers':<8}" + "".join(f"{n:>14}" for n in svc_names) + f"{'service':>10}{'client':>10}"
        f"   capacity of {ncpu} cores for the service alone"
    )
    for r in results:
        rate = r.amend.rate or float("nan")
        per = {n: 1000 * r.cpu.get(n, 0) / rate for n in svc_names}
        tot = sum(per.values())
        client = 1000 * r.cpu.get("bench client", 0) / rate
        print(
            f"  {r.workers:<8}" + "".join(f"{per[n]:>14.2f}" for n in svc_names) + f"{tot:>10.2f}{client:>10.2f}"
            f"   ~{ncpu * 1000 / tot:,.0f} commands/s"
        )
    for r in results:
        for name, out in r.profiles:
            print_profile(f"{r.workers} API worker(s), {name}", out)
    if results:
        best = max(results, key=lambda r: r.amend.rate)
        print()
        print(
            f"best: {best.workers} API worker(s): {best.amend.rate:,.0f} accepted commands/s, p99 {best.amend.ms(99):.1f} ms"
        )
        print(f"ratio HTTP commands/s / raw XADD/s (1 per round trip) = {best.amend.rate / xadd:.3f}")
        print(
            f"closed loop: {args.clients} clients without think time wait {1000 * args.clients / best.amend.rate:.0f} ms "
            f"on average (Little's law: clients / throughput), so p99 < 50 ms there needs well over "
            f"{args.clients * 20:,} commands/s; the open-loop phase tests the floor as offered load."
        )
        floor = [(r.workers, st) for r in results for rate, st, _ in r.open_loop if rate == 1000]
        met_closed = best.amend.rate >= 1000
        print(f"issue floor, throughput (closed loop >= 1,000/s): {'MET' if met_closed else 'NOT MET'}")
        for w, st in floor:
            got = st.accepted / st.elapsed
            ok = got >= 990 and st.ms(99) < 50
            print(
                f"issue floor, 1,000/s offered with p99 < 50 ms ({w} API worker(s)): {'MET' if ok else 'NOT MET'} "
                f"({got:,.0f}/s accepted, p99 {st.ms(99):.1f} ms)"
            )


if __name__ == "__main__":
    main()
