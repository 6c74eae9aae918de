"""The joust's frame: two players (CG-GEN-01, CG-SETUP-01), zones in the views (CG-GEN-03),
factions and agendas face up (CG-SETUP-03), simultaneous wins (CG-END-02), both decks empty at
once (CG-END-03)."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.decks import DeckChoice
from domain.cards.game import GAME
from domain.cards.rules import create
from domain.core.commands import ORGANIZER, PauseClocks
from domain.core.errors import RuleViolation

from .play import Table, put_in_play, to_plot_step
from .positions import AGOT, CALM, first_player, plots, to_marshaling


def test_CG_GEN_01_and_CG_SETUP_01_a_joust_is_two_players_a_melee_three_to_six():
    t = Table()
    for decks, count in ((3, 2), (2, 3), (7, 7), (1, 1)):
        body = cmd.CardsCreateBody(kind="cards", decks=[DeckChoice(name="stark_kraken")] * decks, player_count=count)
        with pytest.raises(RuleViolation) as e:
            create(body, t.ctx())
        assert e.value.code == "invalid_player_count" and e.value.rule == "CG-GEN-01"
    body = cmd.CardsCreateBody(kind="cards", decks=[DeckChoice(name="stark_kraken")] * 3, player_count=3)
    (created,) = create(body, t.ctx())
    assert isinstance(created, ev.CardsGameCreated) and created.player_count == 3


def test_CG_GEN_03_every_zone_is_in_the_view_and_CG_SETUP_03_factions_and_agendas_are_public():
    t = to_marshaling()
    v = GAME.view(t.state, None).seats[0]
    assert (v.faction, v.agenda) == ("stark", "01199")
    for zone in (
        "deck_count",
        "hand_count",
        "plot_deck_count",
        "revealed_plot",
        "used_plots",
        "discard",
        "dead",
        "in_play",
        "gold",
        "faction_power",
    ):
        assert hasattr(v, zone)
    assert v.revealed_plot is not None and v.gold == 5


def test_CG_END_02_simultaneous_wins_go_to_the_first_players_choice_documented_first_player():
    t = to_marshaling()
    t.state.player("seat1").faction_power = 15
    t.state.player("seat2").faction_power = 15
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    ended = next(e for e in out if isinstance(e, ev.CardsGameEnded))
    assert ended.winner == t.state.first_player == "seat1"


def test_CG_END_03_both_decks_empty_at_once_the_first_player_orders_the_eliminations():
    t = Table()
    to_plot_step(t)
    for s in ("seat1", "seat2"):
        p = t.state.player(s)
        p.discard.extend(p.deck[2:])
        p.deck = p.deck[:2]
    plots(t, CALM, AGOT)  # seat1 wins initiative
    out = first_player(t, "seat1", "seat2")
    assert {e.seat_id for e in out if isinstance(e, ev.CardsPlayerEliminated)} == {"seat1", "seat2"}
    assert next(e for e in out if isinstance(e, ev.CardsGameEnded)).winner == "seat2"


def test_a_command_after_the_end_is_refused():
    t = to_marshaling()
    steward = put_in_play(t, "seat1", "01152")
    t.state.player("seat1").faction_power = 14
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[steward]))
    assert t.state.phase == "ended"
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.EndChallenges())
    assert e.value.code == "game_over"


def test_CG_END_04_a_player_may_concede_at_any_time_and_the_other_wins():
    t = Table()
    to_plot_step(t)
    out = t.seat("seat1", cmd.Concede())
    assert isinstance(out[0], ev.CardsPlayerEliminated) and out[0].reason == "conceded"
    assert t.state.winner == "seat2" and t.state.phase == "ended"


def test_a_command_of_another_kind_is_unknown_even_from_the_organizer():
    t = to_marshaling()
    with pytest.raises(RuleViolation) as e:
        t.act(ORGANIZER, PauseClocks(reason="a judge call"))
    assert e.value.code == "unknown_command"
