"""Mother of Dragons: a player who leaves (MOD-FLEX-01/02), the part that needs no vassal orders.

MOD-FLEX-01 -- a player (never Targaryen, not in this game) may leave a running game: its house and
all its units become a vassal; its Victory token becomes a vassal token.
MOD-FLEX-02 -- from then on every vassal rule applies to that house. Built here and in the rules they
touch: its available Power goes to the Pool and it never gains Power again (MOD-VASSAL-26 in
:func:`domain.board.power.gain`, so its bids are 0); it cannot hold a Dominance token, which passes
to the highest player on that track (:meth:`~domain.board.state.BoardState.top_player`); it can
neither win nor lose (MOD-VASSAL-28, :mod:`domain.board.victory`); from the next Planning phase a
Vassal Order set is dealt for it like every vassal's (MOD-VASSAL-02), and any set the leaver still
held goes back. It keeps its House cards (decided: S&R).

When: for now only while the Planning phase's orders are being assigned (before the reveal). Its
sealed orders, if any, are withdrawn, as a vassal places no orders of its own: a vassal's orders
come from its commander (MOD-VASSAL-08), from the next Planning phase on, when the commanders are
chosen again. The vassals the leaver commanded this round lose their commander (and any orders it
sealed for them) until then. The seat
then may read the game but sends no more commands (``403 seat_left``). At least two players must
remain. Not built yet: the commanders chosen again at once (Review 2), leaving at other times,
wildling attacks without the leaver (MOD-VASSAL-22).
"""

from __future__ import annotations

from ..core.context import Context
from ..core.errors import RuleViolation, WrongPhase
from . import events as ev
from . import mod_events as mev
from . import planning
from .commands import LeaveGame
from .emitter import copy_state
from .evolve import fold
from .mother_of_dragons import is_mother_of_dragons
from .state import BoardState

MIN_PLAYERS_LEFT = 2
STEP = "assign_orders"


def players(state: BoardState) -> list[str]:
    """The player houses, in Iron Throne order."""
    return [h for h in state.turn_order() if h not in state.vassals]


def remaining_sets(state: BoardState, leaver: str) -> dict[str, int]:
    """The Vassal Order sets still unused this round once ``leaver`` turned vassal: its own go back.
    The new vassal's set is dealt with the others at the next Planning phase (MOD-VASSAL-02), which
    deals one set per vassal, the leaver included."""
    return {h: n for h, n in state.vassal_order_sets.items() if h != leaver}


def leave(state: BoardState, seat_id: str, house: str, command: LeaveGame, ctx: Context) -> list[ev.Event]:
    """MOD-FLEX-01/02: the player of ``house`` leaves; the house becomes a vassal."""
    if command.for_vassal is not None:
        raise RuleViolation("only a player leaves, not a vassal", rule="MOD-FLEX-01", code="for_vassal_not_allowed")
    if not is_mother_of_dragons(state):
        raise RuleViolation(
            "leaving a running game belongs to Mother of Dragons (MOD-FLEX-01)",
            rule="MOD-FLEX-01",
            code="leave_not_offered",
        )
    if state.phase != "planning" or state.step != STEP:
        raise WrongPhase(
            "for now a player may leave only while the Planning phase's orders are being assigned",
            rule="MOD-FLEX-01",
            code="leave_not_now",
        )
    if len(players(state)) - 1 < MIN_PLAYERS_LEFT:
        raise RuleViolation(
            f"at least {MIN_PLAYERS_LEFT} players must remain in the game", rule="MOD-FLEX-01", code="last_players"
        )
    left = mev.PlayerLeft(
        seat_id=seat_id,
        house=house,
        power_to_pool=state.houses[house].power,
        order_sets=remaining_sets(state, house),
        withdrawn_orders=house in state.planning.sealed,
        reason=command.reason,
    )
    out: list[ev.Event] = [left]
    if state.planning.sequential:
        after = fold([left], copy_state(state))
        assert after is not None, "folding an event onto a state gives a state"
        now = planning.current_sequential_house(after)
        if now is not None and now != planning.current_sequential_house(state):
            out.append(planning.assign_orders_step(after, ctx, sequential=True))  # BG-PLAN-05: a fresh deadline
    return out
