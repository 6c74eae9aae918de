"""Actions resolved per second by the domain alone (issue 3).

Plays random legal Action phases (tests/support/random_play.py: random legal Planning, then a
random legal answer to every pending decision) and times only the domain's work on each accepted
Action-phase command: ``decide`` (validation + the events it produces) and the fold of those events.
Rejected random attempts, the random choices and the invariant checks are not counted.

    .venv/bin/python bench/domain_actions.py [--games 200] [--rounds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.board.decider import fold
from domain.core.errors import RuleViolation
from tests.support import random_play as rp
from tests.support.action_positions import Position


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    timing = {"decide_s": 0.0, "fold_s": 0.0, "actions": 0, "events": 0, "rejected": 0}
    real_decide = rp.decide

    def timed_decide(state, command, actor, ctx):
        t = time.perf_counter()
        try:
            events = real_decide(state, command, actor, ctx)
        except RuleViolation:
            timing["rejected"] += 1
            raise
        timing["decide_s"] += time.perf_counter() - t
        timing["actions"] += 1
        t = time.perf_counter()
        fold(events, rp.copy_state(state))  # the fold a server does after the append
        timing["fold_s"] += time.perf_counter() - t
        timing["events"] += len(events)
        return events

    rp.decide = timed_decide
    rng = random.Random(args.seed)
    wall = time.perf_counter()
    for g in range(args.games):
        sc = Position(players=rng.choice([3, 4, 5, 6]), seed=f"bench-{g}")
        for _r in range(args.rounds):
            rp.play_action_phase(sc, rng, lambda *a, **k: None)
            if sc.state.phase != "westeros":
                break
            rp.next_planning(sc, rng)
            rp.play_planning(sc, rng)
    wall = time.perf_counter() - wall
    busy = timing["decide_s"] + timing["fold_s"]
    print(
        f"games: {args.games} x {args.rounds} rounds, seed {args.seed}; wall {wall:.1f} s (incl. random choices and copies)"
    )
    print(
        f"action-phase commands accepted: {timing['actions']}  (random attempts rejected by the rules: {timing['rejected']})"
    )
    print(f"events produced: {timing['events']}")
    print(
        f"decide: {timing['decide_s'] * 1e6 / max(1, timing['actions']):.0f} us/action   fold: {timing['fold_s'] * 1e6 / max(1, timing['actions']):.0f} us/action"
    )
    print(f"ACTIONS RESOLVED PER SECOND (decide + fold, one core): {timing['actions'] / busy:,.0f}")
    print(f"events folded per second within them: {timing['events'] / timing['fold_s']:,.0f}")


if __name__ == "__main__":
    main()
