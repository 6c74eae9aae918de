"""Reaction events (CG-POOL-06, §13.2 "challenge won"): after a challenge's result, a reaction
window asks each seat holding a playable reaction event (first player first) until it declines
(the default); then claim. Each test plays the challenge with real commands, then asserts the
event's effect (card codes as in domain/cards/abilities/<faction>.py)."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev

from .play import put_in_play, to_hand
from .positions import pass_windows
from .test_card_actions import at_marshaling, decision


def _to_challenges(t, first: str = "seat1") -> None:
    second = t.state.opponent(first)
    t.seat(first, cmd.EndMarshaling())
    t.seat(second, cmd.EndMarshaling())
    pass_windows(t)
    assert t.state.phase == "challenges" and t.state.step == "challenge"


def _attack(t, seat: str, kind: str, attackers: list[str], defenders: list[str]) -> None:
    t.seat(seat, cmd.DeclareChallenge(challenge_type=kind, attackers=attackers))  # type: ignore[arg-type]
    pass_windows(t)
    if t.state.step == "defend":
        t.seat(t.state.opponent(seat), cmd.DeclareDefenders(defenders=defenders))
    pass_windows(t)


def test_CG_PHASE_11_put_to_the_sword_01041_kills_a_losers_character_after_a_military_win_by_5():
    t = at_marshaling("targaryen_sun")
    sword = to_hand(t, "seat1", "01041")
    drogo, drogon = put_in_play(t, "seat1", "01162"), put_in_play(t, "seat1", "01161")
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    _to_challenges(t)
    _attack(t, "seat1", "military", [drogo, drogon], [])
    assert t.state.step == "reaction" and t.state.waiting == ["seat1"]
    d = decision(t, "seat1")
    assert d.events == {sword: [tywin]} and d.commands == ["play_event", "decline"]
    assert d.default == "decline (play no reaction)"
    t.seat("seat1", cmd.PlayEvent(card=sword, target=tywin))
    assert tywin in t.state.player("seat2").dead and sword in t.state.player("seat1").discard
    assert t.state.reactions is None and t.state.step != "reaction"  # the window closed: claim went on


def test_a_reaction_window_defaults_to_decline_and_claim_goes_on():
    t = at_marshaling("targaryen_sun")
    to_hand(t, "seat1", "01041")
    drogo, drogon = put_in_play(t, "seat1", "01162"), put_in_play(t, "seat1", "01161")
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    _to_challenges(t)
    _attack(t, "seat1", "military", [drogo, drogon], [])
    out = t.timeout()
    declined = next(e for e in out if isinstance(e, ev.CardsReactionDeclined))
    assert declined.by_default and any(isinstance(e, ev.CardsReactionsClosed) for e in out)
    assert tywin in t.state.in_play or tywin in t.state.player("seat2").dead  # military claim: seat2's choice


def test_no_reaction_window_without_a_playable_reaction():
    t = at_marshaling("targaryen_sun")
    to_hand(t, "seat1", "01041")
    drogon = put_in_play(t, "seat1", "01161")  # STR 4: a win by less than 5, no window
    put_in_play(t, "seat2", "01090", kneeling=True)
    _to_challenges(t)
    _attack(t, "seat1", "military", [drogon], [])
    assert any(isinstance(e, ev.CardsChallengeResolved) and e.winner == "seat1" for e in t.events)
    assert not any(isinstance(e, ev.CardsReactionsOpened) for e in t.events)


def test_put_to_the_torch_01042_discards_a_losers_location():
    t = at_marshaling("targaryen_sun")
    torch = to_hand(t, "seat1", "01042")
    drogo, drogon = put_in_play(t, "seat1", "01162"), put_in_play(t, "seat1", "01161")
    rock = put_in_play(t, "seat2", "01097")  # Casterly Rock
    _to_challenges(t)
    _attack(t, "seat1", "military", [drogo, drogon], [])
    t.seat("seat1", cmd.PlayEvent(card=torch, target=rock))
    assert rock in t.state.player("seat2").discard


def test_superior_claim_01043_gains_2_power_after_a_power_win_by_5():
    t = at_marshaling("lannister_rose")
    claim = to_hand(t, "seat1", "01043")
    tywin, cersei = put_in_play(t, "seat1", "01090"), put_in_play(t, "seat1", "01084")
    t.state.player("seat1").gold = 10  # Tywin: +1 STR a gold
    _to_challenges(t)
    before = t.state.player("seat1").faction_power
    _attack(t, "seat1", "power", [tywin, cersei], [])
    t.seat("seat1", cmd.PlayEvent(card=claim))
    gained = [e for e in t.events if isinstance(e, ev.CardsPowerGained) and e.reason == "Superior Claim"]
    assert len(gained) == 1 and t.state.player("seat1").faction_power >= before + 2


def test_tears_of_lys_01044_poisons_a_character_killed_as_the_phase_ends():
    t = at_marshaling("lannister_rose")
    tears = to_hand(t, "seat1", "01044")
    cersei = put_in_play(t, "seat1", "01084")  # I
    ned = put_in_play(t, "seat2", "01144", kneeling=True)  # Eddard Stark: M P, no intrigue icon
    _to_challenges(t)
    _attack(t, "seat1", "intrigue", [cersei], [])
    assert ned in decision(t, "seat1").events[tears]
    t.seat("seat1", cmd.PlayEvent(card=tears, target=ned))
    assert ned in t.state.in_play  # poisoned, not yet dead
    while t.state.phase == "challenges" and t.state.step in ("challenge", "action", "claim"):
        if t.state.step == "challenge":
            t.seat(t.state.waiting[0], cmd.EndChallenges())
        elif t.state.step == "action":
            t.seat(t.state.waiting[0], cmd.PassAction())
        else:
            t.timeout()
    assert t.state.phase != "challenges" and ned in t.state.player("seat2").dead


def test_like_warm_rain_01158_kneels_a_direwolf_to_kill_an_attacker():
    t = at_marshaling("stark_kraken")
    rain = to_hand(t, "seat1", "01158")
    pup = put_in_play(t, "seat1", "01149")  # Direwolf Pup
    tyrion = put_in_play(t, "seat2", "01089")  # Tyrion: I
    _to_challenges(t)
    t.seat("seat1", cmd.EndChallenges())
    pass_windows(t)
    _attack(t, "seat2", "intrigue", [tyrion], [])
    assert t.state.step == "reaction" and t.state.waiting == ["seat1"]
    out = t.seat("seat1", cmd.PlayEvent(card=rain, target=tyrion))
    knelt = next(e for e in out if isinstance(e, ev.CardsKneelingChanged))
    assert knelt.cards == [pup] and knelt.kneeling and tyrion in t.state.player("seat2").dead


def test_unbowed_unbent_unbroken_01120_forbids_the_winner_a_challenge_type():
    t = at_marshaling("targaryen_sun", first="seat2")
    unbowed = to_hand(t, "seat1", "01120")
    cersei, jaime = put_in_play(t, "seat2", "01084"), put_in_play(t, "seat2", "01087")  # I P; M I
    put_in_play(t, "seat2", "01094")  # Lannisport Merchant: P
    _to_challenges(t, first="seat2")
    _attack(t, "seat2", "intrigue", [cersei], [])
    assert set(decision(t, "seat1").events[unbowed]) == {"military", "intrigue", "power"}
    t.seat("seat1", cmd.PlayEvent(card=unbowed, target="military"))
    assert current.start_forbidden(t.state, "seat2", "military") is not None
    assert t.state.step == "challenge" and t.state.waiting == ["seat2"]
    assert sorted(decision(t, "seat2").challenge_types) == ["power"]  # Jaime may not attack in military
    assert jaime in t.state.in_play


def test_the_sword_in_the_darkness_01140_stops_the_loser_challenging_this_round():
    t = at_marshaling("watch_stag", first="seat2")
    sword = to_hand(t, "seat1", "01140")
    bear = put_in_play(t, "seat1", "01126")  # Old Bear Mormont: M P, STR 6
    merchant = put_in_play(t, "seat2", "01094")  # Lannisport Merchant: P, STR 1
    put_in_play(t, "seat2", "01087")  # Ser Jaime: M I, for a later challenge
    _to_challenges(t, first="seat2")
    _attack(t, "seat2", "power", [merchant], [bear])  # 1 vs 6: seat1 wins as defender by 5
    assert t.state.step == "reaction" and decision(t, "seat1").events == {sword: []}
    t.seat("seat1", cmd.PlayEvent(card=sword))
    assert current.start_forbidden(t.state, "seat2", "intrigue") is not None
    assert t.state.player("seat2").seat_id not in t.state.waiting or t.state.step != "challenge"
