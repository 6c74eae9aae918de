"""Baratheon cards' abilities (the watch_stag deck's Baratheon half)."""

from __future__ import annotations

from ..emitter import Emitter
from ..state import CardState
from .base import Ability, announce, controls, stand


class FieryFollowers(Ability):
    """Fiery Followers: at the start of the dominance phase, stand this character.

    Reaction; the "may" is always taken (documented)."""

    code = "01054"
    kinds = ("reaction",)

    def phase_begins(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        if phase == "dominance" and em.state.in_play[source].kneeling:
            announce(em, self, source, owner)
            stand(em, source, [source])


class KingsHuntingParty(Ability):
    """King's Hunting Party: has an intrigue icon while any opponent controls a King character."""

    code = "01055"
    kinds = ("constant",)

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        if target != source:
            return ()
        king = any(state.record(c).type == "character" for c in controls(state, state.opponent(owner), trait="King"))
        return ("intrigue",) if king else ()


ABILITIES: tuple[Ability, ...] = (FieryFollowers(), KingsHuntingParty())
