"""The Action-phase tests of ``tests/domain/board/action`` (each builds a position), run again through the API (issue 3).

Each test function of those modules runs unchanged, with ``Position`` replaced by
:class:`tests.support.api_positions.ApiPosition` in its module (and in ``combat_helpers``): the position is
created with the organizer's scenario fixture (``POST /v1/games`` with ``scenario``), the worker opens
the Action phase, every command goes through ``POST /commands`` with the house's seat token, the
decisions come from ``GET /decisions``, and ``sc.state``/``sc.events`` are the fold of the referee
export. ``timeout()`` waits for the worker's own timeout job (short deadlines for those tests).

Not run here (see ``EXCLUDED`` for each reason): tests that never build a position (pure functions
and data), tests that mutate ``sc.state`` after ``begin()`` (the server cannot see that), and the
random-play test (30 games of 5 rounds: too slow through HTTP; ``test_random_action_phase_through_the_api``
plays six random round-1 Action phases through the API instead).
"""

from __future__ import annotations

import importlib
import inspect
import random

import pytest

from domain.board.state import PlacedOrder
from domain.core.errors import RuleViolation
from tests.support.api_positions import ApiPosition
from tests.support.invariants import check_batch_end, check_state
from tests.support.random_play import fallback_command, random_command, random_orders

MODULES = (
    "test_flow",
    "test_raids",
    "test_marches",
    "test_consolidate",
    "test_combat",
    "test_house_cards",
    "test_timeouts",
)

_MUTATES = "mutates sc.state after begin() (the server cannot see it; no scenario field describes it)"
EXCLUDED = {
    # routed units exist only inside an Action phase; the fixture describes its start
    "test_combat.test_BG_COMBAT_05_support_adds_units_and_bonus_routed_add_zero": _MUTATES + ": routed units",
    "test_combat.test_BG_COMBAT_14_routed_units_and_siege_engines_of_the_loser_die_first": _MUTATES + ": routed units",
    "test_combat.test_BG_COMBAT_22_routed_units_have_no_strength_and_stand_at_cleanup": _MUTATES + ": routed units",
    "test_marches.test_BG_COMBAT_23_routed_units_cannot_march": _MUTATES + ": routed units",
    "test_house_cards.test_renly_baratheon_upgrades_a_standing_footman_never_a_routed_one": _MUTATES + ": routed units",
    "test_combat.test_BG_COMBAT_22_routed_units_stand_up_at_the_action_phase_clean_up": (
        "plays on into round 2 (a WesterosPosition through the Westeros and Planning phases), which an "
        "Action-phase fixture does not describe"
    ),
    "test_flow.test_BG_ACT_05_cleanup_removes_orders_stands_routed_units_resets_raven_and_blade": _MUTATES
    + ": routed units",
    "test_marches.test_BG_MARCH_12_neutral_force_needs_enough_strength": _MUTATES
    + ": a neutral force set after begin()",
    "test_flow.test_action_commands_outside_the_action_phase_are_wrong_phase": (
        "sends a command before begin(): the server never rests at awaiting_action_phase (the worker opens the "
        "Action phase at once); WrongPhase through the API is covered by tests/api/test_api_errors.py"
    ),
    # Positions no game can reach at the start of an Action phase: the API refuses them (422
    # invalid_scenario with the rule), as it should. The domain test could use a legal position instead.
    "test_raids.test_BG_RAID_02_port_raids_only_its_sea": "position refused (BG-MAP-07): Greyjoy ships in port_of_pyke while Lannister holds Pyke",
    "test_raids.test_BG_RAID_02_ship_transport_does_not_make_areas_adjacent_for_raids": "position refused (BG-ORDER-01): three Tyrell support_0 orders (2 exist)",
    "test_raids.test_BG_RAID_03_raiding_consolidate_power_moves_one_power": "position refused (BG-PLAN-04): Greyjoy special order with 0 King's Court stars",
    "test_marches.test_BG_MARCH_11_ships_are_never_transported_and_land_units_never_stop_at_sea": "position refused (BG-ORDER-01): two Tyrell march_0 orders (1 exists)",
    "test_marches.test_BG_MARCH_13_conquering_an_enemy_home_area_removes_its_garrison": "position refused (BG-PLAN-04): two Greyjoy special orders with 0 King's Court stars",
    "test_consolidate.test_BG_MUSTER_05_supply_and_unit_limits": "second position refused (BG-SUPPLY-05): an army of 5 Stark knights exceeds supply 6",
    "test_marches.test_BG_MARCH_09_ship_transport_highgarden_to_sunspear": (
        "three Tyrell areas without an order, more than the Raid tokens that stand for 'no order' (see "
        "tests/support/api_positions.py); the same rulebook example runs through the API in tests/api/test_scenarios_api.py"
    ),
}

