"""The base class of player commands and the shared id types (re-exported by
:mod:`domain.board.commands`), alone so that each phase's command module can use them without
importing the board's command union, which imports it."""

from __future__ import annotations

from typing import Annotated

import msgspec

AreaId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z_]+$")]
OrderId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")]


class Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    for_vassal: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[a-z_]+$")] | None = None
    """Mother of Dragons: act for this vassal, which you command this round (MOD-VASSAL-08/09/13);
    copy the decision's ``for_vassal``. Null (the default): for your own house."""
