"""The marshaling phase: income (CG-PHASE-08, CG-GEN-08), costs, what may be marshaled where
(CG-PHASE-09, CG-KEY-09), Limited (CG-PHASE-10, CG-KEY-07), uniqueness and duplicates
(CG-UNIQUE-01..03, CG-SEEDFIX-03/13)."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.core.errors import RuleViolation

from .play import put_in_play, to_hand
from .positions import to_marshaling


def test_CG_PHASE_08_income_then_marshal_by_paying_the_printed_cost():
    """CG-GEN-06: gold is spent from the gold pool."""
    t = to_marshaling()  # seat1 first, Calm Over Westeros: income 5
    income = next(e for e in t.events if isinstance(e, ev.CardsIncomeCollected))
    assert (income.seat_id, income.gold) == ("seat1", 5)
    arya = to_hand(t, "seat1", "01141")  # cost 3
    t.seat("seat1", cmd.MarshalCard(card=arya))
    assert t.state.player("seat1").gold == 2 and arya in t.state.in_play
    ned = to_hand(t, "seat1", "01144")  # cost 7
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=ned))
    assert e.value.rule == "CG-PHASE-08" and "costs 7" in e.value.detail
    # the other player marshals only once seat1 is done (CG-SEEDFIX-04: per active player)
    t.seat("seat1", cmd.EndMarshaling())
    assert t.state.active == "seat2" and t.state.player("seat2").gold == 5


def test_CG_GEN_08_printed_income_modifiers_add_to_the_plot():
    t = to_marshaling()
    t.seat("seat1", cmd.EndMarshaling())
    put_in_play(t, "seat2", "01040")  # The Roseroad: +1 income
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step != "marshal":
        t.timeout()
    seat2_income = [e for e in t.events if isinstance(e, ev.CardsIncomeCollected) and e.seat_id == "seat2"][-1]
    plot = t.state.record(t.state.player("seat2").plot or "").plot
    assert plot is not None and seat2_income.gold == plot.income + 1


def test_CG_PHASE_09_events_are_never_marshaled_and_attachments_need_a_character():
    t = to_marshaling()
    event = to_hand(t, "seat1", "01157")
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=event))
    assert e.value.rule == "CG-PHASE-09"
    ice = to_hand(t, "seat1", "01153")
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=ice))
    assert e.value.rule == "CG-PHASE-09"
    wolf = put_in_play(t, "seat1", "01149")  # Direwolf Pup: No attachments
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=ice, attach_to=wolf))
    assert e.value.rule == "CG-KEY-09"
    theirs = put_in_play(t, "seat2", "01084")  # Cersei: an opponent's character takes attachments too
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=ice, attach_to=theirs))  # but not Ice: Stark character only
    assert e.value.rule == "CG-KEY-09" and "Stark" in e.value.detail
    seal = to_hand(t, "seat1", "01032")  # Seal of the Hand (a Lady may bear it)
    t.seat("seat1", cmd.MarshalCard(card=seal, attach_to=theirs))
    assert t.state.in_play[seal].attached_to == theirs and t.state.in_play[seal].controller == "seat1"


def test_CG_KEY_09_no_attachments_except_weapon():
    t = to_marshaling(first="seat2")
    left = put_in_play(t, "seat2", "01179")  # Left: No attachments except Weapon
    bodyguard = to_hand(t, "seat2", "01033")  # a Condition, cost 1
    heartsbane = to_hand(t, "seat2", "01191")  # a Weapon, cost 1
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.MarshalCard(card=bodyguard, attach_to=left))
    assert e.value.rule == "CG-KEY-09" and "except Weapons" in e.value.detail
    t.seat("seat2", cmd.MarshalCard(card=heartsbane, attach_to=left))
    assert t.state.in_play[heartsbane].attached_to == left


def test_CG_PHASE_10_and_CG_KEY_07_one_limited_card_per_round():
    t = to_marshaling()
    g1, g2 = to_hand(t, "seat1", "01156"), to_hand(t, "seat1", "01156")  # Heart Tree Grove, Limited, cost 0
    t.seat("seat1", cmd.MarshalCard(card=g1))
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=g2))
    assert e.value.rule == "CG-PHASE-10"


def test_CG_UNIQUE_01_and_03_a_second_copy_is_a_free_duplicate_per_player():
    t = to_marshaling()
    arya1, arya2 = to_hand(t, "seat1", "01141"), to_hand(t, "seat1", "01141")
    t.seat("seat1", cmd.MarshalCard(card=arya1))
    gold = t.state.player("seat1").gold
    out = t.seat("seat1", cmd.MarshalCard(card=arya2))
    m = next(e for e in out if isinstance(e, ev.CardsMarshaled))
    assert (m.placed.as_, m.placed.on, m.cost) == ("duplicate", arya1, 0) and t.state.player("seat1").gold == gold
    assert t.state.in_play[arya1].duplicates[-1] == arya2  # after her own facedown one (Arya's text)


def test_CG_UNIQUE_02_CG_SEEDFIX_03_a_unique_in_its_owners_dead_pile_blocks_only_its_owner():
    t = to_marshaling()
    dead = to_hand(t, "seat1", "01141")
    t.state.player("seat1").hand.remove(dead)
    t.state.player("seat1").dead.append(dead)
    arya = to_hand(t, "seat1", "01141")
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=arya))
    assert e.value.rule == "CG-UNIQUE-02"
