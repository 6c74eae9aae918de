"""``evolve(state, event) -> state`` and ``fold(events) -> state``: the state is the fold of the events.

``evolve`` applies one event and never fails on a valid stream: it contains no rules, only
bookkeeping. The lobby's and the Planning phase's events are applied here; the Action and Westeros
phases' events by their own bookkeeping (:mod:`.action.evolve`, :mod:`.westeros.evolve`).

This module sits below every decider: the :class:`~.emitter.Emitter` folds each event a rule
produces while ``decide`` runs, and the seven-castles check (:mod:`.victory`) folds a batch to look
at the board after it, both without importing a decider.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from ..core.context import parse_rfc3339, rfc3339
from . import clock_events as cev
from . import events as ev
from . import judge_events as jev
from . import mod_events as mev
from . import presence_events as pev
from .action import events as aev
from .action.evolve import evolve_action
from .mother_of_dragons import is_mother_of_dragons, lay_out_started, vassal_deck
from .scenario import apply_scenario
from .setup import initial_board
from .state import BoardState, Pause, PlacedOrder, Planning, Seat, SeatClock, UndoRequest
from .westeros import events as wev
from .westeros.evolve import evolve_westeros


def evolve(state: BoardState | None, event: ev.Event) -> BoardState:
    """Apply one event. Mutates and returns ``state`` (a fresh one for ``GameCreated``)."""
    match event:
        case ev.GameCreated():
            s = BoardState(
                game_id=event.game_id,
                version=0,
                player_count=event.player_count,
                houses_in_play=[],
                settings=event.settings,
                seed_commitment=event.seed_commitment,
                sealed_commitments=event.sealed_commitments,
                seat_houses=event.seat_houses,
            )
            initial_board(s)
            return s
    assert state is not None, "a stream starts with GameCreated"
    match event:
        case ev.ScenarioLoaded():
            apply_scenario(state, event.scenario)
            state.start_at = event.scenario.start_at
            state.fixture = event.scenario
        case ev.SeatJoined():
            state.seats.append(Seat(seat_id=event.seat_id, name=event.name))
        case ev.GameStarted():
            state.started_version = state.version + 1
            for seat in state.seats:
                seat.house = event.houses.get(seat.seat_id)  # none yet with Mother of Dragons
            # MOD-SETUP-01: a given deal, no choice (a scenario fixture laid its position out already)
            if is_mother_of_dragons(state) and event.houses and state.fixture is None:
                lay_out_started(state, set(event.houses.values()))
            state.wildling_deck = list(event.wildling_deck or [])
            state.westeros_decks = {k: list(v) for k, v in (event.westeros_decks or {}).items()}
            if state.settings.time_bank_s is not None:  # docs/clocks.md: every house's bank, full
                bank = state.settings.time_bank_s * 1000
                state.clocks = {house: SeatClock(bank_ms=bank) for house in event.houses.values()}
        case mev.HouseChoiceOrdered():
            state.house_choice_order = list(event.order)
        case mev.HouseChosen():
            chooser = state.seat(event.seat_id)
            assert chooser is not None, "a seat that chose"
            chooser.house = event.house
            if all(s.house is not None for s in state.seats):  # MOD-SETUP-01: the last choice
                lay_out_started(state, {s.house for s in state.seats if s.house is not None})
                if state.settings.time_bank_s is not None:  # docs/clocks.md: the players' banks, full
                    bank = state.settings.time_bank_s * 1000
                    state.clocks = {s.house: SeatClock(bank_ms=bank) for s in state.seats if s.house is not None}
        case mev.PowerGifted():  # MOD-GIFT-01: through the Pool, from the giver to the receiver
            state.houses[event.house].power -= event.amount
            state.houses[event.to].power += event.amount
        case mev.PlayerLeft():  # MOD-FLEX-01/02: the house becomes a vassal
            state.vassals = [*state.vassals, event.house]
            state.houses[event.house].power = 0
            # it places no orders of its own now, nor for the vassals it commanded, which have no
            # commander for the rest of this round (chosen again from the next Planning phase)
            orphans = [v for v, c in state.commanders.items() if c == event.house]
            state.commanders = {v: c for v, c in state.commanders.items() if c != event.house}
            for h in (event.house, *orphans):
                state.planning.sealed.pop(h, None)
                state.planning.salts.pop(h, None)
            state.vassal_order_sets = dict(event.order_sets)
            leaver = state.seat(event.seat_id)
            if leaver is not None:
                leaver.left = True
            _leaver_out_of_westeros(state, event.house)
            state.missed_deadlines.pop(event.house, None)
            state.missed_counted_at.pop(event.house, None)
            if event.deadline is not None:  # commanders are chosen again at once: a fresh deadline
                state.deadline = event.deadline
                state.step_version = state.version + 1
        case pev.MissedDeadlinesCleared():
            state.missed_deadlines.pop(event.house, None)
            state.missed_counted_at.pop(event.house, None)
        case mev.HouseCardsRemovedFromGame():  # Robert Arryn: gone from hand and discards for good
            hs = state.houses[event.house]
            hs.hand = [k for k in hs.hand if k not in event.cards]
            hs.discards = [k for k in hs.discards if k not in event.cards]
            hs.removed = [*hs.removed, *event.cards]
        case mev.VassalOrderSetsDealt():  # MOD-VASSAL-02: tokens back beside the track, sets dealt
            state.commanders = {}
            state.vassal_order_sets = dict(event.sets)
        case mev.VassalCommanderChosen():  # MOD-VASSAL-03/04: one set used, or handed down the track
            state.vassal_order_sets[event.house] -= 1
            if event.vassal is not None:
                state.commanders[event.vassal] = event.house
            elif event.passed_to is not None:
                state.vassal_order_sets[event.passed_to] = state.vassal_order_sets.get(event.passed_to, 0) + 1
        case mev.VassalHouseCardsDrawn():
            state.vassal_draws = event.number
            state.houses[event.house].hand = list(event.cards or [])
            drawn = set(event.cards or [])
            state.vassal_house_deck = [c for c in state.vassal_house_deck if c not in drawn]
        case mev.VassalHouseDeckRestored():
            hs = state.houses[event.house]
            hs.hand, hs.discards = [], []
            state.vassal_house_deck = vassal_deck()
        case mev.VassalPowerTokenPlaced():
            state.areas[event.area].power_token = event.house
        case mev.VassalsCommandedByLast():  # MOD-VASSAL-05
            for vassal in event.vassals:
                state.commanders[vassal] = event.house
            state.vassal_order_sets = {}
        case ev.StepBegan():
            if event.phase == "planning" and event.step == "assign_orders" and state.step != "assign_orders":
                state.planning = Planning(sequential=event.sequential)
            # StepBegan carries plain strings (its JSON schema stays open to new steps); only the
            # deciders write it, always with a Phase and a Step.
            state.phase = event.phase  # type: ignore[assignment]
            state.step = event.step  # type: ignore[assignment]
            state.round = event.round
            state.deadline = event.deadline
            state.step_version = state.version + 1  # this event's own version (fold counts it next)
        case ev.OrdersSubmitted():
            state.planning.sealed[event.house] = dict(event.orders or {})
            if event.salt is not None:
                state.planning.salts[event.house] = event.salt
        case ev.OrdersRevealed():
            state.orders = {
                area: PlacedOrder(house=house, order=order)
                for house in state.turn_order()
                for area, order in event.orders.get(house, {}).items()
            }
            state.planning.sealed = {}
            state.planning.salts = {}
        case ev.RavenOrderReplaced():
            state.orders[event.area] = PlacedOrder(house=event.house, order=event.new_order)
            state.raven_used = True
        case ev.RavenWildlingPeeked():
            state.planning.raven_peek = event.card
            state.planning.raven_peek_house = event.house
            state.raven_used = True
        case ev.RavenWildlingPlaced():
            if event.to_bottom and state.wildling_deck:
                state.wildling_deck.append(state.wildling_deck.pop(0))
        case ev.DecisionTimedOut(left=False) if state.settings.vassal_after_missed_deadlines is not None:
            # the seat deciding for each late house missed this deadline (a vassal's is its commander's),
            # once per deadline (the step's version names it)
            for head in dict.fromkeys(state.family(h) for h in event.houses):
                if head not in state.vassals and state.missed_counted_at.get(head) != state.step_version:
                    state.missed_deadlines[head] = state.missed_deadlines.get(head, 0) + 1
                    state.missed_counted_at[head] = state.step_version
        case ev.RavenPassed() | ev.DecisionTimedOut():
            pass
        case cev.ClockCharged():
            was_out = event.house in state.clocks and state.clocks[event.house].out_of_time
            state.clocks[event.house] = SeatClock(bank_ms=event.bank_ms, out_of_time=was_out or event.out_of_time)
        case cev.ClockStarted():
            for house in event.houses:
                state.clocks[house].since = event.at
        case cev.ClocksPaused():
            state.paused = Pause(at=event.at, by=event.by, reason=event.reason)
        case cev.ClocksResumed():
            state.paused = None
            state.deadline = event.deadline
            shift = timedelta(milliseconds=event.paused_ms)
            for clock in state.clocks.values():
                if clock.since is not None:
                    clock.since = rfc3339(parse_rfc3339(clock.since) + shift)
        case _ if isinstance(event, jev.JUDGE_EVENTS):
            _evolve_judge(state, event)
        case jev.UndoRequested():
            state.undo_request = UndoRequest(
                seat_id=event.seat_id,
                house=event.house,
                version=event.version,
                reason=event.reason,
                deadline=event.deadline,
            )
        case jev.UndoAnswered() if event.consent and state.undo_request is not None:
            state.undo_request.consents = [*state.undo_request.consents, event.seat_id]
        case jev.UndoAnswered() | jev.UndoExpired():
            state.undo_request = None
        case _ if isinstance(event, aev.ACTION_EVENTS):
            evolve_action(state, event)
        case _ if isinstance(event, wev.WESTEROS_EVENTS):
            evolve_westeros(state, event)
        case _:
            raise ValueError(f"unhandled event {event!r}")
    return state


def _leaver_out_of_westeros(state: BoardState, house: str) -> None:
    """MOD-FLEX-02 in a running Westeros phase: the leaver's sealed bid is withdrawn (a Clash of
    Kings bid of 0 is sealed for it next, as for every vassal); it takes no more part in a wildling
    attack (MOD-VASSAL-22): out of its bidders, and out of the houses still to take the card's effect
    (unless that effect has begun for it: its decisions got their defaults). A tie for the attack's
    target that it was in, or was to break, is withdrawn: the attack's target step runs again."""
    w = state.westeros
    if w is None:
        return
    biddings = [w.bidding] + [a.bidding for a in w.attacks]
    for b in biddings:
        if b is not None and not b.revealed:
            b.sealed.pop(house, None)
            b.salts.pop(house, None)
            if b.kind == "wildlings":
                b.houses = [h for h in b.houses if h != house]
    for a in w.attacks:
        a.houses = [h for h in a.houses if h != house]
        a.queue = [h for i, h in enumerate(a.queue) if h != house or (i == 0 and a.started)]
    if w.choice is not None and w.choice.is_wildling_tie_of(house):
        w.choice = None  # the tie is broken again among the players left in it (flexible_presence.py)


