"""Baratheon cards' abilities (the watch_stag deck's Baratheon half)."""

from __future__ import annotations

from .. import events as ev
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


class ChamberOfThePaintedTable(Ability):
    """Chamber of the Painted Table: after you win dominance, kneel it to move 1 power from an opponent's faction card to yours.

    Cost: kneel it (so it must be standing); the "may" is taken when the opponent has power."""

    code = "01060"
    kinds = ("reaction",)

    def after_dominance(self, em: Emitter, source: str, owner: str, winner: str) -> None:
        loser = em.state.opponent(owner)
        if winner != owner or em.state.in_play[source].kneeling or em.state.player(loser).faction_power < 1:
            return
        announce(em, self, source, owner)
        em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=True, card=source))  # the cost
        em.emit(ev.CardsPowerMoved(from_seat=loser, to_seat=owner, amount=1))


ABILITIES: tuple[Ability, ...] = (FieryFollowers(), KingsHuntingParty(), ChamberOfThePaintedTable())
