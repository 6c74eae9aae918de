"""The judge's console: the corrections a tournament judge may make, as commands (docs/judge.md).

Only the judge's actor (``Actor(kind="judge")``, the bearer of the game's judge token) may issue
them, and only between the start and the end of the game. Each becomes one public event carrying
its ``author`` and ``reason`` (:mod:`.judge_events`), re-derived by the offline audit like every
other batch (:mod:`.replay`):

* ``set_power``: a house's available Power tokens (BG-POWER-01: never more than the 20 a house owns
  minus its tokens on the board);
* ``restore_unit``: one unit back on the board, where its house could stand (no other house's units
  or Power token there, a Ship only at sea or in a port, within the unit limits BG-COMP-03 and the
  supply limit BG-SUPPLY-05), not during a combat;
* ``roll_back``: the game as it stood at an earlier version, by one compensating event;
  ``undo_last_command``: the same, back to just before a seat's last command (the service finds
  that version in the stream and issues the rollback with ``undone_seat``);
* ``replace_player``: a new player in a vanished player's seat, with a new token generation.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..core.commands import Actor
from ..core.context import Context
from ..core.errors import Forbidden, RuleViolation, WrongPhase
from . import board_data
from .command_base import AreaId, Command
from .event_base import Event
from .judge_events import JudgePowerSet, JudgeRolledBack, JudgeUnitRestored, SeatHolder, SeatReplaced
from .power import tokens_on_board
from .state import UNIT_TYPES, BoardState
from .supply import available_units, supply_ok

Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
"""Why the judge acts: shown in the log and kept in the export."""
SeatId = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^seat[0-9]+$")]
AUTHOR = "judge"


class SetPower(Command, frozen=True, tag="set_power"):
    """Set a house's available Power tokens (behind its screen) to ``power`` (BG-POWER-01)."""

    house: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    power: Annotated[int, msgspec.Meta(ge=0, le=20)]
    reason: Reason


class RestoreUnit(Command, frozen=True, tag="restore_unit"):
    """Put one unit of ``house`` back on the board in ``area`` (BG-COMP-03, BG-SUPPLY-05)."""

    house: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    area: AreaId
    unit: Literal["footman", "knight", "siege_engine", "ship"]
    reason: Reason


class RollBack(Command, frozen=True, tag="roll_back"):
    """Return the game to how it stood at ``version`` (the end of a batch, not before the start)
    by appending one ``judge_rolled_back`` event; nothing is erased from the stream."""

    version: Annotated[int, msgspec.Meta(ge=1)]
    reason: Reason
    undone_seat: SeatId | None = None
    """Filled in by ``undo_last_command``: the seat whose last command this rollback undoes."""


class UndoLastCommand(Command, frozen=True, tag="undo_last_command"):
    """Undo the last command ``seat_id`` sent, by ruling: a rollback to just before it (later events
    are undone with it). Refused when the seat has sent no command since the start."""

    seat_id: SeatId
    reason: Reason


class ReplacePlayer(Command, frozen=True, tag="replace_player"):
    """Give ``seat_id`` to a new player ``name``: the answer carries the seat's new token, and the
    old one is refused from then on (``token_replaced``)."""

    seat_id: SeatId
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    reason: Reason


JudgeCommand = SetPower | RestoreUnit | RollBack | UndoLastCommand | ReplacePlayer
"""The body of ``POST /v1/games/{id}/judge`` (tag ``type``)."""
JUDGE_COMMANDS = (SetPower, RestoreUnit, RollBack, UndoLastCommand, ReplacePlayer)


def decide_judge(state: BoardState, command: object, actor: Actor, ctx: Context) -> list[Event]:
    """A judge's correction as one event, or a refusal. The game must be running (started, not over)."""
    if actor.kind != "judge":
        raise Forbidden("only the game's judge may do this", code="judge_only")
    if state.phase == "lobby":
        raise WrongPhase("the game has not started", code="not_started")
    match command:
        case SetPower():
            return [_set_power(state, command)]
        case RestoreUnit():
            return [_restore_unit(state, command)]
        case RollBack():
            return [roll_back(state, command.version, command.reason, ctx, command.undone_seat)]
        case ReplacePlayer():
            return [_replace(state, command)]
    raise RuleViolation(f"{type(command).__name__} is answered by the service", code="unknown_command")


