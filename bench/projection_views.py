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
JSON; and a projection's CPU before (render and digest every view) and now (and pack the changed),
per level. A third table gives the API's CPU for serving one projected view, plain and gzipped,
before (stored JSON; the app's middleware gzipping it) and now (``view_gzip``: inflated for plain,
sent as stored for gzip). Times are CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
import zlib
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
    """CPU time per call (this process's, ``time.process_time``: on a shared machine, what others
    run does not count as ours)."""
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        fn()
        n += 1
    return (time.process_time() - t0) / n * 1e6


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
        render = per_call_us(at_once, args.seconds)
        for level in (1, 3, 6, 9):

            def pack_all(level=level, bodies=bodies) -> list:
                return [packed_view(b, level) for b in bodies.values()]

            def pack_changed(level=level, bodies=bodies, changed=changed) -> list:
                return [packed_view(bodies[r], level) for r in changed]

            def projection(at_once=at_once, pack_changed=pack_changed) -> None:
                at_once()
                pack_changed()

            stored = sum(map(len, pack_all()))
            packing.append(
                f"{players:>7} {level:>5} {per_call_us(pack_all, args.seconds / 2):>11,.0f} "
                f"{per_call_us(pack_changed, args.seconds / 2):>15,.0f} {json_bytes:>10,} {stored:>12,} "
                f"{stored / json_bytes:>6.2f} {render:>18,.0f} {per_call_us(projection, args.seconds):>13,.0f}"
            )
        packing.append(
            f"{players:>7} the alternative, the public view plus each house's view deflated against it as a "
            f"dictionary (level {view_gzip.LEVEL}): {against_public(bodies):,} bytes"
        )
        if players == 4:
            serving = serving_costs(bodies[None], args.seconds)
    print()
    print(f"packing the views (zlib level; the views stored gzipped at level {view_gzip.LEVEL}):")
    print(
        f"{'players':>7} {'level':>5} {'pack all us':>11} {'pack changed us':>15} {'JSON bytes':>10} "
        f"{'stored bytes':>12} {'ratio':>6} {'projection before':>18} {'after us':>13}"
    )
    print("\n".join(packing))
    print()
    print("serving one projected view (the public view of 4 players), API CPU:")
    print(f"{'answer':>22} {'before us':>10} {'after us':>9}")
    for name, (before_us, after_us) in serving.items():
        print(f"{name:>22} {before_us:>10,.1f} {after_us:>9,.1f}")


def against_public(bodies: dict) -> int:
    """Bytes of the public view deflated, plus each house's deflated with the public view as a preset
    dictionary (what storing "the public view once plus each house's private part" could reach)."""
    public = bodies[None]
    total = len(zlib.compress(public, view_gzip.LEVEL))
    for reader, body in bodies.items():
        if reader is not None:
            c = zlib.compressobj(view_gzip.LEVEL, zdict=public)
            total += len(c.compress(body) + c.flush())
    return total


def serving_costs(body: bytes, seconds: float) -> dict[str, tuple[float, float]]:
    """Per answer: before (the JSON stored, its version put in; gzipped by the app's middleware,
    level 6, for a client that takes gzip) and after (stored packed: ``view_gzip``)."""
    version = 1234
    stored_json = body
    packed = packed_view(body)
    mark, real = b'"version":-1', b'"version":%d' % version

    def before_plain() -> bytes:
        return stored_json.replace(mark, real, 1)

    def before_gzip() -> bytes:
        return gzip.compress(stored_json.replace(mark, real, 1), 6, mtime=0)

    def after_plain() -> bytes:
        return view_gzip.plain_json(packed, version)

    def after_gzip() -> bytes:
        return view_gzip.gzipped(packed, version)

    return {
        "plain (identity)": (per_call_us(before_plain, seconds / 2), per_call_us(after_plain, seconds / 2)),
        "Accept-Encoding: gzip": (per_call_us(before_gzip, seconds / 2), per_call_us(after_gzip, seconds / 2)),
    }


if __name__ == "__main__":
    main()
