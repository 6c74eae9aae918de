"""Whose turn it is in the Action phase, and the guards every order step uses (BG-ACT-01/02/03).

BG-ACT-01 -- raids, then marches (with any combat), then Consolidate Power.
BG-ACT-02 -- each step runs in turn order (Iron Throne, position 1 first), one order at a time,
round and round; a house with no order of that type left is skipped.
BG-ACT-03 -- a house whose turn it is must resolve one of its orders, but chooses which.

Kept apart from :mod:`.flow` (which runs the phase and so imports the combat) so that the order steps
and the combat can use these without importing what runs them.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import events as ev
from ..emitter import Emitter
from ..orders import VASSAL_DEFENSE_MUSTER, order_type
from ..state import BoardState
from .state import ActionState, Combat

ORDER_STEPS = ("raid", "march", "consolidate_power")
STEP_OF = {"raid": "resolve_raid", "march": "resolve_march", "consolidate_power": "resolve_consolidate_power"}


def orders_of(state: BoardState, house: str, typ: str) -> list[str]:
    """Areas (sorted by id) holding ``house``'s orders of type ``typ``. A vassal's Defense/Muster
    token is resolved in the Consolidate Power step (MOD-VASSAL-12)."""
    return sorted(
        a
        for a, o in state.orders.items()
        if o.house == house
        and (order_type(o.order) == typ or (typ == "consolidate_power" and o.order == VASSAL_DEFENSE_MUSTER))
    )


def next_house(state: BoardState, typ: str, after: str | None) -> str | None:
    """BG-ACT-02: the next house in turn order after ``after`` (or from position 1) with an order of
    type ``typ`` left; None when the step is over."""
    order = state.turn_order()
    start = order.index(after) + 1 if after in order else 0
    for i in range(len(order)):
        h = order[(start + i) % len(order)]
        if orders_of(state, h, typ):
            return h
    return None


def open_decision(em: Emitter, step: str, *, fresh: bool = True) -> bool:
    """Announce a decision: a ``StepBegan`` with a deadline. With ``fresh`` False an already open step
    of the same name keeps its deadline (simultaneous choices)."""
    s = em.state
    if fresh or s.step != step:
        em.emit(ev.StepBegan(phase="action", step=step, round=s.round, deadline=em.deadline()))
    return True


def action_of(state: BoardState) -> ActionState:
    """``state.action``, which exists only during the Action phase (from ``ActionPhaseBegan`` to
    ``ActionPhaseEnded``); outside it a command is in the wrong phase."""
    if state.action is None:
        raise WrongPhase("this is done only during the Action phase", rule="BG-ACT-01")
    return state.action


def combat_of(state: BoardState) -> Combat:
    """The combat in progress (``state.action.combat``); a combat answer without one is rejected."""
    c = state.action.combat if state.action else None
    if c is None:
        raise RuleViolation("no combat is in progress", code="no_combat")
    return c


def require_step(state: BoardState, *steps: str) -> None:
    if state.phase != "action" or state.action is None:
        raise WrongPhase("this is done only during the Action phase", rule="BG-ACT-01")
    if state.step not in steps:
        raise WrongPhase(f"the Action phase is at step '{state.step}', not {' or '.join(steps)}", rule="BG-ACT-01")


def require_turn(state: BoardState, house: str, step: str) -> None:
    require_step(state, step)
    current = action_of(state).current_house
    if current != house:
        raise NotYourTurn(f"it is {current}'s turn to resolve an order", rule="BG-ACT-02")
