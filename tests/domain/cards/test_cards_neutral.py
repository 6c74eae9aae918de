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
from .test_card_reactions import _to_challenges


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


def _to_dominance_end(t) -> None:
    _to_challenges(t)
    while t.state.phase in ("challenges", "dominance") and t.state.step != "ability":
        if t.state.step == "challenge":
            t.seat(t.state.waiting[0], cmd.EndChallenges())
        else:
            t.seat(t.state.waiting[0], cmd.PassAction())


def test_varys_01029_removes_himself_as_dominance_ends_to_discard_every_character():
    t = at_marshaling("stark_kraken")
    varys = put_in_play(t, "seat1", "01029")
    ned = put_in_play(t, "seat1", "01144")
    tywin = put_in_play(t, "seat2", "01090")
    tyrion = put_in_play(t, "seat2", "01089")
    dup = to_hand(t, "seat2", "01089")
    t.state.player("seat2").hand.remove(dup)
    t.state.in_play[tyrion].duplicates.append(dup)  # Tyrion has a duplicate: it saves him
    _to_dominance_end(t)
    c = t.state.choice
    assert t.state.step == "ability" and c is not None and c.card == varys and c.resume == "dominance_end"
    assert c.options == ["remove", "keep"] and c.default == ["keep"]
    t.seat("seat1", cmd.ChooseTargets(cards=["remove"]))
    assert varys in t.state.player("seat1").removed and varys not in t.state.in_play
    assert ned in t.state.player("seat1").discard and tywin in t.state.player("seat2").discard
    assert tyrion in t.state.in_play and dup in t.state.player("seat2").discard
    assert t.state.phase in ("standing", "taxation", "plot")  # the game went on


def test_varys_kept_by_default_discards_nothing():
    t = at_marshaling("stark_kraken")
    varys = put_in_play(t, "seat1", "01029")
    tywin = put_in_play(t, "seat2", "01090")
    _to_dominance_end(t)
    assert t.state.choice is not None and t.state.choice.card == varys
    t.timeout()
    assert varys in t.state.in_play and tywin in t.state.in_play
