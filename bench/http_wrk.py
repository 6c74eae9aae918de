"""Accepted commands/s through HTTP with a C load generator (wrk), beside raw Redis XADD.

`bench/http_commands.py` drives the API from Python (httpx); on this 2-core machine its client
takes ~0.8 ms of CPU per request, about as much as the service itself. This script keeps the same
service, games and commands but lets ``wrk`` (Debian package ``wrk``) send them, so the figure is
the service's, not the client's. Same workload: 100 games of 4 players, 64 connections; every house
but the last in turn order keeps amending its sealed orders (alternating two legal assignments).

In one run it prints:
* the raw ``XADD`` baseline (redis-py asyncio, 64 tasks, one per round trip);
* the **trivial-endpoint ceiling**: ``bench/trivial_app.py``, a Litestar app with one route at the
  command endpoint's path that reads the body and answers constant JSON, under the same uvicorn
  flags and worker count, driven by the same wrk script and requests;
* Citadel's closed loop (64 connections send as fast as answers come back) and the ratio
  Citadel / ceiling;
* with ``--rate R`` also a paced run: each connection waits about ``64 / R`` s between requests
  (wrk's ``delay()``, shortened by a few ms for the answer itself);
* the CPU milliseconds per accepted command of each process (API, projector, RQ worker, Redis,
  and wrk), from ``/proc/PID/stat`` before and after the closed loop and the paced run (Redis: its
  ``/proc`` with ``--own-redis``, else ``INFO cpu`` of the whole shared server), and how many cores
  other processes on the machine used meanwhile. The paced run's figure is the one to compare
  between builds on a busy machine: the same offered rate for each, where the closed loop's
  depends on how far it got (a faster run batches more per event-loop turn and Redis round trip).

    .venv/bin/python bench/http_wrk.py [--seconds 8] [--rate 0] [--workers 1] [--own-redis] [--no-xadd]

``--own-redis`` starts a private ``redis-server`` (no persistence, a free port) so a shared Redis
that other work also uses is neither measured nor flushed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx

from bench import http_commands
from bench.http_commands import (
    CLK_TCK,
    RedisChoice,
    Service,
    _children,
    envelope_payload_size,
    machine_busy_seconds,
    proc_ticks,
    two_assignments,
    xadd_bench,
)
from service.store import embedded_redis

LUA = r"""
local reqs = {}
local n = 0
local i = 0
local pause = 0
local statuses = {}

function setup(thread) end

