"""Save interrupts and replacements (CG-POOL-06; review 2 of the digest: saves are offered first,
a saved card is not killed): before a military claim kills, the victims' controller holding a save
is asked (the ``save`` decision, default decline); before an ability kills, it is asked too (the
``ability`` step, default ``none``) where the game can wait, else the save is used at once (a kill
as a phase ends); Bodyguard also saves from a discard from play (at once). Each test plays the
kill with real commands."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.state import AbilityChoice

from .play import put_in_play, to_hand
from .positions import pass_windows
from .test_card_actions import at_marshaling, decision, in_challenge
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


# -- saves against an ability's kill or discard (not only a military claim's) ----------------


def test_CG_POOL_06_maester_aemon_is_asked_to_save_from_an_actions_kill_and_the_game_goes_on():
    t = at_marshaling("stark_kraken", other="watch_stag")
    wind = put_in_play(t, "seat1", "01145")  # Grey Wind: kneel to kill a character of STR 1 or less
    sam = put_in_play(t, "seat2", "01127")  # Samwell Tarly: Night's Watch, STR 1
    aemon = put_in_play(t, "seat2", "01125")
    in_challenge(t, "seat1", [], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=wind, target=sam))
    c = t.state.choice
    assert t.state.step == "ability" and t.state.waiting == ["seat2"] and c is not None
    assert c.card == aemon and c.options == [sam, "none"] and c.default == ["none"] and c.resume == "marshal"
    assert sam in t.state.in_play  # not killed yet: the save comes first
    out = t.seat("seat2", cmd.ChooseTargets(cards=[sam]))
    assert any(isinstance(e, ev.CardsSaved) and e.saved == sam for e in out)
    assert sam in t.state.in_play and t.state.in_play[aemon].kneeling
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]  # seat1 marshals on


def test_a_save_against_an_actions_kill_declined_by_default_lets_it_die():
    t = at_marshaling("stark_kraken", other="watch_stag")
    wind = put_in_play(t, "seat1", "01145")
    sam = put_in_play(t, "seat2", "01127")
    aemon = put_in_play(t, "seat2", "01125")
    in_challenge(t, "seat1", [], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=wind, target=sam))
    t.timeout()
    assert sam in t.state.player("seat2").dead and not t.state.in_play[aemon].kneeling


def test_maester_aemon_cannot_save_a_character_of_another_faction_nor_while_kneeling():
    t = at_marshaling("stark_kraken", other="watch_stag")
    wind = put_in_play(t, "seat1", "01145")
    sam = put_in_play(t, "seat2", "01127")
    put_in_play(t, "seat2", "01125", kneeling=True)  # Aemon kneels: no save
    in_challenge(t, "seat1", [], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=wind, target=sam))
    assert sam in t.state.player("seat2").dead and t.state.choice is None


def test_bodyguard_is_asked_against_a_reaction_events_kill():
    t = at_marshaling("targaryen_sun")  # seat2: lannister_rose
    sword = to_hand(t, "seat1", "01041")  # Put to the Sword
    drogo, drogon = put_in_play(t, "seat1", "01162"), put_in_play(t, "seat1", "01161")
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)  # a Lord
    guard = put_in_play(t, "seat2", "01033")
    t.state.in_play[guard].attached_to = tywin
    put_in_play(t, "seat2", "01094", kneeling=True)  # a second character: the claim asks seat2 next
    _to_challenges(t)
    _attack(t, "seat1", "military", [drogo, drogon], [])
    t.seat("seat1", cmd.PlayEvent(card=sword, target=tywin))
    c = t.state.choice
    assert c is not None and c.card == guard and c.options == [tywin, "none"] and c.resume == "reaction"
    t.seat("seat2", cmd.ChooseTargets(cards=[tywin]))
    assert tywin in t.state.in_play and guard in t.state.player("seat2").discard
    assert t.state.step == "claim" and t.state.waiting == ["seat2"]  # the reaction window closed, claim went on


def test_bodyguard_saves_its_host_from_a_discard_from_play_at_once():
    t = at_marshaling("stark_kraken")  # seat2: lannister_rose
    varys = put_in_play(t, "seat1", "01029")
    ned = put_in_play(t, "seat1", "01144")
    tyrion = put_in_play(t, "seat2", "01089")
    guard = put_in_play(t, "seat2", "01033")
    t.state.in_play[guard].attached_to = tyrion
    t.state.phase = "dominance"
    t.state.step, t.state.waiting = "action", ["seat1"]
    t.state.choice = AbilityChoice(
        seat="seat1",
        card=varys,
        options=["remove", "keep"],
        count=1,
        prompt="",
        default=["keep"],
        resume="dominance_end",
    )
    t.state.step = "ability"
    out = t.seat("seat1", cmd.ChooseTargets(cards=["remove"]))
    assert any(isinstance(e, ev.CardsSaved) and e.saved == tyrion and e.card == guard for e in out)
    assert tyrion in t.state.in_play and guard in t.state.player("seat2").discard
    assert ned in t.state.player("seat1").discard


def test_maester_aemon_saves_at_once_from_a_kill_as_the_phase_ends():
    t = at_marshaling("lannister_rose", other="watch_stag")
    tears = to_hand(t, "seat1", "01044")  # Tears of Lys: poisoned, killed as the phase ends
    cersei = put_in_play(t, "seat1", "01084")
    raven = put_in_play(t, "seat2", "01130", kneeling=True)  # Messenger Raven: Night's Watch, no intrigue icon
    aemon = put_in_play(t, "seat2", "01125")  # standing, not defending
    _to_challenges(t)
    _attack(t, "seat1", "intrigue", [cersei], [])
    assert raven in decision(t, "seat1").events[tears]
    t.seat("seat1", cmd.PlayEvent(card=tears, target=raven))
    while t.state.phase == "challenges" and t.state.step in ("challenge", "action", "claim", "reaction"):
        if t.state.step == "challenge":
            t.seat(t.state.waiting[0], cmd.EndChallenges())
        else:
            t.timeout()
    assert t.state.phase != "challenges"
    saved = [e for e in t.events if isinstance(e, ev.CardsSaved)]
    assert [(e.card, e.saved) for e in saved] == [(aemon, raven)]
    assert raven in t.state.in_play and t.state.in_play[aemon].kneeling
