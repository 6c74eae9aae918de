"""What one projection of a Planning amend costs the projector, one view at a time against all at once.

    .venv/bin/python bench/projection_views.py [--seconds 2]

For a started game of 4 and of 6 players (domain only, one core): the time to render every reader's
view one by one (``Game.view`` per reader, as the projector did) and all at once (``Game.views``: the
reader-independent parts computed once) with the digests the projector now keeps; and, after one
house amends its sealed orders, how many views and bytes a projection sends to Redis: every view
before, only the changed ones now (``projections.read_models.changed_views``).

Views are stored gzipped (``service/store/view_gzip.py``): a second table gives, per zlib level,
the time to pack every view (a game's first projection, or its first after a projector restart)
and the one amended view (the usual projection), and the bytes stored for all views, beside their
JSON; and a projection's CPU (render and digest every view, pack the changed) at the level used
(``view_gzip.LEVEL``).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec

from domain.board import commands as cmd
from domain.board import decider
from domain.board.game import BoardGame
from domain.board.state import Settings
from domain.board.timeouts import default_orders
from domain.core.context import Context
from service.store import view_gzip
from service.store.read_models import packed_view, stored_view, view_digest

_enc = msgspec.json.Encoder()


def per_call_us(fn, seconds: float) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return (time.perf_counter() - t0) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    game = BoardGame()
    print(
        f"{'players':>7} {'one by one us':>14} {'all at once us':>15} {'views sent before':>18} {'after':>6} {'bytes before':>13} {'after':>7}"
    )
    packing: list[str] = []
    for players in (4, 6):
        ctx = Context(now=datetime.now(UTC), seed="s", game_id="g_" + "0" * 32)
        state = decider.fold(decider.create(cmd.CreateGame(player_count=players, settings=Settings()), ctx))
        for i in range(players):
            decider.fold(decider.decide(state, cmd.JoinGame(name=f"p{i}"), cmd.Actor(kind="seat"), ctx), state)
        decider.fold(decider.decide(state, cmd.StartGame(), cmd.Actor(kind="organizer"), ctx), state)
        house = state.turn_order()[0]
        seat = next(s.seat_id for s in state.seats if s.house == house)
        actor = cmd.Actor(kind="seat", seat_id=seat)
        orders = default_orders(state, house)
        decider.fold(decider.decide(state, cmd.AssignOrders(orders=orders), actor, ctx), state)
        readers = [None, *game.readers(state)]

        def one_by_one(state=state, readers=readers) -> dict:
            return {r: _enc.encode(game.view(state, r)) for r in readers}

        def at_once(state=state, readers=readers) -> dict:
            return {r: view_digest(stored_view(v)) for r, v in game.views(state, readers).items()}

        before = at_once()
        amended = dict(orders)
        area = next(a for a, t in orders.items() if t != "support_0")
        amended[area] = "support_0"
        decider.fold(decider.decide(state, cmd.AssignOrders(orders=amended), actor, ctx), state)
        bodies = {r: stored_view(v) for r, v in game.views(state, readers).items()}
        changed = [r for r, b in bodies.items() if view_digest(b) != before[r]]
        print(
            f"{players:>7} {per_call_us(one_by_one, args.seconds):>14,.0f} {per_call_us(at_once, args.seconds):>15,.0f} "
            f"{len(readers):>18} {len(changed):>6} {sum(map(len, bodies.values())):>13,} {sum(len(bodies[r]) for r in changed):>7,}"
        )
        json_bytes = sum(map(len, bodies.values()))
        for level in (1, 3, 6, 9):

            def pack_all(level=level, bodies=bodies) -> list:
                return [packed_view(b, level) for b in bodies.values()]

            def pack_changed(level=level, bodies=bodies, changed=changed) -> list:
                return [packed_view(bodies[r], level) for r in changed]

            stored = sum(map(len, pack_all()))
            packing.append(
                f"{players:>7} {level:>5} {per_call_us(pack_all, args.seconds / 2):>13,.0f} "
                f"{per_call_us(pack_changed, args.seconds / 2):>14,.0f} {json_bytes:>11,} {stored:>13,} {stored / json_bytes:>6.2f}"
            )

        def projection(at_once=at_once, bodies=bodies, changed=changed) -> None:
            at_once()
            for r in changed:
                packed_view(bodies[r])

        packing.append(
            f"{players:>7} a projection at level {view_gzip.LEVEL} (render, digest all, pack the changed): "
            f"{per_call_us(projection, args.seconds):,.0f} us"
        )
    print()
    print(
        f"{'players':>7} {'level':>5} {'pack all us':>13} {'pack changed us':>14} {'JSON bytes':>11} {'stored bytes':>13} {'ratio':>6}"
    )
    print("\n".join(packing))


if __name__ == "__main__":
    main()
