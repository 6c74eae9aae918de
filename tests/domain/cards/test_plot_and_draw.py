"""The plot and draw phases: CG-PHASE-01..03, CG-PHASE-06, CG-PHASE-20, CG-ROUND-01, CG-SEEDFIX-02/10."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.core.errors import GameError, RuleViolation
from domain.core.rng import SeededRng

from .play import Table, plots_by_code, to_plot_step
from .positions import AGOT, CALM, NAVAL, SUMMONS, WILDFIRE, first_player, plots, settle_choices, to_marshaling


def test_CG_PHASE_01_plots_are_sealed_amendable_and_revealed_at_once():
    t = Table()
    to_plot_step(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "plot" and len(d.cards) == 7 and d.deadline is not None and "lowest id" in d.default
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChoosePlot(plot=plots_by_code(t, "seat2", AGOT)))
    assert e.value.rule == "CG-PHASE-01"
    t.seat("seat1", cmd.ChoosePlot(plot=plots_by_code(t, "seat1", SUMMONS)))
    t.seat("seat1", cmd.ChoosePlot(plot=plots_by_code(t, "seat1", CALM)))  # amended before every seat is in
    assert not any(isinstance(e, ev.CardsPlotsRevealed) for e in t.events)
    t.seat("seat2", cmd.ChoosePlot(plot=plots_by_code(t, "seat2", AGOT)))
    revealed = next(e for e in t.events if isinstance(e, ev.CardsPlotsRevealed))
    assert {s: t.state.cards[p] for s, p in revealed.plots.items()} == {"seat1": CALM, "seat2": AGOT}


def test_CG_PHASE_03_highest_initiative_chooses_the_first_player_maybe_the_other_CG_SEEDFIX_02():
    t = Table()
    to_plot_step(t)
    plots(t, CALM, AGOT)  # 3 vs 2
    revealed = next(e for e in t.events if isinstance(e, ev.CardsPlotsRevealed))
    assert revealed.initiative == {"seat1": 3, "seat2": 2} and revealed.winner == "seat1" and revealed.tie_break is None
    assert t.state.step == "first_player" and t.state.waiting == ["seat1"]
    with pytest.raises(GameError):
        first_player(t, "seat2", "seat2")
    first_player(t, "seat1", "seat2")
    assert t.state.first_player == "seat2"


def test_CG_PHASE_03_initiative_ties_go_to_the_lowest_power_then_a_seeded_draw():
    t = Table()
    to_plot_step(t)
    t.state.player("seat1").faction_power = 2
    plots(t, NAVAL, WILDFIRE)  # 7 vs 7: seat2 has less power
    revealed = next(e for e in t.events if isinstance(e, ev.CardsPlotsRevealed))
    assert revealed.winner == "seat2" and revealed.tie_break is None
    t2 = Table(seed="tie")
    to_plot_step(t2)
    plots(t2, NAVAL, WILDFIRE)
    revealed = next(e for e in t2.events if isinstance(e, ev.CardsPlotsRevealed))
    assert revealed.tie_break is not None
    assert revealed.tie_break.order == SeededRng("tie", "g_test/initiative/1").shuffled(["seat1", "seat2"])
    assert revealed.winner == revealed.tie_break.order[0]


def test_CG_PHASE_02_the_previous_plot_goes_to_the_used_pile_and_CG_SEEDFIX_10_the_last_plot_recycles():
    t = to_marshaling()
    first = t.state.player("seat1").plot
    p = t.state.player("seat1")
    # arrange: seat1 has one plot left in its deck, five used
    p.used_plots = [x for x in p.plots if t.state.cards[x] != SUMMONS]
    p.plots = [x for x in p.plots if t.state.cards[x] == SUMMONS]
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step != "plot":
        t.timeout()
    t.seat("seat1", cmd.ChoosePlot(plot=p.plots[0] if p.plots else ""))
    t.seat("seat2", cmd.ChoosePlot(plot=next(iter(t.state.player("seat2").plots))))
    first_player(t, t.state.waiting[0], "seat1")
    settle_choices(t)  # Summons' search
    p = t.state.player("seat1")
    assert t.state.cards[p.plot or ""] == SUMMONS  # CG-PHASE-20: the revealed plot stays revealed
    recycled = next(e for e in t.events if isinstance(e, ev.CardsPlotsRecycled))
    assert first in recycled.plots and p.used_plots == [] and len(p.plots) == 6


def test_CG_PHASE_06_each_player_draws_two_and_CG_ROUND_01_phases_in_order():
    t = Table()
    to_plot_step(t)
    hands = {s: len(t.state.player(s).hand) for s in t.state.seat_ids()}
    plots(t, CALM, AGOT)  # seat1 wins initiative
    first_player(t, "seat1", "seat1")
    assert {s: len(t.state.player(s).hand) for s in t.state.seat_ids()} == {s: n + 2 for s, n in hands.items()}
    phases = [e.phase for e in t.events if isinstance(e, ev.CardsPhaseBegan)]
    assert phases == ["plot", "draw", "marshaling"]
