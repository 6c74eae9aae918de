"""Baratheon cards' abilities (the watch_stag deck's Baratheon half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..state import CardState
from .base import Ability, NextCheaper, Query, announce, controls, kneel, lasting, stand, standing


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


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class DragonstoneFaithful(NextCheaper):
    """Dragonstone Faithful: Marshaling Action: kneel it: the next Baratheon character you marshal this phase costs 1 less."""

    code = "01056"
    faction = "baratheon"


class DragonstonePort(NextCheaper):
    """Dragonstone Port: Marshaling Action: kneel it: the next Baratheon card you marshal this phase costs 1 less."""

    code = "01059"
    faction = "baratheon"
    card_type = None


class MaesterCressen(Ability):
    """Maester Cressen: Marshaling Action: kneel him to discard a Condition attachment from play."""

    code = "01046"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if not standing(state, source):
            return None
        conditions = [
            p.card
            for p in state.in_play.values()
            if state.record(p.card).type == "attachment" and "Condition" in state.record(p.card).traits
        ]
        return conditions or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        em.emit(ev.CardsDiscardedFromPlay(cards=[target], card=source))


class SelyseBaratheon(Ability):
    """Selyse Baratheon: Challenges Action: pay 1 gold: a Baratheon character gains an intrigue icon until the end of the phase.

    Targets: the Baratheon characters in play without an intrigue icon."""

    code = "01049"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).gold < 1:
            return None
        targets = [
            p.card
            for p in state.characters(owner) + state.characters(state.opponent(owner))
            if state.record(p.card).faction == "baratheon" and not now.has_icon(state, p.card, "intrigue")
        ]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsGoldGained(seat_id=owner, gold=-1, card=source))
        announce(em, self, source, owner)
        lasting(em, source, target, "phase", icon="intrigue")


ABILITIES += (
    DragonstoneFaithful(),
    DragonstonePort(),
    MaesterCressen(),
    SelyseBaratheon(),
)
