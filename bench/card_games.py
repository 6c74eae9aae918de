"""Complete card-game jousts (A Game of Thrones: The Card Game), by HTTP bots through the API, and by
the domain alone.

    .venv/bin/python bench/card_games.py                    # 12 games: every ordered pairing once (~1-2 min)
    .venv/bin/python bench/card_games.py --games 200        # the issue's 200 games, every pairing
    .venv/bin/python bench/card_games.py --part domain --domain-games 400
    .venv/bin/python bench/card_games.py --melee --games 24      # melees of 3 to 6 seats (both parts)

**API** (``--part api``): starts its own redis-server (``REDIS_URL`` if set instead, never flushed),
then the service as bench/http_commands.py does (uvicorn, the RQ worker that reveals sealed setup
and plots, the projector; ``CITADEL_GAMES=board,cards``), and plays ``--games`` jousts with
``clients.card_bot.play_card_game`` (one :class:`~clients.card_bot.CardBot` per seat: create with
two legal decks by name, join, start, every decision from ``GET /decisions`` with ``If-Match`` and an
idempotency key, long-polls in between), ``--concurrency`` at a time, cycling through the 12 ordered
pairings of the four legal decks (each deck against each other, in either seat). Then every game
is checked: its referee export (``organizer_is_referee``) goes through the offline verifier
(``verify.cli.main``, what ``citadel-verify FILE --public-key KEY`` runs: signature, chain, seed,
every event re-derived), and folding the export gives the views the API serves (public and each
seat's). Prints games/s, player commands/s, refusals (must be 0), verifier failures, fold mismatches.

**Domain** (``--part domain``): ``--domain-games`` jousts played by the random driver of
tests/domain/cards/play.py (``decide`` and ``fold`` in process, the same pairings): the commands
decided per second by ``decide`` alone, and complete games per second with the driver's choices
and the folds included.

``--melee``: both parts play melees instead, 3, 4, 5 and 6 seats in turn with the four legal decks
in rotation (repeated between seats).

The bots share the machine's cores with the service: the API figures are for the whole system.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import itertools
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx
import msgspec

from clients.card_bot import PlayedCardGame, play_card_game
from clients.citadel_client.cards import LEGAL_DECKS
from domain.cards.game import GAME
from domain.cards.rules import decide, pending_system_work
from domain.core.commands import SYSTEM, Actor, ResolvePending
from tests.domain.cards.play import Table, play_random
from tests.domain.cards.test_soak import melee_decks

PAIRINGS = list(itertools.permutations(LEGAL_DECKS, 2))
"""The 12 ordered pairings of the four legal decks (seat 1's deck, seat 2's)."""


def decks_of(i: int, melee: bool) -> tuple[str, ...]:
    """The ``i``-th game's decks: a pairing in turn, or (``--melee``) 3 to 6 seats in turn with the
    legal decks in rotation (:func:`tests.domain.cards.test_soak.melee_decks`)."""
    return melee_decks(i) if melee else PAIRINGS[i % len(PAIRINGS)]


SETTINGS = {"decision_timeout_s": 3600, "organizer_is_referee": True}


# --- domain --------------------------------------------------------------------------------------


class TimedTable(Table):
    """The domain driver, timing ``decide`` alone for each command."""

    decide_s = 0.0
    decided = 0
    player_commands = 0

    def act(self, actor: Actor, command: object) -> list[object]:
        self.now += timedelta(seconds=1)
        t0 = time.perf_counter()
        out = decide(self.state, command, actor, self.ctx())
        self.decide_s += time.perf_counter() - t0
        self.decided += 1
        self.player_commands += actor.kind == "seat" and self.state.phase != "lobby"
        self.events.extend(out)
        self.batches.append((self.now, list(out)))
        GAME.fold(out, self.state)
        if pending_system_work(self.state):
            self.act(SYSTEM, ResolvePending())
        return out


def domain_part(args: argparse.Namespace) -> bool:
    what = "melees (3 to 6 seats in turn)" if args.melee else "jousts (the 12 pairings in turn)"
    print(f"--- domain: {args.domain_games} {what}, one process", flush=True)
    decide_s = wall_s = 0.0
    decided = commands = events = 0
    errors: list[str] = []
    ends: Counter[str] = Counter()
    for i in range(args.domain_games):
        t0 = time.perf_counter()
        try:
            t = TimedTable(seed=f"bench-{args.seed}-{i}", decks=decks_of(i, args.melee))
            play_random(t, random.Random(args.seed * 100_003 + i))
        except Exception:  # noqa: BLE001 - counted and shown
            errors.append(traceback.format_exc())
            continue
        wall_s += time.perf_counter() - t0
        decide_s += t.decide_s
        decided += t.decided
        commands += t.player_commands
        events += len(t.events)
        ends[t.state.end_reason or "?"] += 1
    ok = args.domain_games - len(errors)
    print(f"  exceptions: {len(errors)}" + (f"\n  first:\n{errors[0]}" if errors else ""))
    if ok:
        print(
            f"  decide() alone: {decided:,} commands (players' and the system's) in {decide_s:.2f} s = "
            f"{decided / decide_s:,.0f} commands decided/s"
        )
        print(
            f"  complete games (driver's random choices, decisions, decide and fold): {ok} in {wall_s:.1f} s = "
            f"{ok / wall_s:.1f} games/s, {commands / ok:.0f} player commands and {events / ok:.0f} events per game"
        )
        print("  ended by: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    return not errors


# --- through the API -------------------------------------------------------------------------------


@dataclass
class ApiRun:
    played: list[PlayedCardGame] = field(default_factory=list)
    failed: list[tuple[int, str]] = field(default_factory=list)
    wall: float = 0.0


async def _play_all(base: str, n: int, concurrency: int, seed: int, melee: bool = False) -> ApiRun:
    run = ApiRun()
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            try:
                run.played.append(await play_card_game(base, decks_of(i, melee), f"bench-{seed}-{i}", SETTINGS))
            except Exception as e:  # noqa: BLE001 - counted and shown
                run.failed.append((i, f"{e!r}\n{traceback.format_exc()}"))
            if (len(run.played) + len(run.failed)) % 25 == 0:
                print(f"  {len(run.played) + len(run.failed)} games, {time.perf_counter() - t0:.0f} s", flush=True)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    run.wall = time.perf_counter() - t0
    return run


def check_games(base: str, played: list[PlayedCardGame], tmp: Path) -> tuple[list[str], list[str]]:
    """(verifier failures, fold mismatches) over the games' referee exports."""
    from verify.cli import main as verify_main

    bad_verify: list[str] = []
    bad_fold: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as c:
        key = tmp / "signing-key.json"
        key.write_bytes(c.get("/v1/signing-key").content)
        for g in played:
            r = c.get(f"/v1/games/{g.game_id}/export", headers={"Authorization": f"Bearer {g.organizer_token}"})
            path = tmp / f"{g.game_id}.json"
            path.write_bytes(r.content)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = verify_main([str(path), "--public-key", str(key), "--require-complete"])
            if status != 0 or not out.getvalue().rstrip().endswith("VERIFIED"):
                bad_verify.append(f"{g.game_id} ({'/'.join(g.decks)}): exit {status}: {out.getvalue()[-500:]}")
            events = r.json()["events"]
            state = GAME.fold(
                msgspec.json.decode(msgspec.json.encode(e["event"]), type=GAME.event_type) for e in events
            )
            for reader, token in [(None, None), *g.seats.items()]:
                served = c.get(
                    f"/v1/games/{g.game_id}/view" if token else f"/v1/games/{g.game_id}",
                    params={"min_version": g.version},
                    headers={"Authorization": f"Bearer {token}"} if token else {},
                ).json()
                if served != msgspec.to_builtins(GAME.view(state, reader)):
                    bad_fold.append(f"{g.game_id}: the view of {reader or 'a spectator'} differs")
            path.unlink()
    return bad_verify, bad_fold