#: Tests that call ``sc.timeout()``: their games get short deadlines so the worker's job fires.
SHORT_DEADLINES = {"test_timeouts": 2}


def _builds_a_position(fn) -> bool:
    src = inspect.getsource(fn)
    return any(s in src for s in ("Position(", "north(", "_scene("))


def _params(fn):
    """Expand ``@pytest.mark.parametrize`` of a collected function into kwargs."""
    combos = [({}, "")]
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        expanded = []
        for kw, ident in combos:
            for v in values:
                vals = (v,) if len(names) == 1 else tuple(v)
                expanded.append(({**kw, **dict(zip(names, vals))}, f"{ident}[{'-'.join(map(str, vals))}]"))
        combos = expanded
    return combos


def collect():
    params, skipped = [], {}
    for mod_name in MODULES:
        module = importlib.import_module(f"tests.domain.board.action.{mod_name}")
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
                continue
            key = f"{mod_name}.{name}"
            if key in EXCLUDED:
                skipped[key] = EXCLUDED[key]
                continue
            if not _builds_a_position(fn):
                skipped[key] = "builds no position (pure function or data): nothing to run through the API"
                continue
            for kwargs, ident in _params(fn):
                params.append(pytest.param(mod_name, name, kwargs, id=key + ident))
    return params, skipped


PARAMS, NOT_RUN = collect()


@pytest.mark.parametrize("mod_name, name, kwargs", PARAMS)
def test_action_position_through_the_api(api, monkeypatch, mod_name, name, kwargs):
    module = importlib.import_module(f"tests.domain.board.action.{mod_name}")
    helpers = importlib.import_module("tests.support.combat_helpers")
    for m in (module, helpers):
        if hasattr(m, "Position"):
            monkeypatch.setattr(m, "Position", ApiPosition)
    monkeypatch.setattr(ApiPosition, "client", api)
    if mod_name in SHORT_DEADLINES:
        monkeypatch.setattr(ApiPosition, "decision_timeout_s", SHORT_DEADLINES[mod_name])
    getattr(module, name)(**kwargs)


def test_the_exclusions_are_known_tests():
    """Every excluded name still exists, so the list cannot rot silently."""
    for key in EXCLUDED:
        mod_name, name = key.split(".")
        assert hasattr(importlib.import_module(f"tests.domain.board.action.{mod_name}"), name), key
    assert len(PARAMS) > 100


@pytest.mark.parametrize("game, players", [(0, 6), (1, 4), (2, 3), (3, 5), (4, 6), (5, 6)])
def test_random_action_phase_through_the_api(api, monkeypatch, game, players):
    """One random legal Action phase per game, every decision read from ``GET /decisions`` and answered
    through ``POST /commands`` (random choices among the listed options; refused ones are retried, and
    each refusal must be the domain's). Invariants of the domain's random test after every command;
    ApiPosition cross-checks every answer against the domain."""
    monkeypatch.setattr(ApiPosition, "client", api)
    rng = random.Random(7000 + game)
    sc = ApiPosition(players, seed=f"api-random-{game}")
    sc.state.orders = {}  # random legal orders instead of the fixed ones (before begin(): part of the position)
    for house in sc.state.turn_order():
        for area, order in random_orders(sc.state, house, rng).items():
            sc.state.orders[area] = PlacedOrder(house=house, order=order)
    sc.begin()
    check_state(sc.state)
    commands = refused = 0
    while sc.state.phase == "action":
        assert commands < 400, "the Action phase does not end"
        d = rng.choice(sc.decisions())
        for attempt in range(8):
            command = random_command(sc.state, d, rng) if attempt < 7 else fallback_command(sc.state, d)
            try:
                sc.run(d.house, command)
            except RuleViolation:
                refused += 1
                if attempt == 7:
                    raise
                continue
            break
        commands += 1
        check_state(sc.state)
        check_batch_end(sc.state)
    assert sc.state.orders == {} and sc.state.action is None and commands > 3
