"""Mother of Dragons: a player who leaves (MOD-FLEX-01/02).

MOD-FLEX-01 -- a player (never Targaryen, not in this game) may leave a running game: its house and
all its units become a vassal; its Victory token becomes a vassal token.
MOD-FLEX-02 -- from then on every vassal rule applies to that house. Built here and in the rules they
touch: its available Power goes to the Pool and it never gains Power again (MOD-VASSAL-26 in
:func:`domain.board.power.gain`, so its bids are 0); it cannot hold a Dominance token, which passes
to the highest player on that track (:meth:`~domain.board.state.BoardState.top_player`); it can
neither win nor lose (MOD-VASSAL-28, :mod:`domain.board.victory`); it takes no part in wildling
attacks (MOD-VASSAL-22); from the next Planning phase a Vassal Order set is dealt for it like every
vassal's (MOD-VASSAL-02). It keeps its House cards (decided: S&R), so a combat it is in goes on with
it as a vassal playing its own remaining House cards.

**When**: at any time of the running game (the Planning, Action and Westeros phases), not during the
house choice, not once the game is over, not while the clocks are paused. At least two players must
remain. The seat then may read the game but sends no more commands (``403 seat_left``).

**What the leaver had pending** (its own decisions and those of the vassals it commanded), decided
step by step:

* the Planning phase's commander choice (``choose_commanders``): its unused sets go back; the sets
  for the free vassals are dealt again (below) and the choice goes on;
* Assign Orders: its sealed orders, and those it sealed for its vassals, are withdrawn unrevealed (a
  vassal's orders come from its commander, MOD-VASSAL-08); in sequential placement the next house
  places;
* a Clash of Kings bid: its sealed bid, if any, is withdrawn and a bid of 0 is sealed for it, as for
  every vassal (MOD-VASSAL-19);
* a wildling bid: its sealed bid, if any, is withdrawn and it is no longer a bidder; it is out of the
  houses still to take the wildling card's effect (MOD-VASSAL-22); an effect already begun for it
  finishes with its defaults (below); a tie for the attack's target that it is in, or is to break,
  gets no default: it is withdrawn and the target is chosen again among the players left in it, by
  the highest player on the Iron Throne track (BG-WILD-02, MOD-VASSAL-21/22);
* every other decision then open for it (the Messenger Raven, resolving one of its orders, a House
  card, support, the Blade, casualties, a retreat, a Westeros card's choice, mustering, units to
  destroy) gets its documented default at once, as at a deadline (:mod:`domain.board.timeouts`),
  logged as ``decision_timed_out`` with ``left`` true (no deadline was missed).

**Commanders chosen again at once** (the digest's Review 2): the leaver and the vassals it
commanded have no commander; sets are dealt for them at once, each to the highest player on the Iron
Throne track holding the fewest sets, and they are chosen as at the start of the Planning phase
(:mod:`domain.board.planning.commanders`), while the current step stays open with a fresh deadline;
the orders' reveal waits for the choice. Until a vassal has its commander, a decision of its waits
(or gets its default at the deadline): a seat that left decides nothing.

**The timeout policy** (``settings.vassal_after_missed_deadlines``, Mother of Dragons only): a seat
whose decisions got their defaults at that many deadlines in a row leaves as if it had sent
``leave_game`` (:func:`leave_after_timeouts`); the ``player_left`` event says how many it missed. A
command of its own in between starts the count again (``missed_deadlines_cleared``).
"""

from __future__ import annotations

import msgspec

from ..core.context import Context
from ..core.errors import RuleViolation, WrongPhase
from . import events as ev
from . import mod_events as mev
from . import planning
from . import presence_events as pev
from .commands import LeaveGame
from .decisions import Decision, pending_decisions
from .emitter import Emitter, copy_state
from .evolve import fold
from .mother_of_dragons import is_mother_of_dragons
from .planning import commanders
from .state import BoardState
from .timeouts import timeout_events
from .westeros import bidding, deck
from .westeros.evolve import open_bidding

