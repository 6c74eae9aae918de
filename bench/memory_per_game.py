"""Bytes of Redis one finished game costs, by key type, everything included (RQ keys and feeds too).

    .venv/bin/python bench/memory_per_game.py                  # one 6-player game with bots
    .venv/bin/python bench/memory_per_game.py --players 4 --seed 3

Starts its own ``redis-server`` (an empty database, no persistence, so every key in it belongs to
this game), the service as bench/http_commands.py does (API, RQ worker, projector), and plays one
complete game with ``clients.bot.play_game`` (one random bot per seat). Then it prints
``MEMORY USAGE ... SAMPLES 0`` of every key, grouped by type, twice:

* **at the end**: once the projector caught up with the final version;
* **archived**: once the workers compacted the finished game (docs/memory.md: after
  ``CITADEL_ARCHIVE_AFTER_S``, set to 1 s here, as is ``CITADEL_FEED_TRIM_S``; absent on a branch
  without archiving, then the column repeats the end).

and checks that the finished game's reads are still served after compaction: the public and each
seat's view, the log (every page), the export (audited like the tests do: tests/support/export_checks.py)
and the NDJSON event stream (every page), each equal to what was served at the end.

Bytes are deterministic enough to compare branches on a loaded machine (the game is seeded; the
bots' interleaving can move a handful of events). Nothing here measures time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx
import redis

from service.store import embedded_redis

GROUP_ORDER = (
    "events",
    "archive",
    "idempotency answers",
    "log",
    "views",
    "snapshot",
    "seed",
    "projected version",
    "lobby",
    "rq",
    "feeds",
    "partition sets",
    "other",
)


def group_of(key: str) -> str:
    """The key type of a key name (service/store/keys.py)."""
    if key.startswith("rq:"):
        return "rq"
    if key.startswith("{lobby}"):
        return "lobby"
    if ":game:" in key:
        suffix = key.split(":game:", 1)[1].split(":", 1)[1]
        if suffix.startswith("view:"):
            return "views"
        return {
            "events": "events",
            "idem": "idempotency answers",
            "log": "log",
            "snap": "snapshot",
            "seed": "seed",
            "proj": "projected version",
            "archive": "archive",
        }.get(suffix, "other")
    if key.endswith(":feed"):
        return "feeds"
    if key.startswith("{p"):
        return "partition sets"
    return "other"


def shape(key: str) -> str:
    """A key name with its ids blanked, to break the RQ and partition groups down."""
    key = re.sub(r"\{p\d\d\}", "{pNN}", key)
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<job>", key)


def measure(r: redis.Redis) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(bytes per group, keys per group, bytes per key shape of the rq / partition / other groups)."""
    size: Counter[str] = Counter()
    count: Counter[str] = Counter()
    detail: Counter[str] = Counter()
    for raw in r.scan_iter(count=1000):
        key = raw.decode()
        g = group_of(key)
        b = r.memory_usage(key, samples=0) or 0
        size[g] += b
        count[g] += 1
        if g in ("rq", "partition sets", "other"):
            detail[shape(key)] += b
    return size, count, detail


def wait_projected(r: redis.Redis, partitions: int, game_id: str, version: int, timeout: float = 60) -> None:
    from service.store.keys import Keys

    k = Keys(game_id, partitions)
    deadline = time.monotonic() + timeout
    while int(r.hget(k.proj, "version") or 0) < version and time.monotonic() < deadline:
        time.sleep(0.2)


def wait_archived(r: redis.Redis, partitions: int, game_id: str, timeout: float) -> bool:
    from service.store.keys import Keys

    k = Keys(game_id, partitions)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if r.exists(f"{k.events.rsplit(':', 1)[0]}:archive") and not r.exists(k.events):
            time.sleep(1)  # let the worker finish its trimming
            return True
        time.sleep(0.5)
    return False


