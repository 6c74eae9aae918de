"""Night's Watch cards' abilities (the watch_stag deck's Night's Watch half)."""

from __future__ import annotations

from ..state import CardState
from .base import Ability, PrintedOnly, bearer


class SamwellTarly(PrintedOnly):
    """Samwell Tarly: Insight; adds 1 to your reserve (a keyword and a printed modifier)."""

    code = "01127"


class Longclaw(Ability):
    """Longclaw: Night's Watch only. The bearer gets +1 STR and renown."""

    code = "01135"
    kinds = ("constant",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        if state.record(target).faction == "thenightswatch":
            return None
        return "Longclaw goes on a Night's Watch character only"

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 1 if bearer(state, source) == target else 0

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("renown",) if bearer(state, source) == target else ()


ABILITIES: tuple[Ability, ...] = (SamwellTarly(), Longclaw())
