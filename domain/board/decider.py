"""The board game as a Decider: ``decide(state, command, actor, ctx) -> events`` and
``evolve(state, event) -> state``; the state is the fold of the events (DESIGN.md).

``decide`` is pure: it reads the state and the context and returns new events, or raises a
:class:`~domain.core.errors.RuleViolation` and returns nothing. ``evolve`` and ``fold`` live in
:mod:`domain.board.evolve` (below every decider) and are re-exported here.
"""

from __future__ import annotations

from ..core.commands import PauseClocks, ResumeClocks
from ..core.context import Context
from ..core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from ..core.lobby import check_can_start, next_seat
from ..core.rng import commit_seed
from . import (
    board_data,
    clocks,
    fixture_start,
    flexible_presence,
    gifts,
    house_choice,
    judge,
    planning,
    undo_consent,
    victory,
)
from . import commands as cmd
from . import events as ev
from . import mother_of_dragons as mod
from .action import decider as action
from .emitter import Emitter, copy_state
from .evolve import evolve, fold, rollback_target
from .planning import commanders
from .scenario import Scenario, apply_scenario, check_mod_players, validate_scenario
from .setup import MAX_PLAYERS, MIN_PLAYERS, houses_for
from .state import FINAL_STEP, WESTEROS_STEP, BoardState, Settings
from .supply import supply_ok
from .timeouts import bank_timeout_events, timeout_events
from .westeros import decider as westeros

__all__ = [
    "DEFAULT_SETTINGS",
    "create",
    "decide",
    "evolve",
    "fold",
    "house_of",
    "pending_system_work",
    "rollback_target",
]

# ---------------------------------------------------------------------------------------------
# decide


def create(command: cmd.CreateGame, ctx: Context) -> list[ev.Event]:
    """Create a game for 3-6 players (BG-SETUP-01), or 3-7 with Mother of Dragons (MOD-SETUP-01).
    The seed is committed as a hash."""
    if command.settings.expansion is not None:
        return _create_expansion(command, ctx)
    if command.settings.vassal_after_missed_deadlines is not None:
        raise RuleViolation(
            "settings.vassal_after_missed_deadlines needs Mother of Dragons (settings.expansion): only a "
            "vassal can take over a house whose player stops playing",
            rule="MOD-FLEX-01",
            code="invalid_settings",
        )
    if not MIN_PLAYERS <= command.player_count <= MAX_PLAYERS:
        raise RuleViolation(
            f"the base game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {command.player_count}",
            rule="BG-SETUP-01",
            code="invalid_player_count",
        )
    if command.seat_houses is not None:
        check_seat_houses(command.player_count, command.seat_houses)
        if command.scenario is not None:
            raise RuleViolation(
                "give seat houses in the scenario (scenario.seat_houses), not beside it",
                rule="BG-SETUP-02",
                code="invalid_seat_houses",
            )
    created = ev.GameCreated(
        game_id=ctx.game_id,
        player_count=command.player_count,
        settings=command.settings,
        seed_commitment=commit_seed(ctx.seed),
        sealed_commitments=True,
        seat_houses=list(command.seat_houses) if command.seat_houses is not None else None,
    )
    if command.scenario is None:
        return [created]
    return [created, _load_scenario(created, command.scenario, ctx)]


def _create_expansion(command: cmd.CreateGame, ctx: Context) -> list[ev.Event]:
    """Mother of Dragons (MOD-SETUP-01): 3-7 players; the seats choose their houses at the start, or
    a given deal (``seat_houses``, :func:`~.mother_of_dragons.check_given_deal`) skips the choice. Time
    banks are the players' (a vassal's decisions run its commander's, domain/board/clocks.py). A
    scenario fixture names the players' houses (its ``seat_houses``) and opens on Planning or on a
    start point after it with the round's commanders given (:func:`~.scenario.check_mod_players`)."""
    if not mod.MIN_PLAYERS <= command.player_count <= mod.MAX_PLAYERS:
        raise RuleViolation(
            f"Mother of Dragons without Targaryen is for {mod.MIN_PLAYERS}-{mod.MAX_PLAYERS} players, "
            f"not {command.player_count}",
            rule="MOD-SETUP-01",
            code="invalid_player_count",
        )
    if command.seat_houses is not None:
        if command.scenario is not None:
            raise RuleViolation(
                "give seat houses in the scenario (scenario.seat_houses), not beside it",
                rule="MOD-SETUP-01",
                code="invalid_seat_houses",
            )
        mod.check_given_deal(command.player_count, command.seat_houses)
    created = ev.GameCreated(
        game_id=ctx.game_id,
        player_count=command.player_count,
        settings=command.settings,
        seed_commitment=commit_seed(ctx.seed),
        sealed_commitments=True,
        seat_houses=list(command.seat_houses) if command.seat_houses is not None else None,
    )
    if command.scenario is None:
        return [created]
    return [created, _load_scenario(created, command.scenario, ctx)]


