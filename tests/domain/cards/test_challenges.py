"""The challenges phase: CG-PHASE-12/13, CG-CHAL-01..09, CG-KEY-01..05, CG-GEN-05/09, CG-SEEDFIX-06/07."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng

from .play import Table, put_in_play
from .positions import WINDS, pass_windows, to_marshaling


def _challenges(t: Table) -> None:
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    pass_windows(t)  # a card put in play may have an Action (Grey Wind, Wildling Horde)
    assert t.state.phase == "challenges" and t.state.step == "challenge" and t.state.active == "seat1"


def _resolved(out: list[object]) -> ev.CardsChallengeResolved:
    return next(e for e in out if isinstance(e, ev.CardsChallengeResolved))


def test_CG_CHAL_01_attackers_are_standing_with_the_icon_and_kneel_CG_GEN_09():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144")  # M P, STR 5
    sansa = put_in_play(t, "seat1", "01147")  # I P
    put_in_play(t, "seat2", "01087")  # Ser Jaime: M I, a possible defender
    _challenges(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.challenge_types == {"military": [ned], "intrigue": [sansa], "power": [ned, sansa]}
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[sansa]))
    assert e.value.rule == "CG-CHAL-01"
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert t.state.in_play[ned].kneeling and t.state.step == "defend"


def test_CG_CHAL_02_and_CG_KEY_01_stealth_bypasses_a_defender():
    t = to_marshaling()
    arya = put_in_play(t, "seat1", "01141")  # stealth, P
    cersei = put_in_play(t, "seat2", "01084")  # I P
    ned = put_in_play(t, "seat1", "01144")  # no stealth
    _challenges(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.stealth_attackers == [arya] and ned in d.challenge_types["power"] and d.stealth_targets == [cersei]
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[arya], stealth={arya: cersei}))
    # the only possible defender is bypassed: no defender is asked for, the challenge is unopposed
    assert next(e for e in out if isinstance(e, ev.CardsDefendersDeclared)).defenders == []
    assert _resolved(out).unopposed


def test_CG_CHAL_03_defenders_with_the_icon_kneel_and_CG_CHAL_05_higher_strength_wins():
    t = to_marshaling()
    tumble = put_in_play(t, "seat1", "01150")  # STR 2, M P
    jaime = put_in_play(t, "seat2", "01087")  # STR 5, M I
    tyrion = put_in_play(t, "seat2", "01089")  # I P, no military icon
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[tumble]))
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.DeclareDefenders(defenders=[tyrion]))
    assert e.value.rule == "CG-CHAL-03"
    out = t.seat("seat2", cmd.DeclareDefenders(defenders=[jaime]))
    r = _resolved(out)
    assert (r.attacker_strength, r.defender_strength, r.winner, r.unopposed) == (2, 5, "seat2", False)
    assert t.state.in_play[jaime].kneeling  # CG-CHAL-09: participants stay knelt
    assert not any(isinstance(e, ev.CardsCharactersKilled) for e in out)  # CG-CHAL-07: a defender's win has no claim


def test_CG_CHAL_05_ties_go_to_the_attacker_and_CG_CHAL_06_unopposed_gains_one_power():
    t = to_marshaling()
    a = put_in_play(t, "seat1", "01150")  # STR 2
    d = put_in_play(t, "seat2", "01088")  # The Tickler STR 2, M I
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[a]))
    out = t.seat("seat2", cmd.DeclareDefenders(defenders=[d]))
    assert _resolved(out).winner == "seat1" and not _resolved(out).unopposed
    assert not any(isinstance(e, ev.CardsPowerGained) and e.reason == "unopposed" for e in out)


def test_CG_CHAL_06_no_defenders_is_unopposed_CG_SEEDFIX_06():
    t = to_marshaling()
    a = put_in_play(t, "seat1", "01152")  # Winterfell Steward STR 1, P
    _challenges(t)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[a]))
    r = _resolved(out)
    assert r.unopposed and r.winner == "seat1"
    gained = [e for e in out if isinstance(e, ev.CardsPowerGained) and e.reason == "unopposed"]
    assert [(e.seat_id, e.amount, e.card) for e in gained] == [("seat1", 1, None)]


def test_CG_CHAL_07_military_claim_the_defender_chooses_victims_who_die():
    """CG-SEEDFIX-13: non-unique killed characters go to the dead pile too."""
    t = to_marshaling(p1=WINDS)  # claim 2
    ned = put_in_play(t, "seat1", "01144")
    c1, c2, c3 = put_in_play(t, "seat2", "01094"), put_in_play(t, "seat2", "01188"), put_in_play(t, "seat2", "01086")
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert t.state.step == "claim"  # no military defender: none is asked for
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.count == 2 and sorted(d.cards) == sorted([c1, c2, c3])
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.ChooseClaimVictims(characters=[c1]))
    assert e.value.rule == "CG-CHAL-07"
    t.seat("seat2", cmd.ChooseClaimVictims(characters=[c1, c3]))
    assert t.state.player("seat2").dead == [c1, c3] and c2 in t.state.in_play  # CG-UNIQUE-04


def test_CG_CHAL_07_military_claim_kills_as_many_as_possible_and_CG_UNIQUE_03_a_duplicate_saves():
    t = to_marshaling(p1=WINDS)  # claim 2
    ned = put_in_play(t, "seat1", "01144")
    joffrey = put_in_play(t, "seat2", "01086")
    t.state.in_play[joffrey].duplicates.append(
        next(i for i in t.state.player("seat2").deck if t.state.cards[i] == "01084")
    )
    t.state.player("seat2").deck.remove(t.state.in_play[joffrey].duplicates[0])
    _challenges(t)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    saved = next(e for e in out if isinstance(e, ev.CardsDuplicateDiscarded))
    assert saved.saved == joffrey and joffrey in t.state.in_play and t.state.in_play[joffrey].duplicates == []


def test_CG_CHAL_07_intrigue_claim_discards_at_random_from_the_seed():
    t = to_marshaling(seed="intrigue")
    sansa = put_in_play(t, "seat1", "01147")  # I
    _challenges(t)
    hand = list(t.state.player("seat2").hand)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[sansa]))
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand))
    rng = SeededRng("intrigue", "g_test/intrigue/1/seat1")
    assert discarded.cards == [hand[rng.below(len(hand))]]  # claim 1
    assert discarded.cards[0] in t.state.player("seat2").discard


def test_CG_CHAL_07_power_claim_moves_power_from_faction_to_faction_CG_GEN_05():
    t = to_marshaling()
    steward = put_in_play(t, "seat1", "01152")
    t.state.player("seat2").faction_power = 3
    _challenges(t)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[steward]))
    moved = next(e for e in out if isinstance(e, ev.CardsPowerMoved))
    assert (moved.from_seat, moved.to_seat, moved.amount) == ("seat2", "seat1", 1)
    unopposed = [e for e in out if isinstance(e, ev.CardsPowerGained) and e.reason == "unopposed"]
    i, j = out.index(unopposed[0]), out.index(moved)
    assert i < j  # CG-CHAL-06: the unopposed bonus before claim


def test_CG_KEY_02_renown_CG_KEY_03_insight_CG_KEY_05_pillage_and_CG_CHAL_08_after_claim():
    """CG-SEEDFIX-07: insight works in a power challenge too (any type)."""
    t = to_marshaling(first="seat2")
    t.seat("seat2", cmd.EndMarshaling())
    tywin = put_in_play(t, "seat2", "01090")  # renown, M I P
    pycelle = put_in_play(t, "seat2", "01085")  # insight, I P
    t.seat("seat1", cmd.EndMarshaling())
    hand = len(t.state.player("seat2").hand)
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="power", attackers=[tywin, pycelle]))
    kinds = [type(e).__name__ for e in out]
    renown = [e for e in out if isinstance(e, ev.CardsPowerGained) and e.reason == "renown"]
    assert [e.card for e in renown] == [tywin] and t.state.in_play[tywin].power == 1
    assert len(t.state.player("seat2").hand) == hand + 1  # insight: one card
    assert kinds.index("CardsChallengeResolved") < kinds.index("CardsPowerGained")


def test_CG_KEY_05_pillage_discards_the_top_of_the_losers_deck():
    t = to_marshaling(first="seat1")
    # no pillage character in these decks: a Greyjoy one (Drowned Men? pillage) from the Kraken banner
    pillager = next((c for c in t.state.player("seat1").deck if t.state.record(c).has_keyword("pillage")), None)
    if pillager is None:
        pytest.skip("no pillage character in the stark_kraken deck")
    put_in_play(t, "seat1", t.state.cards[pillager])
    _challenges(t)
    top = t.state.player("seat2").deck[0]
    icons = t.state.record(pillager).icons
    assert icons is not None
    kind = next(k for k in ("military", "intrigue", "power") if icons.has(k))
    t.seat("seat1", cmd.DeclareChallenge(challenge_type=kind, attackers=[pillager]))  # type: ignore[arg-type]
    pass_windows(t)
    if t.state.step == "defend":
        t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
    pass_windows(t)
    if t.state.step == "claim":
        t.seat("seat2", cmd.ChooseClaimVictims(characters=decisions_for(t.state, "seat2").decisions[0].cards[:1]))
    assert any(isinstance(e, ev.CardsDiscardedFromDeck) and e.cards == [top] for e in t.events)


def test_CG_PHASE_12_one_challenge_of_each_type_and_CG_PHASE_13_ending_ends_the_turn():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144")
    robb = put_in_play(t, "seat1", "01146")
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[ned]))
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[robb]))
    assert e.value.rule == "CG-PHASE-12"
    out = t.seat("seat1", cmd.EndChallenges())
    assert isinstance(out[0], ev.CardsChallengesEnded) and out[0].seat_id == "seat1"
    assert not any(isinstance(e, ev.CardsStepOpened) and e.step == "challenge" and e.seats == ["seat1"] for e in out)


def test_CG_KEY_04_intimidate_kneels_a_standing_loser_within_the_margin_once_as_attacker():
    t = to_marshaling()
    grey_wind = put_in_play(t, "seat1", "01145")  # intimidate, M, STR 4
    weak = put_in_play(t, "seat2", "01094")  # STR 1, P only: not a defender, a target
    strong = put_in_play(t, "seat2", "01090")  # Tywin STR 6: above the margin
    tickler = put_in_play(t, "seat2", "01088")  # STR 2, M I: defends
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[grey_wind]))
    t.seat("seat2", cmd.DeclareDefenders(defenders=[tickler]))  # 4 vs 2: margin 2
    if t.state.step == "claim":
        t.seat("seat2", cmd.ChooseClaimVictims(characters=[tickler]))
    assert t.state.step == "intimidate" and t.state.waiting == ["seat1"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert weak in d.cards and strong not in d.cards and d.default == "kneel nobody"
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseIntimidate(target=strong))
    assert e.value.rule == "CG-KEY-04"
    t.seat("seat1", cmd.ChooseIntimidate(target=weak))
    assert t.state.in_play[weak].kneeling


def test_CG_UNIQUE_05_a_killed_character_takes_its_attachments_duplicates_and_power_CG_KEY_08():
    t = to_marshaling(p1=WINDS)
    ned = put_in_play(t, "seat1", "01144")
    joffrey = put_in_play(t, "seat2", "01086")
    t.state.in_play[joffrey].power = 2
    # seat1's Ice and Milk of the Poppy (Terminal) on seat2's Joffrey
    ice = put_in_play(t, "seat1", "01153")
    t.state.in_play[ice].attached_to = joffrey
    milk = put_in_play(t, "seat1", "01035")
    t.state.in_play[milk].attached_to = joffrey
    assert t.state.record(milk).has_keyword("terminal")
    _challenges(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert joffrey in t.state.player("seat2").dead  # CG-UNIQUE-04: its owner's dead pile
    assert ice in t.state.player("seat1").hand  # a non-Terminal attachment back to its owner's hand
    assert milk in t.state.player("seat1").discard  # CG-KEY-08: Terminal: discarded
    assert ice not in t.state.in_play and milk not in t.state.in_play
