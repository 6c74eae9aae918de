"""Setup (CG-SETUP-*): a random first player, shuffles from the seed, 7 cards, one mulligan,
facedown setup within its limits, a simultaneous reveal and the hand drawn back to 7."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.cards.state import SetupPick
from domain.core.errors import GameError, RuleViolation
from domain.core.rng import SeededRng

from .play import Table, to_hand


def _started(seed: str = "seed") -> Table:
    t = Table(seed=seed)
    t.start()
    return t


def test_CG_SETUP_02_and_05_first_player_and_deck_order_come_from_the_seed():
    """CG-SETUP-02 (a random first player), CG-SETUP-05 (each draw deck shuffled)."""
    a, b = _started("one"), _started("one")
    assert a.events == b.events  # the same seed: the same first player and shuffles
    started = next(e for e in a.events if isinstance(e, ev.CardsGameStarted))
    assert started.order == SeededRng("one", "g_test/start/first_player").shuffled(["seat1", "seat2"])
    shuffles = [e for e in a.events if isinstance(e, ev.CardsDeckShuffled)]
    assert [s.seat_id for s in shuffles] == a.state.player_order()
    c = _started("two")
    assert [e.order for e in c.events if isinstance(e, ev.CardsDeckShuffled)] != [s.order for s in shuffles]


def test_CG_SETUP_06_seven_cards_then_one_mulligan_with_a_reshuffle():
    t = _started()
    p1 = t.state.player("seat1")
    assert len(p1.hand) == 7 and len(p1.deck) == 60 - 7
    first_hand = list(p1.hand)
    out = t.seat("seat1", cmd.ChooseMulligan(mulligan=True))
    assert isinstance(out[1], ev.CardsDeckShuffled) and out[1].number == 2
    assert len(t.state.player("seat1").hand) == 7 and t.state.player("seat1").hand != first_hand
    with pytest.raises(GameError) as e:  # only one mulligan
        t.seat("seat1", cmd.ChooseMulligan(mulligan=True))
    assert e.value.code == "not_your_turn"


def test_CG_SETUP_06_the_mulligan_default_is_to_keep():
    t = _started()
    out = t.timeout()
    assert [(e.seat_id, e.mulligan, e.by_default) for e in out if isinstance(e, ev.CardsMulliganChosen)] == [
        (s, False, True) for s in t.state.player_order()
    ]
    assert t.state.step == "setup"


def _to_setup(t: Table) -> None:
    for s in t.state.seat_ids():
        t.seat(s, cmd.ChooseMulligan(mulligan=False))


def test_CG_SETUP_07_cost_at_most_8_no_events_one_limited_attachments_on_own_setup_characters():
    t = _started()
    _to_setup(t)
    eddard = to_hand(t, "seat1", "01144")  # Eddard Stark, cost 7
    arya = to_hand(t, "seat1", "01141")  # Arya Stark, cost 5
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=eddard), SetupPick(card=arya)]))
    assert e.value.rule == "CG-SETUP-07" and "at most 8" in e.value.detail
    event = to_hand(t, "seat1", "01157")  # For the North! (event)
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=event)]))
    assert e.value.rule == "CG-SETUP-07" and "event" in e.value.detail
    ice = to_hand(t, "seat1", "01153")  # Ice, an attachment
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=ice)]))
    assert e.value.rule == "CG-SETUP-07"
    steward1 = to_hand(t, "seat1", "01152")  # Winterfell Steward
    t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=steward1), SetupPick(card=ice, attach_to=steward1)]))


def test_CG_SETUP_07_a_further_copy_of_a_unique_card_is_a_free_duplicate_and_CG_SETUP_08_reveal():
    """CG-SEEDFIX-11: setup duplicates are free (7 + 0 fits the 8 gold)."""
    t = _started()
    _to_setup(t)
    ned1, ned2 = to_hand(t, "seat1", "01144"), to_hand(t, "seat1", "01144")  # two Eddards: 7 + 0
    t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=ned1), SetupPick(card=ned2)]))
    out = t.seat("seat2", cmd.ChooseSetup(cards=[]))
    revealed = next(e for e in t.events if isinstance(e, ev.CardsSetupRevealed))
    assert [(p.card, p.as_, p.on) for p in revealed.placed["seat1"]] == [
        (ned1, "character", None),
        (ned2, "duplicate", ned1),
    ]
    # CG-SETUP-10: standing; CG-SETUP-09: hands back to 7
    assert t.state.in_play[ned1].kneeling is False and t.state.in_play[ned1].duplicates == [ned2]
    assert len(t.state.player("seat1").hand) == 7
    assert out  # the last setup choice is followed by the system's reveal (ResolvePending)
    assert t.state.step == "plot" and t.state.round == 1


def test_CG_SETUP_07_and_CG_KEY_09_an_attachment_goes_only_where_its_own_text_allows():
    """Drogo's Arakh ("Dothraki only") is set up on a Dothraki setup character, never on another one,
    as when it is marshaled; the setup decision's ``attach_targets`` lists exactly the allowed ones."""
    t = Table(decks=("targaryen_sun", "lannister_rose"))
    t.start()
    _to_setup(t)
    arakh = to_hand(t, "seat1", "01172")  # Drogo's Arakh, a Weapon, Dothraki only
    edric = to_hand(t, "seat1", "01106")  # Edric Dayne, not Dothraki, cost 2
    warrior = to_hand(t, "seat1", "01168")  # Braided Warrior, Dothraki, no attachments except Weapon
    viserion = to_hand(t, "seat1", "01166")  # Viserion, no attachments
    d = decisions_for(t.state, "seat1").decisions[0]
    assert warrior in d.attach_targets[arakh] and edric not in d.attach_targets[arakh]
    assert viserion not in d.attach_targets[arakh] and viserion not in d.attach_targets
    assert set(d.attach_targets) == {c for c in d.cards if t.state.record(c).type == "attachment"}
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=edric), SetupPick(card=arakh, attach_to=edric)]))
    assert e.value.rule == "CG-KEY-09" and "Dothraki" in e.value.detail
    t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=warrior), SetupPick(card=arakh, attach_to=warrior)]))
    assert t.state.player("seat1").setup is not None


def test_CG_SETUP_07_the_setup_decision_states_costs_limited_cards_and_unique_titles():
    """What a client needs to build a legal setup from the decision alone: each card's printed cost,
    the Limited ones, the unique ones' titles; a setup built from them is accepted."""
    t = _started()
    _to_setup(t)
    ned1, ned2 = to_hand(t, "seat1", "01144"), to_hand(t, "seat1", "01144")  # Eddard Stark, unique, cost 7
    grove = to_hand(t, "seat1", "01156")  # Heart Tree Grove, Limited location, cost 0
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.budget == 8 and d.costs[ned1] == d.costs[ned2] == 7 and d.costs[grove] == 0
    assert grove in d.limited and ned1 not in d.limited
    assert d.unique_titles[ned1] == d.unique_titles[ned2] == "Eddard Stark" and grove not in d.unique_titles
    assert set(d.costs) == set(d.cards)
    # 7 + a free duplicate + 0: at most 8 gold, one Limited card
    t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=ned1), SetupPick(card=ned2), SetupPick(card=grove)]))
    assert t.state.player("seat1").setup is not None