def _evolve_judge(
    state: BoardState, event: jev.JudgePowerSet | jev.JudgeUnitRestored | jev.JudgeRolledBack | jev.SeatReplaced
) -> None:
    """The judge's corrections (domain/board/judge.py). A rollback arrives here on the state already
    re-derived as of its target version (domain/core/rollback.py); what it keeps from before is
    applied here: the seats' holders, and a fresh deadline for the step that reopens."""
    match event:
        case jev.JudgePowerSet():
            state.houses[event.house].power = event.power
        case jev.JudgeUnitRestored():
            area = state.areas[event.area]
            area.house = event.house
            area.units = {**area.units, event.unit: area.units.get(event.unit, 0) + 1}
        case jev.SeatReplaced():
            seat = state.seat(event.seat_id)
            if seat is not None:
                seat.name, seat.generation = event.name, event.generation
        case jev.JudgeRolledBack():
            for seat in state.seats:
                holder = event.holders.get(seat.seat_id)
                if holder is not None:
                    seat.name, seat.generation = holder.name, holder.generation
            if state.deadline is not None:
                state.deadline = event.deadline
            state.step_version = state.version + 1  # the reopened step is this event's: old timeouts are void


def rollback_target(event: ev.Event) -> int | None:
    """The version a judge's rollback event returns the game to (None for every other event)."""
    return event.version if isinstance(event, jev.JudgeRolledBack) else None


def fold(events: Iterable[ev.Event], state: BoardState | None = None) -> BoardState | None:
    """The state after ``events`` (the version is the count of events applied)."""
    for e in events:
        state = evolve(state, e)
        state.version += 1
    return state
