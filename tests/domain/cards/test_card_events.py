"""Event cards played from hand (CG-POOL-06): cost in gold, to the discard pile, then the effect;
each test sets up a position and asserts it (card codes as in domain/cards/abilities/<faction>.py)."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.phases import actions
from domain.cards.redaction import redact_event
from domain.core.errors import RuleViolation

from .play import put_in_play, to_hand
from .test_card_actions import at_marshaling, decision, in_challenge


def _acting(t, seat: str = "seat1") -> None:
    """Let ``seat`` act now in the marshal step (the position was arranged)."""
    t.state.step, t.state.waiting, t.state.active = "marshal", [seat], seat


def test_hear_me_roar_01100_puts_a_lannister_character_into_play_discarded_as_the_phase_ends():
    t = at_marshaling("lannister_rose")
    roar = to_hand(t, "seat1", "01100")
    tywin = to_hand(t, "seat1", "01090")  # Tywin Lannister: cost 7
    d = decision(t, "seat1")
    assert tywin in d.events[roar] and "play_event" in d.commands
    out = t.seat("seat1", cmd.PlayEvent(card=roar, target=tywin))
    played = out[0]
    assert isinstance(played, ev.CardsEventPlayed) and played.cost == 1
    assert roar in t.state.player("seat1").discard and t.state.player("seat1").gold == 9
    assert tywin in t.state.in_play  # put into play: not marshaled, no gold for its cost
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())
    assert t.state.phase != "marshaling" and tywin not in t.state.in_play
    assert tywin in t.state.player("seat1").discard
    assert any(isinstance(e, ev.CardsDiscardedFromPlay) and e.cards == [tywin] and e.card == roar for e in t.events)


def test_an_event_needs_its_gold_and_a_legal_target():
    t = at_marshaling("lannister_rose")
    roar = to_hand(t, "seat1", "01100")
    tywin = to_hand(t, "seat1", "01090")
    t.state.player("seat1").gold = 0
    assert roar not in decision(t, "seat1").events
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.PlayEvent(card=roar, target=tywin))
    assert e.value.rule == "CG-POOL-06"
    t.state.player("seat1").gold = 5
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.PlayEvent(card=roar, target=roar))


def test_a_hand_event_is_hidden_until_played_then_public():
    t = at_marshaling("lannister_rose")
    roar = to_hand(t, "seat1", "01100")
    tywin = to_hand(t, "seat1", "01090")
    assert decision(t, "seat1").events  # seat1's own decision lists it
    out = t.seat("seat1", cmd.PlayEvent(card=roar, target=tywin))
    seen = redact_event(out[0], "seat2")
    assert isinstance(seen, ev.CardsEventPlayed) and seen.code == "01100"  # played: public


def test_the_things_i_do_for_love_01101_costs_x_and_returns_a_character_to_hand():
    t = at_marshaling("lannister_rose")
    put_in_play(t, "seat1", "01084")  # Cersei Lannister: a Lady
    love = to_hand(t, "seat1", "01101")
    ned = put_in_play(t, "seat2", "01144")  # Eddard Stark: cost 7
    cheap = put_in_play(t, "seat2", "01152")  # Winterfell Steward: cost 1
    t.state.phase = "challenges"
    _acting(t)
    t.state.player("seat1").gold = 2
    assert actions.playable_events(t.state, "seat1") == {love: [cheap]}  # X = printed cost: 7 is too much
    out = t.seat("seat1", cmd.PlayEvent(card=love, target=cheap))
    assert isinstance(out[0], ev.CardsEventPlayed) and out[0].cost == 1
    assert cheap in t.state.player("seat2").hand and t.state.player("seat1").faction_kneeling
    assert ned in t.state.in_play


def test_waking_the_dragon_01178_stands_a_unique_targaryen_returned_to_hand_at_the_phase_end():
    t = at_marshaling("targaryen_sun")
    wake = to_hand(t, "seat1", "01178")
    drogo = put_in_play(t, "seat1", "01162", kneeling=True)
    t.seat("seat1", cmd.PlayEvent(card=wake, target=drogo))
    assert not t.state.in_play[drogo].kneeling
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())
    assert drogo in t.state.player("seat1").hand


def test_dracarys_01176_kneels_a_dragon_for_minus_4_STR_and_kills_at_0():
    t = at_marshaling("targaryen_sun")
    dracarys = to_hand(t, "seat1", "01176")
    drogon = put_in_play(t, "seat1", "01161")  # a Dragon
    weak = put_in_play(t, "seat2", "01094")  # Lannisport Merchant: STR 1
    in_challenge(t, "seat2", [weak], [])
    _acting(t)
    t.seat("seat1", cmd.PlayEvent(card=dracarys, target=weak))
    assert t.state.in_play[drogon].kneeling and weak in t.state.player("seat2").dead


def test_fire_and_blood_01177_puts_a_dead_hatchling_back_into_play():
    t = at_marshaling("targaryen_sun")
    fire = to_hand(t, "seat1", "01177")
    rhaegal = put_in_play(t, "seat1", "01164")
    del t.state.in_play[rhaegal]
    t.state.player("seat1").dead.append(rhaegal)
    t.state.phase = "challenges"
    _acting(t)
    assert actions.playable_events(t.state, "seat1") == {fire: [rhaegal]}
    t.seat("seat1", cmd.PlayEvent(card=fire, target=rhaegal))
    assert rhaegal in t.state.in_play and rhaegal not in t.state.player("seat1").dead


def test_fire_and_blood_01177_shuffles_a_dead_non_hatchling_into_the_deck():
    t = at_marshaling("targaryen_sun")
    fire = to_hand(t, "seat1", "01177")
    dany = put_in_play(t, "seat1", "01160")
    del t.state.in_play[dany]
    t.state.player("seat1").dead.append(dany)
    t.state.phase = "challenges"
    _acting(t)
    out = t.seat("seat1", cmd.PlayEvent(card=fire, target=dany))
    assert dany in t.state.player("seat1").deck and any(isinstance(e, ev.CardsDeckShuffled) for e in out)


def test_for_the_north_01157_gives_2_STR_and_draws_a_card_on_a_win():
    t = at_marshaling("stark_kraken")
    north = to_hand(t, "seat1", "01157")
    ned = put_in_play(t, "seat1", "01144")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())
    before = current.strength(t.state, ned)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert t.state.step == "action" and north in decision(t, "seat1").events
    t.seat("seat1", cmd.PlayEvent(card=north, target=ned))
    while t.state.step in ("action", "defend"):
        if t.state.step == "defend":
            t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
        else:
            t.seat(t.state.waiting[0], cmd.PassAction())
    won = next(e for e in t.events if isinstance(e, ev.CardsChallengeResolved))
    assert won.winner == "seat1" and won.attacker_strength == before + 2
    drawn = [e for e in t.events if isinstance(e, ev.CardsDrawn) and e.reason == "ability" and e.seat_id == "seat1"]
    assert len(drawn) == 1


def test_winter_is_coming_01159_raises_the_attackers_claim_once_per_challenge():
    t = at_marshaling("stark_kraken")
    winter = to_hand(t, "seat1", "01159")
    ned = put_in_play(t, "seat1", "01144")
    in_challenge(t, "seat1", [ned], [])
    _acting(t)
    before = current.claim_modifier(t.state)
    t.seat("seat1", cmd.PlayEvent(card=winter))
    assert current.claim_modifier(t.state) == before + 1
    second = to_hand(t, "seat1", "01159")
    assert second not in actions.playable_events(t.state, "seat1")  # once per challenge


def test_take_the_black_01139_takes_control_of_a_cheap_non_unique_character():
    t = at_marshaling("watch_stag")
    black = to_hand(t, "seat1", "01139")
    merchant = put_in_play(t, "seat2", "01094")  # Lannisport Merchant: non-unique, cost 1
    put_in_play(t, "seat2", "01090")  # Tywin: unique
    t.state.phase = "dominance"
    _acting(t)
    assert actions.playable_events(t.state, "seat1") == {black: [merchant]}
    t.seat("seat1", cmd.PlayEvent(card=black, target=merchant))
    assert t.state.in_play[merchant].controller == "seat1"
