"""A bot that plays one seat through the public API by random legal choices.

    bot = RandomBot("http://127.0.0.1:8000", game_id, seat_token, seed=7)
    result = await bot.run()           # until the game's phase is ``ended``

    played = await play_game("http://127.0.0.1:8000", players=4, seed=1)   # a whole game, one bot a seat

It only uses what any client has: ``GET /decisions`` (its own token) gives the pending decisions
with their legal options; for each one it builds a random command from those options alone (one
small function per decision kind, named after the kind: :data:`CHOOSERS`) and POSTs it with an
``Idempotency-Key`` and ``If-Match``. A command the rules refuse (422, e.g. a March or mustering
that breaks supply) is retried with another random choice a few times, then the simplest legal
answer is sent (:data:`FALLBACKS`: a March that moves nothing, no support, bid 0, pass...). A stale
version (409) re-reads the decisions. With nothing to decide it long-polls
``GET /events?from=<version>&wait=10`` instead of polling. Used by the tests, the benchmarks
(``bench/full_games.py``) and ``citadel bot`` (one seat, free seats of a game, or a whole game of
bots). :func:`play_game` and :func:`fill_seats` run their bots with one :class:`GameWatcher`, which
long-polls for all of them and wakes only the seats the game waits for.

``httpx`` is needed (a dev dependency of the service; install it where bots run).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from domain.board import commands as cmd
from domain.board.action import commands as acmd
from domain.board.decisions import Decision
from domain.board.westeros import commands as wcmd

MAX_ATTEMPTS = 6
"""Random choices tried for one decision before the fallback."""
WAIT_S = 10
"""Long-poll seconds when there is nothing to decide."""


class Waiting(msgspec.Struct):
    seat_id: str


class DecisionsOut(msgspec.Struct):
    """The body of ``GET /decisions`` (the fields a bot reads)."""

    version: int
    phase: str
    step: str
    decisions: list[Decision]
    waiting_for: list[Waiting]


_decisions_dec = msgspec.json.Decoder(DecisionsOut)
_enc = msgspec.json.Encoder()


class BotError(RuntimeError):
    """The bot could not answer a decision: even its fallback was refused (a bug somewhere)."""


# --- random legal choices, one per decision kind (from the decision's options only) ----------------


def assign_orders(o, rng: random.Random):
    """Random eligible tokens on the listed areas, at most ``special_limit`` special ones."""
    pool = [t for t, n in o.tokens.items() for _ in range(n)]
    rng.shuffle(pool)
    special = set(o.special_tokens)
    out: dict[str, str] = {}
    specials = 0
    for area in o.areas:
        while pool:
            t = pool.pop()
            if t in special:
                if specials >= o.special_limit:
                    continue
                specials += 1
            out[area] = t
            break
    return cmd.AssignOrders(orders=out)


def messenger_raven(o, rng):
    r = rng.random()
    if r < 0.3 and o.replace:
        area = rng.choice(sorted(o.replace))
        if o.replace[area]:
            return cmd.RavenReplaceOrder(area=area, new_order=rng.choice(o.replace[area]))
    if r < 0.6 and o.may_peek_wildling:
        return cmd.RavenPeekWildling()
    return cmd.RavenPass()


def raven_wildling_placement(o, rng):
    return cmd.RavenPlaceWildling(to_bottom=rng.choice(o.choices))


def resolve_raid(o, rng):
    area = rng.choice(sorted(o.targets))
    targets = o.targets[area]
    return acmd.ResolveRaid(area=area, target=rng.choice(targets) if targets and rng.random() < 0.8 else None)


def resolve_march(o, rng):
    """Biased towards fights: often everything that can go into one contested destination."""
    fighting = sorted(a for a, x in o.orders.items() if x.fights and x.units)
    area = rng.choice(fighting) if fighting and rng.random() < 0.7 else rng.choice(sorted(o.orders))
    x = o.orders[area]
    if x.fights and x.units and rng.random() < 0.7:
        d = rng.choice(sorted(x.fights))
        units = {u: n for u, n in x.units.items() if d in (x.ship_destinations if u == "ship" else x.land_destinations)}
        if units:
            return acmd.ResolveMarch(area=area, moves={d: acmd.UnitCounts(**units)})
    moves: dict[str, Counter] = {}
    for unit, n in sorted(x.units.items()):
        dests = x.ship_destinations if unit == "ship" else x.land_destinations
        for _ in range(n):
            if dests and rng.random() < 0.6:
                moves.setdefault(rng.choice(dests), Counter())[unit] += 1
    all_leave = sum(sum(u.values()) for u in moves.values()) == sum(x.units.values())  # BG-MARCH-06
    return acmd.ResolveMarch(
        area=area,
        moves={d: acmd.UnitCounts(**u) for d, u in moves.items()},
        leave_power_token=x.may_leave_power_token and all_leave and rng.random() < 0.5,
    )


def _recruits(
    points: int, ship_areas: list[str], costs: dict[str, int], upgrade_costs: dict[str, int], rng
) -> list[acmd.Recruit]:
    """Random purchases worth at most ``points`` (BG-MUSTER-02)."""
    out: list[acmd.Recruit] = []
    while points > 0 and rng.random() < 0.85 and len(out) < 4:
        unit = rng.choice(sorted(costs))
        if unit in upgrade_costs and rng.random() < 0.3:
            if upgrade_costs[unit] <= points:
                out.append(acmd.Recruit(unit=unit, upgrade=True))
                points -= upgrade_costs[unit]
            continue
        if costs[unit] > points:
            continue
        if unit == "ship":
            if not ship_areas:
                continue
            out.append(acmd.Recruit(unit="ship", area=rng.choice(ship_areas)))
        else:
            out.append(acmd.Recruit(unit=unit))
        points -= costs[unit]
    return out


def resolve_consolidate_power(o, rng):
    area = rng.choice(sorted(o.orders))
    x = o.orders[area]
    if x.may_muster and rng.random() < 0.7:
        return acmd.ResolveConsolidatePower(
            area=area, muster=_recruits(x.muster_points, x.ship_areas, o.costs, o.upgrade_costs, rng)
        )
    return acmd.ResolveConsolidatePower(area=area)


def declare_support(o, rng):
    return acmd.DeclareSupport(side=rng.choice(o.sides))


def choose_house_card(o, rng):
    return acmd.ChooseHouseCard(card=rng.choice(o.cards))


def house_card_ability(o, rng):
    return acmd.ChooseAbility(choice=rng.choice(list(o.choices) + ([None] if o.may_skip else [])))


def use_blade(o, rng):
    return acmd.UseBlade(use=rng.choice(o.choices))


def choose_casualties(o, rng):
    pool = sorted(u for u, n in o.units.items() for _ in range(n))
    return acmd.ChooseCasualties(units=acmd.UnitCounts(**Counter(rng.sample(pool, o.count))))


def choose_retreat(o, rng):
    return acmd.ChooseRetreat(area=rng.choice(o.areas))


def replace_port_ships(o, rng):
    return acmd.ReplacePortShips(count=rng.randint(0, o.max))


def bid(o, rng):
    return wcmd.Bid(amount=min(o.max, int(rng.expovariate(0.5))) if rng.random() < 0.9 else o.max)


def westeros_choice(o, rng):
    return wcmd.WesterosChoice(choice=rng.choice(list(o.options) + ([None] if o.may_skip else [])))


def _pick(units: dict[str, dict[str, int]], count: int, rng: random.Random | None) -> dict[str, acmd.UnitCounts]:
    """``count`` units out of ``units`` (area -> counts): at random, or the first ones without ``rng``."""
    flat = [(a, u) for a in sorted(units) for u in sorted(units[a]) for _ in range(units[a][u])]
    chosen = rng.sample(flat, count) if rng else flat[:count]
    out: dict[str, Counter] = {}
    for a, u in chosen:
        out.setdefault(a, Counter())[u] += 1
    return {a: acmd.UnitCounts(**c) for a, c in out.items()}


def select_units(o, rng):
    n = rng.randint(o.min, o.max)
    units = o.units
    if o.same_area and n:
        areas = sorted(a for a in units if sum(units[a].values()) >= n)
        if not areas:
            return fallback_select_units(o)
        a = rng.choice(areas)
        units = {a: units[a]}
    return wcmd.SelectUnits(units=_pick(units, n, rng))


def _armies_legal(sizes: list[int], allowed: list[int]) -> bool:
    """BG-SUPPLY-01/02: armies (2+ units) sorted largest first fit the allowed sizes one by one."""
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    return len(armies) <= len(allowed) and all(a <= b for a, b in zip(armies, sorted(allowed, reverse=True)))


def reconcile_armies(o, rng):
    """Destroy random units one at a time until the armies fit, then spare any that was not needed
    (the rules refuse a loss that one unit fewer would also fix)."""
    sizes = {a: sum(u.values()) for a, u in o.armies.items()}
    pool = [(a, u) for a in sorted(o.armies) for u, n in sorted(o.armies[a].items()) for _ in range(n)]
    rng.shuffle(pool)
    removed: Counter = Counter()

    def legal(rm: Counter) -> bool:
        per_area = Counter()
        for (a, _), n in rm.items():
            per_area[a] += n
        return _armies_legal([sizes[a] - per_area[a] for a in sizes], o.allowed)

    picked = []
    while not legal(removed) and pool:
        item = pool.pop()
        removed[item] += 1
        picked.append(item)
    for item in picked:
        trial = removed.copy()
        trial[item] -= 1
        if legal(+trial):
            removed = +trial
    out: dict[str, dict[str, int]] = {}
    for (a, u), n in removed.items():
        if n:
            out.setdefault(a, {})[u] = n
    return wcmd.ReconcileArmies(units={a: acmd.UnitCounts(**u) for a, u in out.items()})


def muster(o, rng):
    areas = sorted(o.areas)
    rng.shuffle(areas)
    if o.max_areas:
        areas = areas[: o.max_areas]
    recruits = {}
    for area in areas:
        if rng.random() < 0.2:
            continue
        got = _recruits(o.areas[area].points, o.areas[area].ship_areas, o.costs, o.upgrade_costs, rng)
        if got:
            recruits[area] = got
    return wcmd.Muster(recruits=recruits)


CHOOSERS: dict[str, Callable[[Any, random.Random], msgspec.Struct]] = {
    f.__name__: f
    for f in (
        assign_orders,
        messenger_raven,
        raven_wildling_placement,
        resolve_raid,
        resolve_march,
        resolve_consolidate_power,
        declare_support,
        choose_house_card,
        house_card_ability,
        use_blade,
        choose_casualties,
        choose_retreat,
        replace_port_ships,
        bid,
        westeros_choice,
        select_units,
        reconcile_armies,
        muster,
    )
}


# --- the simplest legal answer of each kind (after repeated refusals) ------------------------------


def fallback_assign_orders(o):
    regular = [t for t, n in sorted(o.tokens.items()) if t not in o.special_tokens for _ in range(n)]
    specials = [t for t in sorted(o.special_tokens) for _ in range(o.tokens.get(t, 0))][: o.special_limit]
    return cmd.AssignOrders(orders=dict(zip(o.areas, regular + specials)))


def fallback_resolve_march(o):
    return acmd.ResolveMarch(area=sorted(o.orders)[0])  # moves nothing


def fallback_declare_support(o):
    return acmd.DeclareSupport(side="none" if "none" in o.sides else o.sides[0])


def fallback_westeros_choice(o):
    if o.default is not None:
        return wcmd.WesterosChoice(choice=o.default)
    return wcmd.WesterosChoice(choice=None if o.may_skip else o.options[0])


def fallback_select_units(o):
    units = o.units
    if o.same_area and o.min:
        a = next(a for a in sorted(units) if sum(units[a].values()) >= o.min)
        units = {a: units[a]}
    return wcmd.SelectUnits(units=_pick(units, o.min, None))


def fallback_reconcile_armies(o):
    """The fewest losses: keep the armies that fill the allowed sizes best, weakest units first."""
    sizes = {a: sum(u.values()) for a, u in o.armies.items()}
    allowed = sorted(o.allowed, reverse=True)
    areas = sorted(sizes, key=lambda a: (-sizes[a], a))
    best: tuple[int, dict[str, int]] | None = None
    for k in range(min(len(areas), len(allowed)), -1, -1):
        for keep in itertools.combinations(areas, k):
            loss = {a: max(0, sizes[a] - slot) for a, slot in zip(keep, allowed)}
            loss.update({a: sizes[a] - 1 for a in areas if a not in keep})
            if best is None or sum(loss.values()) < best[0]:
                best = (sum(loss.values()), loss)
    out = {}
    for a, n in sorted((best[1] if best else {}).items()):
        picked: Counter = Counter()
        for u in ("footman", "ship", "knight", "siege_engine"):
            k = min(n, o.armies[a].get(u, 0))
            if k:
                picked[u] = k
                n -= k
        if picked:
            out[a] = acmd.UnitCounts(**picked)
    return wcmd.ReconcileArmies(units=out)


FALLBACKS: dict[str, Callable[[Any], msgspec.Struct]] = {
    "assign_orders": fallback_assign_orders,
    "messenger_raven": lambda o: cmd.RavenPass(),
    "raven_wildling_placement": lambda o: cmd.RavenPlaceWildling(to_bottom=False),
    "resolve_raid": lambda o: acmd.ResolveRaid(area=sorted(o.targets)[0]),
    "resolve_march": fallback_resolve_march,
    "resolve_consolidate_power": lambda o: acmd.ResolveConsolidatePower(area=sorted(o.orders)[0]),
    "declare_support": fallback_declare_support,
    "choose_house_card": lambda o: acmd.ChooseHouseCard(card=o.cards[0]),
    "house_card_ability": lambda o: acmd.ChooseAbility(choice=None if o.may_skip else o.choices[0]),
    "use_blade": lambda o: acmd.UseBlade(use=False),
    "choose_casualties": lambda o: acmd.ChooseCasualties(
        units=acmd.UnitCounts(**Counter(sorted(u for u, n in o.units.items() for _ in range(n))[: o.count]))
    ),
    "choose_retreat": lambda o: acmd.ChooseRetreat(area=o.areas[0]),
    "replace_port_ships": lambda o: acmd.ReplacePortShips(count=0),
    "bid": lambda o: wcmd.Bid(amount=0),
    "westeros_choice": fallback_westeros_choice,
    "select_units": fallback_select_units,
    "reconcile_armies": fallback_reconcile_armies,
    "muster": lambda o: wcmd.Muster(recruits={}),
}


def kind_of(d: Decision) -> str:
    return d.options.__struct_config__.tag


def actionable(d: Decision) -> bool:
    """Orders already sealed stay listed (they may be amended) but need nothing more."""
    return not (kind_of(d) == "assign_orders" and d.options.submitted is not None)


def random_command(d: Decision, rng: random.Random) -> msgspec.Struct:
    return CHOOSERS[kind_of(d)](d.options, rng)


def fallback_command(d: Decision) -> msgspec.Struct:
    return FALLBACKS[kind_of(d)](d.options)


# --- the bot ------------------------------------------------------------------------------------


@dataclass
class BotStats:
    accepted: int = 0
    refused: int = 0
    """422 answers (and 409s other than a stale version): the rules refused a random choice."""
    stale: int = 0
    """409 ``stale_version`` (or ``not_your_turn``/``wrong_phase``): the game moved on before the
    command arrived (another seat acted, a deadline passed); the decisions are read again."""
    fallbacks: int = 0
    requests: int = 0
    waits: int = 0
    by_kind: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    """(kind, code) -> count."""

    def add(self, other: BotStats) -> None:
        for f in ("accepted", "refused", "stale", "fallbacks", "requests", "waits"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.by_kind.update(other.by_kind)
        self.refusals.update(other.refusals)


class RandomBot:
    """Plays the seat of ``token`` in ``game_id`` until the game's phase is ``ended``."""

    def __init__(
        self,
        base_url: str,
        game_id: str,
        token: str,
        seed: int | str = 0,
        *,
        client: httpx.AsyncClient | None = None,
        wait_s: int = WAIT_S,
        watcher: GameWatcher | None = None,
        seat_id: str | None = None,
    ):
        """With a ``watcher`` (and this bot's ``seat_id``) the bot waits on the watcher instead of
        long-polling itself: one long-poll per game instead of one per seat."""
        self.base = base_url.rstrip("/")
        self.watcher = watcher
        self.seat_id = seat_id
        self.game_id = game_id
        self.token = token
        self.rng = random.Random(f"{seed}")
        self.wait_s = wait_s
        self._own_client = client is None
        self.client = client or httpx.AsyncClient(
            base_url=self.base, timeout=wait_s + 30, limits=httpx.Limits(max_connections=1, max_keepalive_connections=1)
        )
        self.headers = {"Authorization": f"Bearer {token}"}
        self.stats = BotStats()
        self.version = 0

    async def _request(self, method: str, url: str, **kw) -> httpx.Response:
        """One request; connection errors, 503 (busy) and 429 (rate limited) are retried after a pause."""
        for attempt in itertools.count():
            self.stats.requests += 1
            try:
                r = await self.client.request(method, url, **kw)
            except httpx.TransportError:
                if attempt >= 5:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            if r.status_code in (429, 503) and attempt < 20:
                await asyncio.sleep(float(r.headers.get("retry-after", "1")) * self.rng.uniform(0.2, 1))
                continue
            return r
        raise AssertionError("unreachable")

    async def decisions(self) -> DecisionsOut:
        r = await self._request("GET", f"/v1/games/{self.game_id}/decisions", headers=self.headers)
        if r.status_code != 200:
            raise BotError(f"GET decisions: {r.status_code} {r.text}")
        out = _decisions_dec.decode(r.content)
        self.version = max(self.version, out.version)
        return out

    async def wait_for_events(self, after: int) -> None:
        """Long-poll: returns as soon as the game has an event after ``after`` (or ``wait_s`` passed)."""
        self.stats.waits += 1
        r = await self._request(
            "GET",
            f"/v1/games/{self.game_id}/events",
            params={"from": after, "wait": self.wait_s, "limit": 1},
            headers=self.headers,
        )
        if r.status_code != 200:
            raise BotError(f"GET events: {r.status_code} {r.text}")

    async def post(self, command: msgspec.Struct, version: int) -> httpx.Response:
        body = _enc.encode(command)
        headers = {
            **self.headers,
            "Content-Type": "application/json",
            "Idempotency-Key": f"bot-{uuid.uuid4()}",
            "If-Match": f'"{version}"',
        }
        return await self._request("POST", f"/v1/games/{self.game_id}/commands", content=body, headers=headers)

    async def answer(self, d: Decision, version: int) -> None:
        """Answer one decision: random choices, then the fallback. Returns after an accepted command
        or a stale version (the caller reads the decisions again)."""
        kind = kind_of(d)
        last = None
        for attempt in range(MAX_ATTEMPTS + 1):
            fallback = attempt == MAX_ATTEMPTS
            command = fallback_command(d) if fallback else random_command(d, self.rng)
            if command == last and not fallback:
                continue
            last = command
            r = await self.post(command, version)
            if r.status_code == 200:
                self.stats.accepted += 1
                self.stats.by_kind[kind] += 1
                self.stats.fallbacks += fallback
                self.version = max(self.version, r.json()["version"])
                return
            code = _code(r)
            if r.status_code == 409 and code in ("stale_version", "not_your_turn", "wrong_phase"):
                self.stats.stale += 1
                return
            if r.status_code in (409, 422):
                self.stats.refused += 1
                self.stats.refusals[(kind, code)] += 1
                continue
            raise BotError(f"POST {type(command).__name__}: {r.status_code} {r.text}")
        raise BotError(
            f"{kind}: even the fallback {msgspec.json.encode(last).decode()} was refused: {r.status_code} {r.text}"
        )

    async def run(self) -> BotStats:
        """Play until the game's phase is ``ended``."""
        stuck = 0
        try:
            while True:
                ds = await self.decisions()
                if ds.phase == "ended":
                    return self.stats
                todo = [d for d in ds.decisions if actionable(d)]
                if not todo:
                    if self.watcher is not None and self.seat_id:
                        self.stats.waits += 1
                        await self.watcher.wait(self.seat_id, ds.version)
                    else:
                        await self.wait_for_events(ds.version)
                    continue
                before = self.stats.accepted
                await self.answer(todo[0], ds.version)
                stuck = 0 if self.stats.accepted > before else stuck + 1
                if stuck > 100:
                    raise BotError(f"no command accepted after 100 tries at {ds.phase}/{ds.step}, version {ds.version}")
        finally:
            if self._own_client:
                await self.client.aclose()


