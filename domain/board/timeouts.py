"""What happens when a decision's deadline passes: the documented default for every decision.

Each phase documents and applies its own defaults: the Planning phase in
:mod:`domain.board.planning.timeouts` (``default_orders`` is re-exported here), the Action phase in
:mod:`domain.board.action.timeouts`, the Westeros phase in :mod:`domain.board.westeros.timeouts`.
:func:`timeout_events` picks the phase; :data:`DEFAULT_TEXT` names every default for the pending
decisions (``GET .../decisions``).
"""

from __future__ import annotations

from ..core.context import Context
from . import events as ev
from . import house_choice
from .action.timeouts import ACTION_DEFAULT_TEXT, action_timeout_events
from .emitter import Emitter, copy_state
from .evolve import fold
from .house_choice import DEFAULT_TEXT as HOUSE_CHOICE_DEFAULT_TEXT
from .planning import commanders
from .planning.timeouts import DEFAULT_ORDER_PREFERENCE, default_orders, planning_timeout_events
from .planning.timeouts import DEFAULT_TEXT as PLANNING_DEFAULT_TEXT
from .state import BoardState
from .westeros.timeouts import WESTEROS_DEFAULT_TEXT, westeros_timeout_events

__all__ = ["DEFAULT_ORDER_PREFERENCE", "DEFAULT_TEXT", "bank_timeout_events", "default_orders", "timeout_events"]

DEFAULT_TEXT: dict[str, str] = {
    **HOUSE_CHOICE_DEFAULT_TEXT,
    **commanders.DEFAULT_TEXT,
    **PLANNING_DEFAULT_TEXT,
    **ACTION_DEFAULT_TEXT,
    **WESTEROS_DEFAULT_TEXT,
}
"""Decision kind -> what the server does for a seat when the deadline passes."""


def timeout_events(state: BoardState, ctx: Context, only: set[str] | None = None) -> list[ev.Event]:
    """``DecisionTimedOut`` and the documented defaults of every decision now pending in the
    current phase (empty if no decision is missing); with ``only``, of those houses' decisions alone
    (a time bank ran out, docs/clocks.md; a player left). Commanders being chosen again at once after
    a player left (Review 2) are chosen by default first, then the step's own decisions get theirs."""
    if only is None and commanders.rechoosing(state):
        em = Emitter(state, ctx)
        commanders.timeout_all(em)
        after = fold(em.events, copy_state(state))
        assert after is not None, "folding events onto a state gives a state"
        return em.events + _step_timeout_events(after, ctx, only)
    return _step_timeout_events(state, ctx, only)


def bank_timeout_events(state: BoardState, ctx: Context, due: set[str]) -> list[ev.Event]:
    """Time banks ran out (docs/clocks.md): the documented defaults of the decisions of ``due`` alone
    (the houses whose banks ran out and the vassals they command, ``clock_times.houses_due``). A
    commander choice made again at once after a player left (Review 2) is among them when its
    chooser's bank ran out: it gets its default first, then the step's decisions of ``due`` theirs."""
    if not (commanders.rechoosing(state) and commanders.chooser(state) in due):
        return _step_timeout_events(state, ctx, due)
    em = Emitter(state, ctx)
    while commanders.rechoosing(em.state) and commanders.chooser(em.state) in due:
        commanders.timeout(em)
    after = fold(em.events, copy_state(state))
    assert after is not None, "folding events onto a state gives a state"
    return em.events + _step_timeout_events(after, ctx, due)


def _step_timeout_events(state: BoardState, ctx: Context, only: set[str] | None) -> list[ev.Event]:
    if state.phase == "setup" and state.step == house_choice.STEP:
        return house_choice.timeout_events(state, ctx)
    if state.phase == "planning" and state.step == commanders.STEP:
        current = commanders.chooser(state)
        if current is None or (only is not None and current not in only):
            return []
        em = Emitter(state, ctx)
        commanders.timeout(em)
        return em.events
    if state.phase == "action" and state.action is not None:
        return action_timeout_events(state, ctx, only)
    if state.phase == "westeros" and state.westeros is not None:
        return westeros_timeout_events(state, ctx, only)
    return planning_timeout_events(state, ctx, only)
