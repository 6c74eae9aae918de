"""Complete games, from setup to a winner: by the domain alone (a soak), and through the API with bots.

    .venv/bin/python bench/full_games.py                       # both parts, ~2 min each
    .venv/bin/python bench/full_games.py --part domain --games 400 [--procs 2]
    .venv/bin/python bench/full_games.py --part api --api-games 32 --concurrency 4 [--workers 1]

**Domain** (``--part domain``): ``--games`` complete random games for 3, 4, 5 and 6 players in turn,
with the random-legal driver of tests/support/full_games.py (every command through
``decide`` and ``fold``; 3% of the decisions left to time out so the defaults run). Each game is
played twice from the same seeds: once *timed* without checks (the games/s figure: the rules'
decide + fold, the driver's random choices and the rejected random attempts included), once as the
*soak* with the invariants checked after every batch, and then re-folded from JSON (byte for byte
the same state) and audited like an export (hash chain, seed commitment, every shuffle, every
player's command re-decided). Exceptions and invariant violations are counted (both must be 0);
the first traceback of each kind is printed.

**API** (``--part api``): starts the service the way bench/http_commands.py does (its
``RedisChoice`` and ``Service``: uvicorn ``--workers N``, the RQ worker, the projector), then plays
``--api-games`` games with ``clients.bot.play_game`` (one bot per seat; create, join, start, every
decision through ``GET /decisions`` and ``POST /commands``, long-polls in between), at most
``--concurrency`` at a time, all in this one asyncio process. Prints complete games/s, seconds per
game, events and commands per game, HTTP requests per game, and the bytes per game in Redis
(``MEMORY USAGE ... SAMPLES 0`` of each of the game's keys: events stream, snapshot, idempotency
answers, seed, read models: views, log, projected version; plus the game's share of its partition
feed). Every game's export is then checked like in the test suite (tests/support/export_checks.py: audit,
invariants batch by batch, and the folded state's public view equal to the API's).

The client (all bots) shares the machine's cores with the service: the figures are for the whole
system on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec

from domain.board.audit import audit
from domain.board.decider import fold
from domain.board.mod_events import PlayerLeft
from domain.board.state import Settings
from tests.support import full_games as fg

_json = msgspec.json.Encoder()


# --- domain --------------------------------------------------------------------------------------


class InvariantBroken(AssertionError):
    pass


class TimedGame(fg.FullGame):
    """The driver without the per-batch invariant checks (for the games/s figure)."""

    def apply(self, events, now=None):
        self.batch_starts.append(len(self.events))
        self.batch_times.append(now or self.ctx.now)
        self.state = fold(events, self.state)
        self.events.extend(events)
        self.batches += 1
        return events


class SoakGame(fg.FullGame):
    """The driver with the invariant checks (``tests/support/full_games.py``), a broken one reported
    as :class:`InvariantBroken`."""

    def apply(self, events, now=None):
        try:
            return super().apply(events, now)
        except AssertionError as e:
            raise InvariantBroken(f"after batch {self.batches} ({self.state.phase}/{self.state.step}): {e!r}") from None


VARIANTS = ("base", "tides", "mod")
"""The domain part's games: the base game, with Tides of Battle (BG-TIDES-*), or Mother of Dragons
without Targaryen (issue 13: 3-7 players, vassals for the houses nobody plays)."""


def _players(i: int, variant: str = "base") -> int:
    return 3 + i % 5 if variant == "mod" else 3 + i % 4


def _settings(variant: str, i: int = 0) -> Settings | None:
    """Every third Mother of Dragons game (i % 3 == 1) runs the timeout policy: a seat that misses 2
    deadlines in a row becomes a vassal (MOD-FLEX-01, ``vassal_after_missed_deadlines``)."""
    if variant == "tides":
        return Settings(tides_of_battle=True)
    if variant == "mod":
        return Settings(expansion="mother_of_dragons", vassal_after_missed_deadlines=2 if i % 3 == 1 else None)
    return None


LEAVE_RATE = 0.004
"""Every third Mother of Dragons game (i % 3 == 2): at each step a random player leaves with this
chance (MOD-FLEX-01, while at least two players remain)."""


def _game(cls, i: int, base_seed: int, variant: str):
    g = cls(_players(i, variant), f"soak-{base_seed}-{i}", _settings(variant, i))
    if variant == "mod" and i % 3 == 2:
        g.leave_rate = LEAVE_RATE
    return g


def play_timed(i: int, base_seed: int, variant: str = "base") -> dict:
    t0 = time.perf_counter()
    try:
        g = _game(TimedGame, i, base_seed, variant)
        g.play(random.Random(base_seed * 100_003 + i))
    except Exception as e:  # noqa: BLE001 - counted and shown
        return {"i": i, "seconds": time.perf_counter() - t0, "error": type(e).__name__, "trace": traceback.format_exc()}
    return {
        "i": i,
        "seconds": time.perf_counter() - t0,
        "events": len(g.events),
        "batches": g.batches,
        "state": msgspec.msgpack.encode(g.state),
    }


def play_soak(i: int, base_seed: int, timed_state: bytes | None, variant: str = "base") -> dict:
    out: dict = {"i": i, "players": _players(i, variant)}
    t0 = time.perf_counter()
    try:
        g = _game(SoakGame, i, base_seed, variant)
        g.play(random.Random(base_seed * 100_003 + i))
    except InvariantBroken as e:
        return {**out, "invariant": str(e), "trace": traceback.format_exc()}
    except Exception as e:  # noqa: BLE001
        return {**out, "error": type(e).__name__, "trace": traceback.format_exc()}
    out["soak_s"] = time.perf_counter() - t0
    s = g.state
    out.update(
        events=len(g.events),
        batches=g.batches,
        round=s.round,
        winner=s.winner,
        reason=g.events[-1].reason,
        json_bytes=sum(len(_json.encode(e)) for e in g.events),
        left=sum(1 for e in g.events if isinstance(e, PlayerLeft) and not e.missed_deadlines),
        left_by_policy=sum(1 for e in g.events if isinstance(e, PlayerLeft) and e.missed_deadlines),
    )
    out["same_as_timed"] = timed_state is None or timed_state == msgspec.msgpack.encode(s)
    t0 = time.perf_counter()
    out["refold_ok"] = g.same_as_refold()
    report = audit(g.envelopes(), seed=g.ctx.seed)  # sealed batch by batch at their times
    out["audit_ok"] = bool(
        report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok and not report.problems
    )
    out["audit_problems"] = report.problems[:3]
    out["audit_same_state"] = msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(s)
    out["check_s"] = time.perf_counter() - t0
    return out


def _both(args: tuple[int, int, str]) -> tuple[dict, dict]:
    i, base_seed, variant = args
    timed = play_timed(i, base_seed, variant)
    soak = play_soak(i, base_seed, timed.pop("state", None), variant)
    return timed, soak


def domain_part(args) -> bool:
    variant = "mod" if args.mother_of_dragons else "tides" if args.tides else "base"
    what = {
        "base": "3-6 players in turn",
        "tides": "3-6 players in turn, Tides of Battle on",
        "mod": "Mother of Dragons, 3-7 players in turn",
    }[variant]
    print(f"--- domain: {args.games} complete games ({what}), {args.procs} process(es)", flush=True)
    jobs = [(i, args.seed, variant) for i in range(args.games)]
    wall = time.perf_counter()
    if args.procs > 1:
        with ProcessPoolExecutor(args.procs) as ex:
            results = list(ex.map(_both, jobs, chunksize=4))
    else:
        results = []
        for n, j in enumerate(jobs, 1):
            results.append(_both(j))
            if n % 50 == 0:
                print(f"  {n} games, {time.perf_counter() - wall:.0f} s", flush=True)
    wall = time.perf_counter() - wall
    timed = [t for t, _ in results]
    soak = [s for _, s in results]
    errors = [r for r in timed + soak if "error" in r]
    broken = [s for s in soak if "invariant" in s]
    ok = [s for s in soak if "events" in s]
    ok_timed = [t for t in timed if "events" in t]
    timed_s = sum(t["seconds"] for t in ok_timed)
    print(f"  wall {wall:.1f} s for both passes of every game")
    print(f"  exceptions: {len(errors)}   invariant violations: {len(broken)}")
    for kind, group in (("exception", errors), ("invariant", broken)):
        seen = set()
        for r in group:
            key = r.get("error") or r.get("invariant", "")[:80]
            if key not in seen:
                seen.add(key)
                print(f"  first {kind} (game {r['i']}):\n{r['trace']}")
    refold_bad = [s["i"] for s in ok if not s["refold_ok"]]
    audit_bad = [(s["i"], s["audit_problems"]) for s in ok if not (s["audit_ok"] and s["audit_same_state"])]
    nondet = [s["i"] for s in ok if not s["same_as_timed"]]
    print(
        f"  re-fold from JSON differs: {len(refold_bad)} {refold_bad[:10]}   audit failed: {len(audit_bad)} {audit_bad[:3]}   "
        f"timed and soak runs differ: {len(nondet)}"
    )
    if ok_timed:
        ev = [t["events"] for t in ok_timed]
        print(
            f"  timed pass (no checks): {len(ok_timed)} games in {timed_s:.1f} s of one core = "
            f"{len(ok_timed) / timed_s:.1f} complete games/s per core, {sum(ev) / timed_s:,.0f} events/s"
        )
    if ok:
        soak_s = sum(s["soak_s"] for s in ok)
        check_s = sum(s["check_s"] for s in ok)
        print(
            f"  soak pass (invariants after every batch): {len(ok) / soak_s:.1f} games/s per core; "
            f"re-fold + audit {1000 * check_s / len(ok):.0f} ms per game"
        )
        print(
            f"  {'players':>7} {'games':>6} {'events/game':>12} {'batches/game':>13} {'JSON KB/game':>13} {'ms/game':>8}  ended by"
        )
        by_p: dict[int, list[dict]] = {}
        for s, t in zip(soak, timed):
            if "events" in s and "events" in t:
                by_p.setdefault(s["players"], []).append({**s, "seconds": t["seconds"]})
        for p in sorted(by_p):
            g = by_p[p]
            reasons = Counter(x["reason"] for x in g)
            print(
                f"  {p:>7} {len(g):>6} {statistics.mean(x['events'] for x in g):>12,.0f} "
                f"{statistics.mean(x['batches'] for x in g):>13,.0f} {statistics.mean(x['json_bytes'] for x in g) / 1024:>13,.0f} "
                f"{1000 * statistics.mean(x['seconds'] for x in g):>8.0f}  "
                + ", ".join(f"{k} {v}" for k, v in reasons.most_common())
            )
        winners = Counter(s["winner"] for s in ok)
        print("  winners: " + ", ".join(f"{h} {n}" for h, n in winners.most_common()))
        if variant == "mod":  # MOD-FLEX-01: leave_game and the timeout policy
            leavers = [s for s in ok if s["left"] or s["left_by_policy"]]
            print(
                f"  players who left: {sum(s['left'] for s in ok)} by leave_game, "
                f"{sum(s['left_by_policy'] for s in ok)} by the timeout policy, in {len(leavers)} games"
            )
    return not (errors or broken or refold_bad or audit_bad or nondet)


# --- through the API -------------------------------------------------------------------------------


@dataclass
class ApiResult:
    played: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    wall: float = 0.0


async def _play_all(
    base: str, n: int, concurrency: int, players: list[int], seed: int, settings: dict | None = None
) -> ApiResult:
    from clients.bot import play_game

    res = ApiResult()
    game_settings = {"decision_timeout_s": 3600, **(settings or {})}
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            try:
                res.played.append(await play_game(base, players[i % len(players)], f"bench-{seed}-{i}", game_settings))
            except Exception as e:  # noqa: BLE001 - counted and shown
                res.failed.append((i, repr(e), traceback.format_exc()))

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    res.wall = time.perf_counter() - t0
    return res


def _key_group(key: str) -> str:
    suffix = key.split(":game:", 1)[1].split(":", 1)[1]
    return "views" if suffix.startswith("view:") else suffix


def redis_bytes(url: str, game_ids: list[str], versions: dict[str, int]) -> tuple[dict[str, list[int]], int, int]:
    """(key group -> bytes of each game, feed bytes, feed entries) once the projector caught up."""
    import redis

    from service.store.config import Config
    from service.store.keys import Keys, feed_key

    partitions = Config.from_env().partitions
    r = redis.Redis.from_url(url)
    try:
        deadline = time.monotonic() + 30
        for g in game_ids:  # the read models are written by the projector: wait until it is done
            k = Keys(g, partitions)
            while int(r.hget(k.proj, "version") or 0) < versions[g] and time.monotonic() < deadline:
                time.sleep(0.1)
        out: dict[str, list[int]] = {}
        for g in game_ids:
            k = Keys(g, partitions)
            per: Counter = Counter()
            for key in r.scan_iter(match=f"{{p{k.partition:02d}}}:game:{g}:*", count=1000):
                per[_key_group(key.decode())] += r.memory_usage(key, samples=0) or 0
            for group, b in per.items():
                out.setdefault(group, []).append(b)
        feed = sum(r.memory_usage(feed_key(p), samples=0) or 0 for p in range(partitions))
        entries = sum(r.xlen(feed_key(p)) for p in range(partitions))
        return out, feed, entries
    finally:
        r.close()


def check_api_games(base: str, played: list) -> list[str]:
    import httpx

    from domain.board.redaction import view_for
    from tests.support.export_checks import check_export

    problems = []
    with httpx.Client(base_url=base, timeout=30) as c:
        for g in played:
            try:
                ex = c.get(f"/v1/games/{g.game_id}/export", headers={"Authorization": f"Bearer {g.organizer_token}"})
                checked = check_export(ex.content)
                public = c.get(f"/v1/games/{g.game_id}", params={"min_version": g.version}).json()
                assert msgspec.json.decode(_json.encode(view_for(checked.final_state, None))) == public, (
                    "public view differs"
                )
                assert public["winner"] and public["step"] == "game_over"
            except AssertionError as e:
                problems.append(f"{g.game_id}: {e}")
    return problems


def _cpu(svc, rc) -> dict[str, float]:
    """CPU seconds used so far by each service process, Redis, and this process (the bots)."""
    from bench.http_commands import CLK_TCK

    ticks = svc.cpu_ticks()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {
        **{k: v / CLK_TCK for k, v in ticks.items()},
        "redis": rc.cpu_seconds(),
        "bots (client)": ru.ru_utime + ru.ru_stime,
    }


def api_part(args) -> bool:
    from bench.http_commands import RedisChoice, Service

    rc = RedisChoice()
    logdir = Path(tempfile.mkdtemp(prefix="citadel-bench-logs-"))
    mod = args.mother_of_dragons
    players = [int(x) for x in (args.players or ("3,4,5,6,7" if mod else "3,4,5,6")).split(",")]
    settings = {"expansion": "mother_of_dragons"} if mod else None
    print(
        f"--- API: {args.api_games} {'Mother of Dragons ' if mod else ''}games ({'/'.join(map(str, players))} players "
        f"in turn), {args.concurrency} at a time, "
        f"{args.workers} API worker(s); redis: {rc.what}, version {rc.version}",
        flush=True,
    )
    ok = True
    try:
        rc.flush()
        svc = Service(rc.url, args.workers, logdir)
        try:
            svc.wait_ready()
            cpu0 = _cpu(svc, rc)
            res = asyncio.run(_play_all(svc.base, args.api_games, args.concurrency, players, args.seed, settings))
            cpu = {k: v - cpu0[k] for k, v in _cpu(svc, rc).items()}
            played = res.played
            for i, err, tb in res.failed[:3]:
                print(f"  game {i} failed: {err}\n{tb}")
            print(
                f"  {len(played)} complete games in {res.wall:.1f} s = {len(played) / res.wall:.2f} games/s "
                f"({len(res.failed)} failed)",
                flush=True,
            )
            if not played:
                return False
            secs = sorted(g.seconds for g in played)
            print(
                f"  seconds per game (with {args.concurrency} at once): p50 {statistics.median(secs):.1f}, max {secs[-1]:.1f}"
            )
            print(
                f"  {'players':>7} {'games':>6} {'events/game':>12} {'commands/game':>14} {'refused':>8} {'stale':>6} "
                f"{'fallbacks':>9} {'requests/game':>14} {'s/game':>7}"
            )
            for p in players:
                gs = [g for g in played if len(g.seats) == p]
                if gs:
                    print(
                        f"  {p:>7} {len(gs):>6} {statistics.mean(g.version for g in gs):>12,.0f} "
                        f"{statistics.mean(g.stats.accepted for g in gs):>14,.0f} {statistics.mean(g.stats.refused for g in gs):>8.1f} "
                        f"{statistics.mean(g.stats.stale for g in gs):>6.1f} {statistics.mean(g.stats.fallbacks for g in gs):>9.1f} "
                        f"{statistics.mean(g.stats.requests for g in gs):>14,.0f} {statistics.mean(g.seconds for g in gs):>7.1f}"
                    )
            print(
                "  CPU seconds per game: "
                + ", ".join(f"{k} {v / len(played):.2f}" for k, v in cpu.items())
                + f"  (total {sum(cpu.values()) / len(played):.2f} s of {os.cpu_count()} cores)"
            )
            events = sum(g.version for g in played)
            print(
                f"  {events / res.wall:,.0f} events/s, {sum(g.stats.accepted for g in played) / res.wall:,.0f} player commands/s, "
                f"{sum(g.stats.requests for g in played) / res.wall:,.0f} bot HTTP requests/s"
            )
            per, feed, feed_entries = redis_bytes(
                rc.url, [g.game_id for g in played], {g.game_id: g.version for g in played}
            )
            print("  bytes per game in Redis (MEMORY USAGE, mean over the games):")
            total = 0.0
            for group in ("events", "idem", "snap", "seed", "views", "log", "proj"):
                if group in per:
                    m = statistics.mean(per[group])
                    total += m
                    print(f"    {group:<8} {m / 1024:>9,.1f} KB")
            for group in sorted(set(per) - {"events", "idem", "snap", "seed", "views", "log", "proj"}):
                m = statistics.mean(per[group])
                total += m
                print(f"    {group:<8} {m / 1024:>9,.1f} KB")
            if rc.owned:  # a flushed database: the feeds hold only these games
                share = feed / len(played)
                total += share
                print(
                    f"    {'feed':<8} {share / 1024:>9,.1f} KB  (partition feeds: {feed_entries:,} entries, {feed / max(1, feed_entries):.0f} B each)"
                )
            mean_events = statistics.mean(g.version for g in played)
            print(
                f"    {'total':<8} {total / 1024:>9,.1f} KB per game, {total / mean_events:,.0f} B per event "
                f"(events stream alone {statistics.mean(per['events']) / mean_events:,.0f} B per event)"
            )
            problems = check_api_games(svc.base, played)
            print(
                f"  exports checked (audit, invariants batch by batch, public view): {len(played) - len(problems)} ok, "
                f"{len(problems)} failed" + "".join(f"\n    {p}" for p in problems[:5])
            )
            tracebacks = [p.name for p in logdir.glob("*.log") if "Traceback" in p.read_text(errors="replace")]
            print(f"  service logs with a traceback: {tracebacks or 'none'}")
            ok = not res.failed and not problems and not tracebacks
        finally:
            svc.stop()
    finally:
        rc.flush()
        rc.close()
        if args.keep_logs:
            print(f"  service logs: {logdir}")
        else:
            shutil.rmtree(logdir, ignore_errors=True)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=["domain", "api", "both"], default="both")
    ap.add_argument("--games", type=int, default=400, help="domain: complete games")
    ap.add_argument("--procs", type=int, default=1, help="domain: processes (1: the per-core figure)")
    ap.add_argument("--tides", action="store_true", help="domain: games with the Tides of Battle variant (BG-TIDES-*)")
    ap.add_argument(
        "--mother-of-dragons",
        action="store_true",
        help="Mother of Dragons games without Targaryen (3-7 players, vassals), in both parts",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--api-games", type=int, default=32, help="API: complete games")
    ap.add_argument("--concurrency", type=int, default=4, help="API: games played at once")
    ap.add_argument(
        "--players",
        default=None,
        help="API: player counts, in turn (default 3,4,5,6; 3,4,5,6,7 with --mother-of-dragons)",
    )
    ap.add_argument("--workers", type=int, default=1, help="API: uvicorn worker processes")
    ap.add_argument("--keep-logs", action="store_true")
    args = ap.parse_args()
    print(
        f"full_games  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  "
        f"{os.cpu_count()} cores  load avg {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    ok = True
    if args.part in ("domain", "both"):
        ok &= domain_part(args)
    if args.part in ("api", "both"):
        ok &= api_part(args)
    print("RESULT: " + ("ok" if ok else "PROBLEMS (see above)"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
