"""Commands: what a seat, the organizer or the system asks the game to do.

A command is a request; ``decide`` turns it into events or raises a :class:`RuleViolation`.
The tagged union is also the body of ``POST /v1/games/{id}/commands`` (tag field ``type``).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..core.commands import Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from .command_base import AreaId, Command, OrderId
from .scenario import Scenario
from .state import Settings


class AssignOrders(Command, tag="assign_orders"):
    """Place one order on every area with your units (BG-PLAN-02). May be amended until everyone has submitted."""

    orders: Annotated[dict[str, str], msgspec.Meta(max_length=64)]
    """area id -> order token id. Unknown areas and tokens are refused by the rules (422), not by the schema."""


class RavenReplaceOrder(Command, tag="raven_replace_order"):
    """Messenger Raven: swap your order in ``area`` for the unused token ``new_order`` (BG-PLAN-07)."""

    area: AreaId
    new_order: OrderId


class RavenPeekWildling(Command, tag="raven_peek_wildling"):
    """Messenger Raven: look at the top wildling card (BG-PLAN-07)."""


class RavenPlaceWildling(Command, tag="raven_place_wildling"):
    """After peeking: leave the card on top (``to_bottom=false``) or put it at the bottom."""

    to_bottom: bool


class RavenPass(Command, tag="raven_pass"):
    """Do not use the Messenger Raven this round."""


PlayerCommand = AssignOrders | RavenReplaceOrder | RavenPeekWildling | RavenPlaceWildling | RavenPass

# The Action phase's commands (issue 3) live in domain/board/action/commands.py.
from .action.commands import ActionCommand  # noqa: E402

PlayerCommand = PlayerCommand | ActionCommand

# The Westeros phase's commands (issue 4) live in domain/board/westeros/commands.py.
from .westeros.commands import WesterosCommand  # noqa: E402

PlayerCommand = PlayerCommand | WesterosCommand


# Commands that do not come through POST /commands ---------------------------------------------


class CreateGame(msgspec.Struct, frozen=True):
    player_count: int
    settings: Settings
    scenario: Scenario | None = None
    """Start from a described position (scenario fixtures, domain/board/scenario.py)."""


__all__ = [
    "Actor",
    "ApplyTimeout",
    "AreaId",
    "AssignOrders",
    "Command",
    "CreateGame",
    "JoinGame",
    "OrderId",
    "PlayerCommand",
    "RavenPass",
    "RavenPeekWildling",
    "RavenPlaceWildling",
    "RavenReplaceOrder",
    "ResolvePending",
    "StartGame",
]
