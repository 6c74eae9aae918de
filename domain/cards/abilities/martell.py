"""Martell cards' abilities (the targaryen_sun deck's Martell half)."""

from __future__ import annotations

from ..state import CardState
from .base import Ability, bearer


class PalaceSpearman(Ability):
    """Palace Spearman: has an intrigue icon while you are not the first player."""

    code = "01114"
    kinds = ("constant",)

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("intrigue",) if target == source and state.first_player != owner else ()


class Dawn(Ability):
    """Dawn: the bearer gets +1 STR for each plot in your used pile; a House Dayne bearer also gains intimidate."""

    code = "01115"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return len(state.player(owner).used_plots) if bearer(state, source) == target else 0

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        if bearer(state, source) == target and "House Dayne" in state.record(target).traits:
            return ("intimidate",)
        return ()


ABILITIES: tuple[Ability, ...] = (PalaceSpearman(), Dawn())
