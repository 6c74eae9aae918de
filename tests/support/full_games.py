"""A random-legal-move driver for complete games, from setup to a winner (domain only).

Every command goes through ``decide`` and ``fold`` exactly as in the server. Whenever the system has
work (``pending_system_work``) the worker's ``ResolvePending`` runs; otherwise one of the pending
decisions is answered with a random legal choice built from its listed options (the Action phase's
driver, tests/support/random_play.py, for the Action phase; the Planning and Westeros phases
here), and now and then the deadline passes instead so the documented defaults run too. A random
answer the rules reject is retried a few times, then the decision's documented default is sent.

After every batch :func:`check_invariants` checks unit limits (BG-COMP-03), unit kinds and port caps
(BG-COMP-05, BG-MAP-07), one house per area, Power conservation (available + on the board + Pool =
20, the Pool never negative, BG-POWER-01), House cards (7 per house), supply (BG-SUPPLY-05) outside
the reconcile windows, the influence tracks and the threat bounds (BG-WILD-06).
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

import msgspec

from domain.board import board_data
from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import commands as acmd
from domain.board.decider import create, decide, fold, pending_system_work
from domain.board.decisions import pending_decisions
from domain.board.mustering import NEW_COST, UPGRADE_COST
from domain.board.orders import is_special
from domain.board.planning import eligible_tokens, special_order_limit
from domain.board.state import BoardState, Settings
from domain.board.supply import armies_legal, counts_after
from domain.board.westeros import commands as wcmd
from domain.board.westeros.timeouts import default_command as westeros_default
from domain.core.context import Context, parse_rfc3339, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import RuleViolation
from domain.core.hashing import GENESIS
from tests.support.action_positions import NOW
from tests.support.invariants import check_invariants
from tests.support.random_play import random_command as random_action_command

SYSTEM = cmd.Actor(kind="system")
ORGANIZER = cmd.Actor(kind="organizer")
UNIT_LIMITS = {h: f.unit_limits for h, f in board_data.setup().houses.items()}
_enc = msgspec.msgpack.Encoder()
_json = msgspec.json.Encoder()
_event_dec = msgspec.json.Decoder(ev.BoardEvent)


# --- invariants -------------------------------------------------------------------------------------


# --- random legal answers ------------------------------------------------------------------------------


def random_orders(state, house, rng: random.Random) -> dict[str, str]:
    """Random eligible tokens (BG-PLAN-04/05, BG-WCARD-16) on every area that needs one."""
    opts = next(d.options for d in pending_decisions(state) if d.house == house and d.commands == ["assign_orders"])
    pool_ = list(eligible_tokens(state, house).elements())
    rng.shuffle(pool_)
    limit = special_order_limit(state, house)
    out: dict[str, str] = {}
    specials = 0
    areas = list(opts.areas)
    if opts.max_orders is not None:  # a Mother of Dragons vassal: up to two orders (MOD-VASSAL-08)
        rng.shuffle(areas)
        areas = areas[: rng.randint(0, opts.max_orders)]
    for area in areas:
        while pool_:
            t = pool_.pop()
            if is_special(t):
                if specials >= limit:
                    continue
                specials += 1
            out[area] = t
            break
    return out


def random_pick(
    units: dict[str, dict[str, int]], count: int, rng, same_area: bool = False
) -> dict[str, dict[str, int]]:
    if same_area:
        areas = [a for a in units if sum(units[a].values()) >= count]
        units = {(a := rng.choice(areas)): units[a]}
    flat = [(a, u) for a, us in units.items() for u, n in us.items() for _ in range(n)]
    out: dict[str, dict[str, int]] = {}
    for a, u in rng.sample(flat, count):
        out.setdefault(a, {})[u] = out.get(a, {}).get(u, 0) + 1
    return out


def to_counts(units: dict[str, dict[str, int]]) -> dict[str, acmd.UnitCounts]:
    return {a: acmd.UnitCounts(**u) for a, u in units.items()}


def random_reconcile(state, house, opts, rng) -> wcmd.ReconcileArmies:
    """Destroy random units of the armies one at a time until legal, then spare any not needed."""
    supply = state.houses[house].supply
    removed: Counter = Counter()
    picked: list[tuple[str, str]] = []

    def legal(rm):
        delta = {}
        for (a, _), n in rm.items():
            delta[a] = delta.get(a, 0) - n
        return armies_legal(list(counts_after(state, house, delta).values()), supply)

    pool_ = [(a, u) for a, us in opts.armies.items() for u, n in us.items() for _ in range(n)]
    rng.shuffle(pool_)
    while not legal(removed):
        a, u = pool_.pop()
        removed[(a, u)] += 1
        picked.append((a, u))
    for item in list(picked):
        trial = removed.copy()
        trial[item] -= 1
        if legal(+trial):
            removed = +trial
    out: dict[str, dict[str, int]] = {}
    for (a, u), n in removed.items():
        if n:
            out.setdefault(a, {})[u] = n
    return wcmd.ReconcileArmies(units=to_counts(out))


def random_muster(opts, rng) -> wcmd.Muster:
    recruits: dict[str, list[acmd.Recruit]] = {}
    areas = sorted(opts.areas)
    rng.shuffle(areas)
    if opts.max_areas:
        areas = areas[: opts.max_areas]
    for area in areas:
        if rng.random() < 0.2:
            continue
        points = opts.areas[area].points
        out = []
        while points > 0 and rng.random() < 0.85:
            unit = rng.choice(list(NEW_COST))
            if rng.random() < 0.3 and unit in UPGRADE_COST:
                out.append(acmd.Recruit(unit=unit, upgrade=True))
                points -= UPGRADE_COST[unit]
                continue
            if NEW_COST[unit] > points:
                continue
            if unit == "ship":
                if not opts.areas[area].ship_areas:
                    continue
                out.append(acmd.Recruit(unit="ship", area=rng.choice(opts.areas[area].ship_areas)))
            else:
                out.append(acmd.Recruit(unit=unit))
            points -= NEW_COST[unit]
        if out:
            recruits[area] = out
    return wcmd.Muster(recruits=recruits)


def random_westeros_command(state, d, rng):
    o = d.options
    kind = o.__struct_config__.tag
    if kind == "bid":
        return wcmd.Bid(amount=min(o.max, int(rng.expovariate(0.5))) if rng.random() < 0.9 else o.max)
    if kind == "westeros_choice":
        return wcmd.WesterosChoice(choice=rng.choice(list(o.options) + ([None] if o.may_skip else [])))
    if kind == "select_units":
        n = rng.randint(o.min, o.max)
        return wcmd.SelectUnits(units=to_counts(random_pick(o.units, n, rng, o.same_area)))
    if kind == "reconcile_armies":
        return random_reconcile(state, d.house, o, rng)
    return random_muster(o, rng)


def random_command(state, d, rng):
    kind = d.options.__struct_config__.tag
    if kind == "choose_house":  # Mother of Dragons (MOD-SETUP-01)
        return cmd.ChooseHouse(house=rng.choice(d.options.houses))
    if kind == "choose_commanders":  # MOD-VASSAL-03/04
        return cmd.CommandVassal(vassal=None if rng.random() < 0.2 else rng.choice(d.options.vassals))
    if kind == "assign_orders":
        return cmd.AssignOrders(orders=random_orders(state, d.house, rng))
    if kind == "messenger_raven":
        o = d.options
        r = rng.random()
        if r < 0.3 and o.replace:
            area = rng.choice(sorted(o.replace))
            return cmd.RavenReplaceOrder(area=area, new_order=rng.choice(o.replace[area]))
        if r < 0.6 and o.may_peek_wildling:
            return cmd.RavenPeekWildling()
        return cmd.RavenPass()
    if kind == "raven_wildling_placement":
        return cmd.RavenPlaceWildling(to_bottom=rng.random() < 0.5)
    if kind in ("bid", "westeros_choice", "select_units", "reconcile_armies", "muster"):
        return random_westeros_command(state, d, rng)
    return random_action_command(state, d, rng)


def fallback_command(state, d):
    kind = d.options.__struct_config__.tag
    if kind == "choose_house":
        return cmd.ChooseHouse(house=d.options.houses[0])
    if kind == "choose_commanders":
        return cmd.CommandVassal(vassal=d.options.vassals[0])
    if kind == "assign_orders":
        return cmd.AssignOrders(orders={})
    if kind in ("bid", "westeros_choice", "select_units", "reconcile_armies", "muster"):
        return westeros_default(state, d.house, d.options)
    from domain.board.action.timeouts import default_command

    return default_command(state, d.house, d.options)


# --- the driver -------------------------------------------------------------------------------------------


class FullGame:
    def __init__(self, players: int, seed: str, settings: Settings | None = None, scenario=None):
        self.ctx = Context(now=NOW, seed=seed, game_id=f"full-{seed}")
        self.leave_rate = 0.0
        """Mother of Dragons: the chance, at each step, that a random player leaves (MOD-FLEX-01)."""
        self.events: list[ev.Event] = []
        self.state: BoardState | None = None
        self.batches = 0
        self.batch_starts: list[int] = []
        """Index in ``events`` where each batch begins."""
        self.batch_times: list[datetime] = []
        """When each batch was decided (``ctx.now``): the time its envelopes carry."""
        created = create(
            cmd.CreateGame(player_count=players, settings=settings or Settings(), scenario=scenario), self.ctx
        )
        self.apply(created)
        for i in range(players):
            self.run(cmd.JoinGame(name=f"bot{i + 1}"), cmd.Actor(kind="seat"))
        self.run(cmd.StartGame(), ORGANIZER)

    def apply(self, events: list[ev.Event], now: datetime | None = None) -> list[ev.Event]:
        self.batch_starts.append(len(self.events))
        self.batch_times.append(now or self.ctx.now)
        self.state = fold(events, self.state)
        self.events.extend(events)
        self.batches += 1
        if self.state.tracks is not None and self.state.phase != "lobby":
            check_invariants(self.state)
        return events

    def run(self, command, actor) -> list[ev.Event]:
        return self.apply(decide(self.state, command, actor, self.ctx))

    def actor(self, house: str) -> cmd.Actor:
        return cmd.Actor(kind="seat", seat_id=self.state.seat_of_house(house).seat_id)

    def timeout(self) -> list[ev.Event]:
        later = Context(
            now=parse_rfc3339(self.state.deadline) + timedelta(seconds=1), seed=self.ctx.seed, game_id=self.ctx.game_id
        )
        return self.apply(
            decide(self.state, cmd.ApplyTimeout(step_version=self.state.step_version), SYSTEM, later), later.now
        )

    def step(self, rng: random.Random, timeout_rate: float = 0.03) -> None:
        s = self.state
        if pending_system_work(s):
            self.run(cmd.ResolvePending(), SYSTEM)
            return
        ds = pending_decisions(s)
        assert ds, f"nothing pending at {s.phase}/{s.step}"
        assert all(d.deadline is not None and d.default for d in ds), ds  # every choice has both
        if self.leave_rate and rng.random() < self.leave_rate and self._leave(rng):
            return
        ds = [d for d in ds if d.seat_id]  # a vassal whose commander is being chosen again waits
        if not ds or (rng.random() < timeout_rate and s.deadline is not None):
            self.timeout()
            return
        d = rng.choice(ds)
        for attempt in range(8):
            command = random_command(s, d, rng) if attempt < 7 else fallback_command(s, d)
            if d.for_vassal is not None:  # Mother of Dragons: the commander acts for its vassal
                command = msgspec.structs.replace(command, for_vassal=d.for_vassal)
            try:
                # a vassal's decision is its commander's; a house not chosen yet has only a seat
                actor = self.actor(s.family(d.house)) if d.house else cmd.Actor(kind="seat", seat_id=d.seat_id)
                events = decide(s, command, actor, self.ctx)
            except RuleViolation:
                if attempt == 7:
                    raise
                continue
            break
        self.apply(events)

    def _leave(self, rng: random.Random) -> bool:
        """A random player leaves, while at least two would remain (MOD-FLEX-01)."""
        s = self.state
        players = [h for h in s.turn_order() if h not in s.vassals]
        if s.phase not in ("planning", "action", "westeros") or len(players) <= 2:
            return False
        self.run(cmd.LeaveGame(reason="soak"), self.actor(rng.choice(players)))
        return True

    def play(self, rng: random.Random, max_steps: int = 20_000) -> None:
        steps = 0
        while not (self.state.phase == "ended" and self.state.step == "game_over"):
            steps += 1
            assert steps < max_steps, f"the game does not end ({self.state.phase}/{self.state.step})"
            self.step(rng)

    def envelopes(self) -> list[Envelope]:
        """The events as the service stores them: sealed in the hash chain, each batch at its time."""
        prev, out = GENESIS, []
        times = iter(zip(self.batch_starts, self.batch_times))
        start, now = next(times)
        nxt = next(times, None)
        for n, e in enumerate(self.events, 1):
            if nxt is not None and n - 1 == nxt[0]:
                start, now = nxt
                nxt = next(times, None)
            env = seal(n, rfc3339(now), ev.SCHEMA_VERSION, prev, _json.encode(e))
            prev = env.hash
            out.append(env)
        return out

    def refold(self) -> BoardState:
        """Every event through JSON and back (as stored), folded from nothing."""
        return fold([_event_dec.decode(_json.encode(e)) for e in self.events])

    def same_as_refold(self) -> bool:
        return _enc.encode(self.refold()) == _enc.encode(self.state)


def play_full_game(players: int, seed: str, rng_seed: int, settings: Settings | None = None, scenario=None) -> FullGame:
    game = FullGame(players, seed, settings, scenario)
    game.play(random.Random(rng_seed))
    return game
