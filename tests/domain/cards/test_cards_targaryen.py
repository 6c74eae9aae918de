"""Targaryen cards completed last: Dothraki Sea. Positions set up with real commands, then
arranged; the outcome asserted."""

from __future__ import annotations

from domain.cards import commands as cmd

from .play import put_in_play, to_hand
from .test_card_actions import at_marshaling
from .test_card_reactions import _attack, _to_challenges


def _no_dothraki_in_hand(t) -> None:
    p = t.state.player("seat1")
    for c in [c for c in p.hand if "Dothraki" in t.state.record(c).traits]:
        p.hand.remove(c)
        p.deck.append(c)


def test_dothraki_sea_01174_is_sacrificed_to_put_a_dothraki_into_play_until_the_phase_ends():
    t = at_marshaling("targaryen_sun")
    sea = put_in_play(t, "seat1", "01174")
    drogon = put_in_play(t, "seat1", "01114")  # Palace Spearman: power icon
    _no_dothraki_in_hand(t)
    warrior = to_hand(t, "seat1", "01168")  # Braided Warrior: Dothraki
    put_in_play(t, "seat2", "01090", kneeling=True)
    _to_challenges(t)
    _attack(t, "seat1", "power", [drogon], [])
    c = t.state.choice
    assert t.state.step == "ability" and c is not None and c.card == sea and c.hidden
    assert c.options == [warrior] and c.default == [warrior] and c.resume == "challenge_won"
    t.seat("seat1", cmd.ChooseTargets(cards=[warrior]))
    assert warrior in t.state.in_play and sea in t.state.player("seat1").discard
    while t.state.phase == "challenges":  # the phase ends: the warrior goes back to the hand
        if t.state.step == "challenge":
            t.seat(t.state.waiting[0], cmd.EndChallenges())
        else:
            t.timeout()
    assert warrior in t.state.player("seat1").hand and warrior not in t.state.in_play


def test_dothraki_sea_is_not_offered_without_a_dothraki_in_hand():
    t = at_marshaling("targaryen_sun")
    sea = put_in_play(t, "seat1", "01174")
    drogon = put_in_play(t, "seat1", "01114")
    put_in_play(t, "seat2", "01090", kneeling=True)
    _no_dothraki_in_hand(t)
    _to_challenges(t)
    _attack(t, "seat1", "power", [drogon], [])
    assert t.state.choice is None and sea in t.state.in_play
