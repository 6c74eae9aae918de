"""Neutral cards completed last: Power Behind the Throne, The Kingsroad. Positions set up with real
commands, then arranged; the outcome asserted."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.phases import actions
from domain.core.errors import RuleViolation

from .play import Table, put_in_play, to_hand, to_plot_step
from .positions import plots, without_ambush
from .test_card_actions import at_marshaling


def _with_power_behind_the_throne() -> tuple[Table, str]:
    t = Table(decks=("targaryen_sun", "lannister_rose"))
    to_plot_step(t)
    plots(t, "01018", "01024")
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.step == "marshal" and t.state.active == "seat1"
    without_ambush(t)
    plot = t.state.player("seat1").plot
    assert plot is not None
    return t, plot


def test_power_behind_the_throne_01018_spends_its_stand_token_to_stand_a_character_once():
    t, plot = _with_power_behind_the_throne()
    assert f"round:{plot}" in t.state.used_abilities  # the token, placed as it was revealed
    drogo = put_in_play(t, "seat1", "01162", kneeling=True)
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    assert actions.card_actions(t.state, "seat1") == {plot: sorted([drogo, tywin])}
    t.seat("seat1", cmd.UseAction(card=plot, target=drogo))
    assert not t.state.in_play[drogo].kneeling and t.state.in_play[tywin].kneeling
    assert plot not in actions.card_actions(t.state, "seat1")  # the only token is spent
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.UseAction(card=plot, target=tywin))


def test_power_behind_the_throne_offers_nothing_without_a_kneeling_character():
    t, plot = _with_power_behind_the_throne()
    put_in_play(t, "seat1", "01162")
    assert plot not in actions.card_actions(t.state, "seat1")


def test_the_kingsroad_01039_is_sacrificed_so_the_next_character_costs_3_less():
    t = at_marshaling("stark_kraken")
    road = put_in_play(t, "seat1", "01039")
    ned = to_hand(t, "seat1", "01144")  # Eddard Stark: cost 7
    other = to_hand(t, "seat1", "01146")
    gold = t.state.player("seat1").gold
    t.seat("seat1", cmd.UseAction(card=road, target=None))
    assert road in t.state.player("seat1").discard and road not in t.state.in_play
    out = t.seat("seat1", cmd.MarshalCard(card=ned))
    paid = next(e for e in out if isinstance(e, ev.CardsMarshaled))
    assert paid.cost == t.state.record(ned).printed_cost - 3 and t.state.player("seat1").gold == gold - paid.cost
    out = t.seat("seat1", cmd.MarshalCard(card=other))  # the reduction is spent
    assert next(e for e in out if isinstance(e, ev.CardsMarshaled)).cost == t.state.record(other).printed_cost


def test_the_kingsroad_is_not_offered_outside_its_controllers_marshaling():
    t = at_marshaling("stark_kraken", first="seat2")
    road = put_in_play(t, "seat1", "01039")
    assert road not in actions.card_actions(t.state, "seat1")
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.UseAction(card=road, target=None))
