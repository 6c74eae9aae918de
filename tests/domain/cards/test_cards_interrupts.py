"""The "when killed" / "leaves play" interrupts with a choice (CG-POOL-06, §13.2): Shireen
Baratheon and Viserys Targaryen. Asked of their controller after a military claim's kills (the game
goes on with the keywords once answered); a kill inside another ability takes the documented
default at once. Each test plays the claim with real commands and asserts the outcome."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import put_in_play
from .positions import pass_windows
from .test_card_actions import at_marshaling, decision
from .test_card_reactions import _attack, _to_challenges


def _claim(t, attackers: list[str]) -> None:
    _to_challenges(t)
    _attack(t, "seat1", "military", attackers, [])
    pass_windows(t)


def test_shireen_baratheon_01051_kneels_a_character_of_her_controllers_choice_when_killed():
    t = at_marshaling("lannister_rose", other="watch_stag")
    jaime = put_in_play(t, "seat1", "01087")  # Ser Jaime: does not kneel to attack in military
    tyrion = put_in_play(t, "seat1", "01089")  # standing, not attacking
    shireen = put_in_play(t, "seat2", "01051", kneeling=True)  # seat2's only character
    _claim(t, [jaime])
    assert shireen in t.state.player("seat2").dead
    assert t.state.step == "ability" and t.state.waiting == ["seat2"]
    c = t.state.choice
    assert c is not None and c.card == shireen and c.resume == "claim"
    assert set(c.options) == {jaime, tyrion} and c.default == [jaime]  # Jaime: printed STR 5 > Tyrion's
    t.seat("seat2", cmd.ChooseTargets(cards=[tyrion]))
    assert t.state.in_play[tyrion].kneeling and not t.state.in_play[jaime].kneeling
    assert t.state.step != "ability" and t.state.choice is None  # the game went on after the claim


def test_shireen_baratheon_asks_nothing_when_no_character_stands():
    t = at_marshaling("lannister_rose", other="watch_stag")
    tywin = put_in_play(t, "seat1", "01090")  # kneels to attack
    shireen = put_in_play(t, "seat2", "01051", kneeling=True)
    _claim(t, [tywin])
    assert shireen in t.state.player("seat2").dead
    assert t.state.choice is None
    assert not any(isinstance(e, ev.CardsAbilityUsed) and e.card == shireen for e in t.events)


def test_viserys_targaryen_01167_discards_an_attachment_of_his_controllers_choice_when_killed():
    t = at_marshaling("lannister_rose", other="targaryen_sun")
    jaime = put_in_play(t, "seat1", "01087")
    tywin = put_in_play(t, "seat1", "01090", kneeling=True)
    guard = put_in_play(t, "seat1", "01033")  # Bodyguard on Tywin (a Lord)
    t.state.in_play[guard].attached_to = tywin
    viserys = put_in_play(t, "seat2", "01167", kneeling=True)
    _claim(t, [jaime])
    assert viserys in t.state.player("seat2").dead
    c = decision(t, "seat2")
    assert t.state.step == "ability" and t.state.choice is not None and t.state.choice.options == [guard]
    assert c is not None
    t.timeout()  # the default: the opponent's attachment
    assert guard in t.state.player("seat1").discard and guard not in t.state.in_play


def test_viserys_targaryen_leaving_play_with_no_attachment_in_play_does_nothing():
    t = at_marshaling("lannister_rose", other="targaryen_sun")
    jaime = put_in_play(t, "seat1", "01087")
    viserys = put_in_play(t, "seat2", "01167", kneeling=True)
    _claim(t, [jaime])
    assert viserys in t.state.player("seat2").dead and t.state.choice is None