def api_part(args: argparse.Namespace) -> bool:
    from bench.http_commands import Service
    from service.store import embedded_redis

    os.environ["CITADEL_GAMES"] = "board,cards"
    redis_tmp = Path(tempfile.mkdtemp(prefix="citadel-bench-redis-"))
    redis_proc = None
    url = os.environ.get("REDIS_URL")
    if not url:
        redis_proc, port = embedded_redis.start(redis_tmp, persist=False)
        url = f"redis://127.0.0.1:{port}/0"
    logdir = Path(tempfile.mkdtemp(prefix="citadel-bench-logs-"))
    what = (
        "melees (3 to 6 seats in turn)" if args.melee else "jousts (the 12 ordered pairings of the legal decks in turn)"
    )
    print(
        f"--- API: {args.games} {what}, {args.concurrency} at a "
        f"time, {args.workers} API worker(s); redis {url}{'' if redis_proc else ' (REDIS_URL)'}",
        flush=True,
    )
    ok = True
    try:
        svc = Service(url, args.workers, logdir)
        try:
            svc.wait_ready()
            run = asyncio.run(_play_all(svc.base, args.games, args.concurrency, args.seed, args.melee))
            played = run.played
            for i, err in run.failed[:3]:
                print(f"  game {i} failed: {err}")
            commands = sum(g.stats.accepted for g in played)
            refused = sum(g.stats.refused for g in played)
            print(
                f"  {len(played)} complete games in {run.wall:.1f} s = {len(played) / run.wall:.2f} games/s "
                f"({len(run.failed)} failed); {commands:,} player commands = {commands / run.wall:,.0f} commands/s"
            )
            print(
                f"  refusals: {refused}"
                + (f" {dict(Counter({k: v for g in played for k, v in g.stats.refusals.items()}))}" if refused else "")
                + f"; stale versions re-read: {sum(g.stats.stale for g in played)}; "
                f"fallbacks: {sum(g.stats.fallbacks for g in played)}"
            )
            if not played:
                return False
            secs = sorted(g.seconds for g in played)
            print(
                f"  per game: {statistics.mean(g.version for g in played):.0f} events, "
                f"{commands / len(played):.0f} commands, {statistics.mean(g.stats.requests for g in played):.0f} "
                f"HTTP requests, {statistics.mean(g.round for g in played):.1f} rounds; seconds per game "
                f"(with {args.concurrency} at once) p50 {statistics.median(secs):.1f}, max {secs[-1]:.1f}"
            )
            kinds: Counter[str] = Counter()
            for g in played:
                kinds.update(g.stats.by_kind)
            print("  decisions answered, by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
            print(
                "  ended by: "
                + ", ".join(f"{k} {v}" for k, v in Counter(g.end_reason or "?" for g in played).most_common())
                + "; winners by deck: "
                + ", ".join(
                    f"{k} {v}"
                    for k, v in Counter(
                        g.decks[int(g.winner[-1]) - 1] for g in played if g.winner and g.winner[-1].isdigit()
                    ).most_common()
                )
            )
            pairs = Counter(g.decks for g in played)
            if args.melee:
                seats = Counter(len(g.decks) for g in played)
                print("  melees played by seats: " + ", ".join(f"{k} seats {v}" for k, v in sorted(seats.items())))
            else:
                print(
                    f"  pairings played: {len(pairs)} of {len(PAIRINGS)} "
                    f"(each {min(pairs.values())}-{max(pairs.values())} times)"
                )
            t0 = time.perf_counter()
            bad_verify, bad_fold = check_games(svc.base, played, logdir)
            print(
                f"  verifier failures: {len(bad_verify)}; fold mismatches: {len(bad_fold)} "
                f"(of {len(played)} exports, checked in {time.perf_counter() - t0:.0f} s)"
                + "".join(f"\n    {p}" for p in (bad_verify + bad_fold)[:5])
            )
            tracebacks = [p.name for p in logdir.glob("*.log") if "Traceback" in p.read_text(errors="replace")]
            print(f"  service logs with a traceback: {tracebacks or 'none'}")
            ok = not run.failed and not refused and not bad_verify and not bad_fold and not tracebacks
        finally:
            svc.stop()
    finally:
        if redis_proc is not None:
            embedded_redis.stop(redis_proc)
        shutil.rmtree(redis_tmp, ignore_errors=True)
        if args.keep_logs:
            print(f"  service logs: {logdir}")
        else:
            shutil.rmtree(logdir, ignore_errors=True)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--part", choices=["api", "domain", "both"], default="both")
    ap.add_argument("--games", type=int, default=12, help="API: complete jousts (12: every ordered pairing once)")
    ap.add_argument("--concurrency", type=int, default=4, help="API: games played at once")
    ap.add_argument("--workers", type=int, default=1, help="API: uvicorn worker processes")
    ap.add_argument("--domain-games", type=int, default=120, help="domain: complete jousts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep-logs", action="store_true")
    ap.add_argument("--melee", action="store_true", help="melees of 3 to 6 seats instead of jousts")
    args = ap.parse_args()
    print(
        f"card_games  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  "
        f"{os.cpu_count()} cores  load avg {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    ok = True
    if args.part in ("api", "both"):
        ok &= api_part(args)
    if args.part in ("domain", "both"):
        ok &= domain_part(args)
    print("RESULT: " + ("ok" if ok else "PROBLEMS (see above)"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