class GameWatcher(RandomBot):
    """Watches a game for a group of bots in one process: long-polls the game's events and reads
    who the game waits for (``waiting_for`` of ``GET /decisions``, any token of the game), then wakes
    only the bots named there. Runs until the winner is declared (``game_over``)."""

    def __init__(
        self, base_url: str, game_id: str, token: str, *, client: httpx.AsyncClient | None = None, wait_s: int = WAIT_S
    ):
        super().__init__(base_url, game_id, token, client=client, wait_s=wait_s)
        self.waiting: set[str] = set()
        self.phase = self.step = ""
        self.changed = asyncio.Condition()

    async def wait(self, seat_id: str, after: int) -> None:
        """Until the game is past version ``after`` and waits for ``seat_id`` (or has ended)."""
        async with self.changed:
            await self.changed.wait_for(
                lambda: self.version > after and (seat_id in self.waiting or self.phase == "ended")
            )

    async def run(self) -> BotStats:
        try:
            while True:
                ds = await self.decisions()
                async with self.changed:
                    self.waiting = {w.seat_id for w in ds.waiting_for}
                    self.phase, self.step = ds.phase, ds.step
                    self.changed.notify_all()
                if ds.step == "game_over":
                    return self.stats
                await self.wait_for_events(ds.version)
        finally:
            if self._own_client:
                await self.client.aclose()


