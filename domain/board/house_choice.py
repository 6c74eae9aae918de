"""Mother of Dragons: the seats choose their houses (MOD-SETUP-01), one pending decision per seat.

At the start (:func:`start_events`) a first player is drawn from the seed; the seats then choose in
turn, clockwise from it (by seat number, wrapping around), each a house not yet taken among the seven
(:data:`domain.board.mother_of_dragons.houses`). Each choice is its own step with its own deadline.
When the last seat has chosen, the unchosen houses become vassals and the setup is completed by the
fold (``HouseChosen`` -> :func:`~.mother_of_dragons.lay_out_started`); the Planning phase of round 1
opens in the same batch.

Default when the deadline passes: the first house still free in the fixed Iron Throne order of
MOD-SETUP-09 (Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell, Arryn).

A given deal (``seat_houses`` at creation, a tournament's draw) replaces the choice: no first player
is drawn and no seat chooses; the start deals those houses (``GameStarted.houses``), the unnamed
houses become vassals in the same fold as after the last choice, and Planning opens at once
(:func:`given_deal_events`). The deal must name, for each seat, a different one of the seven houses
(:func:`~.mother_of_dragons.check_given_deal`).
"""

from __future__ import annotations

import msgspec

from ..core.context import Context
from ..core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from . import board_data
from . import commands as cmd
from . import events as ev
from . import mod_events as mev
from .emitter import Emitter
from .mother_of_dragons import houses
from .planning.commanders import open_planning
from .state import BoardState

STEP = "choose_house"
DEFAULT_TEXT = {
    STEP: "the first house still free in the fixed Iron Throne order (Baratheon, Lannister, Stark, "
    "Martell, Greyjoy, Tyrell, Arryn)"
}


class ChooseHouseOptions(msgspec.Struct, tag_field="kind", tag="choose_house"):
    """Send ``{"type": "choose_house", "house": ...}`` with one of ``houses``."""

    houses: list[str]
    """The houses still free, in the fixed Iron Throne order."""
    order: list[str]
    """Every seat in the order they choose, the first player first."""


def start_events(state: BoardState, ctx: Context) -> list[ev.Event]:
    """MOD-SETUP-01: the random first player (its own stream of the seed) and the first choice."""
    seats = [s.seat_id for s in state.seats]
    # the first of a shuffle of the seats: an export whose seed is still secret records it (the
    # order below is a permutation of the seats, audit.recorded_draws)
    first = seats.index(ctx.rng("start/first_player").shuffled(seats)[0])
    order = seats[first:] + seats[:first]
    return [mev.HouseChoiceOrdered(first_seat=order[0], order=order), _step(state, ctx)]


def given_deal_events(state: BoardState, started: ev.GameStarted, ctx: Context) -> list[ev.Event]:
    """MOD-SETUP-01 with a given deal: ``started`` deals the given houses (its fold makes the unnamed
    houses vassals and lays out the setup, ``mother_of_dragons.lay_out_started``), and the Planning
    phase of round 1 opens at once, as after the last choice (BG-ROUND-02, MOD-VASSAL-02)."""
    em = Emitter(state, ctx)
    em.emit(started)
    open_planning(em)
    return em.events


def chooser(state: BoardState) -> str | None:
    """The seat whose turn it is to choose, if any."""
    for seat_id in state.house_choice_order:
        seat = state.seat(seat_id)
        if seat is not None and seat.house is None:
            return seat_id
    return None


def free_houses(state: BoardState) -> list[str]:
    """The houses no seat has chosen yet, in the fixed Iron Throne order (MOD-SETUP-09)."""
    taken = {s.house for s in state.seats}
    fixed = board_data.mother_of_dragons().tracks.iron_throne
    return [h for h in fixed if h not in taken and h in houses()]


def options(state: BoardState) -> ChooseHouseOptions:
    return ChooseHouseOptions(houses=free_houses(state), order=list(state.house_choice_order))


def choose(state: BoardState, command: cmd.ChooseHouse, actor: cmd.Actor, ctx: Context) -> list[ev.Event]:
    """MOD-SETUP-01: the seat whose turn it is takes a free house."""
    if state.step != STEP:
        raise WrongPhase("houses are chosen only at the start of a Mother of Dragons game")
    if actor.kind != "seat":
        raise Forbidden("only a seated player may choose a house")
    seat = state.seat(actor.seat_id or "")
    if seat is not None and seat.generation != actor.generation:
        raise Forbidden("the judge gave this seat to another player: this token is void", code="token_replaced")
    current = chooser(state)
    if seat is None or seat.seat_id != current:
        raise NotYourTurn(f"it is {current}'s turn to choose a house")
    if command.house not in free_houses(state):
        raise RuleViolation(
            f"'{command.house}' is not a free house: choose one of {', '.join(free_houses(state))}",
            rule="MOD-SETUP-01",
            code="house_not_available",
        )
    return _after(state, mev.HouseChosen(seat_id=seat.seat_id, house=command.house), ctx)


def timeout_events(state: BoardState, ctx: Context) -> list[ev.Event]:
    """The deadline passed: the seat whose turn it is gets the default house."""
    current = chooser(state)
    if current is None:
        return []
    chosen = mev.HouseChosen(seat_id=current, house=free_houses(state)[0], by_default=True)
    return [ev.DecisionTimedOut(step=STEP, houses=[]), *_after(state, chosen, ctx)]


def _after(state: BoardState, chosen: mev.HouseChosen, ctx: Context) -> list[ev.Event]:
    """The choice, then the next seat's step, or (after the last) the Planning phase of round 1."""
    em = Emitter(state, ctx)
    em.emit(chosen)
    if chooser(em.state) is not None:
        em.emit(_step(em.state, ctx))
    else:  # BG-ROUND-02: no Westeros phase in round 1; the game opens on Planning (MOD-VASSAL-02).
        open_planning(em)
    return em.events


def _step(state: BoardState, ctx: Context) -> ev.StepBegan:
    return ev.StepBegan(
        phase="setup", step=STEP, round=state.round, deadline=ctx.deadline(state.settings.decision_timeout_s)
    )
