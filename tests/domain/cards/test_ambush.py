"""Ambush (CG-KEY-06, CG-SEEDFIX-08) in the challenges phase's action windows (CG-ROUND-02,
CG-CHAL-04): opened only when a player has an action, the first player first, closed when every
player passed in a row; put into play for X, not marshaled."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.core.errors import GameError

from .play import put_in_play, to_hand
from .positions import to_marshaling
from .test_card_actions import at_marshaling


def _position():
    t = to_marshaling()  # seat1 first; seat2 (Lannister, Taxation) will have 5 gold in the challenges phase
    ned = put_in_play(t, "seat1", "01144")
    cloaks = to_hand(t, "seat2", "01092")  # Gold Cloaks: cost 4, Ambush (2), M P, STR 3
    return t, ned, cloaks


def test_CG_KEY_06_ambush_is_not_marshaling_and_waits_for_the_challenges_phase():
    t, _, cloaks = _position()
    t.seat("seat1", cmd.EndMarshaling())
    with pytest.raises(GameError) as e:
        t.seat("seat2", cmd.AmbushCard(card=cloaks))
    assert e.value.code == "wrong_phase"


def test_CG_ROUND_02_a_window_opens_before_a_challenge_first_player_first_and_closes_on_passes():
    t, _, cloaks = _position()
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    opened = next(e for e in out if isinstance(e, ev.CardsWindowOpened))
    assert (opened.window, opened.first, opened.active) == ("before_challenge", "seat1", "seat1")
    # seat1 has no action: it passes at once; seat2 may ambush
    assert [e.seat_id for e in out if isinstance(e, ev.CardsActionPassed)] == ["seat1"]
    assert t.state.step == "action" and t.state.waiting == ["seat2"]
    d = decisions_for(t.state, "seat2").decisions[0]
    assert (
        d.cards == [cloaks]
        and d.commands == ["ambush_card", "use_action", "play_event", "pass_action"]
        and d.default == "pass"
    )
    out = t.seat("seat2", cmd.PassAction())
    assert isinstance(out[1], ev.CardsWindowClosed) and t.state.step == "challenge" and t.state.waiting == ["seat1"]


def test_CG_KEY_06_CG_SEEDFIX_08_ambush_after_attackers_for_X_then_the_card_may_defend_CG_CHAL_04():
    t, ned, cloaks = _position()
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat2", cmd.PassAction())
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert next(e for e in out if isinstance(e, ev.CardsWindowOpened)).window == "after_attackers"
    out = t.seat("seat2", cmd.AmbushCard(card=cloaks))
    ambushed = out[0]
    assert isinstance(ambushed, ev.CardsAmbushed) and ambushed.cost == 2  # its Ambush cost, not its cost of 4
    assert t.state.player("seat2").gold == 3 and not t.state.in_play[cloaks].kneeling
    assert not any(isinstance(e, ev.CardsMarshaled) for e in out)
    # the window went on (seat1 passed, seat2 has nothing more) and closed: seat2 defends with it
    assert t.state.step == "defend"
    assert cloaks in decisions_for(t.state, "seat2").decisions[0].challenge_types["military"]


def test_the_action_windows_default_is_to_pass():
    t, _, _ = _position()
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    out = t.timeout()
    passed = next(e for e in out if isinstance(e, ev.CardsActionPassed))
    assert passed.seat_id == "seat2" and passed.by_default and t.state.step == "challenge"


def test_CG_KEY_10_the_ambush_to_use_is_picked_among_the_cards_ambush_costs():
    """CG-KEY-10: Ambush with different X are different keywords and the player picks one (``x``);
    the decision lists each card's Ambush costs; an X the card does not have is refused, nothing
    changed. (No Core card has two different Ambush X: Gold Cloaks has one, its X listed once.)"""
    t, ned, cloaks = _position()
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    assert decisions_for(t.state, "seat2").decisions[0].ambush_costs == {cloaks: [2]}
    gold, version = t.state.player("seat2").gold, t.state.version
    with pytest.raises(GameError) as e:
        t.seat("seat2", cmd.AmbushCard(card=cloaks, x=4))  # its printed cost is no Ambush of it
    assert e.value.rule == "CG-KEY-10" and t.state.version == version and cloaks in t.state.player("seat2").hand
    out = t.seat("seat2", cmd.AmbushCard(card=cloaks, x=2))
    assert isinstance(out[0], ev.CardsAmbushed) and out[0].cost == 2 and t.state.player("seat2").gold == gold - 2


def test_CG_KEY_10_a_keyword_from_two_sources_counts_once():
    """CG-KEY-10: a card has a keyword or not. Eddard Stark's printed renown plus Longclaw's
    (arranged on him as a judge would, to give him the same keyword twice) win him 1 power, not 2."""
    t = at_marshaling("stark_kraken", other="watch_stag")
    ned = put_in_play(t, "seat1", "01144")  # Eddard Stark: renown
    longclaw = put_in_play(t, "seat2", "01135")  # seat2's Longclaw, arranged on seat1's Ned
    t.state.in_play[longclaw].attached_to = ned
    assert current.keywords(t.state, ned).count("renown") == 1
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[ned]))
    while t.state.step in ("action", "defend"):
        if t.state.step == "defend":
            t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
        else:
            t.seat(t.state.waiting[0], cmd.PassAction())
    renown = [e for e in t.events if isinstance(e, ev.CardsPowerGained) and e.reason == "renown"]
    assert [(e.card, e.amount) for e in renown] == [(ned, 1)] and t.state.in_play[ned].power == 1
