"""Lannister cards completed last: Treachery (cancels an opponent's card Action of a character,
location or attachment; CG-POOL-06 and review 2: the cancelled ability's costs stay paid).
Positions set up with real commands, then arranged; the outcome asserted."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import put_in_play, to_hand
from .test_card_actions import at_marshaling, decision


def _illyrio_against_treachery(with_lannister: bool = True):
    t = at_marshaling("targaryen_sun")  # seat2: lannister_rose
    illyrio = put_in_play(t, "seat1", "01163")  # Magister Illyrio: pay 2 gold: stand a character
    drogo = put_in_play(t, "seat1", "01162", kneeling=True)
    treachery = to_hand(t, "seat2", "01102")
    if with_lannister:
        put_in_play(t, "seat2", "01089")  # Tyrion Lannister: unique Lannister
    else:
        put_in_play(t, "seat2", "01183")  # Randyll Tarly: unique, but Tyrell
    t.state.player("seat2").gold = 3
    return t, illyrio, drogo, treachery


def test_CG_POOL_06_treachery_01102_cancels_a_characters_action_whose_costs_stay_paid():
    t, illyrio, drogo, treachery = _illyrio_against_treachery()
    gold = t.state.player("seat1").gold
    t.seat("seat1", cmd.UseAction(card=illyrio, target=drogo))
    assert t.state.step == "cancel" and t.state.waiting == ["seat2"]
    assert decision(t, "seat2").interrupts == {treachery: [illyrio]}
    out = t.seat("seat2", cmd.UseInterrupt(card=treachery, target=illyrio))
    assert any(isinstance(e, ev.CardsEventCancelled) and e.cancelled == illyrio for e in out)
    assert t.state.player("seat1").gold == gold - 2  # the cost stays paid
    assert f"phase:{illyrio}" in t.state.used_abilities  # and its limit is used
    assert t.state.in_play[drogo].kneeling  # the effect is cancelled
    assert treachery in t.state.player("seat2").discard and t.state.player("seat2").gold == 2
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]


def test_a_declined_treachery_lets_the_action_resolve():
    t, illyrio, drogo, treachery = _illyrio_against_treachery()
    t.seat("seat1", cmd.UseAction(card=illyrio, target=drogo))
    t.seat("seat2", cmd.Decline())
    assert not t.state.in_play[drogo].kneeling and treachery in t.state.player("seat2").hand


def test_treachery_is_not_offered_without_a_unique_lannister_character():
    t, illyrio, drogo, treachery = _illyrio_against_treachery(with_lannister=False)
    t.seat("seat1", cmd.UseAction(card=illyrio, target=drogo))
    assert t.state.step == "marshal" and not t.state.in_play[drogo].kneeling
    assert treachery in t.state.player("seat2").hand
