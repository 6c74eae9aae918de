"""Night's Watch cards completed last: A Meager Contribution (a reaction window after an
opponent's income), Maester Aemon's save. Positions set up with real commands, then arranged; the
outcome asserted."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import Table, to_hand, to_plot_step
from .positions import plots, without_ambush
from .test_card_actions import SAFE_PLOT, decision


def _income_of_seat1(meager_in_hand: bool = True) -> tuple[Table, str | None]:
    """lannister_rose (seat1, first player) against watch_stag (seat2): the plot phase done, seat1's income."""
    t = Table(decks=("lannister_rose", "watch_stag"))
    to_plot_step(t)
    meager = to_hand(t, "seat2", "01138") if meager_in_hand else None
    without_ambush(t)
    plots(t, SAFE_PLOT["lannister_rose"], SAFE_PLOT["watch_stag"])
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    return t, meager


def test_a_meager_contribution_01138_takes_1_gold_after_an_opponent_collects_income_once_per_round():
    t, meager = _income_of_seat1()
    assert t.state.step == "reaction" and t.state.waiting == ["seat2"] and t.state.active == "seat1"
    d = decision(t, "seat2")
    assert d.events == {meager: []} and d.default.startswith("decline")
    gold1, gold2 = t.state.player("seat1").gold, t.state.player("seat2").gold
    t.seat("seat2", cmd.PlayEvent(card=meager, target=None))
    assert t.state.player("seat1").gold == gold1 - 1 and t.state.player("seat2").gold == gold2 + 1
    assert meager in t.state.player("seat2").discard
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]  # seat1 marshals on
    second = to_hand(t, "seat2", "01138")  # a second copy: the limit is once per round
    t.seat("seat1", cmd.EndMarshaling())
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())
    assert second in t.state.player("seat2").hand and "round:01138:seat2" in t.state.used_abilities
    opened = [e for e in t.events if isinstance(e, ev.CardsReactionsOpened) and e.trigger == "income"]
    assert len(opened) == 1  # seat2's own income opens no window for its own event


def test_no_reaction_window_after_income_without_a_meager_contribution():
    t, _ = _income_of_seat1(meager_in_hand=False)
    for p in t.state.players:
        assert not any(t.state.cards[c] == "01138" for c in p.hand)
    assert t.state.step == "marshal" and not any(isinstance(e, ev.CardsReactionsOpened) for e in t.events)
