"""Documented defaults at a decision's deadline (``domain/board/timeouts.py`` docstring):

* Assign Orders: houses that have not submitted get regular tokens in the fixed preference order
  defense_plus_1, defense_plus_1, support_0, support_0, consolidate_power, consolidate_power, raid,
  raid, march_0, march_minus_1 on their areas in alphabetical order; never a special; forbidden
  types skipped; in sequential placement (BG-PLAN-05) only the house whose turn it is.
* Messenger Raven: not used.  * Raven wildling placement: the card stays on top.

The rules require these decisions (BG-PLAN-02/05 orders, BG-PLAN-07 Raven); the defaults and the
``ApplyTimeout(step_version)`` guards (void for a finished step, refused before the deadline) are
the server's documented policy for them.
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import decide
from domain.board.decisions import pending_decisions
from domain.board.planning import areas_needing_orders, validate_orders
from domain.board.timeouts import DEFAULT_TEXT
from domain.core.errors import WrongPhase
from tests.support.board_builders import (
    NOW,
    ORDERS_4P,
    ORGANIZER,
    SYSTEM,
    lobby_game,
    make_ctx,
    revealed_game,
    started_game,
)
from tests.support.sealed import unsealed

DOCUMENTED_PREFERENCE = [
    "defense_plus_1",
    "defense_plus_1",
    "support_0",
    "support_0",
    "consolidate_power",
    "consolidate_power",
    "raid",
    "raid",
    "march_0",
    "march_minus_1",
]

DEFAULT_4P = {
    "lannister": {
        "lannisport": "defense_plus_1",
        "port_of_lannisport": "defense_plus_1",
        "stoney_sept": "support_0",
        "the_golden_sound": "support_0",
    },
    "greyjoy": {
        "greywater_watch": "defense_plus_1",
        "ironmans_bay": "defense_plus_1",
        "port_of_pyke": "support_0",
        "pyke": "support_0",
    },
    "stark": {"the_shivering_sea": "defense_plus_1", "white_harbor": "defense_plus_1", "winterfell": "support_0"},
    "baratheon": {"dragonstone": "defense_plus_1", "kingswood": "defense_plus_1", "shipbreaker_bay": "support_0"},
}


def test_BG_PLAN_02_timeout_submits_defaults_for_late_houses_only():
    game = started_game(4)
    game.submit("stark", ORDERS_4P["stark"])
    game.submit("baratheon", ORDERS_4P["baratheon"])
    out = game.timeout()
    assert [unsealed(e) for e in out] == [
        ev.DecisionTimedOut(step="assign_orders", houses=["lannister", "greyjoy"]),  # turn order
        ev.OrdersSubmitted(house="lannister", orders=DEFAULT_4P["lannister"], by_default=True),
        ev.OrdersSubmitted(house="greyjoy", orders=DEFAULT_4P["greyjoy"], by_default=True),
    ]
    sealed = game.state.planning.sealed
    assert sealed["stark"] == ORDERS_4P["stark"] and sealed["baratheon"] == ORDERS_4P["baratheon"]
    assert pending_decisions(game.state) == []
    game.reveal()
    assert game.state.orders["pyke"].order == "support_0"
    assert game.state.orders["winterfell"].order == "march_0"


@pytest.mark.parametrize("player_count", [3, 4, 5, 6])
def test_BG_PLAN_02_04_timeout_defaults_are_valid_orders(player_count):
    game = started_game(player_count)
    out = game.timeout()
    assert out[0] == ev.DecisionTimedOut(step="assign_orders", houses=game.state.turn_order())
    submitted = [e for e in out if isinstance(e, ev.OrdersSubmitted)]
    assert [e.house for e in submitted] == game.state.turn_order()
    for e in submitted:
        assert e.by_default is True
        assert not any(o.endswith("_special") for o in e.orders.values())
        validate_orders(game.state, e.house, e.orders)  # the default obeys BG-PLAN-02/04, BG-ORDER-01
        areas = sorted(areas_needing_orders(game.state, e.house))
        assert e.orders == dict(zip(areas, DOCUMENTED_PREFERENCE))
    game.reveal()
    assert game.state.step == "messenger_raven"


def void_timeout(game, command=None, ctx=None) -> WrongPhase:
    with pytest.raises(WrongPhase) as err:
        decide(game.state, command or game.timeout_command(), SYSTEM, ctx or game.after_deadline())
    return err.value


def test_BG_PLAN_06_timeout_when_everyone_submitted_is_void():
    game = started_game(3)
    game.submit_all()
    assert void_timeout(game).code == "timeout_void"


def test_BG_PLAN_01_timeout_in_the_lobby_is_void():
    game = lobby_game(3)
    assert void_timeout(game, ctx=make_ctx(now=NOW.replace(year=2030))).code == "timeout_void"


def test_BG_PLAN_07_timeout_after_the_raven_is_void():
    game = revealed_game(3)
    deadline_ctx = game.after_deadline()
    game.run(cmd.RavenPass(), game.actor("lannister"))
    assert void_timeout(game, ctx=deadline_ctx).code == "timeout_void"


def test_BG_PLAN_06_timeout_for_an_earlier_step_is_void():
    """A timeout job scheduled for Assign Orders that fires after the reveal does nothing."""
    game = started_game(3)
    stale = game.timeout_command()
    game.submit_all()
    game.reveal()
    assert game.state.step == "messenger_raven"
    assert void_timeout(game, command=stale).code == "timeout_void"
    assert game.state.step == "messenger_raven"


def test_BG_PLAN_02_timeout_before_the_deadline_is_refused():
    game = started_game(3)
    assert game.state.deadline == "2025-01-01T12:10:00.000Z"
    early = make_ctx(now=NOW.replace(minute=9, second=59))
    assert void_timeout(game, ctx=early).code == "timeout_early"
    assert game.state.planning.sealed == {}


def test_BG_PLAN_05_sequential_timeout_defaults_only_the_current_house():
    """BG-PLAN-05 with only Consolidate Power eligible (lobby state mutated directly before start,
    as no Westeros card exists yet): Baratheon's timeout gives it the two regular CP tokens on its
    first two areas, nobody else is touched, and Lannister gets a fresh deadline."""
    game = lobby_game(4)
    game.state.forbidden_order_types = ["march", "defense", "support", "raid"]
    game.run(cmd.StartGame(), ORGANIZER)
    assert game.state.planning.sequential
    later = make_ctx(now=NOW.replace(hour=13))
    out = decide(game.state, game.timeout_command(), SYSTEM, later)
    game.apply(out)
    assert out[0] == ev.DecisionTimedOut(step="assign_orders", houses=["baratheon"])
    assert unsealed(out[1]) == ev.OrdersSubmitted(
        house="baratheon",
        orders={"dragonstone": "consolidate_power", "kingswood": "consolidate_power"},
        by_default=True,
    )
    assert out[2] == ev.StepBegan(
        phase="planning", step="assign_orders", round=1, deadline="2025-01-01T13:10:00.000Z", sequential=True
    )
    assert list(game.state.planning.sealed) == ["baratheon"]
    assert [d.house for d in pending_decisions(game.state)] == ["lannister"]
    # The remaining houses time out one by one; the last one gets no new StepBegan.
    for house in ("lannister", "stark"):
        out = game.timeout()
        assert out[0].houses == [house] and isinstance(out[-1], ev.StepBegan)
    out = game.timeout()
    assert out[0].houses == ["greyjoy"] and not any(isinstance(e, ev.StepBegan) for e in out)
    assert pending_decisions(game.state) == []
    game.reveal()
    assert all(o.order == "consolidate_power" for o in game.state.orders.values())


def test_BG_PLAN_07_raven_timeout_passes():
    game = revealed_game(4, overrides=ORDERS_4P)
    orders, deck = dict(game.state.orders), list(game.state.wildling_deck)
    out = game.timeout()
    assert out == [
        ev.DecisionTimedOut(step="messenger_raven", houses=["lannister"]),
        ev.RavenPassed(house="lannister", by_default=True),
        ev.StepBegan(phase="action", step="awaiting_action_phase", round=1, deadline=None),
    ]
    assert game.state.orders == orders and game.state.wildling_deck == deck
    assert game.state.raven_used is False


def test_BG_PLAN_07_placement_timeout_leaves_the_card_on_top():
    game = revealed_game(4, overrides=ORDERS_4P)
    deck = list(game.state.wildling_deck)
    game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    out = game.timeout()
    assert out == [
        ev.DecisionTimedOut(step="raven_wildling_placement", houses=["lannister"]),
        ev.RavenWildlingPlaced(house="lannister", to_bottom=False),
        ev.StepBegan(phase="action", step="awaiting_action_phase", round=1, deadline=None),
    ]
    assert game.state.wildling_deck == deck
    assert (game.state.phase, game.state.step) == ("action", "awaiting_action_phase")


def test_BG_PLAN_02_07_decisions_announce_the_documented_default():
    game = started_game(4)
    assert {d.default for d in pending_decisions(game.state)} == {DEFAULT_TEXT["assign_orders"]}
    game.submit_all()
    game.reveal()
    assert pending_decisions(game.state)[0].default == DEFAULT_TEXT["messenger_raven"]
    game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    assert pending_decisions(game.state)[0].default == DEFAULT_TEXT["raven_wildling_placement"]


def test_BG_PLAN_05_default_leaves_areas_empty_when_regular_tokens_run_out():
    """Greyjoy given units in 11 areas (state mutated directly after the start): the default has
    only 10 regular tokens, so the 11th area in alphabetical order stays empty (BG-PLAN-05 allows)."""
    game = started_game(4)
    for area in ["castle_black", "karhold", "the_twins", "the_fingers", "seagard", "flints_finger", "riverrun"]:
        a = game.state.areas[area]
        a.house, a.units = "greyjoy", {"footman": 1}
    areas = sorted(areas_needing_orders(game.state, "greyjoy"))
    assert len(areas) == 11
    out = game.timeout()
    greyjoy = next(e for e in out if isinstance(e, ev.OrdersSubmitted) and e.house == "greyjoy")
    assert greyjoy.orders == dict(zip(areas[:10], DOCUMENTED_PREFERENCE))
    assert areas[10] not in greyjoy.orders
