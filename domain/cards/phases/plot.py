"""The plot phase (CG-PHASE-01..03): sealed choice, simultaneous reveal, initiative, first player."""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import events as ev
from ..emitter import Emitter
from ..power import plot_values, total_power
from ..state import CardState


def check_plot(state: CardState, seat: str, plot: str) -> None:
    """CG-PHASE-01: a plot of the seat's own plot deck."""
    if plot not in state.player(seat).plots:
        raise RuleViolation(f"{plot} is not in your plot deck", rule="CG-PHASE-01")


def default_plot(state: CardState, seat: str) -> str:
    """The documented default at the deadline: the plot of the deck with the lowest id."""
    return min(state.player(seat).plots, key=lambda i: int(i.split("-p")[1]))


def reveal(em: Emitter) -> None:
    """CG-PHASE-01/03: reveal every plot at once; the highest initiative wins it, ties to the lowest
    total power, then a draw from the seed (``initiative/<round>``)."""
    s = em.state
    plots = {seat: s.player(seat).chosen_plot or default_plot(s, seat) for seat in s.alive()}
    # initiative is read with the new plots revealed
    initiative = {seat: plot_values(s, seat, plot).initiative for seat, plot in plots.items()}
    top = max(initiative.values())
    tied = [seat for seat in s.alive() if initiative[seat] == top]
    tie_break = None
    if len(tied) > 1:
        low = min(total_power(s, seat) for seat in tied)
        tied = [seat for seat in tied if total_power(s, seat) == low]
    if len(tied) > 1:
        order = em.ctx.rng(f"initiative/{s.round}").shuffled(tied)
        tie_break = ev.TieBreak(order=order)
        tied = order[:1]
    salts = {seat: s.player(seat).sealed_salt or "" for seat in plots}
    em.emit(ev.CardsPlotsRevealed(plots=plots, initiative=initiative, winner=tied[0], tie_break=tie_break, salts=salts))


def recycle(em: Emitter) -> None:
    """CG-PHASE-02: a seat whose plot deck is empty after the reveal takes its used pile back."""
    for seat in em.state.player_order():
        p = em.state.player(seat)
        if not p.plots and p.used_plots:
            em.emit(ev.CardsPlotsRecycled(seat_id=seat, plots=list(p.used_plots)))
