"""Random legal play: many Action phases from random legal Planning phases, with invariants checked
after every event (BG-COMP-03 unit limits, BG-COMP-05 unit kinds, BG-MAP-07 port cap, one house per
area, BG-POWER-01 Power conservation) and supply limits (BG-SUPPLY-05) after every batch."""

from __future__ import annotations

import random

import pytest

from domain.board import board_data
from domain.board.decider import evolve
from domain.board.emitter import copy_state
from domain.board.supply import supply_ok

from .random_play import next_planning, play_action_phase, play_planning
from .scenario import Scenario

UNIT_LIMITS = {h: f.unit_limits for h, f in board_data.setup().houses.items()}


def check_state(s) -> None:
    facts = board_data.areas()
    for house in s.houses_in_play:
        for unit, limit in UNIT_LIMITS[house].items():
            n = sum(a.units.get(unit, 0) for a in s.areas.values() if a.house == house)
            assert 0 <= n <= limit, (house, unit, n)
        hs = s.houses[house]
        on_board = sum(1 for a in s.areas.values() if a.power_token == house)
        assert hs.power >= 0
        assert hs.power + on_board <= 20, (house, hs.power, on_board)
        assert len(set(hs.hand)) == len(hs.hand) and not set(hs.hand) & set(hs.discards)
        assert len(hs.hand) + len(hs.discards) == 7
    for aid, a in s.areas.items():
        assert all(n > 0 for n in a.units.values()), (aid, a.units)
        assert (a.house is None) == (not a.units), (aid, a)
        kind = facts[aid].kind
        if kind == "land":
            assert not a.units.get("ship")
        else:
            assert set(a.units) <= {"ship"}, (aid, a.units)
            assert a.power_token is None
        if kind == "port":
            assert a.units.get("ship", 0) <= 3
        if s.action is not None:
            for u, n in s.action.routed.get(aid, {}).items():
                assert 0 < n <= a.units.get(u, 0), (aid, u, n, a.units)


def check_batch_end(s) -> None:
    """After a whole batch: supply (BG-SUPPLY-05) and orders only where their house has units."""
    for area, o in s.orders.items():
        assert s.areas[area].house == o.house, (area, o)
    for house in s.houses_in_play:
        assert supply_ok(s, house), (house, s.houses[house].supply)


def make_checker():
    def check(sc, events, before=None):
        state = copy_state(before) if before is not None else None
        if state is None:
            return
        for e in events:
            state = evolve(state, e)
            check_state(state)
        check_batch_end(sc.state)

    return check


@pytest.mark.parametrize("game", range(30))
def test_random_legal_action_phases(game):
    rng = random.Random(game)
    players = 3 + game % 4
    sc = Scenario(players, seed=f"random-{game}")
    check = make_checker()
    check_state(sc.state)
    rounds = 5
    for r in range(rounds):
        if r:
            next_planning(sc, rng)
            play_planning(sc, rng)
        play_action_phase(sc, rng, check)
        check_state(sc.state)
        assert sc.state.phase == "westeros" and sc.state.step == "awaiting_westeros_phase"
        assert sc.state.round == 2 + r
        assert sc.state.orders == {} and sc.state.action is None