def _code(r: httpx.Response) -> str:
    try:
        return r.json().get("code", "")
    except ValueError:
        return ""


# --- a whole game --------------------------------------------------------------------------------


@dataclass
class PlayedGame:
    game_id: str
    organizer_token: str
    version: int
    """The final version (after the winner was declared)."""
    seats: dict[str, str]
    """seat id -> token."""
    winner: str | None
    round: int
    seconds: float
    stats: BotStats


async def play_game(
    base: str,
    players: int,
    seed: int | str = 0,
    settings: dict | None = None,
    scenario: dict | None = None,
    *,
    wait_s: int = WAIT_S,
) -> PlayedGame:
    """Create a game (optionally from a ``scenario``), join every seat, start it and run one
    :class:`RandomBot` per seat until a winner is declared."""
    t0 = time.perf_counter()
    async with httpx.AsyncClient(
        base_url=base.rstrip("/"),
        timeout=wait_s + 30,
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
    ) as c:
        body: dict[str, Any] = {"player_count": players, "settings": settings or {}}
        if scenario is not None:
            body["scenario"] = scenario
        key = str(uuid.uuid4())  # random: the key names the game
        r = await c.post("/v1/games", json=body, headers={"Idempotency-Key": key})
        if r.status_code != 201:
            raise BotError(f"create: {r.status_code} {r.text}")
        game_id, organizer = r.json()["game_id"], r.json()["organizer_token"]
        seats: dict[str, str] = {}
        for i in range(players):
            r = await c.post(
                f"/v1/games/{game_id}/seats",
                json={"name": f"bot {i + 1}"},
                headers={"Idempotency-Key": str(uuid.uuid4())},
            )
            if r.status_code != 201:
                raise BotError(f"join: {r.status_code} {r.text}")
            seats[r.json()["seat_id"]] = r.json()["token"]
        org = {"Authorization": f"Bearer {organizer}"}
        r = await c.post(f"/v1/games/{game_id}/start", headers=org)
        if r.status_code != 200:
            raise BotError(f"start: {r.status_code} {r.text}")
        watcher = GameWatcher(base, game_id, organizer, client=c, wait_s=wait_s)
        bots = [
            RandomBot(base, game_id, token, f"{seed}/{seat}", wait_s=wait_s, watcher=watcher, seat_id=seat)
            for seat, token in seats.items()
        ]
        async with asyncio.TaskGroup() as tg:  # one failure cancels the rest
            tg.create_task(watcher.run())  # also waits for the worker's final scoring after the bots stop
            for b in bots:
                tg.create_task(b.run())
        stats = BotStats()
        for b in bots + [watcher]:
            stats.add(b.stats)
        r = await c.get(f"/v1/games/{game_id}", params={"min_version": watcher.version})
        if r.status_code != 200:
            raise BotError(f"public view: {r.status_code} {r.text}")
        view = r.json()
        return PlayedGame(
            game_id=game_id,
            organizer_token=organizer,
            version=view["version"],
            seats=seats,
            winner=view["winner"],
            round=view["round"],
            seconds=time.perf_counter() - t0,
            stats=stats,
        )


