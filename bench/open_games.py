"""Many open games at once: Redis bytes per open game, and read and command latency meanwhile.

    .venv/bin/python bench/open_games.py [--games 10000] [--players 4] [--rate 200] [--seconds 8]

Starts a private ``redis-server`` (no persistence) and the service's processes (API, RQ worker,
projector; ``bench/http_commands.py: Service``), then:

1. creates ``--games`` games of ``--players`` and starts them (every seat joined), through the
   engine in this process (``Engine.create_game`` / ``execute``: the API's own code path without
   HTTP, so creating 10,000 games takes seconds, not minutes; the real RQ scheduler, as the API
   uses it), and waits until the projector has projected every one;
2. reports Redis ``used_memory`` before and after, divided by the games: **bytes per open game**
   (everything: streams, views, logs, feeds, lobby, RQ keys), and for a sample of games the bytes
   of each of its keys by type (``MEMORY USAGE``);
3. with all of them open, creates 100 more games through HTTP and measures with ``wrk`` (offering
   ``--rate`` requests/s over 16 connections) the latency of a **read** (``GET /v1/games/{id}``,
   the public view, of random open games), plain (no ``Accept-Encoding``, as wrk sends) and gzipped
   (``Accept-Encoding: gzip``, as browsers and most clients send), and of a **command** (amending
   sealed orders).

The machine is shared: the latencies are those of this run on it; the bytes do not depend on it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec
import redis

from bench.http_commands import Service
from bench.http_wrk import LUA, OwnRedis, prepare, run_wrk
from domain.board.game import BoardCreateBody
from domain.board.state import Settings
from domain.core.commands import ORGANIZER, Actor, JoinGame, StartGame
from service.engine.runtime import build_runtime
from service.store.config import Config
from service.store.keys import Keys

READ_LUA = r"""
local paths = {}
local n = 0
local pause = 0
function init(args)
  pause = tonumber(args[1]) or 0
  for line in io.lines(args[2]) do n = n + 1; paths[n] = line end
end
function request()
  return wrk.format("GET", paths[math.random(n)])
end
function delay()
  return pause
