"""How fast the domain alone folds events and decides commands (no Redis, no HTTP).

    .venv/bin/python bench/domain_fold.py [--seconds 2] [--games 8]

Builds a few complete Planning phases through ``domain.board.decider`` (create, join every seat,
start, every house assigns its default orders (``domain.board.timeouts.default_orders``), the
system resolves (``ResolvePending``: orders revealed), the raven holder passes), for 3-6 players,
collecting the events. Then it times, each for about ``--seconds``:

* ``fold, typed events``: ``decider.fold`` over whole streams (GameCreated ... end of Planning),
  i.e. what a replay does once the events are decoded; includes ``initial_board`` (GameCreated);
* ``decode + fold``: the same from the stored JSON bodies (``event_decoder.decode`` per event), what
  a cold load or ``verify_replay`` does;
* ``fold, OrdersSubmitted only``: folding one more sealed order onto a live Planning state, the
  service's hot path when a player amends orders (``LoadedGame.apply``);
* ``decide(assign_orders)``: ``decider.decide`` calls per second for a legal ``AssignOrders``;
* ``decide + encode + fold``: one whole domain round trip for that command as the engine does it
  (decide, JSON-encode the event, decode it again, fold it), i.e. the domain's share of one HTTP command;
* ``view_for + encode, all readers``: the views the projector renders for one projection of a
  4-player game (public + one per house).

Prints one table; every figure is single-threaded on one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec

from domain.board import commands as cmd
from domain.board import decider
from domain.board import events as ev
from domain.board.state import Settings
from domain.board.timeouts import default_orders
from domain.core.context import Context

event_encoder = msgspec.json.Encoder()
event_decoder = msgspec.json.Decoder(ev.BoardEvent)

ORGANIZER = cmd.Actor(kind="organizer")
SYSTEM = cmd.Actor(kind="system")


def _ctx(game_id: str) -> Context:
    return Context(now=datetime(2025, 1, 1, tzinfo=UTC), seed="bench-seed-" + game_id, game_id=game_id)


class Driver:
    """Runs commands through decide and folds their events, keeping them."""

    def __init__(self, game_id: str, players: int):
        self.ctx = _ctx(game_id)
        self.events: list[ev.Event] = decider.create(
            cmd.CreateGame(player_count=players, settings=Settings()), self.ctx
        )
        self.state = decider.fold(self.events)

    def run(self, command, actor: cmd.Actor) -> list[ev.Event]:
        out = decider.decide(self.state, command, actor, self.ctx)
        decider.fold(out, self.state)
        self.events.extend(out)
        return out

    def seat_actor(self, house: str) -> cmd.Actor:
        for s in self.state.seats:
            if s.house == house:
                return cmd.Actor(kind="seat", seat_id=s.seat_id)
        raise KeyError(house)


def planning_phase(game_id: str, players: int) -> Driver:
    d = Driver(game_id, players)
    for i in range(players):
        d.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
    d.run(cmd.StartGame(), ORGANIZER)
    # Sequential or not, turn order is always a valid order of submission.
    for house in d.state.turn_order():
        d.run(cmd.AssignOrders(orders=default_orders(d.state, house)), d.seat_actor(house))
    d.run(cmd.ResolvePending(), SYSTEM)
    holder = d.state.raven_holder()
    d.run(cmd.RavenPass(), d.seat_actor(holder))
    return d


def timed(fn, seconds: float) -> tuple[int, float]:
    """Call ``fn`` (which returns how many units it did) until ``seconds`` pass; (units, elapsed)."""
    fn()  # warm-up
    n = 0
    t0 = time.perf_counter()
    while True:
        n += fn()
        el = time.perf_counter() - t0
        if el >= seconds:
            return n, el


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--games", type=int, default=8, help="Planning phases to build (3-6 players in turn)")
    args = ap.parse_args()

    drivers = [planning_phase(f"g_{i:032x}", 3 + i % 4) for i in range(args.games)]
    streams = [d.events for d in drivers]
    raw_streams = [[event_encoder.encode(e) for e in s] for s in streams]
    n_events = sum(len(s) for s in streams)
    final_steps = sorted({(d.state.phase, d.state.step) for d in drivers})
    # sanity: folding the stream again gives the same state
    for d in drivers:
        again = decider.fold(d.events)
        assert msgspec.json.encode(again) == msgspec.json.encode(d.state), "fold is not deterministic"

    rows: list[tuple[str, str, float, str]] = []

    def fold_all() -> int:
        for s in streams:
            decider.fold(s)
        return n_events

    n, el = timed(fold_all, args.seconds)
    rows.append(
        ("fold, typed events (whole streams)", "events/s", n / el, f"{len(streams)} streams, {n_events} events")
    )
    rows.append(("  = whole Planning-phase streams", "streams/s", n / el / (n_events / len(streams)), ""))

    created = [s[0] for s in streams]

    def fold_created() -> int:
        for e in created:
            decider.fold([e])
        return len(created)

    n, el = timed(fold_created, args.seconds)
    rows.append(
        ("  of which GameCreated alone (initial_board)", "events/s", n / el, "the first event builds the board")
    )
    whole_s = 1 / rows[0][2] * n_events  # seconds to fold every stream once
    created_s = len(created) / (n / el)
    rows.append(
        (
            "  the other events (derived)",
            "events/s",
            (n_events - len(created)) / max(1e-12, whole_s - created_s),
            "whole streams minus GameCreated",
        )
    )

    def decode_fold_all() -> int:
        for s in raw_streams:
            decider.fold(event_decoder.decode(b) for b in s)
        return n_events

    n, el = timed(decode_fold_all, args.seconds)
    rows.append(("decode JSON + fold (whole streams)", "events/s", n / el, "cold load / replay"))

    # The hot path of the HTTP benchmark: one more OrdersSubmitted folded onto a Planning state.
    live = Driver("g_" + "f" * 32, 4)
    for i in range(4):
        live.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
    live.run(cmd.StartGame(), ORGANIZER)
    first = live.state.turn_order()[0]
    orders = default_orders(live.state, first)
    submitted = [ev.OrdersSubmitted(house=first, orders=orders)] * 1000

    def fold_submitted() -> int:
        decider.fold(submitted, live.state)
        return len(submitted)

    n, el = timed(fold_submitted, args.seconds)
    rows.append(("fold, OrdersSubmitted onto live state", "events/s", n / el, "amend hot path"))

    actor = live.seat_actor(first)
    command = cmd.AssignOrders(orders=orders)
    ctx = live.ctx

    def decide_many() -> int:
        for _ in range(200):
            decider.decide(live.state, command, actor, ctx)
        return 200

    n, el = timed(decide_many, args.seconds)
    rows.append(("decide(assign_orders)", "calls/s", n / el, f"{len(orders)} areas"))

    def round_trip() -> int:
        for _ in range(200):
            out = decider.decide(live.state, command, actor, ctx)
            raw = [event_encoder.encode(e) for e in out]
            decider.fold([event_decoder.decode(b) for b in raw], live.state)
        return 200

    n, el = timed(round_trip, args.seconds)
    rows.append(("decide + encode + decode + fold", "commands/s", n / el, "domain share of one command"))

    # What the projector renders for every projection: one view per house plus the public one.
    from domain.board.redaction import view_for

    readers = [None, *live.state.houses_in_play]

    def render_views() -> int:
        for _ in range(20):
            for r in readers:
                event_encoder.encode(view_for(live.state, r))
        return 20

    n, el = timed(render_views, args.seconds)
    rows.append(("view_for + encode, all readers", "calls/s", n / el, f"{len(readers)} views: one projection"))

    print(
        f"domain_fold  {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  python {platform.python_version()}  "
        f"{platform.machine()}  {os.cpu_count()} cores  (single-threaded)"
    )
    print(
        f"built {len(drivers)} Planning phases ({', '.join(str(len(s)) for s in streams)} events); "
        f"they end at {final_steps}"
    )
    print()
    w = max(len(r[0]) for r in rows)
    print(f"{'measurement':<{w}}  {'rate':>12}  unit        note")
    print(f"{'-' * w}  {'-' * 12}  ----------  ----")
    for name, unit, rate, note in rows:
        print(f"{name:<{w}}  {rate:>12,.0f}  {unit:<10}  {note}")
    us = {r[0].strip(): 1e6 / r[2] for r in rows if r[1] in ("calls/s", "commands/s")}
    print()
    for name, v in us.items():
        print(f"{name}: {v:.1f} us per call")


if __name__ == "__main__":
    main()