def reads(base: str, game_id: str, organizer: str, seats: dict[str, str]) -> dict[str, bytes]:
    """Everything a finished game serves, read page by page."""
    out: dict[str, bytes] = {}
    with httpx.Client(base_url=base, timeout=60) as c:
        out["public view"] = c.get(f"/v1/games/{game_id}").content
        for seat, token in sorted(seats.items()):
            out[f"view of {seat}"] = c.get(
                f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"}
            ).content
        pages, cursor = [], 0
        while True:
            page = c.get(f"/v1/games/{game_id}/log", params={"from": cursor, "limit": 200}).json()
            pages.append(str(page["lines"]).encode())
            if page["next_cursor"] is None:
                break
            cursor = page["next_cursor"]
        out["log"] = b"".join(pages)
        out["export"] = c.get(f"/v1/games/{game_id}/export", headers={"Authorization": f"Bearer {organizer}"}).content
        lines, after = [], 0
        while True:
            page = c.get(f"/v1/games/{game_id}/events", params={"from": after, "limit": 1000}).content
            if not page:
                break
            lines.append(page)
            after += page.count(b"\n")
        out["events (NDJSON)"] = b"".join(lines)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", default="memory-1")
    ap.add_argument("--archive-wait", type=float, default=60, help="seconds to wait for the archive")
    args = ap.parse_args()

    from bench.http_commands import Service
    from clients.bot import play_game
    from service.store.config import Config
    from tests.support.export_checks import check_export

    tmp = Path(tempfile.mkdtemp(prefix="citadel-memory-"))
    proc, port = embedded_redis.start(tmp, persist=False)
    url = f"redis://127.0.0.1:{port}/0"
    os.environ["CITADEL_ARCHIVE_AFTER_S"] = "1"
    os.environ["CITADEL_FEED_TRIM_S"] = "1"
    partitions = Config.from_env().partitions
    r = redis.Redis.from_url(url)
    svc = None
    try:
        print(f"memory_per_game: one {args.players}-player game, seed {args.seed!r}, redis {r.info()['redis_version']}")
        svc = Service(url, 1, tmp)
        svc.wait_ready()
        played = asyncio.run(play_game(svc.base, args.players, args.seed, {"decision_timeout_s": 3600}))
        print(f"  game {played.game_id}: {played.version} events, winner {played.winner}, round {played.round}")
        wait_projected(r, partitions, played.game_id, played.version)
        at_end, n_end, other = measure(r)
        served_end = reads(svc.base, played.game_id, played.organizer_token, played.seats)
        archived = wait_archived(r, partitions, played.game_id, args.archive_wait)
        after, n_after, other2 = measure(r)
        served_after = reads(svc.base, played.game_id, played.organizer_token, played.seats)

        print(f"\n  {'key type':<22} {'at the end':>12} {'keys':>5} {'archived':>12} {'keys':>5}")
        for g in GROUP_ORDER:
            if at_end[g] or after[g]:
                print(
                    f"  {g:<22} {at_end[g] / 1024:>9,.1f} KB {n_end[g]:>5} {after[g] / 1024:>9,.1f} KB {n_after[g]:>5}"
                )
        tot_end, tot_after = sum(at_end.values()), sum(after.values())
        print(
            f"  {'total':<22} {tot_end / 1024:>9,.1f} KB {sum(n_end.values()):>5} "
            f"{tot_after / 1024:>9,.1f} KB {sum(n_after.values()):>5}"
        )
        print(
            f"  per event: {tot_end / played.version:,.0f} B at the end, {tot_after / played.version:,.0f} B archived"
        )
        for name, detail in (("at the end", other), ("archived", other2)):
            print(
                f"  rq, partition and other keys {name}: "
                + ", ".join(f"{k} {b / 1024:,.1f} KB" for k, b in detail.most_common(8))
            )
        rq_ttl = [r.ttl(k) for k in r.scan_iter(match="rq:*")]
        print(f"  rq keys left: {len(rq_ttl)}, without expiry: {sum(1 for t in rq_ttl if t == -1)}")
        print(f"  archived by the workers: {'yes' if archived else 'no'}")
        same = [name for name in served_end if served_end[name] == served_after.get(name)]
        differ = [name for name in served_end if name not in same]
        checked = check_export(served_after["export"])
        print(f"  reads after archiving equal to those at the end: {len(same)} of {len(served_end)} {differ or ''}")
        print(f"  export after archiving audited: {checked.final_state.winner} won, {checked.events} events")
        ok = not differ and tot_after <= 200 * 1024
        print(
            f"RESULT: {'ok' if ok else 'over 200 KB or a read differs'} ({tot_after / 1024:,.1f} KB per finished game)"
        )
    finally:
        if svc is not None:
            svc.stop()
        r.close()
        embedded_redis.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
