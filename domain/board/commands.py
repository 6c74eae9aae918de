"""Commands: what a seat, the organizer or the system asks the game to do.

A command is a request; ``decide`` turns it into events or raises a :class:`RuleViolation`.
The tagged union is also the body of ``POST /v1/games/{id}/commands`` (tag field ``type``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..core.commands import Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from .action.commands import ActionCommand
from .command_base import AreaId, Command, OrderId
from .scenario import Scenario
from .state import Settings
from .undo_consent import AnswerUndo
from .westeros.commands import WesterosCommand


class AssignOrders(Command, frozen=True, tag="assign_orders"):
    """Place one order on every area with your units (BG-PLAN-02). May be amended until everyone has submitted."""

    orders: Annotated[dict[str, str], msgspec.Meta(max_length=64)]
    """area id -> order token id. The schema lists the known ids; the server leaves them to the rules, which
    refuse unknown areas and tokens (422)."""


class RavenReplaceOrder(Command, frozen=True, tag="raven_replace_order"):
    """Messenger Raven: swap your order in ``area`` for the unused token ``new_order`` (BG-PLAN-07)."""

    area: AreaId
    new_order: OrderId


class RavenPeekWildling(Command, frozen=True, tag="raven_peek_wildling"):
    """Messenger Raven: look at the top wildling card (BG-PLAN-07)."""


class RavenPlaceWildling(Command, frozen=True, tag="raven_place_wildling"):
    """After peeking: leave the card on top (``to_bottom=false``) or put it at the bottom."""

    to_bottom: bool


class RavenPass(Command, frozen=True, tag="raven_pass"):
    """Do not use the Messenger Raven this round."""


class ChooseHouse(Command, frozen=True, tag="choose_house"):
    """Mother of Dragons (MOD-SETUP-01): choose your house, when it is your seat's turn to choose."""

    house: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[a-z_]+$")]


class GiftPower(Command, frozen=True, tag="gift_power"):
    """Mother of Dragons (MOD-GIFT-01..03): give ``amount`` of your available Power to the player
    house ``to``, at any time outside a combat, or during a combat's Call for Support. Only as many as
    the receiver has left in the Power Pool leave you."""

    to: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[a-z_]+$")]
    amount: Annotated[int, msgspec.Meta(ge=1, le=20)]


class LeaveGame(Command, frozen=True, tag="leave_game"):
    """Mother of Dragons (MOD-FLEX-01/02): leave the game; your house and its units become a vassal.
    At any time of the running game (Planning, Action, Westeros): what you had pending gets its
    default, and the commanders of your house and your vassals are chosen again at once
    (docs/mother-of-dragons.md)."""

    reason: Annotated[str, msgspec.Meta(max_length=200)] = ""


class CommandVassal(Command, frozen=True, tag="command_vassal"):
    """Mother of Dragons (MOD-VASSAL-03/04): with one of your sets of Vassal Order tokens, command
    ``vassal`` this round, or pass the set to the next player on the Iron Throne track (null)."""

    vassal: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[a-z_]+$")] | None
    """A vassal nobody commands yet this round (the options list them), or null to pass the set."""


PlanningCommand = (
    ChooseHouse | CommandVassal | AssignOrders | RavenReplaceOrder | RavenPeekWildling | RavenPlaceWildling | RavenPass
)

# The Action phase's commands live in domain/board/action/commands.py, the Westeros phase's in
# domain/board/westeros/commands.py.
PlayerCommand = PlanningCommand | ActionCommand | WesterosCommand | AnswerUndo | GiftPower | LeaveGame


# Commands that do not come through POST /commands ---------------------------------------------


class CreateGame(msgspec.Struct, frozen=True):
    player_count: int
    settings: Settings
    scenario: Scenario | None = None
    """Start from a described position (scenario fixtures, domain/board/scenario.py)."""
    seat_houses: (
        Annotated[list[Annotated[str, msgspec.Meta(min_length=1, max_length=32)]], msgspec.Meta(max_length=7)] | None
    ) = None
    """The house of each seat, ``seat1`` first, each house in play once (BG-SETUP-01/02): the deal
    the start uses instead of a random one (a tournament's draw, ``POST /v1/tournaments``). With
    Mother of Dragons: one of the seven houses per seat, each once; it replaces the house choice and
    the houses not named become vassals (MOD-SETUP-01). Unset: houses are dealt at random from the
    seed when the game starts (chosen by the seats with Mother of Dragons)."""


__all__ = [
    "Actor",
    "ApplyTimeout",
    "AreaId",
    "AssignOrders",
    "Command",
    "ChooseHouse",
    "CommandVassal",
    "CreateGame",
    "GiftPower",
    "JoinGame",
    "LeaveGame",
    "OrderId",
    "PlayerCommand",
    "RavenPass",
    "RavenPeekWildling",
    "RavenPlaceWildling",
    "RavenReplaceOrder",
    "ResolvePending",
    "StartGame",
]
