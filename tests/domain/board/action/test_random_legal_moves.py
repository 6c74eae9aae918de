"""Random legal play: many Action phases from random legal Planning phases, with invariants checked
after every event (BG-COMP-03 unit limits, BG-COMP-05 unit kinds, BG-MAP-07 port cap, one house per
area, BG-POWER-01 Power conservation) and supply limits (BG-SUPPLY-05) after every batch."""

from __future__ import annotations

import random

import pytest

from tests.support.action_positions import Position
from tests.support.invariants import check_state, make_checker
from tests.support.random_play import next_planning, play_action_phase, play_planning


@pytest.mark.parametrize("game", range(30))
def test_random_legal_action_phases(game):
    rng = random.Random(game)
    players = 3 + game % 4
    sc = Position(players, seed=f"random-{game}")
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