def _house(state: BoardState, house: str) -> str:
    if house not in state.houses_in_play:
        raise RuleViolation(f"{house!r} is not a house in this game", code="unknown_house")
    return house


def _set_power(state: BoardState, c: SetPower) -> JudgePowerSet:
    house = _house(state, c.house)
    room = board_data.setup().power_tokens_per_house - tokens_on_board(state, house)
    if c.power > room:
        raise RuleViolation(
            f"{house} owns 20 Power tokens and has {20 - room} on the board: at most {room} available",
            rule="BG-POWER-01",
            code="power_out_of_range",
        )
    return JudgePowerSet(house=house, power=c.power, previous=state.houses[house].power, author=AUTHOR, reason=c.reason)


def _restore_unit(state: BoardState, c: RestoreUnit) -> JudgeUnitRestored:
    house = _house(state, c.house)
    facts = board_data.areas().get(c.area)
    here = state.areas.get(c.area)
    if facts is None or here is None or here.blocked:
        raise RuleViolation(f"{c.area!r} is not an area in play", code="unknown_area")
    if state.action is not None and state.action.combat is not None:
        raise WrongPhase("a combat is being resolved: restore the unit after it", code="combat_in_progress")
    if (facts.kind == "land") == (c.unit == "ship"):
        raise RuleViolation(
            "Ships stand at sea or in ports, other units on land", rule="BG-MAP-07", code="unit_not_allowed_here"
        )
    if (here.house not in (None, house) and any(here.units.values())) or here.power_token not in (None, house):
        raise RuleViolation(f"{c.area} belongs to another house", rule="BG-MAP-04", code="area_taken")
    if here.neutral:
        raise RuleViolation(f"{c.area} holds a neutral force", rule="BG-SETUP-06", code="area_taken")
    assert c.unit in UNIT_TYPES
    if available_units(state, house, c.unit) < 1:
        raise RuleViolation(f"{house} has no {c.unit} left to place", rule="BG-COMP-03", code="unit_limit")
    if not supply_ok(state, house, {c.area: 1}):
        raise RuleViolation(
            f"one more unit in {c.area} breaks {house}'s supply limit", rule="BG-SUPPLY-05", code="supply"
        )
    return JudgeUnitRestored(house=house, area=c.area, unit=c.unit, author=AUTHOR, reason=c.reason)


def roll_back(
    state: BoardState, version: int, reason: str, ctx: Context, undone_seat: str | None = None
) -> JudgeRolledBack:
    """The rollback event: ``version`` must lie between the start and now; the seats' holders are
    kept and the reopened step gets a fresh deadline (applied only if it has one)."""
    if not max(1, state.started_version) <= version < state.version:
        raise RuleViolation(
            f"a rollback goes to a version from the start ({state.started_version}) to before now ({state.version})",
            code="rollback_out_of_range",
        )
    return JudgeRolledBack(
        version=version,
        author=AUTHOR,
        reason=reason,
        holders={s.seat_id: SeatHolder(name=s.name, generation=s.generation) for s in state.seats},
        deadline=ctx.deadline(state.settings.decision_timeout_s),
        undone_seat=undone_seat,
    )


def _replace(state: BoardState, c: ReplacePlayer) -> SeatReplaced:
    seat = state.seat(c.seat_id)
    if seat is None:
        raise RuleViolation(f"{c.seat_id} is not a seat of this game", code="unknown_seat")
    return SeatReplaced(
        seat_id=seat.seat_id, name=c.name, generation=seat.generation + 1, author=AUTHOR, reason=c.reason
    )
