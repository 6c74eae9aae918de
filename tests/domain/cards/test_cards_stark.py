"""Stark cards completed last: Arya Stark (a facedown duplicate from the deck as she enters play).
Positions set up with real commands, then arranged; the outcome asserted."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.redaction import redact_event, view_for

from .play import to_hand
from .test_card_actions import at_marshaling


def test_arya_stark_01141_puts_the_top_deck_card_facedown_under_her_and_gains_a_military_icon():
    t = at_marshaling("stark_kraken")
    arya = to_hand(t, "seat1", "01141")
    top = t.state.player("seat1").deck[0]
    out = t.seat("seat1", cmd.MarshalCard(card=arya))
    placed = next(e for e in out if isinstance(e, ev.CardsFacedownDuplicate))
    assert placed.duplicate == top and t.state.in_play[arya].duplicates == [top]
    assert top not in t.state.player("seat1").deck
    assert current.has_icon(t.state, arya, "military")
    # hidden from the opponent: the event and the view's card list; the owner sees it
    assert redact_event(placed, "seat2").duplicate is None and redact_event(placed, "seat1").duplicate == top
    assert top not in view_for(t.state, "seat2").cards and top in view_for(t.state, "seat1").cards


def test_arya_stark_with_an_empty_deck_gets_no_duplicate_and_no_military_icon():
    t = at_marshaling("stark_kraken")
    arya = to_hand(t, "seat1", "01141")
    p = t.state.player("seat1")
    p.discard.extend(p.deck)
    p.deck = []
    out = t.seat("seat1", cmd.MarshalCard(card=arya))
    assert not any(isinstance(e, ev.CardsFacedownDuplicate) for e in out)
    assert t.state.in_play[arya].duplicates == [] and not current.has_icon(t.state, arya, "military")
