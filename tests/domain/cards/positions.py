"""Positions for the card game's rule tests: a table taken to a given step by real commands,
then arranged (cards moved between zones) the way a judge sets up a position."""

from __future__ import annotations

from domain.cards import commands as cmd

from .play import Table, plots_by_code, to_plot_step

CALM = "01008"  # Calm Over Westeros: income 5, initiative 3, claim 1, reserve 6
CALM_TYPE = "power"
"""The challenge type seat1's default plot Calm Over Westeros names in these positions (its When
Revealed asks; :func:`answer_calm`): claim against seat1 in power challenges is 1 lower."""
NAVAL = "01017"  # Naval Superiority: income 2, initiative 7, claim 1, reserve 6
WINDS = "01025"  # The Winds of Winter: income 3, initiative 4, claim 2, reserve 5
SUMMONS = "01022"  # Summons: income 4, initiative 0, claim 1, reserve 7
AGOT = "01003"  # A Game of Thrones: income 4, initiative 2, claim 1, reserve 6
WILDFIRE = "01026"  # Wildfire Assault: income 4, initiative 7, claim 1, reserve 6
SNEAK = "01021"  # Sneak Attack: income 5, initiative 11, claim 2, reserve 5
REINFORCEMENTS = "01020"  # Reinforcements: income 1, initiative 0, claim 1, reserve 6
TAXATION = "01024"  # Taxation: income 5, initiative 6, claim 1, reserve 6
PLAIN = TAXATION
"""The default second plot of these positions: seat2's (lannister_rose) plot whose ability is not
implemented yet (its When Revealed needs a choice), so it plays as printed values only. A Game of
Thrones, the earlier default, now forbids military and power challenges before an intrigue win."""


def plots(t: Table, p1: str = CALM, p2: str = PLAIN) -> None:
    """Both seats choose these plots; the system reveals them."""
    t.seat("seat1", cmd.ChoosePlot(plot=plots_by_code(t, "seat1", p1)))
    t.seat("seat2", cmd.ChoosePlot(plot=plots_by_code(t, "seat2", p2)))


def to_marshaling(seed: str = "seed", p1: str = CALM, p2: str = PLAIN, first: str = "seat1") -> Table:
    """Round 1 with these plots, ``first`` as first player (chosen by the initiative winner): its marshal step."""
    t = Table(seed=seed)
    to_plot_step(t)
    plots(t, p1, p2)
    assert t.state.step == "first_player"
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id=first))
    answer_calm(t)
    assert t.state.step == "marshal" and t.state.active == first
    without_ambush(t)
    return t


def answer_calm(t: Table) -> list[object]:
    """Calm Over Westeros asks its owner for a challenge type as it is revealed: :data:`CALM_TYPE`."""
    c = t.state.choice
    if t.state.step == "ability" and c is not None and t.state.cards[c.card] == CALM:
        return t.seat(c.seat, cmd.ChooseTargets(cards=[CALM_TYPE]))
    return []


def settle_choices(t: Table) -> list[object]:
    """Every card ability's choice left to its deadline: each card's documented default."""
    out: list[object] = []
    while t.state.step == "ability":
        out += t.timeout()
    return out


def first_player(t: Table, chooser: str, first: str) -> list[object]:
    """The initiative winner ``chooser`` makes ``first`` the first player; Calm Over Westeros answered."""
    out = t.seat(chooser, cmd.ChooseFirstPlayer(seat_id=first))
    return out + answer_calm(t)


def without_ambush(t: Table) -> None:
    """Ambush cards go from the hands to the bottom of the decks, so that no action window opens
    in a test about something else (tests/domain/cards/test_ambush.py opens them)."""
    for p in t.state.players:
        ambush = [c for c in p.hand if t.state.record(c).ambush_cost is not None]
        for c in ambush:
            p.hand.remove(c)
            p.deck.append(c)


def to_challenges(seed: str = "seed", p1: str = CALM, p2: str = PLAIN) -> Table:
    """Round 1, seat1 first, nobody marshals: seat1's challenge step (when it has characters)."""
    t = to_marshaling(seed, p1, p2)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    return t


def pass_windows(t: Table) -> None:
    """Every player passes in the open action window(s) until the game asks something else."""
    while t.state.step == "action":
        t.seat(t.state.waiting[0], cmd.PassAction())


def decline_reactions(t: Table) -> None:
    """Every seat declines the open reaction window (A Meager Contribution after an income, when a
    shuffle brought it into a hand in a test about something else)."""
    while t.state.step == "reaction":
        t.seat(t.state.waiting[0], cmd.Decline())
