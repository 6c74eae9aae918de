"""Mother of Dragons: a player who leaves (MOD-FLEX-01/02), the part that needs no vassal orders.

MOD-FLEX-01 -- a player (never Targaryen, not in this game) may leave a running game: its house and
all its units become a vassal; its Victory token becomes a vassal token.
MOD-FLEX-02 -- from then on every vassal rule applies to that house. Built here and in the rules they
touch: its available Power goes to the Pool and it never gains Power again (MOD-VASSAL-26 in
:func:`domain.board.power.gain`, so its bids are 0); it cannot hold a Dominance token, which passes
to the highest player on that track (:meth:`~domain.board.state.BoardState.dominance_holder`); it can
neither win nor lose (:func:`domain.board.victory.contenders`); a Vassal Order set is added for it,
given with any set the leaver held to the highest players on the Iron Throne track holding the
fewest sets (Review 2, "a vassal appearing mid-game"). It keeps its House cards (decided: S&R).

When: for now only while the Planning phase's orders are being assigned (before the reveal). Its
sealed orders, if any, are withdrawn, as a vassal places no orders of its own: a vassal's orders
come from its commander (MOD-VASSAL-08, built elsewhere), from the next Planning phase on. The seat
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


def redistribute_sets(state: BoardState, leaver: str) -> dict[str, int]:
    """The Vassal Order sets after ``leaver`` turned vassal: one new set for it, plus any it held, each
    to the highest player on the Iron Throne track holding the fewest sets (MOD-SETUP-11, Review 2)."""
    sets = {h: n for h, n in state.vassal_order_sets.items() if h != leaver}
    remaining = [h for h in players(state) if h != leaver]
    for _ in range(1 + state.vassal_order_sets.get(leaver, 0)):
        fewest = min(sets.get(h, 0) for h in remaining)
        taker = next(h for h in remaining if sets.get(h, 0) == fewest)
        sets[taker] = sets.get(taker, 0) + 1
    return {h: sets[h] for h in state.turn_order() if sets.get(h)}


def leave(state: BoardState, seat_id: str, house: str, command: LeaveGame, ctx: Context) -> list[ev.Event]:
    """MOD-FLEX-01/02: the player of ``house`` leaves; the house becomes a vassal."""
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
        order_sets=redistribute_sets(state, house),
        withdrawn_orders=house in state.planning.sealed,
        reason=command.reason,
    )
    out: list[ev.Event] = [left]
    if state.planning.sequential and planning.current_sequential_house(state) == house:
        after = fold([left], copy_state(state))
        assert after is not None, "folding an event onto a state gives a state"
        if planning.houses_still_to_submit(after):  # BG-PLAN-05: the next house places, with a fresh deadline
            out.append(planning.assign_orders_step(after, ctx, sequential=True))
    return out
