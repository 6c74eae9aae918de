"""An invariant soak of the card game in the domain: random jousts to a winner, checked after every batch.

    .venv/bin/python bench/card_soak.py                  # 200 games (~2 min)
    .venv/bin/python bench/card_soak.py --games 1000     # the issue's 1,000 games
    .venv/bin/python bench/card_soak.py --games 1000 --procs 2 --audit
    .venv/bin/python bench/card_soak.py --games 100 --digest > a.txt   # one line per game: diff two runs
    .venv/bin/python bench/card_soak.py --games 200 --melee --audit     # melees of 3 to 6 seats

Each game is played by the random driver of tests/domain/cards/play.py (every decision answered at
random from its legal options, 5% of the steps of every other game left to their deadline so the
documented defaults run), cycling through the 12 ordered pairings of the four legal decks. After
every batch the invariants of tests/domain/cards/test_soak.py (:func:`violations`) are checked:
every card in exactly one zone (cards conserved), gold and power never negative, a unique title at
most once in play per player (CG-UNIQUE-01), attachments on cards in play. After the game, its
events are encoded to JSON, decoded and folded again: the state must be byte for byte the same
(msgpack); with ``--audit``, the stream sealed batch by batch is also audited like an export (hash
chain, seed, shuffles, sealed commitments, every event re-derived). Prints exceptions, invariant
violations, re-fold and audit differences (all must be 0), games/s (wall clock, and per CPU second of
the process: steadier on a shared machine) and how the games ended. With
``--digest``, one line per game (in game order): its number, events, rounds, winner, how it ended,
and SHA-256 digests of its event stream (JSON) and of its final state (msgpack), so that two runs
with the same seed (before and after a change to the domain) can be compared with ``diff``.
With ``--melee``, the games are melees of 3, 4, 5 and 6 seats in turn, the four legal decks in
rotation (repeated between seats), with the same checks and the titles' invariants.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import platform
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec

from domain.cards.game import GAME
from domain.cards.state import CardState
from tests.domain.cards.play import Table, envelopes, play_random
from tests.domain.cards.test_soak import DECKS, melee_decks, violations

PAIRINGS = list(itertools.permutations(DECKS, 2))


class InvariantBroken(Exception):
    pass


class SoakTable(Table):
    """The domain driver with :func:`violations` checked after every batch."""

    def act(self, actor: Any, command: object) -> list[object]:
        out = super().act(actor, command)
        found = violations(self.state)
        if found:
            raise InvariantBroken(f"after {type(command).__name__} at {self.state.phase}/{self.state.step}: {found}")
        return out


def _bytes(state: CardState) -> bytes:
    return msgspec.msgpack.encode(state)


def play_one(job: tuple[int, int, bool, bool]) -> dict[str, Any]:
    i, seed, with_audit, melee = job
    decks = melee_decks(i) if melee else PAIRINGS[i % len(PAIRINGS)]
    out: dict[str, Any] = {"i": i, "decks": decks}
    t0, cpu0 = time.perf_counter(), time.process_time()
    try:
        t = SoakTable(seed=f"card-{'melee' if melee else 'soak'}-{seed}-{i}", decks=decks)
        play_random(t, random.Random(seed * 100_003 + i), timeouts=0.05 if i % 2 else 0.0)
    except InvariantBroken as e:
        return {**out, "invariant": str(e)}
    except Exception as e:  # noqa: BLE001 - counted and shown
        return {**out, "error": type(e).__name__, "trace": traceback.format_exc()}
    out["seconds"], out["cpu"] = time.perf_counter() - t0, time.process_time() - cpu0
    s = t.state
    out.update(events=len(t.events), reason=s.end_reason, winner=s.winner, round=s.round, ended=s.phase == "ended")
    encoded = [msgspec.json.encode(e) for e in t.events]
    out["events_digest"] = hashlib.sha256(b"\n".join(encoded)).hexdigest()[:16]
    out["state_digest"] = hashlib.sha256(_bytes(s)).hexdigest()[:16]
    again = GAME.fold(msgspec.json.decode(b, type=GAME.event_type) for b in encoded)
    out["refold_ok"] = _bytes(again) == _bytes(s)
    if with_audit:
        report = GAME.audit(envelopes(t), t.seed)
        out["audit_ok"] = bool(
            report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok and not report.problems
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--audit", action="store_true", help="also audit every game like an export")
    ap.add_argument("--melee", action="store_true", help="melees of 3 to 6 seats instead of jousts")
    ap.add_argument(
        "--digest",
        action="store_true",
        help="print one line per game: events, rounds, winner, end, digests of its events and final state",
    )
    args = ap.parse_args()
    print(
        f"card_soak  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  "
        f"{os.cpu_count()} cores  load avg {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    what = "melees (3 to 6 seats in turn)" if args.melee else "jousts (the 12 pairings in turn)"
    print(f"--- {args.games} random {what}, {args.procs} process(es)", flush=True)
    jobs = [(i, args.seed, args.audit, args.melee) for i in range(args.games)]
    wall = time.perf_counter()
    results: list[dict[str, Any]] = []
    if args.procs > 1:
        with ProcessPoolExecutor(args.procs) as ex:
            results = list(ex.map(play_one, jobs, chunksize=4))
    else:
        for n, job in enumerate(jobs, 1):
            results.append(play_one(job))
            if n % 100 == 0:
                print(f"  {n} games, {time.perf_counter() - wall:.0f} s", flush=True)
    wall = time.perf_counter() - wall
    if args.digest:
        for r in results:
            if "events" in r:
                print(
                    f"  game {r['i']} {'/'.join(r['decks'])}: {r['events']} events, round {r['round']}, "
                    f"winner {r['winner']} ({r['reason']}), events {r['events_digest']}, state {r['state_digest']}"
                )
            else:
                print(f"  game {r['i']} {'/'.join(r['decks'])}: {r.get('error') or 'invariant broken'}")
    errors = [r for r in results if "error" in r]
    broken = [r for r in results if "invariant" in r]
    ok = [r for r in results if "events" in r]
    unfinished = [r["i"] for r in ok if not r["ended"]]
    refold_bad = [r["i"] for r in ok if not r["refold_ok"]]
    audit_bad = [r["i"] for r in ok if r.get("audit_ok") is False]
    print(f"  wall {wall:.1f} s")
    print(
        f"  exceptions: {len(errors)}   invariant violations: {len(broken)}   games without a winner: {len(unfinished)}"
    )
    if errors:
        print(f"  first exception (game {errors[0]['i']}, {errors[0]['decks']}):\n{errors[0]['trace']}")
    if broken:
        print(f"  first violation (game {broken[0]['i']}, {broken[0]['decks']}): {broken[0]['invariant']}")
    print(
        f"  re-fold from JSON differs (byte for byte): {len(refold_bad)} {refold_bad[:10]}"
        + (f"   audit failed: {len(audit_bad)} {audit_bad[:10]}" if args.audit else "")
    )
    if ok:
        secs, cpu = sum(r["seconds"] for r in ok), sum(r["cpu"] for r in ok)
        print(
            f"  {len(ok)} games in {secs:.1f} s of play = {len(ok) / secs:.1f} games/s per process "
            f"({cpu:.1f} s of CPU = {len(ok) / cpu:.1f} games per CPU second; invariants after every batch); "
            f"{sum(r['events'] for r in ok) / len(ok):.0f} events and "
            f"{sum(r['round'] for r in ok) / len(ok):.1f} rounds per game"
        )
        print("  ended by: " + ", ".join(f"{k} {v}" for k, v in Counter(r["reason"] for r in ok).most_common()))
    good = not (errors or broken or unfinished or refold_bad or audit_bad)
    print("RESULT: " + ("ok" if good else "PROBLEMS (see above)"))
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