MIN_PLAYERS_LEFT = 2
RUNNING = ("planning", "action", "westeros")
WITHDRAWN_NOT_DEFAULTED = ("assign_orders", "choose_commanders", "bid")
"""The leaver's pending decisions that get no default: handled by ``player_left`` itself."""


def players(state: BoardState) -> list[str]:
    """The player houses, in Iron Throne order."""
    return [h for h in state.turn_order() if h not in state.vassals]


def commanded_by(state: BoardState, house: str) -> list[str]:
    """The vassals ``house`` commands this round, in Iron Throne order."""
    return [v for v in state.turn_order() if state.commanders.get(v) == house]


def remaining_sets(state: BoardState, leaver: str) -> dict[str, int]:
    """The Vassal Order sets once ``leaver`` turned vassal: its own go back, and one is dealt for each
    vassal then without a commander and without a set (the leaver, the vassals it commanded), each
    to the highest player holding the fewest sets (Review 2). Outside the Planning phase's choice
    nobody holds a set, so exactly those are dealt; the next Planning phase deals one per vassal, the
    leaver included (MOD-VASSAL-02)."""
    free_after = len(commanders.free_vassals(state)) + 1 + len(commanded_by(state, leaver))
    held_after = sum(n for h, n in state.vassal_order_sets.items() if h != leaver)
    return commanders.deal_again(state, leaver, max(0, free_after - held_after))


def check_can_leave(state: BoardState, rule_text: str) -> None:
    """MOD-FLEX-01: a Mother of Dragons game, running (not paused), with two players left after it."""
    if not is_mother_of_dragons(state):
        raise RuleViolation(
            "leaving a running game belongs to Mother of Dragons (MOD-FLEX-01)",
            rule="MOD-FLEX-01",
            code="leave_not_offered",
        )
    if state.phase not in RUNNING:
        raise WrongPhase(
            f"a player may leave only a running game ({rule_text})", rule="MOD-FLEX-01", code="leave_not_now"
        )
    if state.paused is not None:
        raise WrongPhase("the clocks are paused: leave once they run again", rule="MOD-FLEX-01", code="leave_not_now")
    if len(players(state)) - 1 < MIN_PLAYERS_LEFT:
        raise RuleViolation(
            f"at least {MIN_PLAYERS_LEFT} players must remain in the game", rule="MOD-FLEX-01", code="last_players"
        )


def leave(state: BoardState, seat_id: str, house: str, command: LeaveGame, ctx: Context) -> list[ev.Event]:
    """MOD-FLEX-01/02: the player of ``house`` leaves; the house becomes a vassal."""
    if command.for_vassal is not None:
        raise RuleViolation("only a player leaves, not a vassal", rule="MOD-FLEX-01", code="for_vassal_not_allowed")
    check_can_leave(state, "the Planning, Action or Westeros phase")
    return leave_events(state, seat_id, house, ctx, reason=command.reason)