async def fill_seats(
    base: str, game_id: str, seats: int, seed: int | str = 0, *, wait_s: int = WAIT_S
) -> list[BotStats]:
    """Join ``seats`` free seats of a game that has not started and play them until the end (the
    organizer starts the game when it is full)."""
    async with httpx.AsyncClient(
        base_url=base.rstrip("/"),
        timeout=wait_s + 30,
        limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
    ) as c:
        tokens: dict[str, str] = {}
        for i in range(seats):
            r = await c.post(
                f"/v1/games/{game_id}/seats",
                json={"name": f"bot {i + 1}"},
                headers={"Idempotency-Key": str(uuid.uuid4())},
            )
            if r.status_code != 201:
                raise BotError(f"join: {r.status_code} {r.text}")
            tokens[r.json()["seat_id"]] = r.json()["token"]
        watcher = GameWatcher(base, game_id, next(iter(tokens.values())), client=c, wait_s=wait_s)
        bots = [
            RandomBot(base, game_id, t, f"{seed}/{seat}", wait_s=wait_s, watcher=watcher, seat_id=seat)
            for seat, t in tokens.items()
        ]
        async with asyncio.TaskGroup() as tg:
            tg.create_task(watcher.run())
            for b in bots:
                tg.create_task(b.run())
        return [b.stats for b in bots]


def main_one_seat(base: str, game: str, token: str, seed: int | str) -> BotStats:
    return asyncio.run(RandomBot(base, game, token, seed).run())


def main_fill(base: str, game: str, seats: int, seed: int | str) -> list[BotStats]:
    return asyncio.run(fill_seats(base, game, seats, seed))


def main_new_game(base: str, players: int, seed: int | str, timeout_s: int = 600) -> PlayedGame:
    return asyncio.run(play_game(base, players, seed, {"decision_timeout_s": timeout_s}))
