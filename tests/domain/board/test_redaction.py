"""Hidden information leaves the domain only through ``domain/board/redaction.py``.

Rules: BG-MISC-01/02 (what is hidden and what is open), BG-PLAN-03 (orders are secret until BG-PLAN-06
reveals them together), BG-SETUP-03/04 (decks face down), BG-PLAN-07 (only the Raven holder sees the
wildling card it looked at), BG-TIDES-02/03 (a Tides of Battle deck is face down; a drawn Tides card
is seen by its house only until both are revealed).
A reader is a house or ``None`` (spectator).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.board import board_data
from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import commands as acmd
from domain.board.action import tides_events as tev
from domain.board.decisions import pending_decisions
from domain.board.narrative import describe
from domain.board.orders import ORDER_TOKENS
from domain.board.redaction import redact_event, view_for
from tests.support.action_positions import ALL_HOUSES
from tests.support.board_builders import ORDERS_4P, Game, revealed_game, started_game
from tests.support.combat_helpers import fight
from tests.support.tides_positions import STARK_BLADE, tides_north

HOUSES_4P = ["stark", "lannister", "baratheon", "greyjoy"]
READERS = [*HOUSES_4P, None]


def all_deck_cards() -> set[str]:
    cards = board_data.cards()
    return {c.id for c in cards.wildling_cards} | {c.id for deck in cards.westeros_decks.values() for c in deck}


def string_values(obj) -> set[str]:
    """Every string *value* (not key) in a JSON-like structure."""
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(string_values(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(string_values(v) for v in obj)) if obj else set()
    return set()


def json_values(value) -> set[str]:
    return string_values(msgspec.json.decode(msgspec.json.encode(value)))


@pytest.fixture
def half_sealed() -> Game:
    """4 players in Assign Orders; Stark and Lannister have submitted, Baratheon and Greyjoy not."""
    game = started_game(4)
    game.submit("stark", ORDERS_4P["stark"])
    game.submit("lannister", ORDERS_4P["lannister"])
    return game


# --- events -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_03_sealed_orders_of_other_houses_are_hidden_in_events(reader):
    game = started_game(4)
    for house in HOUSES_4P:
        game.submit(house, ORDERS_4P[house])
    submitted = [e for e in game.events if isinstance(e, ev.OrdersSubmitted)]
    assert len(submitted) == 4
    for e in submitted:
        seen = redact_event(e, reader)
        assert seen.house == e.house and seen.by_default == e.by_default
        if e.house == reader:
            assert seen.orders == ORDERS_4P[reader]
        else:
            assert seen.orders is None
    # The original event is untouched (redaction returns a copy).
    assert all(e.orders is not None for e in submitted)


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_03_by_default_orders_are_sealed_too(reader):
    game = started_game(4)
    out = game.timeout()
    for e in out:
        if isinstance(e, ev.OrdersSubmitted):
            assert (redact_event(e, reader).orders is None) == (e.house != reader)


@pytest.mark.parametrize("reader", READERS)
def test_BG_SETUP_03_04_decks_hidden_from_everyone(reader):
    game = started_game(4)
    started = next(e for e in game.events if isinstance(e, ev.GameStarted))
    seen = redact_event(started, reader)
    assert seen.wildling_deck is None and seen.westeros_decks is None
    assert seen.houses == started.houses  # who plays which house is public
    assert started.wildling_deck is not None  # original untouched


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_07_raven_peek_event_visible_to_the_holder_only(reader):
    game = revealed_game(4, overrides=ORDERS_4P)
    top = game.state.wildling_deck[0]
    (peeked, _) = game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    seen = redact_event(peeked, reader)
    assert seen.house == "lannister"
    assert seen.card == (top if reader == "lannister" else None)


@pytest.mark.parametrize("reader", READERS)
def test_BG_MISC_02_open_information_events_pass_unchanged(reader):
    """Revealed orders, the Raven's replacement (face up, BG-PLAN-07), steps and seats are open."""
    game = revealed_game(4, overrides=ORDERS_4P)
    game.run(cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special"), game.actor("lannister"))
    for e in game.events:
        if isinstance(e, (ev.OrdersRevealed, ev.RavenOrderReplaced, ev.StepBegan, ev.SeatJoined, ev.GameCreated)):
            assert redact_event(e, reader) == e


def test_BG_MISC_02_everything_is_public_once_the_game_is_over():
    """BG-MISC-02 hides information only while the game runs; redaction.py documents that an ended
    game's log is public (the seed is revealed too)."""
    game = revealed_game(4, overrides=ORDERS_4P)
    game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    for e in game.events:
        assert redact_event(e, None, game_over=True) == e


@pytest.mark.parametrize("reader", [h for h in READERS if h not in ("stark", "lannister")])
def test_BG_MISC_02_no_hidden_value_in_redacted_event_json(half_sealed, reader):
    """Byte-level check: before the reveal the redacted log of a reader who has not submitted holds
    no order token id and no deck card id at all."""
    values = json_values([redact_event(e, reader) for e in half_sealed.events])
    assert not values & set(ORDER_TOKENS)
    assert not values & all_deck_cards()
    # Sanity: the check does see values (house names are public).
    assert {"stark", "lannister"} <= values


# --- views -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_03_view_shows_own_orders_and_sealed_for_others(half_sealed, reader):
    view = view_for(half_sealed.state, reader)
    for house in HOUSES_4P:
        for area, order in ORDERS_4P[house].items():
            shown = view.areas[area].order
            if house not in ("stark", "lannister"):
                assert shown is None, area  # not submitted: nothing to show
            elif house == reader:
                assert shown == order, area
            else:
                assert shown == "sealed", area
    submitted = {h.house: h.orders_submitted for h in view.houses}
    assert submitted == {"stark": True, "lannister": True, "baratheon": False, "greyjoy": False}


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_06_view_after_reveal_shows_every_order(reader):
    game = revealed_game(4, overrides=ORDERS_4P)
    view = view_for(game.state, reader)
    for house in HOUSES_4P:
        for area, order in ORDERS_4P[house].items():
            assert view.areas[area].order == order


@pytest.mark.parametrize("reader", READERS)
def test_BG_PLAN_07_raven_peek_in_view_for_the_holder_only(reader):
    game = revealed_game(4, overrides=ORDERS_4P)
    top = game.state.wildling_deck[0]
    assert view_for(game.state, reader).raven_peek is None  # nothing peeked yet
    game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    assert view_for(game.state, reader).raven_peek == (top if reader == "lannister" else None)
    game.run(cmd.RavenPlaceWildling(to_bottom=True), game.actor("lannister"))
    assert view_for(game.state, reader).raven_peek == (top if reader == "lannister" else None)


@pytest.mark.parametrize("reader", READERS)
def test_BG_SETUP_03_04_view_never_shows_deck_order(reader):
    game = revealed_game(4, overrides=ORDERS_4P)
    view = view_for(game.state, reader)
    assert view.wildling_deck_size == 9
    values = json_values(view)
    assert not values & all_deck_cards()
    assert "march_0" in values  # sanity: revealed orders are values in the view


@pytest.mark.parametrize("reader", [h for h in READERS if h not in ("stark", "lannister")])
def test_BG_MISC_02_no_sealed_order_in_view_json(half_sealed, reader):
    values = json_values(view_for(half_sealed.state, reader))
    assert not values & set(ORDER_TOKENS)
    assert "sealed" in values


@pytest.mark.parametrize("reader", READERS)
def test_BG_MISC_02_hands_visible_to_their_house_only(reader):
    """BG-SETUP-14 hands of 7, shown per redaction.py: your own hand, only the size of others'."""
    view = view_for(started_game(4).state, reader)
    for hv in view.houses:
        assert hv.hand_size == 7
        assert (hv.hand is not None) == (hv.house == reader)
        if hv.hand is not None:
            assert len(hv.hand) == 7


# --- Tides of Battle (BG-TIDES-02/03) -----------------------------------------------------------------

TIDES_READERS = [*ALL_HOUSES, None]
"""The six seats of a Tides position and the spectator."""


@pytest.fixture
def tides_drawn():
    """Stark attacks Lannister with the variant on; Stark holds the Blade, so both Tides cards are
    drawn (Stark "blank", Lannister "three") and wait, unrevealed, for Stark's redraw decision."""
    sc = tides_north("blank", "three", "two", tracks=STARK_BLADE)
    fight(sc, "eddard_stark", "the_hound")
    assert sc.state.step == "use_blade" and not sc.state.action.combat.tides.revealed
    return sc


def _seen(sc, reader) -> set[str]:
    """Every string value ``reader`` can get: its redacted events, its view and its decisions."""
    mine = [d for d in pending_decisions(sc.state) if reader is not None and d.house == reader]
    return (
        json_values([redact_event(e, reader) for e in sc.events])
        | json_values(view_for(sc.state, reader))
        | (json_values(mine))
    )


@pytest.mark.parametrize("reader", TIDES_READERS)
def test_BG_TIDES_03_a_drawn_tides_card_is_hidden_from_every_other_seat_and_spectators(tides_drawn, reader):
    drawn = [e for e in tides_drawn.events if isinstance(e, tev.TidesCardDrawn)]
    assert [(e.house, e.card) for e in drawn] == [("stark", "blank"), ("lannister", "three")]
    for e in drawn:
        assert redact_event(e, reader).card == (e.card if e.house == reader else None)
    view = view_for(tides_drawn.state, reader).action.combat
    assert view.tides == {h: (c if h == reader else "sealed") for h, c in (("stark", "blank"), ("lannister", "three"))}
    # Byte level: no other house's Tides card anywhere in what this reader can get.
    seen = _seen(tides_drawn, reader)
    assert ("blank" in seen) == (reader == "stark")
    assert ("three" in seen) == (reader == "lannister")
    assert "sealed" in seen or reader in ("stark", "lannister")


@pytest.mark.parametrize("reader", TIDES_READERS)
def test_BG_TIDES_02_the_shuffled_tides_deck_is_hidden_from_everyone(tides_drawn, reader):
    (shuffled,) = [e for e in tides_drawn.events if isinstance(e, tev.TidesDeckShuffled)]
    assert len(shuffled.cards) == 24
    assert redact_event(shuffled, reader).cards is None
    assert redact_event(shuffled, reader, game_over=True) == shuffled
    assert "two" not in _seen(tides_drawn, reader)  # the third card of the deck, drawn by nobody


@pytest.mark.parametrize("reader", TIDES_READERS)
def test_BG_TIDES_03_a_blade_redraw_stays_hidden_and_both_cards_show_after_the_reveal(tides_drawn, reader):
    tides_drawn.run("stark", acmd.UseBlade(use=True))
    (redrawn,) = [e for e in tides_drawn.events if isinstance(e, tev.TidesCardRedrawn)]
    seen = redact_event(redrawn, reader)
    assert (seen.discarded, seen.card) == (("blank", "two") if reader == "stark" else (None, None))
    (revealed,) = [e for e in tides_drawn.events if isinstance(e, tev.TidesCardsRevealed)]
    assert redact_event(revealed, reader).cards == {"stark": "two", "lannister": "three"}
    combat = tides_drawn.state.action.combat if tides_drawn.state.action else None
    if combat is not None:
        assert view_for(tides_drawn.state, reader).action.combat.tides == {"stark": "two", "lannister": "three"}
    assert "Tides of Battle cards revealed: Stark two, Lannister three." in [
        describe(redact_event(e, reader)) for e in tides_drawn.events
    ]
