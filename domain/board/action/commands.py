"""The Action phase's player commands (body of ``POST /v1/games/{id}/commands``, tag field ``type``).

Each answers one pending decision (see :mod:`domain.board.action.decisions` for the legal options).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..command_base import AreaId, Command

UnitType = Literal["footman", "knight", "siege_engine", "ship"]
Count = Annotated[int, msgspec.Meta(ge=0, le=20)]
CardId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")]
Choice = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")]


class UnitCounts(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """How many units of each type (absent = 0)."""

    footman: Count = 0
    knight: Count = 0
    siege_engine: Count = 0
    ship: Count = 0

    def as_dict(self) -> dict[str, int]:
        return {u: n for u in ("footman", "knight", "siege_engine", "ship") if (n := getattr(self, u))}


class ResolveRaid(Command, frozen=True, tag="resolve_raid"):
    """BG-RAID-*: resolve your Raid order in ``area``, removing the enemy order in ``target`` (or none)."""

    area: AreaId
    target: AreaId | None = None


class ResolveMarch(Command, frozen=True, tag="resolve_march"):
    """BG-MARCH-*: resolve your March order in ``area``: ``moves`` maps each destination to the units
    sent there (empty: the March does nothing). ``leave_power_token`` keeps control of a land area
    that all your units leave (BG-MARCH-06)."""

    area: AreaId
    moves: Annotated[dict[str, UnitCounts], msgspec.Meta(max_length=16)] = {}
    """destination area id -> units sent there (unknown areas are refused by the rules)."""
    leave_power_token: bool = False


class Recruit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One mustering purchase (BG-MUSTER-02): a new ``unit`` placed in ``area``, or with ``upgrade``
    true a Footman in the mustering area replaced by ``unit``."""

    unit: UnitType
    area: AreaId | None = None
    """Where a new Ship goes (an adjacent sea or the port); land units go in the mustering area."""
    upgrade: bool = False


class ResolveConsolidatePower(Command, frozen=True, tag="resolve_consolidate_power"):
    """BG-CP-*: resolve your Consolidate Power order in ``area``. With a special order in a
    castle/stronghold area, ``muster`` (possibly empty) musters instead of gaining Power (BG-CP-03)."""

    area: AreaId
    muster: Annotated[list[Recruit], msgspec.Meta(max_length=4)] | None = None


class DeclareSupport(Command, frozen=True, tag="declare_support"):
    """BG-COMBAT-03/04: back the attacker, the defender, or nobody with all your adjacent Support orders."""

    side: Literal["attacker", "defender", "none"]


class ChooseHouseCard(Command, frozen=True, tag="choose_house_card"):
    """BG-COMBAT-09: choose your House card for this combat (sealed until both are chosen)."""

    card: CardId


class ChooseAbility(Command, frozen=True, tag="choose_ability"):
    """Answer a House card ability: one of the listed ``choices``, or null to skip when allowed."""

    choice: Choice | None = None


class UseBlade(Command, frozen=True, tag="use_blade"):
    """BG-COMBAT-11: use the Valyrian Steel Blade (+1) in this combat, or not."""

    use: bool


class ChooseCasualties(Command, frozen=True, tag="choose_casualties"):
    """BG-COMBAT-15: the units of your losing army that die (exactly the number required)."""

    units: UnitCounts


class ChooseRetreat(Command, frozen=True, tag="choose_retreat"):
    """BG-COMBAT-18..21: the area the losing army retreats to (one of the listed options)."""

    area: AreaId


class ChooseRetreatLosses(Command, frozen=True, tag="choose_retreat_losses"):
    """BG-COMBAT-20: the retreating units that supply destroys (exactly the number required, taken from
    the retreating army; the others retreat)."""

    units: UnitCounts


class ReplacePortShips(Command, frozen=True, tag="replace_port_ships"):
    """BG-MAP-07: put ``count`` of your available Ships in the captured port."""

    count: Annotated[int, msgspec.Meta(ge=0, le=3)]


ActionCommand = (
    ResolveRaid
    | ResolveMarch
    | ResolveConsolidatePower
    | DeclareSupport
    | ChooseHouseCard
    | ChooseAbility
    | UseBlade
    | ChooseCasualties
    | ChooseRetreat
    | ChooseRetreatLosses
    | ReplacePortShips
)