function init(args)
  pause = tonumber(args[1]) or 0
  for line in io.lines(args[2]) do
    local path, token, a, b = line:match("^(%S+)\t(%S+)\t(.-)\t(.-)$")
    n = n + 1
    reqs[n] = {wrk.format("POST", path, {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, a),
               wrk.format("POST", path, {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, b)}
  end
  i = math.random(n)
end

local flip = 1
function request()
  i = i % n + 1
  if i == 1 then flip = 3 - flip end
  return reqs[i][flip]
end

function delay()
  return pause
end
"""


async def prepare(base: str, games: int, players: int) -> list[tuple[str, str, str, str]]:
    """Create the games through the API; return (path, token, body A, body B) per amending seat."""
    rows: list[tuple[str, str, str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:

        async def one(_: int) -> None:
            g = (await c.post("/v1/games", json={"player_count": players})).json()
            gid, org = g["game_id"], g["organizer_token"]
            seats = {}
            for k in range(players):
                s = (await c.post(f"/v1/games/{gid}/seats", json={"name": f"p{k}"})).json()
                seats[s["seat_id"]] = s["token"]
            started = (await c.post(f"/v1/games/{gid}/start", headers={"Authorization": f"Bearer {org}"})).json()
            view = (await c.get(f"/v1/games/{gid}", params={"min_version": started["version"]})).json()
            house_token = {s["house"]: seats[s["seat_id"]] for s in view["seats"]}
            for house in view["tracks"]["iron_throne"][:-1]:  # the last house never submits
                tok = house_token[house]
                d = (await c.get(f"/v1/games/{gid}/decisions", headers={"Authorization": f"Bearer {tok}"})).json()
                a, b = two_assignments(d["decisions"][0]["options"])
                rows.append(
                    (
                        f"/v1/games/{gid}/commands",
                        tok,
                        json.dumps({"type": "assign_orders", "orders": a}, separators=(",", ":")),
                        json.dumps({"type": "assign_orders", "orders": b}, separators=(",", ":")),
                    )
                )

        sem = asyncio.Semaphore(16)

        async def guarded(k: int) -> None:
            async with sem:
                await one(k)

        await asyncio.gather(*(guarded(k) for k in range(games)))
    return rows


def run_wrk(base: str, script: Path, data: Path, seconds: int, connections: int, pause_ms: int) -> dict:
    out = subprocess.run(
        [
            "wrk",
            "-t",
            "1",
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--latency",
            "-s",
            str(script),
            base,
            "--",
            str(pause_ms),
            str(data),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    def lat(p: str) -> float:
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)", out, re.M)
        v, unit = float(m.group(1)), m.group(2)
        return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v

    total = int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    bad = int(non2xx.group(1)) if non2xx else 0
    return {
        "rps": (total - bad) / seconds,
        "p50": lat("50"),
        "p90": lat("90"),
        "p99": lat("99"),
        "non2xx": bad,
        "socket_errors": errors.group(1) if errors else "none",
        "raw": out,
    }


def paced_guess(closed: dict) -> float:
    """A latency guess for the paced run (ms): well under the closed loop's, which queues 64 deep."""
    return min(8.0, closed["p50"] / 4)


def start_trivial(port: int, workers: int, logdir: Path) -> subprocess.Popen:
    log = open(logdir / "trivial.log", "ab")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "bench.trivial_app", "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the trivial app exited early; see {logdir}")
        try:
            if (
                httpx.post(f"http://127.0.0.1:{port}/v1/games/g/commands", content=b"{}", timeout=0.5).status_code
                == 200
            ):
                if workers == 1 or len(_children(proc.pid)) >= workers:
                    time.sleep(0.5)
                    return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the trivial app did not become ready; see {logdir}")


def stop_proc(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def tree_ticks(pid: int) -> int:
    """CPU ticks of a process and its live children (uvicorn's worker processes)."""
    return proc_ticks(pid) + sum(proc_ticks(c) for c in _children(pid))


def children_cpu_s() -> float:
    t = os.times()
    return t.children_user + t.children_system


class OwnRedis:
    """A private ``redis-server`` (no persistence) so the machine's shared one is not measured."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="citadel-wrk-redis-"))
        self.proc, port = embedded_redis.start(self.tmp, persist=False)
        self.url = f"redis://127.0.0.1:{port}/0"
        self.what = f"own redis-server on {port} (no persistence)"

    def cpu_seconds(self) -> float:
        return proc_ticks(self.proc.pid) / CLK_TCK

    def flush(self) -> None:
        pass

    def close(self) -> None:
        embedded_redis.stop(self.proc)
        shutil.rmtree(self.tmp, ignore_errors=True)


class Meter:
    """CPU seconds per process (and the machine's busy time) between :meth:`start` and :meth:`stop`."""

    def __init__(self, read: Callable[[], dict[str, float]]) -> None:
        self.read = read
        self.before: dict[str, float] = {}
        self.used: dict[str, float] = {}

    def _now(self) -> dict[str, float]:
        return {**self.read(), "wrk": children_cpu_s(), "machine": machine_busy_seconds()}

    def start(self) -> None:
        self.before = self._now()

    def stop(self) -> None:
        after = self._now()
        self.used = {k: after[k] - self.before[k] for k in after}
        ours = sum(v for k, v in self.used.items() if k != "machine")
        self.used["others"] = max(0.0, self.used.pop("machine") - ours)


def ms_per(used: dict[str, float], accepted: int) -> dict[str, float]:
    return {k: v * 1000 / max(1, accepted) for k, v in used.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=8, help="length of each measured wrk run")
    ap.add_argument(
        "--rate", type=int, default=0, help="also a paced run offering this many commands/s (0: closed loop only)"
    )
    ap.add_argument("--workers", type=int, default=1, help="API processes (and trivial app processes)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--own-redis", action="store_true", help="start a private redis-server instead of the machine's")
    ap.add_argument("--no-xadd", action="store_true", help="skip the raw XADD baseline")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="run the API (1 process) under cProfile and print its top functions (slows it: the figures are not comparable)",
    )
    args = ap.parse_args()
    profile_out = Path(tempfile.mkdtemp(prefix="citadel-wrk-prof-")) / "api.prof"
    if args.profile:
        if args.workers != 1:
            ap.error("--profile needs --workers 1")
        plain = http_commands.service_commands

        def profiled(redis_url: str, port: int, workers: int) -> dict[str, list[str]]:
            cmds = plain(redis_url, port, workers)
            python, _, module, *rest = cmds["api"]
            cmds["api"] = [python, str(ROOT / "bench" / "cprofile_run.py"), str(profile_out), module, *rest]
            return cmds

        http_commands.service_commands = profiled  # type: ignore[assignment]
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk); bench/http_commands.py needs nothing extra.")
        return
    rc: OwnRedis | RedisChoice = OwnRedis() if args.own_redis else RedisChoice()
    rc.flush()
    try:
        xadd = x50 = x99 = 0.0
        if not args.no_xadd:
            payload = b"x" * envelope_payload_size()
            xadd, x50, x99 = asyncio.run(xadd_bench(rc.url, payload, 3, 64, 1))
        logdir = Path(tempfile.mkdtemp(prefix="citadel-wrk-"))
        load_before = os.getloadavg()[0]
        script = logdir / "amend.lua"
        script.write_text(LUA)
        data = logdir / "requests.tsv"
        svc = Service(rc.url, args.workers, logdir)
        paced: dict | None = None
        try:
            svc.wait_ready(120 if args.profile or args.workers > 1 else 30)
            rows = asyncio.run(prepare(svc.base, args.games, 4))
            data.write_text("".join("\t".join(r) + "\n" for r in rows))

            def service_cpu() -> dict[str, float]:
                t = svc.cpu_ticks()
                return {
                    "api": t["api"] / CLK_TCK,
                    "projector": t["projector"] / CLK_TCK,
                    "worker": t["rq worker"] / CLK_TCK,
                    "redis": rc.cpu_seconds(),
                }

            run_wrk(svc.base, script, data, 2, args.connections, 0)  # warm-up
            meter = Meter(service_cpu)
            pmeter = Meter(service_cpu)
            if args.profile:
                os.kill(svc.procs["api"].pid, signal.SIGUSR1)
            meter.start()
            closed = run_wrk(svc.base, script, data, args.seconds, args.connections, 0)
            meter.stop()
            if args.profile:
                os.kill(svc.procs["api"].pid, signal.SIGUSR2)
            if args.rate:
                # wrk waits delay() after each answer: leave room for the answer itself so the offered rate is met
                pause = max(0, round(args.connections * 1000 / args.rate - max(2.0, paced_guess(closed))))
                pmeter.start()
                paced = run_wrk(svc.base, script, data, args.seconds, args.connections, pause)
                pmeter.stop()
        finally:
            svc.stop()
            rc.flush()
        port = embedded_redis.free_port()
        trivial = start_trivial(port, args.workers, logdir)
        try:
            base = f"http://127.0.0.1:{port}"
            run_wrk(base, script, data, 2, args.connections, 0)  # warm-up
            tmeter = Meter(lambda: {"api": tree_ticks(trivial.pid) / CLK_TCK})
            tmeter.start()
            ceiling = run_wrk(base, script, data, args.seconds, args.connections, 0)
            tmeter.stop()
        finally:
            stop_proc(trivial)
    finally:
        rc.close()

    accepted = round(closed["rps"] * args.seconds)
    cpu = ms_per(meter.used, accepted)
    tcpu = ms_per(tmeter.used, round(ceiling["rps"] * args.seconds))
    print(
        f"http_wrk  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  redis: {rc.what}  "
        f"API processes: {args.workers}  load average before: {load_before:.2f}"
    )
    print(
        f"{len(rows)} amending seats over {args.games} games, {args.connections} connections, wrk -t1, {args.seconds} s per run"
    )
    print(f"{'workload':44} {'accepted/s':>10} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}  non-2xx")
    if xadd:
        print(f"{'raw XADD (64 tasks, 1 per round trip)':44} {xadd:>10,.0f} {x50:>8.2f} {'':>8} {x99:>8.2f}")
    runs = [("trivial Litestar endpoint (ceiling)", ceiling), ("HTTP amend, closed loop", closed)]
    if paced is not None:
        runs.append((f"HTTP amend, paced {args.rate}/s offered", paced))
    for name, r in runs:
        print(
            f"{name:44} {r['rps']:>10,.0f} {r['p50']:>8.2f} {r['p90']:>8.2f} {r['p99']:>8.2f}  {r['non2xx']} (socket errors: {r['socket_errors']})"
        )
    print(f"ratio Citadel / trivial ceiling (closed loop) = {closed['rps'] / ceiling['rps']:.3f}")
    if xadd:
        print(f"ratio Citadel / raw XADD = {closed['rps'] / xadd:.3f}")
    names = ["api", "projector", "worker", "redis"]
    service = sum(cpu[k] for k in names)
    print(
        "CPU ms per accepted command (closed loop; /proc/PID/stat before and after; redis: "
        + ("its /proc" if args.own_redis else "INFO cpu, the whole shared server")
        + "):"
    )
    print("  " + "  ".join(f"{k} {cpu[k]:.3f}" for k in names) + f"  | service {service:.3f}  | wrk {cpu['wrk']:.3f}")
    print(f"  trivial app: api {tcpu['api']:.3f} ms per request, wrk {tcpu['wrk']:.3f}")
    print(
        f"  other processes on the machine used {meter.used['others'] / args.seconds:.2f} cores during the Citadel run, "
        f"{tmeter.used['others'] / args.seconds:.2f} during the ceiling run"
    )
    if paced is not None:
        # the same offered rate for every build: CPU per command here does not depend on how much
        # a saturated closed loop batched (the append pipeline, one event-loop turn for many requests)
        pcpu = ms_per(pmeter.used, round(paced["rps"] * args.seconds))
        print(
            f"CPU ms per accepted command (paced {args.rate}/s):\n  "
            + "  ".join(f"{k} {pcpu[k]:.3f}" for k in names)
            + f"  | service {sum(pcpu[k] for k in names):.3f}  | wrk {pcpu['wrk']:.3f}"
            + f"  | others {pmeter.used['others'] / args.seconds:.2f} cores"
        )
        ok = paced["rps"] >= 0.97 * args.rate and paced["p99"] <= 20
        print(
            f"paced {args.rate}/s: {paced['rps']:,.0f}/s achieved, p99 {paced['p99']:.1f} ms ({'p99 <= 20 ms' if ok else 'NOT within 20 ms / rate not held'})"
        )

    if args.profile:
        print_profile(profile_out)


def print_profile(path: Path) -> None:
    """The API's top functions by own time and by cumulative time (cProfile, ``--profile``)."""
    if not path.exists():
        print(f"no profile written at {path}")
        return
    for order in ("tottime", "cumulative"):
        print(f"--- API profile, top 30 by {order} ({path})")
        pstats.Stats(str(path)).sort_stats(order).print_stats(30)


if __name__ == "__main__":
    main()
