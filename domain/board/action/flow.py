"""The Action phase's order of play (BG-ACT-01/02/03/05).

BG-ACT-01 -- raids, then marches (with any combat), then Consolidate Power, then the clean-up.
BG-ACT-02 -- each step runs in turn order (Iron Throne, position 1 first), one order at a time,
round and round; a house with no order of that type left is skipped; the step ends when no order of
that type remains.
BG-ACT-03 -- a house whose turn it is must resolve one of its orders, but chooses which.
BG-ACT-05 -- clean-up: the remaining orders go, routed units stand up, Raven and Blade turn back.

:func:`advance` runs every automatic consequence until a player has to decide something, then opens
that decision with a ``StepBegan`` carrying the deadline.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, WrongPhase
from .. import events as ev
from ..orders import order_type
from ..state import BoardState
from . import events as aev

ORDER_STEPS = ("raid", "march", "consolidate_power")
STEP_OF = {"raid": "resolve_raid", "march": "resolve_march", "consolidate_power": "resolve_consolidate_power"}
WESTEROS_STEP = "awaiting_westeros_phase"
FINAL_STEP = "awaiting_final_scoring"


def orders_of(state: BoardState, house: str, typ: str) -> list[str]:
    """Areas (sorted by id) holding ``house``'s orders of type ``typ``."""
    return sorted(a for a, o in state.orders.items() if o.house == house and order_type(o.order) == typ)


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


def open_decision(em, step: str, *, fresh: bool = True) -> bool:
    """Announce a decision: a ``StepBegan`` with a deadline. With ``fresh`` False an already open step
    of the same name keeps its deadline (simultaneous choices)."""
    s = em.state
    if fresh or s.step != step:
        em.emit(ev.StepBegan(phase="action", step=step, round=s.round, deadline=em.deadline()))
    return True


def require_step(state: BoardState, *steps: str) -> None:
    if state.phase != "action" or state.action is None:
        raise WrongPhase("this is done only during the Action phase", rule="BG-ACT-01")
    if state.step not in steps:
        raise WrongPhase(f"the Action phase is at step '{state.step}', not {' or '.join(steps)}", rule="BG-ACT-01")


def require_turn(state: BoardState, house: str, step: str) -> None:
    require_step(state, step)
    if state.action.current_house != house:
        raise NotYourTurn(f"it is {state.action.current_house}'s turn to resolve an order", rule="BG-ACT-02")


def start(em) -> None:
    """BG-ACT-01: begin with the raids."""
    em.emit(aev.ActionPhaseBegan())
    advance(em)


def advance(em) -> None:
    """Resolve everything automatic until a player must decide (BG-ACT-02), or end the phase."""
    from . import combat, marches

    while True:
        act = em.state.action
        if act is None:
            return
        if act.combat is not None:
            if combat.run(em):
                return
            continue
        if act.port_captures:
            open_decision(em, "replace_port_ships")
            return
        s = em.state
        typ = act.order_type
        house = next_house(s, typ, act.current_house)
        while house is None:
            i = ORDER_STEPS.index(typ)
            if i + 1 == len(ORDER_STEPS):
                cleanup(em)
                return
            typ = ORDER_STEPS[i + 1]
            house = next_house(s, typ, None)
        em.emit(aev.OrderTurnBegan(order_type=typ, house=house))
        open_decision(em, STEP_OF[typ])
        _ = marches  # marches are resolved by the player's command
        return


def cleanup(em) -> None:
    """BG-ACT-05: remove all remaining orders, stand routed units up, reset the Raven and the Blade.

    The game then waits at the threshold of the next round's Westeros phase: a ``StepBegan`` with
    phase ``westeros``, step ``awaiting_westeros_phase`` and ``round`` already advanced by one (the
    Game Round token's advance, BG-WEST-01 step 1, is recorded here so the Westeros phase starts
    with the right round). After round 10 the game stops instead at phase ``ended``, step
    ``awaiting_final_scoring`` (BG-ROUND-03 / BG-VIC-03 scoring belongs to the victory rules).
    """
    s = em.state
    em.emit(aev.ActionPhaseEnded(removed_orders={a: o.order for a, o in sorted(s.orders.items())}))
    from .. import board_data

    if s.round >= board_data.setup().max_rounds:
        em.emit(ev.StepBegan(phase="ended", step=FINAL_STEP, round=s.round, deadline=None))
    else:
        em.emit(ev.StepBegan(phase="westeros", step=WESTEROS_STEP, round=s.round + 1, deadline=None))