def leave_events(
    state: BoardState, seat_id: str, house: str, ctx: Context, reason: str = "", missed: int = 0
) -> list[ev.Event]:
    """The events of ``house``'s player leaving (the module docstring says what happens to what it
    had pending); ``missed``: the deadlines it missed in a row when the timeout policy makes it leave."""
    out: list[ev.Event] = []
    after = copy_state(state)
    mine = {house, *commanded_by(state, house)}
    kinds = {_kind(d) for d in pending_decisions(state) if d.house in mine and not _in_wildling_tie(state, house)}
    if kinds - set(WITHDRAWN_NOT_DEFAULTED):
        defaults = [_as_left(e) for e in timeout_events(state, ctx, only=mine)]
        out += defaults
        after = _fold(defaults, after)
    withdrawn = [h for h in (house, *commanded_by(after, house)) if h in after.planning.sealed]
    b = open_bidding(after.westeros) if after.westeros is not None else None
    if b is not None and house in b.sealed and house not in withdrawn:  # its sealed bid
        withdrawn = [*withdrawn, house]
    sets = remaining_sets(after, house)
    rechoice = any(sets.values()) and not (after.phase == "planning" and after.step == commanders.STEP)
    left = mev.PlayerLeft(
        seat_id=seat_id,
        house=house,
        power_to_pool=after.houses[house].power,
        order_sets=sets,
        withdrawn_orders=house in after.planning.sealed,
        reason=reason,
        withdrawn=withdrawn,
        deadline=ctx.deadline(after.settings.decision_timeout_s) if rechoice else None,
        missed_deadlines=missed,
    )
    before_left = after
    out.append(left)
    after = _fold([left], copy_state(before_left))
    em = Emitter(after, ctx)  # ``after`` counts the batch so far: seals number their events right
    b = open_bidding(em.state.westeros)
    if b is not None and b.kind == "clash_of_kings" and house in b.houses and house not in b.sealed:
        bidding.sealed_bid(em, house, 0)  # MOD-VASSAL-19: a vassal bids 0
    commanders.next_choice(em)
    if _in_wildling_tie(before_left, house):
        deck.advance(em)  # MOD-VASSAL-22: the target is chosen again among the players left in the tie
    out += em.events
    if em.events:
        after = _fold(em.events, after)
    if after.planning.sequential and after.phase == "planning" and after.step == "assign_orders":
        now = planning.current_sequential_house(after)
        if now is not None and now != planning.current_sequential_house(before_left):
            out.append(planning.assign_orders_step(after, ctx, sequential=True))  # BG-PLAN-05: a fresh deadline
    return out


def _in_wildling_tie(state: BoardState, house: str) -> bool:
    """A tie for a wildling attack's target (BG-WILD-02) is open and ``house`` is in it or is to
    break it: it gets no default when ``house`` leaves; the tie is broken again without it (MOD-VASSAL-22:
    a vassal takes no part in a wildling attack; the Iron Throne's holder among the players chooses,
    MOD-VASSAL-21)."""
    w = state.westeros
    return w is not None and w.choice is not None and w.choice.is_wildling_tie_of(house)


def _kind(d: Decision) -> str:
    return str(d.options.__struct_config__.tag)


def _as_left(e: ev.Event) -> ev.Event:
    """A default applied because the player left is no missed deadline (``left``)."""
    return msgspec.structs.replace(e, left=True) if isinstance(e, ev.DecisionTimedOut) else e


def _fold(events: list[ev.Event], state: BoardState) -> BoardState:
    after = fold(events, state)
    assert after is not None, "folding events onto a state gives a state"
    return after


def clear_missed(state: BoardState, house: str) -> list[ev.Event]:
    """A command of the seat's own: its run of missed deadlines ends (``vassal_after_missed_deadlines``)."""
    missed = state.missed_deadlines.get(house, 0)
    return [pev.MissedDeadlinesCleared(house=house, missed=missed)] if missed else []


def leave_after_timeouts(state: BoardState, batch: list[ev.Event], ctx: Context) -> list[ev.Event]:
    """The timeout policy (``settings.vassal_after_missed_deadlines``): after a timeout's ``batch``,
    each player whose seat has now missed that many deadlines in a row leaves (MOD-FLEX-01/02), as if
    it had sent ``leave_game``, while at least two players would remain. Returns the events to append."""
    limit = state.settings.vassal_after_missed_deadlines
    if limit is None or not batch:
        return []
    after = _fold(batch, copy_state(state))
    out: list[ev.Event] = []
    for house in list(players(after)):
        missed = after.missed_deadlines.get(house, 0)
        seat = after.seat_of_house(house)
        if missed < limit or seat is None or len(players(after)) - 1 < MIN_PLAYERS_LEFT or after.phase not in RUNNING:
            continue
        events = leave_events(
            after, seat.seat_id, house, ctx, reason=f"missed {missed} deadlines in a row", missed=missed
        )
        out += events
        after = _fold(events, after)
    return out