def check_seat_houses(player_count: int, seat_houses: list[str]) -> None:
    """BG-SETUP-01/02: a given deal names each house in play at this player count exactly once."""
    in_play = houses_for(player_count)
    if sorted(seat_houses) != sorted(in_play):
        raise RuleViolation(
            f"seat_houses must name each house in play with {player_count} players once, seat1 first: "
            f"{', '.join(in_play)}",
            rule="BG-SETUP-02",
            code="invalid_seat_houses",
        )


def _load_scenario(created: ev.GameCreated, sc: Scenario, ctx: Context) -> ev.ScenarioLoaded:
    """Scenario fixtures: validate the described position like any input (domain/board/scenario.py),
    including supply limits (BG-SUPPLY-05) once it is laid out; a start point beyond the Action
    phase's threshold is opened once through the rules (domain/board/fixture_start.py)."""
    fresh = evolve(None, created)
    if mod.is_mother_of_dragons(fresh):  # MOD-SETUP-01: the players' houses first, the rest are vassals
        check_mod_players(fresh, sc)
        mod.lay_out_started(fresh, set(sc.seat_houses or []))
    validate_scenario(fresh, sc)
    apply_scenario(fresh, sc)
    for house in fresh.houses_in_play:
        if not supply_ok(fresh, house):
            raise RuleViolation(
                f"{house}'s armies exceed its supply limit", rule="BG-SUPPLY-05", code="invalid_scenario"
            )
    loaded = ev.ScenarioLoaded(scenario=sc)
    if sc.start_at != "planning":
        probe = evolve(evolve(None, created), loaded)
        fixture_start.rehearse(probe, _started(probe, ctx), ctx)
    return loaded


def _join(state: BoardState, command: cmd.JoinGame) -> list[ev.Event]:
    seat_id = next_seat(state.phase == "lobby", len(state.seats), state.player_count)
    return [ev.SeatJoined(seat_id=seat_id, name=command.name)]


def _start(state: BoardState, ctx: Context) -> list[ev.Event]:
    """BG-SETUP-02/03/04: deal houses to seats at random, shuffle the decks, open Planning. A
    scenario fixture's seat houses and deck orders are used as given, and the game opens on its
    start point (domain/board/fixture_start.py)."""
    check_can_start(state.phase == "lobby", len(state.seats), state.player_count)
    started = _started(state, ctx)
    if mod.is_mother_of_dragons(state) and state.start_at == "planning":  # MOD-SETUP-01: houses chosen first
        if state.seat_houses is not None or state.fixture is not None:  # ... unless given at creation
            return house_choice.given_deal_events(state, started, ctx)
        return [started, *house_choice.start_events(state, ctx)]
    if state.start_at != "planning":  # a fixture's start point (with Mother of Dragons, its commanders given)
        # folded, not only evolved: the opening's events are numbered after ``started`` (a sealed
        # input's salt is drawn for its event's number, domain/core/commitment.py)
        after = fold([started], copy_state(state))
        assert after is not None, "folding an event onto a state gives a state"
        return [started, *fixture_start.opening(after, ctx)]
    # BG-ROUND-02: no Westeros phase in round 1; the game opens on Planning.
    return [started, *_planning_begins(state, ctx)]


def _started(state: BoardState, ctx: Context) -> ev.GameStarted:
    """The deal: houses to seats in the order they were taken, the wildling and Westeros decks
    (each from its own random stream of the seed, unless the fixture gives it)."""
    fx = state.fixture
    given = fx.westeros if fx is not None else None
    if fx is not None and fx.seat_houses is not None:
        houses = list(fx.seat_houses)
    elif state.seat_houses is not None:
        houses = list(state.seat_houses)
    elif mod.is_mother_of_dragons(state):
        houses = []  # MOD-SETUP-01: chosen by the seats in turn (domain/board/house_choice.py)
    else:
        houses = ctx.rng("start/houses").shuffled(state.houses_in_play)
    cards = board_data.cards()
    if given is not None and given.wildling_deck is not None:
        wildlings = list(given.wildling_deck)
    else:
        wildlings = ctx.rng("start/wildling_deck").shuffled([c.id for c in cards.wildling_cards])
    decks = {
        deck: list(given.decks[deck])
        if given is not None and deck in given.decks
        else ctx.rng(f"start/{deck}").shuffled([c.id for c in deck_cards for _ in range(c.count)])
        for deck, deck_cards in cards.westeros_decks.items()
    }
    return ev.GameStarted(
        houses={seat.seat_id: house for seat, house in zip(state.seats, houses)},
        wildling_deck=wildlings,
        westeros_decks=decks,
    )


