"""A bot that plays one seat through the public API by random legal choices.

    bot = RandomBot("http://127.0.0.1:8000", game_id, seat_token, seed=7)
    result = await bot.run()           # until the game's phase is ``ended``

    played = await play_game("http://127.0.0.1:8000", players=4, seed=1)   # a whole game, one bot a seat

It only uses what any client has: ``GET /decisions`` (its own token) gives the pending decisions
with their legal options; for each one it builds a random command from those options alone (one
small function per decision kind, named after the kind: :data:`CHOOSERS`) and POSTs it with an
``Idempotency-Key`` and ``If-Match``. The choices respect every constraint the options state (a
March's one fight, neutral forces, port room and supply; a mustering's points, upgradable Footmen,
units left and supply), so the rules should never refuse them (:attr:`BotStats.refused` counts it
if they do). A refused command (422) is still retried with another random choice a few times, then
the simplest legal answer is sent (:data:`FALLBACKS`: a March that moves nothing, no support, bid 0,
pass...). A stale
version (409) re-reads the decisions. With nothing to decide it long-polls
``GET /events?from=<version>&wait=10`` instead of polling. Used by the tests, the benchmarks
(``bench/full_games.py``) and ``citadel bot`` (one seat, free seats of a game, or a whole game of
bots). :func:`play_game` and :func:`fill_seats` run their bots with one :class:`GameWatcher`, which
long-polls for all of them and wakes only the seats the game waits for. The loop itself (read,
answer, retry, fallback, wait) is :class:`clients.driver.SeatDriver`'s, shared with the card game's
bot (:mod:`clients.card_bot`); this module adds the board game's choosers and fallbacks.

It speaks HTTP only, through :mod:`clients.citadel_client` (its own models of the API's JSON);
it needs ``httpx`` and ``msgspec``, nothing of the server.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from clients.citadel_client import models as m
from clients.citadel_client.client import ApiProblem, CitadelClient
from clients.citadel_client.models import Command, Decision, DecisionsOut
from clients.driver import WAIT_S, BotError, BotStats, SeatDriver

MAX_ATTEMPTS = 6
"""Random choices tried for one decision before the fallback."""
GIFT_CHANCE = 0.05
"""Mother of Dragons: how often, before answering a decision, the bot first gives a random gift of
Power from its ``gift_power`` option (optional, so never the only thing it does)."""


# --- random legal choices, one per decision kind (from the decision's options only) ----------------


def choose_house(o: m.ChooseHouseOptions, rng: random.Random) -> m.ChooseHouse:
    """Mother of Dragons (MOD-SETUP-01): any house still free."""
    return m.ChooseHouse(house=rng.choice(o.houses))


def choose_commanders(o: m.ChooseCommanderOptions, rng: random.Random) -> m.CommandVassal:
    """Mother of Dragons (MOD-VASSAL-03/04): a free vassal, or now and then a pass."""
    if rng.random() < 0.2:
        return m.CommandVassal(vassal=None)
    return m.CommandVassal(vassal=rng.choice(o.vassals))


def assign_orders(o: m.AssignOrdersOptions, rng: random.Random) -> m.AssignOrders:
    """Random eligible tokens on the listed areas, at most ``special_limit`` special ones."""
    pool = [t for t, n in o.tokens.items() for _ in range(n)]
    rng.shuffle(pool)
    special = set(o.special_tokens)
    out: dict[str, str] = {}
    specials = 0
    areas = list(o.areas)
    if o.max_orders is not None:  # a Mother of Dragons vassal: up to two orders, on any of its areas
        rng.shuffle(areas)
        areas = areas[: rng.randint(0, o.max_orders)]
    for area in areas:
        while pool:
            t = pool.pop()
            if t in special:
                if specials >= o.special_limit:
                    continue
                specials += 1
            out[area] = t
            break
    return m.AssignOrders(orders=out)


def messenger_raven(o: m.RavenOptions, rng: random.Random) -> Command:
    r = rng.random()
    if r < 0.3 and o.replace:
        area = rng.choice(sorted(o.replace))
        if o.replace[area]:
            return m.RavenReplaceOrder(area=area, new_order=rng.choice(o.replace[area]))
    if r < 0.6 and o.may_peek_wildling:
        return m.RavenPeekWildling()
    return m.RavenPass()


def raven_wildling_placement(o: m.RavenPlacementOptions, rng: random.Random) -> m.RavenPlaceWildling:
    return m.RavenPlaceWildling(to_bottom=rng.choice(o.choices))


def resolve_raid(o: m.RaidOptions, rng: random.Random) -> m.ResolveRaid:
    area = rng.choice(sorted(o.targets))
    targets = o.targets[area]
    return m.ResolveRaid(area=area, target=rng.choice(targets) if targets and rng.random() < 0.8 else None)


def fits_supply(limit: m.SupplyLimit, delta: dict[str, int]) -> bool:
    """The decision's ``supply``: your units per area after ``delta`` (area -> +/- units) form armies
    (2+ units) that fit the allowed sizes, largest first (BG-SUPPLY-01/02/05)."""
    counts = Counter(limit.units)
    for a, d in delta.items():
        counts[a] += d
    return _armies_legal(list(counts.values()), limit.allowed)


def _march_delta(area: str, moves: dict[str, Counter[str]]) -> dict[str, int]:
    delta: Counter[str] = Counter()
    for d, units in moves.items():
        n = sum(units.values())
        delta[d] += n
        delta[area] -= n
    return dict(delta)


def _reaches(x: m.MarchOrderOptions, dest: str, units: Counter[str]) -> bool:
    """A neutral force in ``dest`` (if any) is reached by ``units`` (``neutral_forces``)."""
    force = x.neutral_forces.get(dest)
    if force is None:
        return True
    reach = force.base + sum(n * force.unit_strength.get(u, 0) for u, n in units.items())
    return max(0, reach) >= force.strength


def _repair_march(
    area: str, x: m.MarchOrderOptions, supply: m.SupplyLimit, moves: dict[str, Counter[str]], rng: random.Random
) -> dict[str, Counter[str]]:
    """Bring ``moves`` within what the options state: units sent to a neutral force they cannot beat
    stay home, and random units stay home until the supply fits. A March that moves nothing is never
    refused for supply (even when the armies are already beyond it)."""
    moves = {d: +u for d, u in moves.items() if +u}
    while True:
        moves = {d: u for d, u in moves.items() if _reaches(x, d, u)}
        if not moves or fits_supply(supply, _march_delta(area, moves)):
            return moves
        sent = [(d, u) for d in sorted(moves) for u in sorted(moves[d]) for _ in range(moves[d][u])]
        d, u = rng.choice(sent)
        moves[d][u] -= 1
        moves = {d: +c for d, c in moves.items() if +c}


def resolve_march(o: m.MarchOptions, rng: random.Random) -> m.ResolveMarch:
    """Biased towards fights: often everything that can go into one contested destination. Respects
    every stated constraint: at most one fight, neutral forces, port room, supply, the Power token."""
    fighting = sorted(a for a, x in o.orders.items() if x.fights and x.units)
    area = rng.choice(fighting) if fighting and rng.random() < 0.7 else rng.choice(sorted(o.orders))
    x = o.orders[area]

    def dests_of(unit: str) -> list[str]:
        return x.ship_destinations if unit == "ship" else x.land_destinations

    moves: dict[str, Counter[str]] = {}
    if x.fights and x.units and rng.random() < 0.7:
        d = rng.choice(sorted(x.fights))
        units = Counter({u: n for u, n in x.units.items() if d in dests_of(u)})
        moves = _repair_march(area, x, o.supply, {d: units}, rng)
        if moves:
            return m.ResolveMarch(area=area, moves={d: m.UnitCounts(**u) for d, u in moves.items()})
    fight: str | None = None
    room = dict(x.port_room)
    for unit, n in sorted(x.units.items()):
        for _ in range(n):
            dests = [
                d
                for d in dests_of(unit)
                if (d not in x.fights or fight in (None, d)) and (d not in room or room[d] > 0)
            ]
            if dests and rng.random() < 0.6:
                d = rng.choice(dests)
                moves.setdefault(d, Counter())[unit] += 1
                if d in x.fights:
                    fight = d  # BG-MARCH-04: one fight per March
                if d in room:
                    room[d] -= 1
    moves = _repair_march(area, x, o.supply, moves, rng)
    all_leave = sum(sum(u.values()) for u in moves.values()) == sum(x.units.values())  # BG-MARCH-06
    return m.ResolveMarch(
        area=area,
        moves={d: m.UnitCounts(**u) for d, u in moves.items()},
        leave_power_token=x.may_leave_power_token and all_leave and rng.random() < 0.5,
    )


@dataclass
class _MusterBudget:
    """What a mustering still allows across its areas: units left (BG-COMP-03) and the supply
    counts with the units placed so far (BG-MUSTER-05)."""

    units_left: Counter[str]
    supply: m.SupplyLimit
    placed: Counter[str] = field(default_factory=Counter)

    def may_place(self, dest: str) -> bool:
        return fits_supply(self.supply, {**self.placed, dest: self.placed[dest] + 1})


def _recruits(
    area: str,
    points: int,
    ship_areas: list[str],
    footmen: int,
    port_room: dict[str, int],
    costs: dict[str, int],
    upgrade_costs: dict[str, int],
    budget: _MusterBudget,
    rng: random.Random,
) -> list[m.Recruit]:
    """Random purchases in ``area`` worth at most ``points`` (BG-MUSTER-01/02), upgrading only the
    Footmen standing there, Ships only where there is room, within the units left and the supply."""
    out: list[m.Recruit] = []
    room = dict(port_room)
    while points > 0 and rng.random() < 0.85 and len(out) < 4:
        unit = rng.choice(sorted(costs))
        if budget.units_left[unit] <= 0:
            continue
        if unit in upgrade_costs and rng.random() < 0.3:
            if upgrade_costs[unit] <= points and footmen > 0:
                out.append(m.Recruit(unit=unit, upgrade=True))
                points -= upgrade_costs[unit]
                footmen -= 1
                budget.units_left[unit] -= 1  # the Footman it returns is not counted back (conservative)
            continue
        if costs[unit] > points:
            continue
        dest = area
        if unit == "ship":
            ships = [a for a in ship_areas if room.get(a, 1) > 0 and budget.may_place(a)]
            if not ships:
                continue
            dest = rng.choice(ships)
            if dest in room:
                room[dest] -= 1
            out.append(m.Recruit(unit="ship", area=dest))
        else:
            if not budget.may_place(area):
                continue
            out.append(m.Recruit(unit=unit))
        budget.placed[dest] += 1
        budget.units_left[unit] -= 1
        points -= costs[unit]
    return out


def resolve_consolidate_power(o: m.ConsolidateOptions, rng: random.Random) -> m.ResolveConsolidatePower:
    area = rng.choice(sorted(o.orders))
    x = o.orders[area]
    if x.may_muster and rng.random() < 0.7:
        budget = _MusterBudget(units_left=Counter(o.units_left), supply=o.supply)
        return m.ResolveConsolidatePower(
            area=area,
            muster=_recruits(
                area,
                x.muster_points,
                x.ship_areas,
                x.footmen,
                x.port_room,
                o.costs,
                o.upgrade_costs,
                budget,
                rng,
            ),
        )
    return m.ResolveConsolidatePower(area=area)


def declare_support(o: m.SupportOptions, rng: random.Random) -> m.DeclareSupport:
    return m.DeclareSupport(side=rng.choice(o.sides))


def choose_house_card(o: m.HouseCardOptions, rng: random.Random) -> m.ChooseHouseCard:
    return m.ChooseHouseCard(card=rng.choice(o.cards))


def house_card_ability(o: m.AbilityOptions, rng: random.Random) -> m.ChooseAbility:
    return m.ChooseAbility(choice=rng.choice(list(o.choices) + ([None] if o.may_skip else [])))


def use_blade(o: m.BladeOptions, rng: random.Random) -> m.UseBlade:
    return m.UseBlade(use=rng.choice(o.choices))


def choose_casualties(o: m.CasualtyOptions, rng: random.Random) -> m.ChooseCasualties:
    pool = sorted(u for u, n in o.units.items() for _ in range(n))
    return m.ChooseCasualties(units=m.UnitCounts(**Counter(rng.sample(pool, o.count))))


def choose_retreat(o: m.RetreatOptions, rng: random.Random) -> m.ChooseRetreat:
    return m.ChooseRetreat(area=rng.choice(o.areas))


def choose_retreat_losses(o: m.RetreatLossesOptions, rng: random.Random) -> m.ChooseRetreatLosses:
    pool = sorted(u for u, n in o.units.items() for _ in range(n))
    return m.ChooseRetreatLosses(units=m.UnitCounts(**Counter(rng.sample(pool, o.count))))


def replace_port_ships(o: m.PortShipsOptions, rng: random.Random) -> m.ReplacePortShips:
    return m.ReplacePortShips(count=rng.randint(0, o.max))


def bid(o: m.BidOptions, rng: random.Random) -> m.Bid:
    return m.Bid(amount=min(o.max, int(rng.expovariate(0.5))) if rng.random() < 0.9 else o.max)


def westeros_choice(o: m.ChoiceOptions, rng: random.Random) -> m.WesterosChoice:
    return m.WesterosChoice(choice=rng.choice(list(o.options) + ([None] if o.may_skip else [])))


def _pick(units: dict[str, dict[str, int]], count: int, rng: random.Random | None) -> dict[str, m.UnitCounts]:
    """``count`` units out of ``units`` (area -> counts): at random, or the first ones without ``rng``."""
    flat = [(a, u) for a in sorted(units) for u in sorted(units[a]) for _ in range(units[a][u])]
    chosen = rng.sample(flat, count) if rng else flat[:count]
    out: dict[str, Counter] = {}
    for a, u in chosen:
        out.setdefault(a, Counter())[u] += 1
    return {a: m.UnitCounts(**c) for a, c in out.items()}


def select_units(o: m.SelectUnitsOptions, rng: random.Random) -> m.SelectUnits:
    n = rng.randint(o.min, o.max)
    units = o.units
    if o.same_area and n:
        areas = sorted(a for a in units if sum(units[a].values()) >= n)
        if not areas:
            return fallback_select_units(o)
        a = rng.choice(areas)
        units = {a: units[a]}
    return m.SelectUnits(units=_pick(units, n, rng))


def _armies_legal(sizes: list[int], allowed: list[int]) -> bool:
    """BG-SUPPLY-01/02: armies (2+ units) sorted largest first fit the allowed sizes one by one."""
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    return len(armies) <= len(allowed) and all(a <= b for a, b in zip(armies, sorted(allowed, reverse=True)))


def reconcile_armies(o: m.ReconcileOptions, rng: random.Random) -> m.ReconcileArmies:
    """Destroy random units one at a time until the armies fit, then spare any that was not needed
    (the rules refuse a loss that one unit fewer would also fix)."""
    sizes = {a: sum(u.values()) for a, u in o.armies.items()}
    pool = [(a, u) for a in sorted(o.armies) for u, n in sorted(o.armies[a].items()) for _ in range(n)]
    rng.shuffle(pool)
    removed: Counter = Counter()

    def legal(rm: Counter) -> bool:
        per_area: Counter[str] = Counter()
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
    return m.ReconcileArmies(units={a: m.UnitCounts(**u) for a, u in out.items()})


def muster(o: m.MusterOptions, rng: random.Random) -> m.Muster:
    areas = sorted(o.areas)
    rng.shuffle(areas)
    if o.max_areas:
        areas = areas[: o.max_areas]
    recruits = {}
    budget = _MusterBudget(units_left=Counter(o.units_left), supply=o.supply)  # shared by every area
    for area in areas:
        if rng.random() < 0.2:
            continue
        x = o.areas[area]
        got = _recruits(area, x.points, x.ship_areas, x.footmen, x.port_room, o.costs, o.upgrade_costs, budget, rng)
        if got:
            recruits[area] = got
    return m.Muster(recruits=recruits)


def gift_power(o: m.GiftPowerOptions, rng: random.Random) -> m.GiftPower:
    """Mother of Dragons (MOD-GIFT-01): a random receiver and 1..its listed maximum."""
    to = rng.choice(sorted(o.receivers))
    return m.GiftPower(to=to, amount=rng.randint(1, min(3, o.receivers[to])))


def undo_consent(o: m.UndoConsentOptions, rng: random.Random) -> m.AnswerUndo:
    """An opponent asks to undo its last command: a random bot agrees or not at random."""
    return m.AnswerUndo(consent=rng.random() < 0.5)


CHOOSERS: dict[str, Callable[[Any, random.Random], Command]] = {
    f.__name__: f
    for f in (
        choose_house,
        choose_commanders,
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
        choose_retreat_losses,
        replace_port_ships,
        bid,
        westeros_choice,
        select_units,
        reconcile_armies,
        muster,
        undo_consent,
        gift_power,
    )
}


# --- the simplest legal answer of each kind (after repeated refusals) ------------------------------


def fallback_assign_orders(o: m.AssignOrdersOptions) -> m.AssignOrders:
    regular = [t for t, n in sorted(o.tokens.items()) if t not in o.special_tokens for _ in range(n)]
    specials = [t for t in sorted(o.special_tokens) for _ in range(o.tokens.get(t, 0))][: o.special_limit]
    areas = o.areas if o.max_orders is None else o.areas[: o.max_orders]
    return m.AssignOrders(orders=dict(zip(areas, regular + specials)))


def fallback_resolve_march(o: m.MarchOptions) -> m.ResolveMarch:
    return m.ResolveMarch(area=sorted(o.orders)[0])  # moves nothing


def fallback_declare_support(o: m.SupportOptions) -> m.DeclareSupport:
    return m.DeclareSupport(side="none" if "none" in o.sides else o.sides[0])


def fallback_westeros_choice(o: m.ChoiceOptions) -> m.WesterosChoice:
    if o.default is not None:
        return m.WesterosChoice(choice=o.default)
    return m.WesterosChoice(choice=None if o.may_skip else o.options[0])


def fallback_select_units(o: m.SelectUnitsOptions) -> m.SelectUnits:
    units = o.units
    if o.same_area and o.min:
        a = next(a for a in sorted(units) if sum(units[a].values()) >= o.min)
        units = {a: units[a]}
    return m.SelectUnits(units=_pick(units, o.min, None))


def fallback_reconcile_armies(o: m.ReconcileOptions) -> m.ReconcileArmies:
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
            out[a] = m.UnitCounts(**picked)
    return m.ReconcileArmies(units=out)


FALLBACKS: dict[str, Callable[[Any], Command]] = {
    "choose_house": lambda o: m.ChooseHouse(house=o.houses[0]),
    "choose_commanders": lambda o: m.CommandVassal(vassal=o.vassals[0]),
    "assign_orders": fallback_assign_orders,
    "messenger_raven": lambda o: m.RavenPass(),
    "raven_wildling_placement": lambda o: m.RavenPlaceWildling(to_bottom=False),
    "resolve_raid": lambda o: m.ResolveRaid(area=sorted(o.targets)[0]),
    "resolve_march": fallback_resolve_march,
    "resolve_consolidate_power": lambda o: m.ResolveConsolidatePower(area=sorted(o.orders)[0]),
    "declare_support": fallback_declare_support,
    "choose_house_card": lambda o: m.ChooseHouseCard(card=o.cards[0]),
    "house_card_ability": lambda o: m.ChooseAbility(choice=None if o.may_skip else o.choices[0]),
    "use_blade": lambda o: m.UseBlade(use=False),
    "choose_casualties": lambda o: m.ChooseCasualties(
        units=m.UnitCounts(**Counter(sorted(u for u, n in o.units.items() for _ in range(n))[: o.count]))
    ),
    "choose_retreat": lambda o: m.ChooseRetreat(area=o.areas[0]),
    "choose_retreat_losses": lambda o: m.ChooseRetreatLosses(
        units=m.UnitCounts(**Counter(sorted(u for u, n in o.units.items() for _ in range(n))[: o.count]))
    ),
    "replace_port_ships": lambda o: m.ReplacePortShips(count=0),
    "bid": lambda o: m.Bid(amount=0),
    "westeros_choice": fallback_westeros_choice,
    "select_units": fallback_select_units,
    "reconcile_armies": fallback_reconcile_armies,
    "muster": lambda o: m.Muster(recruits={}),
    "undo_consent": lambda o: m.AnswerUndo(consent=False),
    "gift_power": lambda o: m.GiftPower(to=sorted(o.receivers)[0], amount=1),
}


def kind_of(d: Decision) -> str:
    """The decision's kind (its options' ``kind``): the key of :data:`CHOOSERS` and :data:`FALLBACKS`."""
    return m.kind_of(d.options)


def actionable(d: Decision) -> bool:
    """Orders already sealed stay listed (they may be amended) but need nothing more; a gift of Power
    is an option nobody waits for (:meth:`RandomBot.maybe_gift`)."""
    if isinstance(d.options, m.GiftPowerOptions):
        return False
    return not (isinstance(d.options, m.AssignOrdersOptions) and d.options.submitted is not None)


def for_whom(d: Decision, command: Command) -> Command:
    """Mother of Dragons: a decision for a vassal the bot commands is answered for that vassal."""
    return msgspec.structs.replace(command, for_vassal=d.for_vassal) if d.for_vassal else command


def random_command(d: Decision, rng: random.Random) -> Command:
    return for_whom(d, CHOOSERS[kind_of(d)](d.options, rng))


def fallback_command(d: Decision) -> Command:
    return for_whom(d, FALLBACKS[kind_of(d)](d.options))


# --- the bot ------------------------------------------------------------------------------------


def _api(base_url: str, wait_s: int) -> CitadelClient:
    """A client with one connection whose timeout outlasts a long-poll of ``wait_s`` seconds."""
    return CitadelClient(base_url, timeout=wait_s + 30, max_connections=1)


class RandomBot(SeatDriver[Decision, Command]):
    """Plays the seat of ``token`` in ``game_id`` until the game's phase is ``ended`` (the loop:
    :class:`clients.driver.SeatDriver`)."""

    max_attempts = MAX_ATTEMPTS
    moved_on = frozenset({"stale_version", "not_your_turn", "wrong_phase", "decision_closed"})
    paused_code = "clocks_paused"

    def __init__(
        self,
        base_url: str,
        game_id: str,
        token: str,
        seed: int | str = 0,
        *,
        client: CitadelClient | None = None,
        wait_s: int = WAIT_S,
        watcher: GameWatcher | None = None,
        seat_id: str | None = None,
    ):
        """``client``: a client whose connections this bot shares (with its own token); otherwise
        the bot opens its own connection. With a ``watcher`` (and this bot's ``seat_id``) the bot
        waits on the watcher instead of long-polling itself: one long-poll per game instead of one
        per seat."""
        self.watcher = watcher
        self.seat_id = seat_id
        super().__init__(base_url, game_id, token, seed, client=client, wait_s=wait_s)

    def make_client(self, base_url: str, wait_s: int) -> CitadelClient:
        return _api(base_url, wait_s)

    async def read_decisions(self) -> DecisionsOut:
        return await self.api.decisions(self.game_id)

    def kind(self, d: Decision) -> str:
        return kind_of(d)

    def actionable(self, d: Decision) -> bool:
        return actionable(d)

    def random_command(self, d: Decision) -> Command:
        return random_command(d, self.rng)

    def fallback_command(self, d: Decision) -> Command:
        return fallback_command(d)

    async def idle(self, version: int) -> None:
        if self.watcher is not None and self.seat_id:
            self.stats.waits += 1
            await self.watcher.wait(self.seat_id, version)
        else:
            await self.wait_for_events(version)

    async def before_answer(self, ds: DecisionsOut) -> bool:
        return await self.maybe_gift(ds)

    async def maybe_gift(self, ds: DecisionsOut) -> bool:
        """Now and then (:data:`GIFT_CHANCE`), give a random gift from the seat's ``gift_power`` option
        before answering. True when one was accepted (the decisions are read again); a refusal (the
        game moved on) is counted and ignored."""
        offer = next((d for d in ds.decisions if isinstance(d.options, m.GiftPowerOptions)), None)
        if offer is None or self.rng.random() >= GIFT_CHANCE:
            return False
        try:
            self.version = max(self.version, await self.post(random_command(offer, self.rng), ds.version))
        except ApiProblem as e:
            if e.status not in (409, 422):
                raise BotError(f"POST GiftPower: {e.status} {e.body or e}") from e
            self.stats.stale += 1
            return False
        self.stats.accepted += 1
        self.stats.by_kind["gift_power"] += 1
        return True


class GameWatcher(RandomBot):
    """Watches a game for a group of bots in one process: long-polls the game's events and reads
    who the game waits for (``waiting_for`` of ``GET /decisions``, any token of the game), then wakes
    only the bots named there. Runs until the winner is declared (``game_over``)."""

    def __init__(
        self, base_url: str, game_id: str, token: str, *, client: CitadelClient | None = None, wait_s: int = WAIT_S
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
            await self.close()


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


async def _join(api: CitadelClient, game_id: str, seats: int) -> dict[str, str]:
    """Take ``seats`` free seats (``bot 1``, ``bot 2``...): seat id -> token."""
    out: dict[str, str] = {}
    for i in range(seats):
        seat = await api.join(game_id, f"bot {i + 1}")
        out[seat.seat_id] = seat.token
    return out


async def _play_seats(
    api: CitadelClient, base: str, game_id: str, watch_token: str, seats: dict[str, str], seed: int | str, wait_s: int
) -> tuple[GameWatcher, list[RandomBot]]:
    """One bot per seat (each on its own connection) and one watcher (on ``api``'s) until the end."""
    watcher = GameWatcher(base, game_id, watch_token, client=api, wait_s=wait_s)
    bots = [
        RandomBot(base, game_id, token, f"{seed}/{seat}", wait_s=wait_s, watcher=watcher, seat_id=seat)
        for seat, token in seats.items()
    ]
    async with asyncio.TaskGroup() as tg:  # one failure cancels the rest
        tg.create_task(watcher.run())  # also waits for the worker's final scoring after the bots stop
        for b in bots:
            tg.create_task(b.run())
    return watcher, bots


async def play_game(
    base: str,
    players: int,
    seed: int | str = 0,
    settings: dict[str, Any] | None = None,
    scenario: dict[str, Any] | None = None,
    *,
    wait_s: int = WAIT_S,
) -> PlayedGame:
    """Create a game (optionally from a ``scenario``), join every seat, start it and run one
    :class:`RandomBot` per seat until a winner is declared."""
    t0 = time.perf_counter()
    async with _api(base, wait_s) as api:
        created = await api.create_game(players, settings or {}, scenario)  # a random key: it names the game
        game_id, organizer = created.game_id, created.organizer_token
        seats = await _join(api, game_id, players)
        org = api.with_token(organizer)
        await org.start(game_id)
        watcher, bots = await _play_seats(api, base, game_id, organizer, seats, seed, wait_s)
        stats = BotStats()
        for b in bots + [watcher]:
            stats.add(b.stats)
        view = await api.view(game_id, min_version=watcher.version)
        return PlayedGame(
            game_id=game_id,
            organizer_token=organizer,
            version=view.version,
            seats=seats,
            winner=view.winner,
            round=view.round,
            seconds=time.perf_counter() - t0,
            stats=stats,
        )


async def fill_seats(
    base: str, game_id: str, seats: int, seed: int | str = 0, *, wait_s: int = WAIT_S
) -> list[BotStats]:
    """Join ``seats`` free seats of a game that has not started and play them until the end (the
    organizer starts the game when it is full)."""
    async with _api(base, wait_s) as api:
        tokens = await _join(api, game_id, seats)
        _, bots = await _play_seats(api, base, game_id, next(iter(tokens.values())), tokens, seed, wait_s)
        return [b.stats for b in bots]


def main_one_seat(base: str, game: str, token: str, seed: int | str) -> BotStats:
    return asyncio.run(RandomBot(base, game, token, seed).run())


def main_fill(base: str, game: str, seats: int, seed: int | str) -> list[BotStats]:
    return asyncio.run(fill_seats(base, game, seats, seed))


def main_new_game(base: str, players: int, seed: int | str, timeout_s: int = 600) -> PlayedGame:
    return asyncio.run(play_game(base, players, seed, {"decision_timeout_s": timeout_s}))


async def play_seats(
    base: str, game_id: str, organizer_token: str, seats: dict[str, str], seed: int | str = 0, *, wait_s: int = WAIT_S
) -> int:
    """Play the seats of a started game (seat id -> token, e.g. a tournament's table) with one bot
    each until a winner is declared; the game's final version."""
    async with _api(base, wait_s) as api:
        watcher, _ = await _play_seats(api, base, game_id, organizer_token, seats, seed, wait_s)
        return watcher.version
