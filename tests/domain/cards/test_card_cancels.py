"""Cancels (CG-POOL-06; review 2: the costs of a cancelled ability stay paid): when an event is
played, its effects wait while the opponent holding a cancel is asked (the ``cancel`` decision,
default decline: the event resolves). Card codes as in domain/cards/abilities/<faction>.py."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import put_in_play, to_hand
from .test_card_actions import at_marshaling, decision


def _roar_against_bran():
    t = at_marshaling("lannister_rose")  # seat2: stark_kraken
    roar = to_hand(t, "seat1", "01100")  # Hear Me Roar!
    tywin = to_hand(t, "seat1", "01090")
    bran = put_in_play(t, "seat2", "01142")
    t.seat("seat1", cmd.PlayEvent(card=roar, target=tywin))
    return t, roar, tywin, bran


def test_bran_stark_01142_is_sacrificed_to_cancel_an_opponents_event():
    t, roar, tywin, bran = _roar_against_bran()
    assert t.state.step == "cancel" and t.state.waiting == ["seat2"]
    d = decision(t, "seat2")
    assert d.interrupts == {bran: [roar]} and d.commands == ["use_interrupt", "decline"]
    out = t.seat("seat2", cmd.UseInterrupt(card=bran, target=roar))
    assert isinstance(out[0], ev.CardsEventCancelled) and out[0].cancelled == roar
    assert bran in t.state.player("seat2").discard and tywin in t.state.player("seat1").hand
    assert t.state.player("seat1").gold == 9 and roar in t.state.player("seat1").discard  # its cost stays paid
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]


def test_a_declined_cancel_lets_the_event_resolve_by_default():
    t, roar, tywin, bran = _roar_against_bran()
    out = t.timeout()
    assert any(isinstance(e, ev.CardsCancelDeclined) and e.by_default for e in out)
    assert tywin in t.state.in_play and bran in t.state.in_play


def test_the_hands_judgment_01045_pays_x_to_cancel_an_event():
    t = at_marshaling("targaryen_sun")  # seat2: lannister_rose
    wake = to_hand(t, "seat1", "01178")  # Waking the Dragon: cost 0
    drogo = put_in_play(t, "seat1", "01162", kneeling=True)
    judgment = to_hand(t, "seat2", "01045")
    t.seat("seat1", cmd.PlayEvent(card=wake, target=drogo))
    assert decision(t, "seat2").interrupts == {judgment: [wake]}
    out = t.seat("seat2", cmd.UseInterrupt(card=judgment, target=wake))
    played = next(e for e in out if isinstance(e, ev.CardsEventPlayed))
    assert played.card == judgment and played.cost == 0  # X: Waking the Dragon's printed cost
    assert t.state.in_play[drogo].kneeling and judgment in t.state.player("seat2").discard