def _planning_begins(state: BoardState, ctx: Context) -> list[ev.Event]:
    em = Emitter(state, ctx)
    commanders.open_planning(em)
    return em.events


def house_of(state: BoardState, actor: cmd.Actor) -> str:
    if actor.kind != "seat":
        raise Forbidden("only a seated player may issue this command")
    seat = state.seat(actor.seat_id or "")
    if seat is not None and seat.generation != actor.generation:
        raise Forbidden("the judge gave this seat to another player: this token is void", code="token_replaced")
    if seat is None or seat.house is None:
        raise NotYourTurn("this seat has no house yet; the game has not started", code="not_started")
    if seat.left:  # MOD-FLEX-01: its house is a vassal now
        raise Forbidden("this seat's player left the game; its house is a vassal", code="seat_left")
    return seat.house


def acting_house(state: BoardState, actor: cmd.Actor, command: object) -> str:
    """The house a player's command acts for: the seat's own, or with ``for_vassal`` a vassal that
    the seat's house commands this round (MOD-VASSAL-08/09/13/24)."""
    house = house_of(state, actor)
    vassal = getattr(command, "for_vassal", None)
    if vassal is None:
        return house
    if state.commanders.get(vassal) != house:
        raise Forbidden(f"{house} does not command '{vassal}' this round", rule="MOD-VASSAL-03", code="not_your_vassal")
    return str(vassal)


def decide(state: BoardState, command: object, actor: cmd.Actor, ctx: Context) -> list[ev.Event]:
    """Turn a command into events, or raise a RuleViolation. Never mutates ``state``.

    BG-VIC-01: the change of control that gives a house 7 castle/stronghold areas ends the game at
    once: the batch is cut there and ``GameEnded`` appended (:func:`~.victory.check_batch`)."""
    final = state.step == FINAL_STEP and isinstance(command, cmd.ResolvePending)
    if state.phase == "ended" and not final:
        raise WrongPhase("the game is over", code="game_over")
    if isinstance(command, PauseClocks):
        return clocks.pause(state, command, actor, ctx)
    if isinstance(command, ResumeClocks):
        return clocks.resume(state, command, actor, ctx)
    clocks.refuse_while_paused(state)
    batch = victory.check_batch(state, _decide(state, command, actor, ctx) + _own_command(state, command, actor))
    if state.settings.time_bank_s is None:
        return batch
    # docs/clocks.md: the time banks' charges and starts close every batch
    return batch + clocks.clock_events(state, batch, actor, ctx)


def _own_command(state: BoardState, command: object, actor: cmd.Actor) -> list[ev.Event]:
    """``settings.vassal_after_missed_deadlines``: a command of the seat's own ends its run of missed
    deadlines (domain/board/flexible_presence.py)."""
    if actor.kind != "seat" or not state.missed_deadlines or isinstance(command, cmd.LeaveGame):
        return []
    seat = state.seat(actor.seat_id or "")
    return flexible_presence.clear_missed(state, seat.house) if seat is not None and seat.house else []


