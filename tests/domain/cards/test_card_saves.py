"""Save interrupts and replacements (CG-POOL-06; review 2 of the digest: saves are offered first,
a saved card is not killed): before a military claim kills, the victims' controller holding a save
is asked (the ``save`` decision, default decline). Each test plays the claim with real commands."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import put_in_play
from .positions import pass_windows
from .test_card_actions import at_marshaling, decision
from .test_card_reactions import _attack, _to_challenges


def _claim_on_seat2(t, attackers: list[str]) -> None:
    _to_challenges(t)
    _attack(t, "seat1", "military", attackers, [])
    pass_windows(t)


def test_CG_PHASE_11_bodyguard_01033_is_sacrificed_to_save_its_bearer_from_claim():
    t = at_marshaling("stark_kraken")  # seat2: lannister_rose
    ned = put_in_play(t, "seat1", "01144")  # Eddard Stark: M, STR 4
    tyrion = put_in_play(t, "seat2", "01089", kneeling=True)  # Tyrion: a Lord, the only character
    guard = put_in_play(t, "seat2", "01033")
    t.state.in_play[guard].attached_to = tyrion
    _claim_on_seat2(t, [ned])
    assert t.state.step == "save" and t.state.waiting == ["seat2"]
    d = decision(t, "seat2")
    assert d.interrupts == {guard: [tyrion]} and d.commands == ["use_interrupt", "decline"]
    assert d.default.startswith("decline")
    out = t.seat("seat2", cmd.UseInterrupt(card=guard, target=tyrion))
    assert isinstance(out[0], ev.CardsSaved) and out[0].saved == tyrion
    assert tyrion in t.state.in_play and guard in t.state.player("seat2").discard
    assert not any(isinstance(e, ev.CardsCharactersKilled) and tyrion in e.cards for e in t.events)


def test_a_save_declined_by_default_lets_the_claim_kill():
    t = at_marshaling("stark_kraken")
    ned = put_in_play(t, "seat1", "01144")
    tyrion = put_in_play(t, "seat2", "01089", kneeling=True)
    guard = put_in_play(t, "seat2", "01033")
    t.state.in_play[guard].attached_to = tyrion
    _claim_on_seat2(t, [ned])
    out = t.timeout()
    assert any(isinstance(e, ev.CardsSaveDeclined) and e.by_default for e in out)
    assert tyrion in t.state.player("seat2").dead


def test_maester_aemon_01125_kneels_to_save_a_nights_watch_character():
    t = at_marshaling("lannister_rose", other="watch_stag")
    jaime = put_in_play(t, "seat1", "01087")  # Ser Jaime: M, STR 5
    sam = put_in_play(t, "seat2", "01127", kneeling=True)  # Samwell Tarly
    aemon = put_in_play(t, "seat2", "01125", kneeling=False)
    t.state.in_play[aemon].kneeling = False
    _to_challenges(t)
    _attack(t, "seat1", "military", [jaime], [])
    if t.state.step == "claim":  # two characters, claim 1: seat2 picks Sam
        t.seat("seat2", cmd.ChooseClaimVictims(characters=[sam]))
    assert t.state.step == "save" and aemon in decision(t, "seat2").interrupts
    t.seat("seat2", cmd.UseInterrupt(card=aemon, target=sam))
    assert sam in t.state.in_play and t.state.in_play[aemon].kneeling


def test_ser_davos_seaworth_01050_goes_to_the_hand_instead_of_the_dead_pile():
    t = at_marshaling("lannister_rose", other="watch_stag")
    jaime = put_in_play(t, "seat1", "01087")
    davos = put_in_play(t, "seat2", "01050", kneeling=True)
    _claim_on_seat2(t, [jaime])
    assert davos in t.state.player("seat2").hand and davos not in t.state.player("seat2").dead
