"""Answers to Westeros decisions that are no longer open say so (``decision_closed``, 409), as in the
Action phase (issue 9, "API details": a late answer must not read as a wrong phase or an internal code)."""

from __future__ import annotations

import pytest

from domain.core.errors import WrongPhase
from tests.support.westeros_positions import westeros


def test_BG_WEST_01_a_westeros_choice_sent_after_it_was_answered_is_decision_closed():
    sc = westeros(6, ("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    sc.begin_westeros()
    assert sc.decision().house == "baratheon"
    sc.choose("baratheon", "nothing")
    with pytest.raises(WrongPhase) as err:
        sc.choose("baratheon", "nothing")
    assert (err.value.code, err.value.kind) == ("decision_closed", "conflict")
    assert "no longer open" in err.value.detail


def test_BG_WILD_05_a_unit_pick_sent_when_none_is_open_is_decision_closed():
    sc = westeros(6, ("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    sc.begin_westeros()
    with pytest.raises(WrongPhase) as err:
        sc.select("baratheon", {"dragonstone": {"footman": 1}})
    assert err.value.code == "decision_closed"
    sc.finish()  # the phase is over: a late answer still says the decision is closed
    assert sc.state.phase != "westeros"
    with pytest.raises(WrongPhase) as err:
        sc.choose("baratheon", "nothing")
    assert err.value.code == "decision_closed"
