"""The Westeros phase's player commands (body of ``POST /v1/games/{id}/commands``, tag ``type``).

Each answers one pending decision (see :mod:`.decisions` for the legal options).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..action.commands import Choice, Recruit, UnitCounts
from ..command_base import AreaId, Command


class Bid(Command, frozen=True, tag="bid"):
    """BG-COK-03 / BG-WILD-01: bid ``amount`` of your available Power, sealed until every house has bid."""

    amount: Annotated[int, msgspec.Meta(ge=0, le=20)]


class WesterosChoice(Command, frozen=True, tag="westeros_choice"):
    """Answer a Westeros choice: one of the listed ``options``, or null to skip when allowed."""

    choice: Choice | None = None


class SelectUnits(Command, frozen=True, tag="select_units"):
    """Pick units on the board for a wildling card: area -> units (see the decision's bounds)."""

    units: Annotated[dict[AreaId, UnitCounts], msgspec.Meta(max_length=40)] = {}


class ReconcileArmies(Command, frozen=True, tag="reconcile_armies"):
    """BG-SUPPLY-04: the units you destroy (area -> units) so that your armies fit your supply."""

    units: Annotated[dict[AreaId, UnitCounts], msgspec.Meta(max_length=40)]


class Muster(Command, frozen=True, tag="muster"):
    """BG-MUSTER-*: recruit in your castle/stronghold areas: area -> purchases (empty: nothing)."""

    recruits: Annotated[
        dict[AreaId, Annotated[list[Recruit], msgspec.Meta(max_length=4)]], msgspec.Meta(max_length=20)
    ] = {}


WesterosCommand = Bid | WesterosChoice | SelectUnits | ReconcileArmies | Muster
WESTEROS_COMMANDS = (Bid, WesterosChoice, SelectUnits, ReconcileArmies, Muster)
