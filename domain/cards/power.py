"""Power and plot values: totals, income, initiative, claim, reserve (CG-GEN-05, CG-GEN-08)."""

from __future__ import annotations

from . import current, titles
from .catalog import CARDS, Modifiers, PlotValues
from .state import CardState


def total_power(state: CardState, seat: str) -> int:
    """CG-GEN-05: power on the faction card plus power on every card the seat controls."""
    return state.player(seat).faction_power + sum(p.power for p in state.controlled(seat))


def modifiers(state: CardState, seat: str) -> Modifiers:
    """CG-GEN-08: the printed "+N income/initiative/reserve" of the cards the seat controls, summed."""
    income = initiative = reserve = 0
    for placed in state.controlled(seat):
        m = state.record(placed.card).printed_modifiers
        if m is not None:
            income, initiative, reserve = income + m.income, initiative + m.initiative, reserve + m.reserve
    return Modifiers(income=income, initiative=initiative, reserve=reserve)


def plot_values(state: CardState, seat: str, plot: str | None = None) -> PlotValues:
    """The values of ``plot`` (default: the revealed one) with the seat's printed modifiers
    (CG-GEN-08: cumulative) and the constant abilities on them (:mod:`.current`). No plot: all 0."""
    plot = plot if plot is not None else state.player(seat).plot
    rec = CARDS[state.cards[plot]] if plot is not None else None
    base = rec.plot if rec is not None else None
    m = modifiers(state, seat)
    coin = titles.income_bonus(state, seat)  # Master of Coin (melee), with the printed modifiers
    if coin:
        m = Modifiers(income=m.income + coin, initiative=m.initiative, reserve=m.reserve)
    if rec is None or base is None:
        return PlotValues(income=m.income, initiative=m.initiative, claim=0, reserve=m.reserve)
    # a constant ability may make the base gold 0 (Naval Superiority); modifiers still add
    income = 0 if current.base_gold_zero(state, rec) else base.income
    return PlotValues(
        income=income + m.income,
        initiative=base.initiative + m.initiative,
        claim=base.claim,
        reserve=base.reserve + m.reserve + current.reserve_modifier(state, seat),
    )
