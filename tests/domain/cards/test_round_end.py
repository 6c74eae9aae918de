"""Dominance, standing, taxation and the end: CG-PHASE-14..20, CG-GEN-04/06, CG-END-01/03,
CG-SEEDFIX-01/05, and every step's documented default at its deadline."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.core.errors import RuleViolation

from .play import Table, put_in_play, to_plot_step
from .positions import CALM, SUMMONS, WINDS, answer_calm, first_player, plots, to_marshaling


def _to_end_of_challenges(t: Table) -> list[object]:
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "challenge":
        out = t.seat(t.state.waiting[0], cmd.EndChallenges())
    return out


def test_CG_PHASE_14_15_dominance_counts_standing_strength_and_gold_CG_PHASE_16_all_stand():
    t = to_marshaling()  # seat1: 5 gold; seat2: 5 gold
    ned = put_in_play(t, "seat1", "01144", kneeling=True)  # knelt: does not count
    put_in_play(t, "seat2", "01094", kneeling=True)  # Lannisport Merchant: STR 1, knelt
    t.state.player("seat1").faction_kneeling = True
    out = _to_end_of_challenges(t)
    dom = next(e for e in out if isinstance(e, ev.CardsDominanceDetermined))
    assert dom.totals == {"seat1": 5, "seat2": 5} and dom.winner is None  # a tie: nobody
    assert t.state.in_play[ned].kneeling is False and not t.state.player("seat1").faction_kneeling  # CG-GEN-04


def test_CG_PHASE_15_the_highest_total_gains_one_power():
    t = to_marshaling()
    put_in_play(t, "seat1", "01152")
    out = _to_end_of_challenges(t)
    dom = next(e for e in out if isinstance(e, ev.CardsDominanceDetermined))
    assert dom.winner == "seat1"
    assert any(isinstance(e, ev.CardsPowerGained) and e.reason == "dominance" and e.seat_id == "seat1" for e in out)


def test_CG_PHASE_17_all_gold_returns_and_CG_PHASE_20_the_plot_stays_CG_SEEDFIX_05():
    t = to_marshaling()
    plot = t.state.player("seat1").plot
    out = _to_end_of_challenges(t)
    returned = next(e for e in out if isinstance(e, ev.CardsGoldReturned))
    assert returned.gold == {"seat1": 5, "seat2": 5}
    assert t.state.player("seat1").gold == 0 and t.state.player("seat1").plot == plot


def test_CG_PHASE_18_reserve_discards_exactly_the_excess():
    t = Table()
    to_plot_step(t)
    plots(t, WINDS, "01021")  # reserve 5 each (Sneak Attack for seat2)
    first_player(t, t.state.waiting[0], "seat1")
    # 9 cards in hand each, reserve 5: both must discard 4
    _to_end_of_challenges(t)
    assert t.state.step == "reserve" and sorted(t.state.waiting) == ["seat1", "seat2"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.count == 4
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DiscardToReserve(cards=d.cards[:3]))
    assert e.value.rule == "CG-PHASE-18"
    t.seat("seat1", cmd.DiscardToReserve(cards=d.cards[:4]))
    assert len(t.state.player("seat1").hand) == 5
    out = t.timeout()  # seat2's default: the cards last put in hand
    assert next(e for e in out if isinstance(e, ev.CardsReserveDiscarded)).by_default
    assert t.state.step == "plot" and t.state.round == 2


def test_CG_END_01_and_CG_SEEDFIX_01_fifteen_power_counting_cards_wins_at_once():
    t = to_marshaling()
    steward = put_in_play(t, "seat1", "01152")
    t.state.player("seat1").faction_power = 10
    t.state.in_play[steward].power = 4  # 14 in total, 10 on the faction card
    t.state.player("seat2").faction_power = 3  # a power claim would move some: it never comes
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[steward]))  # unopposed: +1
    ended = next(e for e in out if isinstance(e, ev.CardsGameEnded))
    assert ended.winner == "seat1" and ended.power["seat1"] == 15
    assert t.state.phase == "ended" and not any(isinstance(e, ev.CardsPowerMoved) for e in out)  # at once, before claim


def test_CG_END_03_an_empty_draw_deck_eliminates_CG_PHASE_07():
    t = Table()
    to_plot_step(t)
    p = t.state.player("seat2")
    p.discard.extend(p.deck[1:])
    p.deck = p.deck[:1]
    plots(t, CALM, "01003")
    out = first_player(t, "seat1", "seat1")
    assert next(e for e in out if isinstance(e, ev.CardsPlayerEliminated)).seat_id == "seat2"
    assert next(e for e in out if isinstance(e, ev.CardsGameEnded)).winner == "seat1"


@pytest.mark.parametrize("step", ["plot", "first_player", "marshal", "challenge", "defend", "claim"])
def test_every_step_has_a_deadline_and_a_documented_default(step):
    t = Table()
    to_plot_step(t)
    put_in_play(t, "seat1", "01144")
    put_in_play(t, "seat2", "01087")
    put_in_play(t, "seat1", "01150")
    put_in_play(t, "seat2", "01090")
    put_in_play(t, "seat2", "01094")
    put_in_play(t, "seat2", "01188")
    while t.state.step != step:
        if t.state.step == "plot":
            plots(t)  # not the default plots: seat2's lowest is A Game of Thrones (no military first)
            continue
        if t.state.step == "ability":
            answer_calm(t)
            continue
        if t.state.step == "challenge" and step in ("defend", "claim"):
            seat = t.state.waiting[0]
            t.seat(
                seat,
                cmd.DeclareChallenge(
                    challenge_type="military",
                    attackers=decisions_for(t.state, seat).decisions[0].challenge_types["military"],
                ),
            )
            if step == "claim" and t.state.step == "defend":
                t.seat(t.state.waiting[0], cmd.DeclareDefenders(defenders=[]))
            continue
        t.timeout()
    d = decisions_for(t.state, t.state.waiting[0]).decisions[0]
    assert d.deadline == t.state.deadline and d.default
    out = t.timeout()
    assert any(getattr(e, "by_default", False) for e in out)


def test_the_plot_default_is_the_lowest_id():
    t = Table()
    to_plot_step(t)
    t.seat("seat1", cmd.ChoosePlot(plot=next(i for i in t.state.player("seat1").plots if t.state.cards[i] == SUMMONS)))
    out = t.timeout()
    chosen = next(e for e in out if isinstance(e, ev.CardsPlotChosen))
    assert chosen.seat_id == "seat2" and chosen.by_default and chosen.plot == "s2-p1"
