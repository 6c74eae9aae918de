"""Tyrell cards completed last: Randyll Tarly (a reaction to a raised STR). Positions set up with
real commands, then arranged; the outcome asserted."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import current

from .play import put_in_play
from .test_card_actions import at_marshaling, in_challenge


def _margaery_on(t, margaery: str, target: str) -> None:
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=margaery, target=target))


def test_randyll_tarly_01183_stands_after_a_card_effect_raises_his_STR_twice_per_phase():
    t = at_marshaling("lannister_rose")
    randyll = put_in_play(t, "seat1", "01183", kneeling=True)
    margaery = put_in_play(t, "seat1", "01181")
    in_challenge(t, "seat1", [randyll], [])
    before = current.strength(t.state, randyll)
    _margaery_on(t, margaery, randyll)
    assert current.strength(t.state, randyll) == before + 3
    assert not t.state.in_play[randyll].kneeling  # stood by his reaction
    for n in (2, 3):  # twice per phase: the second raise stands him, the third does not
        t.state.in_play[randyll].kneeling = True
        t.state.in_play[margaery].kneeling = False
        _margaery_on(t, margaery, randyll)
        assert t.state.in_play[randyll].kneeling == (n == 3)


def test_randyll_tarly_does_not_stand_when_another_characters_STR_is_raised():
    t = at_marshaling("lannister_rose")
    randyll = put_in_play(t, "seat1", "01183", kneeling=True)
    margaery = put_in_play(t, "seat1", "01181")
    tywin = put_in_play(t, "seat1", "01090")
    in_challenge(t, "seat1", [tywin], [])
    _margaery_on(t, margaery, tywin)
    assert t.state.in_play[randyll].kneeling
