"""Mother of Dragons: choosing the vassals' commanders at the start of every Planning phase
(MOD-VASSAL-02..07).

1. MOD-VASSAL-02: every vassal's token goes back beside the Iron Throne track (nobody commands a
   vassal any more) and the sets of Vassal Order tokens, one per vassal, go to the highest players
   on the Iron Throne track (``VassalOrderSetsDealt``).
2. MOD-VASSAL-03/04/06: in Iron Throne order, the first player still holding a set decides, one set
   at a time: it picks a vassal nobody commands yet, or passes that set to the next player on the
   track (``VassalCommanderChosen``). Each such choice is its own step (``choose_commanders``) with
   its own deadline.
3. MOD-VASSAL-05: the last player on the track cannot pass. As soon as the first player holding a
   set is the last one, it commands every vassal still unpicked, without a decision
   (``VassalsCommandedByLast``).
4. MOD-VASSAL-07: once every vassal has a commander, Assign Orders opens as usual.

Default when the deadline passes: the player takes the free vassal highest on the Iron Throne track
(it never passes by default, so a silent table still gets every vassal commanded).

In the base game (no vassals) :func:`open_planning` opens Assign Orders at once.
"""

from __future__ import annotations

import msgspec

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import events as ev
from .. import mod_events as mev
from ..emitter import Emitter
from ..mother_of_dragons import vassal_order_sets
from ..state import BoardState
from .assign import assign_orders_step, needs_sequential_placement

STEP = "choose_commanders"
DEFAULT_TEXT = {STEP: "you command the free vassal highest on the Iron Throne track (no pass)"}


class ChooseCommanderOptions(msgspec.Struct, tag_field="kind", tag="choose_commanders"):
    """Send ``{"type": "command_vassal", "vassal": ...}`` with one of ``vassals``, or ``"vassal": null``
    to pass this set to ``pass_to`` (MOD-VASSAL-03/04)."""

    vassals: list[str]
    """The vassals nobody commands yet, in Iron Throne order."""
    sets: int
    """The sets of Vassal Order tokens you hold now: one vassal (or one pass) per set (MOD-VASSAL-06)."""
    pass_to: str
    """The next player on the Iron Throne track, who receives the set if you pass."""
    commanders: dict[str, str]
    """Vassal -> commander, as chosen so far this round."""


def players_in_order(state: BoardState) -> list[str]:
    """The player houses (not vassals) in Iron Throne order."""
    return [h for h in state.turn_order() if h not in state.vassals]


def free_vassals(state: BoardState) -> list[str]:
    """The vassals nobody commands yet, in Iron Throne order (MOD-VASSAL-03)."""
    return [h for h in state.turn_order() if h in state.vassals and h not in state.commanders]


def chooser(state: BoardState) -> str | None:
    """MOD-VASSAL-03: the first player in Iron Throne order still holding a set, while a vassal is free."""
    if not free_vassals(state):
        return None
    for house in players_in_order(state):
        if state.vassal_order_sets.get(house, 0) > 0:
            return house
    return None


def next_player(state: BoardState, house: str) -> str:
    """MOD-VASSAL-04: the player in the next position on the Iron Throne track."""
    players = players_in_order(state)
    return players[players.index(house) + 1]


def options(state: BoardState, house: str) -> ChooseCommanderOptions:
    return ChooseCommanderOptions(
        vassals=free_vassals(state),
        sets=state.vassal_order_sets.get(house, 0),
        pass_to=next_player(state, house),
        commanders=dict(state.commanders),
    )


def open_planning(em: Emitter) -> None:
    """The Planning phase begins: with vassals, their commanders are chosen first (MOD-VASSAL-02);
    then (or at once, in the base game) Assign Orders opens (BG-PLAN-02)."""
    s = em.state
    if s.vassals:
        em.emit(mev.VassalOrderSetsDealt(round=s.round, sets=vassal_order_sets(s.turn_order(), s.vassals)))
    _next(em)


def _next(em: Emitter) -> None:
    """The next commander choice, the last player's forced command (MOD-VASSAL-05), or Assign Orders."""
    s = em.state
    current = chooser(s)
    if current is not None and current == players_in_order(s)[-1]:
        em.emit(mev.VassalsCommandedByLast(house=current, vassals=free_vassals(s)))
        current = None
    s = em.state
    if current is not None:
        em.emit(ev.StepBegan(phase="planning", step=STEP, round=s.round, deadline=em.deadline()))
        return
    em.emit(assign_orders_step(s, em.ctx, sequential=needs_sequential_placement(s)))


def command_vassal(em: Emitter, house: str, vassal: str | None, by_default: bool = False) -> None:
    """MOD-VASSAL-03/04: ``house`` picks ``vassal`` with one of its sets, or passes the set (None)."""
    s = em.state
    if s.phase != "planning" or s.step != STEP:
        raise WrongPhase("commanders are chosen only at the start of the Planning phase", rule="MOD-VASSAL-03")
    current = chooser(s)
    if house != current:
        raise NotYourTurn(f"it is {current}'s turn to pick a vassal or pass", rule="MOD-VASSAL-03")
    if vassal is None:
        em.emit(
            mev.VassalCommanderChosen(house=house, vassal=None, passed_to=next_player(s, house), by_default=by_default)
        )
    elif vassal not in free_vassals(s):
        raise RuleViolation(
            f"'{vassal}' is not a vassal without a commander: pick one of {', '.join(free_vassals(s))} or pass",
            rule="MOD-VASSAL-03",
            code="vassal_not_available",
        )
    else:
        em.emit(mev.VassalCommanderChosen(house=house, vassal=vassal, by_default=by_default))
    _next(em)


def timeout(em: Emitter) -> None:
    """The deadline passed: the player whose turn it is takes the free vassal highest on the track."""
    s = em.state
    current = chooser(s)
    if current is None:
        return
    em.emit(ev.DecisionTimedOut(step=STEP, houses=[current]))
    command_vassal(em, current, free_vassals(s)[0], by_default=True)
