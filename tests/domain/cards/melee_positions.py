"""Positions for the melee tests (3 to 6 seats): a table taken to a step by real commands, then
arranged the way a judge sets up a position (cards moved, titles handed out)."""

from __future__ import annotations

from domain.cards import commands as cmd

from .play import Table, plots_by_code, to_plot_step
from .positions import TAXATION, WINDS, decline_reactions, pass_windows, without_ambush

DECKS = ("stark_kraken", "lannister_rose", "stark_kraken", "lannister_rose", "stark_kraken", "lannister_rose")
"""Seat n's deck: stark_kraken on odd seats (The Winds of Winter, initiative 4, no text), lannister_rose on
even seats (Taxation, initiative 6): seat2 wins initiative in a 3-player game."""

TUMBLE = "01150"  # Tumblestone Knight (stark_kraken): STR 2, military and power, no text (2 copies)
COURTESAN = "01187"  # Courtesan of the Rose (lannister_rose): STR 2, intrigue and power, no text
JAIME = "01087"  # Ser Jaime Lannister (lannister_rose): STR 5, military and intrigue


def melee(n: int = 3, seed: str = "melee") -> Table:
    """A melee of ``n`` seats at round 1's plot step (hands kept, nothing set up)."""
    t = Table(seed=seed, decks=DECKS[:n])
    to_plot_step(t)
    return t


def reveal_plots(t: Table) -> list[object]:
    """Every seat's plain plot (see :data:`DECKS`); the system reveals them."""
    out: list[object] = []
    for i, seat in enumerate(t.state.seat_ids()):
        out += t.seat(seat, cmd.ChoosePlot(plot=plots_by_code(t, seat, WINDS if i % 2 == 0 else TAXATION)))
    return out


def to_titles(n: int = 3, first: str = "seat1", seed: str = "melee") -> Table:
    """Plots revealed, ``first`` chosen as first player: the first title pick (CG-PHASE-05)."""
    t = melee(n, seed)
    reveal_plots(t)
    assert t.state.step == "first_player"
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id=first))
    assert t.state.step == "title"
    return t


def default_titles(t: Table) -> None:
    """Every seat left to pick takes the default title at its deadline."""
    while t.state.step == "title":
        t.timeout()


def to_marshaling(n: int = 3, first: str = "seat1", titles: dict[str, str] | None = None) -> Table:
    """Round 1, ``first`` the first player, titles picked by default, then (a judge's position)
    ``titles`` handed out instead when given: the first active player's marshal step."""
    t = to_titles(n, first)
    default_titles(t)
    pass_windows(t)
    decline_reactions(t)
    assert t.state.step == "marshal" and t.state.active == first
    if titles is not None:
        t.state.titles = dict(titles)
    without_ambush(t)
    return t


def to_challenges(t: Table, expect: bool = True) -> None:
    """Every seat ends its marshaling in player order: the first player's challenge step (when
    ``expect``: some seat has a character to challenge with)."""
    while t.state.phase == "marshaling":
        if t.state.step == "marshal":
            t.seat(t.state.waiting[0], cmd.EndMarshaling())
        elif t.state.step == "action":
            pass_windows(t)
        else:
            decline_reactions(t)
    pass_windows(t)
    assert not expect or (t.state.phase == "challenges" and t.state.step == "challenge")
