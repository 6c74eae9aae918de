"""Accepted commands/s through HTTP with a C load generator (wrk), beside raw Redis XADD.

`bench/http_commands.py` drives the API from Python (httpx); on this 2-core machine its client
takes ~0.8 ms of CPU per request, about as much as the service itself. This script keeps the same
service, games and commands but lets ``wrk`` (Debian package ``wrk``) send them, so the figure is
the service's, not the client's. Same workload: 100 games of 4 players, 64 connections; every house
but the last in turn order keeps amending its sealed orders (alternating two legal assignments).

Two runs:
* closed loop: 64 connections send as fast as answers come back (max throughput);
* paced: each of the 64 connections waits about ``64 / rate`` s between requests (wrk's
  ``delay()``, shortened by a few ms for the answer itself), i.e. 64 clients offering ``--rate``
  commands/s in total; the achieved rate is printed, latency is measured per request.

    .venv/bin/python bench/http_wrk.py [--seconds 15] [--rate 1000] [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx

from bench.http_commands import RedisChoice, Service, envelope_payload_size, two_assignments, xadd_bench

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=15)
    ap.add_argument("--rate", type=int, default=1000, help="commands/s offered in the paced run")
    ap.add_argument("--workers", type=int, default=1, help="API processes")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--connections", type=int, default=64)
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk); bench/http_commands.py needs nothing extra.")
        return
    rc = RedisChoice()
    rc.flush()
    payload = b"x" * envelope_payload_size()
    xadd, x50, x99 = asyncio.run(xadd_bench(rc.url, payload, 5, 64, 1))
    logdir = Path(tempfile.mkdtemp(prefix="citadel-wrk-"))
    svc = Service(rc.url, args.workers, logdir)
    try:
        svc.wait_ready()
        rows = asyncio.run(prepare(svc.base, args.games, 4))
        data = logdir / "requests.tsv"
        data.write_text("".join("\t".join(r) + "\n" for r in rows))
        script = logdir / "amend.lua"
        script.write_text(LUA)
        run_wrk(svc.base, script, data, 3, args.connections, 0)  # warm-up
        closed = run_wrk(svc.base, script, data, args.seconds, args.connections, 0)
        # wrk waits delay() after each answer: leave room for the answer itself so the offered rate is met
        pause = max(0, round(args.connections * 1000 / args.rate - max(2.0, paced_guess(closed))))
        paced = run_wrk(svc.base, script, data, args.seconds, args.connections, pause)
    finally:
        svc.stop()
        rc.flush()
        rc.close()
    print(
        f"http_wrk  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  redis: {rc.what}  API processes: {args.workers}"
    )
    print(f"{len(rows)} amending seats over {args.games} games, {args.connections} connections, wrk -t1")
    print(f"{'workload':44} {'accepted/s':>10} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}  non-2xx")
    print(f"{'raw XADD (64 tasks, 1 per round trip)':44} {xadd:>10,.0f} {x50:>8.2f} {'':>8} {x99:>8.2f}")
    for name, r in (("HTTP amend, closed loop", closed), (f"HTTP amend, paced {args.rate}/s offered", paced)):
        print(
            f"{name:44} {r['rps']:>10,.0f} {r['p50']:>8.2f} {r['p90']:>8.2f} {r['p99']:>8.2f}  {r['non2xx']} (socket errors: {r['socket_errors']})"
        )
    print(f"ratio HTTP commands/s (closed loop) / raw XADD/s = {closed['rps'] / xadd:.3f}")
    ok = paced["rps"] >= 0.97 * args.rate and paced["p99"] < 50 and closed["rps"] >= 1000
    print(f"issue floor (>= 1,000 commands/s, p99 < 50 ms at {args.rate}/s offered): {'MET' if ok else 'NOT MET'}")


if __name__ == "__main__":
    main()
