"""``citadel``: the composition root. Run the whole service, or one part of it.

citadel run         API + RQ worker + projector; embedded Redis without REDIS_URL
citadel api         the HTTP API only (uvicorn)
citadel worker      an RQ worker (it also fires due deadlines: workers/sweep.py)
citadel projector   the projector
citadel rebuild     rebuild every read model from the streams
citadel openapi     write openapi/openapi.json from the app
citadel probe FILE  exit 0 if a worker's or projector's ready file is fresh (a readiness probe)
citadel bot         random bots: one seat (--game G --token T), K free seats (--game G --join K),
                    or a whole game of bots (--new N)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec

from clients import bot as random_bot
from projections.rebuild import main as rebuild
from service.http.app import create_app
from service.processes import api_command, projector_command, worker_command
from service.store import embedded_redis
from service.store.readiness import DEFAULT_MAX_AGE_S, is_ready


def _worker() -> list[str]:
    url = os.environ.get("CITADEL_QUEUE_URL") or os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    return worker_command(url, os.environ.get("CITADEL_QUEUE", "citadel"))


def run(args: argparse.Namespace) -> int:
    redis_proc = None
    if not os.environ.get("REDIS_URL"):
        data = Path(args.data_dir).resolve()
        redis_proc, port = embedded_redis.start(data, port=args.redis_port)
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        print(f"citadel: embedded redis on 127.0.0.1:{port}, data in {data} (AOF on)", flush=True)
    commands = {
        "api": api_command(args.host, args.port, args.workers),
        "worker": _worker(),
        "projector": projector_command(),
    }
    procs = {name: subprocess.Popen(argv) for name, argv in commands.items()}
    print(f"citadel: API on http://{args.host}:{args.port}  (docs: /schema)  Ctrl-C stops everything", flush=True)
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = 0
    try:
        while not stopping:
            for name, p in procs.items():
                if p.poll() is not None:
                    print(f"citadel: the {name} exited with {p.returncode}; stopping", flush=True)
                    stopping, code = True, 1
            time.sleep(0.2)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs.values():
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        if redis_proc is not None:
            embedded_redis.stop(redis_proc)
        print("citadel: stopped", flush=True)
    return code


def write_openapi(path: Path) -> None:
    doc = json.loads(msgspec.json.encode(create_app().openapi_schema.to_schema()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")


def bot(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.new is not None:
        if args.game or args.token or args.join:
            parser.error("--new creates its own game: leave out --game, --token and --join")
        if not 3 <= args.new <= 6:
            parser.error("--new takes 3 to 6 players")
        g = random_bot.main_new_game(args.base, args.new, args.seed, args.timeout)
        s = g.stats
        print(
            f"game {g.game_id}: {g.winner} won in round {g.round}, version {g.version}, {g.seconds:.1f} s; "
            f"{s.accepted} commands accepted, {s.refused} refused, {s.stale} stale, {s.fallbacks} fallbacks",
            flush=True,
        )
        print(f"organizer token: {g.organizer_token}", flush=True)
        return 0
    if args.game and args.join and not args.token:
        stats = random_bot.main_fill(args.base, args.game, args.join, args.seed)
        print(
            f"game {args.game} ended: {len(stats)} seat(s) played, {sum(s.accepted for s in stats)} commands accepted, "
            f"{sum(s.refused for s in stats)} refused, {sum(s.fallbacks for s in stats)} fallbacks",
            flush=True,
        )
        return 0
    if not (args.game and args.token) or args.join:
        parser.error("give --game and --token (one seat), --game and --join K (free seats), or --new N (a whole game)")
    s = random_bot.main_one_seat(args.base, args.game, args.token, args.seed)
    print(
        f"game {args.game} ended: {s.accepted} commands accepted, {s.refused} refused, {s.stale} stale, "
        f"{s.fallbacks} fallbacks",
        flush=True,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="citadel")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--host", default="127.0.0.1")
    r.add_argument("--port", type=int, default=8000)
    r.add_argument(
        "--workers", type=int, default=1, help="API processes (one is fastest on 2 cores, see docs/benchmarks.md)"
    )
    r.add_argument("--data-dir", default=".citadel-data")
    r.add_argument("--redis-port", type=int, default=None)
    a = sub.add_parser("api")
    a.add_argument("--host", default="127.0.0.1")
    a.add_argument("--port", type=int, default=8000)
    a.add_argument("--workers", type=int, default=1)
    sub.add_parser("worker")
    sub.add_parser("projector")
    sub.add_parser("rebuild")
    pr = sub.add_parser("probe", help="readiness of a worker or projector (service/store/readiness.py)")
    pr.add_argument("file", help="the process's CITADEL_READY_FILE")
    pr.add_argument("--max-age", type=float, default=DEFAULT_MAX_AGE_S, help="seconds a write stays fresh")
    o = sub.add_parser("openapi")
    o.add_argument("--out", default="openapi/openapi.json")
    b = sub.add_parser("bot", help="play by random legal choices through the API (clients/bot.py)")
    b.add_argument("--base", default="http://127.0.0.1:8000", help="the API's base URL")
    b.add_argument("--game", help="the game to play in (with --token)")
    b.add_argument("--token", help="the seat's bearer token (with --game)")
    b.add_argument("--join", type=int, metavar="K", help="join K free seats of --game (before it starts) and play them")
    b.add_argument("--new", type=int, metavar="N", help="create an N-player game and play every seat")
    b.add_argument("--seed", default="0", help="seed of the bot's random choices")
    b.add_argument("--timeout", type=int, default=600, help="with --new: the game's decision_timeout_s")
    args = ap.parse_args(argv)
    if args.cmd == "bot":
        return bot(args, b)
    if args.cmd == "run":
        return run(args)
    if args.cmd == "api":
        os.execv(sys.executable, api_command(args.host, args.port, args.workers))
    if args.cmd == "worker":
        os.execv(sys.executable, _worker())
    if args.cmd == "projector":
        os.execv(sys.executable, projector_command())
    if args.cmd == "probe":
        ready = is_ready(args.file, args.max_age)
        print("ready" if ready else "not ready")
        return 0 if ready else 1
    if args.cmd == "rebuild":
        rebuild()
        return 0
    if args.cmd == "openapi":
        write_openapi(Path(args.out))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
