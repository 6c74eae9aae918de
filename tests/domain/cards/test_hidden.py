"""Hidden information (issue 14): deck order, hands, facedown setup and sealed plots never reach
the other seat or a spectator, through events or views; one function redacts both."""

from __future__ import annotations

import msgspec

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.game import GAME
from domain.cards.state import SetupPick

from .play import Table, to_plot_step

READERS = ["seat1", "seat2", None]


def _json(x: object) -> bytes:
    return msgspec.json.encode(x)


def test_deck_order_is_hidden_from_every_reader_even_the_owner_until_the_end():
    t = Table()
    t.start()
    for e in t.events:
        if isinstance(e, ev.CardsDeckShuffled):
            for r in READERS:
                assert GAME.redact_event(e, r).order is None
            assert GAME.redact_event(e, "seat1", game_over=True) is e
    for r in READERS:
        v = _json(GAME.view(t.state, r))
        deck = t.state.player("seat1").deck
        assert _json(deck)[1:-1] not in v  # the deck's order appears nowhere


def test_a_hand_is_seen_by_its_owner_only():
    t = Table()
    t.start()
    drawn = next(e for e in t.events if isinstance(e, ev.CardsDrawn) and e.seat_id == "seat1")
    assert GAME.redact_event(drawn, "seat1") is drawn
    assert GAME.redact_event(drawn, "seat2").cards is None and GAME.redact_event(drawn, None).cards is None
    hand = t.state.player("seat1").hand
    mine = GAME.view(t.state, "seat1")
    assert mine.seats[0].hand == hand and all(c in mine.cards for c in hand)
    for r in ("seat2", None):
        v = GAME.view(t.state, r)
        assert v.seats[0].hand is None and v.seats[0].hand_count == 7
        assert not set(hand) & set(v.cards)  # not even the card ids' codes


def test_facedown_setup_cards_are_seen_by_their_owner_only_until_the_reveal():
    t = Table()
    t.start()
    for s in ("seat1", "seat2"):
        t.seat(s, cmd.ChooseMulligan(mulligan=False))
    card = next(
        c
        for c in t.state.player("seat1").hand
        if t.state.record(c).type == "character" and t.state.record(c).printed_cost <= 8
    )
    out = t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=card)]))
    chosen = out[0]
    assert isinstance(chosen, ev.CardsSetupChosen)
    assert GAME.redact_event(chosen, "seat1") is chosen
    for r in ("seat2", None):
        red = GAME.redact_event(chosen, r)
        assert red.cards is None and red.count == 1
        v = GAME.view(t.state, r)
        assert v.seats[0].setup is None and v.seats[0].setup_count == 1 and card.encode() not in _json(v)
    assert GAME.view(t.state, "seat1").seats[0].setup == [SetupPick(card=card)]


def test_a_sealed_plot_is_seen_by_its_owner_only_until_the_reveal():
    t = Table()
    to_plot_step(t)
    plot = t.state.player("seat1").plots[3]
    out = t.seat("seat1", cmd.ChoosePlot(plot=plot))
    assert GAME.redact_event(out[0], "seat1") is out[0]
    assert out[0].commitment and out[0].salt  # commit–reveal: the commitment is public at once
    for r in ("seat2", None):
        assert GAME.redact_event(out[0], r).plot is None and GAME.redact_event(out[0], r).salt is None
        assert GAME.redact_event(out[0], r).commitment == out[0].commitment
        v = GAME.view(t.state, r)
        assert v.seats[0].chosen_plot is None and v.seats[0].has_chosen_plot and v.seats[0].plot_deck is None
    assert GAME.view(t.state, "seat1").seats[0].chosen_plot == plot


def test_the_log_of_redacted_events_names_no_hidden_card():
    t = Table()
    to_plot_step(t)
    hidden = set(t.state.player("seat1").hand) | set(t.state.player("seat2").hand)
    for e in t.events:
        line = GAME.describe(GAME.redact_event(e, None)) or ""
        assert not any(c in line for c in hidden)