end
"""

READ_GZIP_LUA = READ_LUA.replace(
    'wrk.format("GET", paths[math.random(n)])',
    'wrk.format("GET", paths[math.random(n)], {["Accept-Encoding"] = "gzip"})',
)


def config(url: str) -> Config:
    return Config(
        redis_url=url,
        queue_url=url,
        cluster=False,
        partitions=16,
        secret=None,
        snapshot_every=64,
        queue_name="citadel",
    )


async def create_games(url: str, games: int, players: int, concurrency: int = 64) -> list[str]:
    """``games`` started games through the engine (the API's code path, no HTTP)."""
    rt = build_runtime(config(url))
    ids: list[str] = []
    sem = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with sem:
            body = BoardCreateBody(player_count=players, settings=Settings())
            _, created = await rt.engine.create_game("board", body, None, "")
            gid = msgspec.json.decode(created)["game_id"]
            for i in range(players):
                await rt.engine.execute(gid, Actor(kind="seat"), JoinGame(name=f"p{i}"))
            await rt.engine.execute(gid, ORGANIZER, StartGame())
            ids.append(gid)

    try:
        await asyncio.gather(*(one() for _ in range(games)))
    finally:
        await rt.close()
    return ids


def wait_projected(r: redis.Redis, ids: list[str], timeout: float = 600) -> float:
    """Seconds until every game's projected version equals its stream's length."""
    t0 = time.monotonic()
    pending = list(ids)
    while pending and time.monotonic() - t0 < timeout:
        pipe = r.pipeline(transaction=False)
        for gid in pending:
            k = Keys(gid, 16)
            pipe.xlen(k.events)
            pipe.hget(k.proj, "version")
        res = pipe.execute()
        pending = [gid for i, gid in enumerate(pending) if int(res[2 * i + 1] or 0) < res[2 * i]]
        if pending:
            time.sleep(0.5)
    if pending:
        raise RuntimeError(f"{len(pending)} games not projected after {timeout} s")
    return time.monotonic() - t0


def key_sizes(r: redis.Redis, ids: list[str], sample: int) -> dict[str, float]:
    """Mean bytes per game of each of its keys (``MEMORY USAGE ... SAMPLES 0``) over ``sample`` games."""
    sizes: dict[str, int] = defaultdict(int)
    chosen = random.Random(1).sample(ids, min(sample, len(ids)))
    for gid in chosen:
        k = Keys(gid, 16)
        named = {
            "events": k.events,
            "idempotency": k.idem,
            "seed": k.seed,
            "snapshot": k.snapshot,
            "projection": k.proj,
            "log": k.log,
        }
        for name, key in named.items():
            sizes[name] += r.memory_usage(key, samples=0) or 0
        readers = [f.decode()[2:] or None for f in r.hkeys(k.proj) if f.startswith(b"h:")]  # the view digests
        for reader in readers:
            sizes["views"] += r.memory_usage(k.view(reader), samples=0) or 0
    return {k: v / len(chosen) for k, v in sizes.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rate", type=int, default=200, help="requests/s offered in each latency run")
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--sample", type=int, default=50, help="games whose keys are measured one by one")
    args = ap.parse_args()
    rc = OwnRedis()
    logdir = Path(tempfile.mkdtemp(prefix="citadel-open-"))
    r = redis.Redis.from_url(rc.url)
    try:
        svc = Service(rc.url, 1, logdir)
        try:
            svc.wait_ready()
            base_mem = int(r.info("memory")["used_memory"])
            t0 = time.monotonic()
            ids = asyncio.run(create_games(rc.url, args.games, args.players))
            created_s = time.monotonic() - t0
            projected_s = wait_projected(r, ids)
            time.sleep(1)
            mem = int(r.info("memory")["used_memory"])
            per_game = (mem - base_mem) / len(ids)
            by_key = key_sizes(r, ids, args.sample)
            rq_keys = sum(1 for _ in r.scan_iter(match="rq:*", count=10_000))
            # latency with all of them open
            rows = asyncio.run(prepare(svc.base, 100, args.players))
            commands = logdir / "commands.tsv"
            commands.write_text("".join("\t".join(row) + "\n" for row in rows))
            reads = logdir / "reads.txt"
            reads.write_text("".join(f"/v1/games/{gid}\n" for gid in ids))
            (logdir / "amend.lua").write_text(LUA)
            (logdir / "read.lua").write_text(READ_LUA)
            (logdir / "read_gzip.lua").write_text(READ_GZIP_LUA)
            connections = 16
            pause = max(0, round(connections * 1000 / args.rate) - 2)
            read = run_wrk(svc.base, logdir / "read.lua", reads, args.seconds, connections, pause)
            read_gzip = run_wrk(svc.base, logdir / "read_gzip.lua", reads, args.seconds, connections, pause)
            command = run_wrk(svc.base, logdir / "amend.lua", commands, args.seconds, connections, pause)
        finally:
            svc.stop()
    finally:
        r.close()
        rc.close()
    print(f"open_games  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  redis: {rc.what}")
    print(
        f"{len(ids):,} games of {args.players} started (round 1, Planning) in {created_s:.1f} s through the engine; "
        f"all projected {projected_s:.1f} s later"
    )
    print(
        f"Redis used_memory: {base_mem / 1e6:.1f} MB before, {mem / 1e6:.1f} MB with them open: "
        f"{per_game / 1000:.1f} KB per open game (everything); rq:* keys: {rq_keys:,}"
    )
    print(f"per game by key, mean of {min(args.sample, len(ids))} games (MEMORY USAGE):")
    print("  " + "  ".join(f"{k} {v / 1000:.2f} KB" for k, v in sorted(by_key.items(), key=lambda kv: -kv[1])))
    print(f"  keys of the game itself: {sum(by_key.values()) / 1000:.1f} KB; the rest is shared (feeds, lobby, RQ)")
    print(f"latency with them open, {args.rate}/s offered over {connections} connections, {args.seconds} s each (wrk):")
    print(f"{'request':40} {'done/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}  non-2xx")
    for name, res in (
        ("read: GET /v1/games/{id} (random game)", read),
        ("read, Accept-Encoding: gzip", read_gzip),
        ("command: amend sealed orders", command),
    ):
        print(
            f"{name:40} {res['rps']:>8,.0f} {res['p50']:>8.2f} {res['p90']:>8.2f} {res['p99']:>8.2f}  {res['non2xx']}"
        )


if __name__ == "__main__":
    main()
