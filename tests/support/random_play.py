"""A random-legal-move driver for whole Action phases (used by test_random_legal_moves.py).

Planning phases are random and legal (random tokens within the special-order limit); then every
pending decision is answered with a random legal choice from its listed options (a random March or
mustering is retried a few times if the rules reject it, then falls back to doing nothing), and now
and then a deadline passes instead so the documented defaults run too. Between rounds the Westeros
phase (not implemented yet) is skipped by opening the next Planning phase directly.
"""

from __future__ import annotations

import random
from collections import Counter

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import commands as acmd
from domain.board.decider import decide
from domain.board.emitter import copy_state
from domain.board.mustering import NEW_COST
from domain.board.orders import is_special, owned_tokens
from domain.board.planning import areas_needing_orders, eligible_count, needs_sequential_placement, special_order_limit
from domain.core.errors import RuleViolation
from tests.support.action_positions import SYSTEM, Position


def random_orders(state, house, rng: random.Random) -> dict[str, str]:
    areas = areas_needing_orders(state, house)
    pool = list(owned_tokens().elements())
    rng.shuffle(pool)
    limit = special_order_limit(state, house)
    out: dict[str, str] = {}
    specials = 0
    for area in areas:
        while pool:
            t = pool.pop()
            if is_special(t):
                if specials >= limit:
                    continue
                specials += 1
            out[area] = t
            break
    n = min(len(areas), eligible_count(state, house))
    return dict(list(out.items())[:n])


def random_march(state, house, opts, rng):
    fighting = [a for a, x in opts.orders.items() if x.fights and x.units]
    area = rng.choice(fighting) if fighting and rng.random() < 0.7 else rng.choice(sorted(opts.orders))
    o = opts.orders[area]
    moves: dict[str, dict[str, int]] = {}
    if o.fights and rng.random() < 0.7:  # bias towards fights: everything into one of them
        d = rng.choice(sorted(o.fights))
        units = {u: n for u, n in o.units.items() if d in (o.ship_destinations if u == "ship" else o.land_destinations)}
        return acmd.ResolveMarch(area=area, moves={d: units}, leave_power_token=False)
    for unit, n in o.units.items():
        dests = o.ship_destinations if unit == "ship" else o.land_destinations
        for _ in range(n):
            if dests and rng.random() < 0.6:
                d = rng.choice(dests)
                moves.setdefault(d, Counter())[unit] += 1
    return acmd.ResolveMarch(
        area=area,
        moves={d: dict(u) for d, u in moves.items()},
        leave_power_token=o.may_leave_power_token and rng.random() < 0.5,
    )


def random_muster(area, o, rng):
    points = o.muster_points
    recruits = []
    while points > 0 and rng.random() < 0.8:
        unit = rng.choice(list(NEW_COST))
        if rng.random() < 0.3 and unit in ("knight", "siege_engine"):
            recruits.append(acmd.Recruit(unit=unit, upgrade=True))
            points -= 1
            continue
        if NEW_COST[unit] > points:
            break
        if unit == "ship":
            if not o.ship_areas:
                continue
            recruits.append(acmd.Recruit(unit="ship", area=rng.choice(o.ship_areas)))
        else:
            recruits.append(acmd.Recruit(unit=unit))
        points -= NEW_COST[unit]
    return acmd.ResolveConsolidatePower(area=area, muster=recruits)


def random_command(state, d, rng):
    o = d.options
    kind = o.__struct_config__.tag
    if kind == "resolve_raid":
        area = rng.choice(sorted(o.targets))
        targets = o.targets[area]
        return acmd.ResolveRaid(area=area, target=rng.choice(targets) if targets and rng.random() < 0.8 else None)
    if kind == "resolve_march":
        return random_march(state, d.house, o, rng)
    if kind == "resolve_consolidate_power":
        area = rng.choice(sorted(o.orders))
        if o.orders[area].may_muster and rng.random() < 0.7:
            return random_muster(area, o.orders[area], rng)
        return acmd.ResolveConsolidatePower(area=area)
    if kind == "declare_support":
        return acmd.DeclareSupport(side=rng.choice(o.sides))
    if kind == "choose_house_card":
        return acmd.ChooseHouseCard(card=rng.choice(o.cards))
    if kind == "house_card_ability":
        choices = list(o.choices) + ([None] if o.may_skip else [])
        return acmd.ChooseAbility(choice=rng.choice(choices))
    if kind == "use_blade":
        return acmd.UseBlade(use=rng.choice(o.choices))
    if kind == "choose_casualties":
        pool = [u for u, n in o.units.items() for _ in range(n)]
        return acmd.ChooseCasualties(units=dict(Counter(rng.sample(pool, o.count))))
    if kind == "choose_retreat":
        return acmd.ChooseRetreat(area=rng.choice(o.areas))
    if kind == "choose_retreat_losses":
        pool = [u for u, n in o.units.items() for _ in range(n)]
        return acmd.ChooseRetreatLosses(units=dict(Counter(rng.sample(pool, o.count))))
    return acmd.ReplacePortShips(count=rng.randint(0, o.max))


def fallback_command(state, d):
    from domain.board.action.timeouts import default_command

    return default_command(state, d.house, d.options)


def next_planning(sc: Position, rng):
    """Skip the (unimplemented) Westeros phase: open the next Planning phase directly."""
    s = sc.state
    sc.apply(
        [
            ev.StepBegan(
                phase="planning",
                step="assign_orders",
                round=s.round,
                deadline=sc.ctx.deadline(600),
                sequential=needs_sequential_placement(s),
            )
        ]
    )


def play_planning(sc: Position, rng):
    for house in sc.state.turn_order():
        sc.run(house, cmd.AssignOrders(orders=random_orders(sc.state, house, rng)))
    sc.sys(cmd.ResolvePending(), SYSTEM)
    sc.run(sc.state.raven_holder(), cmd.RavenPass())


def play_action_phase(sc: Position, rng, check, max_steps: int = 2000) -> int:
    """Drive one Action phase to its end; ``check(sc, events, before=state before)`` runs after every
    batch (:func:`tests.support.invariants.make_checker`)."""
    batch = sc.sys(cmd.ResolvePending(), SYSTEM)
    check(sc, batch)
    steps = 0
    while sc.state.phase == "action":
        steps += 1
        assert steps < max_steps, "the Action phase does not end"
        ds = sc.decisions()
        assert ds, f"no decision pending at step {sc.state.step}"
        if rng.random() < 0.05:
            batch = sc.timeout()
            check(sc, batch)
            continue
        d = rng.choice(ds)
        for attempt in range(8):
            command = random_command(sc.state, d, rng) if attempt < 7 else fallback_command(sc.state, d)
            try:
                events = decide(sc.state, command, sc.actor(d.house), sc.ctx)
            except RuleViolation:
                if attempt == 7:
                    raise
                continue
            break
        before = copy_state(sc.state)
        sc.apply(events)
        check(sc, events, before=before)
    return steps