def _decide(state: BoardState, command: object, actor: cmd.Actor, ctx: Context) -> list[ev.Event]:
    match command:
        case cmd.JoinGame():
            return _join(state, command)
        case cmd.StartGame():
            if actor.kind != "organizer":
                raise Forbidden("only the organizer may start the game")
            return _start(state, ctx)
        case cmd.ResolvePending():
            return _resolve_pending(state, ctx)
        case cmd.ApplyTimeout():
            return _timeout(state, command, ctx)
        case _ if isinstance(command, judge.JUDGE_COMMANDS):
            return judge.decide_judge(state, command, actor, ctx)
        case undo_consent.UndoRequestAt():  # docs/judge.md: undo with the opponents' consent
            house = house_of(state, actor)
            return undo_consent.request_undo(state, actor.seat_id or "", house, command, ctx)
        case undo_consent.AnswerUndo():
            house = house_of(state, actor)
            return undo_consent.answer_undo(state, actor.seat_id or "", house, command, ctx)
        case cmd.ChooseHouse():
            return house_choice.choose(state, command, actor, ctx)
        case cmd.GiftPower():  # MOD-GIFT-01..03: at any time, not a pending decision
            return list(gifts.gift_power(state, house_of(state, actor), command))
        case cmd.LeaveGame():  # MOD-FLEX-01/02
            return flexible_presence.leave(state, actor.seat_id or "", house_of(state, actor), command, ctx)
        case cmd.CommandVassal():
            em = Emitter(state, ctx)
            commanders.command_vassal(em, house_of(state, actor), command.vassal)
            return em.events
        case cmd.AssignOrders():
            house = acting_house(state, actor, command)
            out = planning.assign_orders(state, ctx, house, command.orders)
            if state.planning.sequential:
                nxt = [h for h in planning.houses_still_to_submit(state) if h != house]
                if nxt:
                    out.append(planning.assign_orders_step(state, ctx, sequential=True))
            return out
        case cmd.RavenReplaceOrder():
            return planning.raven_replace_order(state, house_of(state, actor), command.area, command.new_order)
        case cmd.RavenPeekWildling():
            return planning.raven_peek_wildling(
                state, house_of(state, actor), ctx.deadline(state.settings.decision_timeout_s)
            )
        case cmd.RavenPlaceWildling():
            return planning.raven_place_wildling(state, house_of(state, actor), command.to_bottom)
        case cmd.RavenPass():
            return planning.raven_pass(state, house_of(state, actor))
        case _ if isinstance(command, action.ACTION_COMMANDS):
            return action.decide_action(state, command, acting_house(state, actor, command), ctx)
        case _ if isinstance(command, westeros.WESTEROS_COMMANDS):
            return westeros.decide_westeros(state, command, acting_house(state, actor, command), ctx)
    raise RuleViolation(f"unknown command {type(command).__name__}", code="unknown_command")


def pending_system_work(state: BoardState) -> bool:
    """True when every simultaneous input is in and a worker must resolve the step (sealed orders
    or bids to reveal), or when a phase must be opened or closed by the system: the Action phase
    (``awaiting_action_phase``), the Westeros phase (``awaiting_westeros_phase``), the final scoring
    after round 10 (``awaiting_final_scoring``). Nothing while the clocks are paused (docs/clocks.md)."""
    if state.paused is not None:
        return False
    if state.phase == "action" and state.step == "awaiting_action_phase":
        return True
    if state.phase == "westeros" and state.step == WESTEROS_STEP:
        return True
    if state.phase == "ended" and state.step == FINAL_STEP:
        return True
    if westeros.bids_ready(state):
        return True
    if commanders.rechoosing(state):  # Review 2: a vassal's new commander places its orders first
        return False
    return state.phase == "planning" and state.step == "assign_orders" and not planning.houses_still_to_submit(state)


def _resolve_pending(state: BoardState, ctx: Context) -> list[ev.Event]:
    if not pending_system_work(state):
        raise WrongPhase("nothing is waiting to be resolved", code="nothing_pending")
    if state.step == "awaiting_action_phase":
        return action.start_action_phase(state, ctx)  # BG-ACT-01
    if state.step == WESTEROS_STEP:
        return westeros.start_westeros_phase(state, ctx)  # BG-WEST-01
    if state.step == FINAL_STEP:
        return victory.final_scoring(state)  # BG-VIC-03
    if westeros.bids_ready(state):
        return westeros.reveal_bids(state, ctx)  # BG-COK-03, BG-WILD-01
    return planning.reveal_orders(state, ctx.deadline(state.settings.decision_timeout_s))


def _timeout(state: BoardState, command: cmd.ApplyTimeout, ctx: Context) -> list[ev.Event]:
    """A deadline passed: apply the documented defaults (domain/board/timeouts.py), but only if the
    step that set the deadline is still current and the deadline really is in the past. With time
    banks (docs/clocks.md) the deadline may be a house's bank running out before the step's own
    deadline: then only that house's decisions get their defaults."""
    if state.step_version != command.step_version:
        raise WrongPhase("the step this timeout was for is over", code="timeout_void")
    expired = undo_consent.expire(state, ctx)  # an undo request's deadline: refused by default
    if expired:
        return expired
    if state.deadline is None:
        raise WrongPhase("the step this timeout was for is over", code="timeout_void")
    now = clocks.now_of(ctx)
    due = clocks.effective_deadline(state)
    if due is None or due > now:
        raise WrongPhase("the deadline has not passed yet", code="timeout_early")
    only = clocks.houses_due(state, now)
    events = timeout_events(state, ctx) if only is None else bank_timeout_events(state, ctx, set(only))
    if not events:
        raise WrongPhase("no decision is missing", code="timeout_void")
    return events + flexible_presence.leave_after_timeouts(state, events, ctx)


DEFAULT_SETTINGS = Settings()
