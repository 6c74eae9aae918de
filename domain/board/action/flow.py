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

from .. import board_data
from .. import events as ev
from ..emitter import Emitter
from ..state import FINAL_STEP, WESTEROS_STEP
from . import combat
from . import events as aev
from .sea_orders import remove_sea_orders_on_land
from .turns import ORDER_STEPS, STEP_OF, next_house, open_decision


def start(em: Emitter) -> None:
    """BG-ACT-01: begin with the raids (MOD-SEA-02: once sea orders on land have gone)."""
    em.emit(aev.ActionPhaseBegan())
    remove_sea_orders_on_land(em)
    advance(em)


def advance(em: Emitter) -> None:
    """Resolve everything automatic until a player must decide (BG-ACT-02), or end the phase."""
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
        return


def cleanup(em: Emitter) -> None:
    """BG-ACT-05: remove all remaining orders, stand routed units up, reset the Raven and the Blade.

    The game then waits at the threshold of the next round's Westeros phase: a ``StepBegan`` with
    phase ``westeros``, step ``awaiting_westeros_phase`` and ``round`` already advanced by one (the
    Game Round token's advance, BG-WEST-01 step 1, is recorded here so the Westeros phase starts
    with the right round). After round 10 the game stops instead at phase ``ended``, step
    ``awaiting_final_scoring`` (BG-ROUND-03 / BG-VIC-03 scoring belongs to the victory rules).
    """
    s = em.state
    em.emit(aev.ActionPhaseEnded(removed_orders={a: o.order for a, o in sorted(s.orders.items())}))
    if s.round >= board_data.setup().max_rounds:
        em.emit(ev.StepBegan(phase="ended", step=FINAL_STEP, round=s.round, deadline=None))
    else:
        em.emit(ev.StepBegan(phase="westeros", step=WESTEROS_STEP, round=s.round + 1, deadline=None))
