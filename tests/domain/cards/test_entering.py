"""The one place a card ability puts a card into play (domain/cards/entering.put_into_play; the
abilities' former second helper is gone): the unique rules CG-UNIQUE-01..03, the stricter ones kept.
Positions set up with real commands, then arranged; the events written asserted."""

from __future__ import annotations

from domain.cards import events as ev
from domain.cards.emitter import Emitter
from domain.cards.entering import placement, put_into_play
from domain.cards.state import Placed

from .play import Table, put_in_play, to_hand
from .test_card_actions import at_marshaling

NED = "01144"  # Eddard Stark: unique, stark_kraken


def _two_neds(t: Table) -> tuple[str, str]:
    return to_hand(t, "seat1", NED), to_hand(t, "seat1", NED)


def _put(t: Table, seat: str, card: str, pile: str) -> tuple[bool, list[ev.Event]]:
    em = Emitter(t.state, t.ctx())
    return put_into_play(em, seat, card, pile, "test"), em.events


def test_CG_UNIQUE_03_a_further_copy_of_your_own_unique_card_enters_as_a_duplicate():
    t = at_marshaling("stark_kraken")
    ned1, ned2 = _two_neds(t)
    t.state.player("seat1").hand.remove(ned1)
    t.state.in_play[ned1] = Placed(card=ned1, controller="seat1")
    ok, out = _put(t, "seat1", ned2, "hand")
    assert ok and len(out) == 1 and isinstance(out[0], ev.CardsPutIntoPlay)
    assert (out[0].placed.as_, out[0].placed.on) == ("duplicate", ned1)


def test_CG_UNIQUE_01_no_copy_enters_while_you_control_a_copy_you_do_not_own():
    t = at_marshaling("stark_kraken", other="stark_kraken")
    theirs = put_in_play(t, "seat2", NED)
    t.state.in_play[theirs].controller = "seat1"  # seat1 controls seat2's Ned (arranged)
    mine = to_hand(t, "seat1", NED)
    assert placement(t.state, "seat1", mine) is None
    ok, out = _put(t, "seat1", mine, "hand")
    assert not ok and out == [] and mine in t.state.player("seat1").hand
    # the other player may still put its own copy into play (uniqueness is per player)
    t.state.in_play[theirs].controller = "seat2"
    assert placement(t.state, "seat1", mine) is not None


def test_CG_UNIQUE_02_a_copy_in_your_dead_pile_blocks_another_but_the_only_copy_may_come_back():
    t = at_marshaling("stark_kraken")
    ned1, ned2 = _two_neds(t)
    p = t.state.player("seat1")
    p.hand.remove(ned1)
    p.dead.append(ned1)
    ok, out = _put(t, "seat1", ned2, "hand")
    assert not ok and out == []
    ok, out = _put(t, "seat1", ned1, "dead")  # the only copy, from the dead pile itself
    assert ok and isinstance(out[0], ev.CardsPutIntoPlay) and out[0].placed.as_ == "character"


def test_only_characters_and_locations_are_put_into_play_this_way():
    t = at_marshaling("stark_kraken")
    event = to_hand(t, "seat1", "01157")  # For the North! (an event)
    ok, out = _put(t, "seat1", event, "hand")
    assert not ok and out == []
