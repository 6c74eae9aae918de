"""Baratheon cards' abilities (the watch_stag deck's Baratheon half)."""

from __future__ import annotations

from .. import events as ev
from ..catalog import CardRecord
from ..emitter import Emitter
from ..state import CardState
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    ask_one,
    choose,
    controls,
    kneel,
    lasting,
    opponents_characters,
    pick_opponent,
    stand,
    standing,
)


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
        king = any(
            state.record(c).type == "character"
            for opponent in state.opponents(owner)  # a joust: the opponent; a melee: each opponent
            for c in controls(state, opponent, trait="King")
        )
        return ("intrigue",) if king else ()


class ChamberOfThePaintedTable(Ability):
    """Chamber of the Painted Table: after you win dominance, kneel it to move 1 power from an opponent's faction card to yours.

    Cost: kneel it (so it must be standing); the "may" is taken when the opponent has power."""

    code = "01060"
    kinds = ("reaction",)

    def after_dominance(self, em: Emitter, source: str, owner: str, winner: str) -> None:
        loser = pick_opponent(em.state, owner, lambda seat: em.state.player(seat).faction_power)
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
            for seat in [owner, *state.opponents(owner)]  # every player's characters
            for p in state.characters(seat)
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


def _strongest_of(state: CardState, options: list[str], owner: str) -> list[str]:
    """The opponent's option with the highest printed STR (then the lowest id), else the first."""
    theirs = [c for c in options if state.in_play[c].controller != owner]
    return (sorted(theirs, key=lambda c: (-state.record(c).str_, c)) or options)[:1]


class Melisandre(Ability):
    """Melisandre: after you marshal an R'hllor card, kneel a character of your choice (once per round).

    Reaction (also to marshaling herself, an R'hllor card); the "may" is taken when a character
    stands. Targets: every standing character; default: the opponent's with the highest printed
    STR. The game goes on with your marshaling once it is answered."""

    code = "01047"
    kinds = ("reaction",)

    def _ask(self, em: Emitter, source: str, owner: str) -> None:
        if f"round:{source}" in em.state.used_abilities:
            return
        options = sorted(
            p.card for p in em.state.in_play.values() if em.state.record(p.card).type == "character" and not p.kneeling
        )
        default = _strongest_of(em.state, options, owner) if options else []
        ask_one(em, self, source, owner, options, default, "marshal")

    def on_marshaled(self, em: Emitter, source: str, owner: str, seat: str, rec: CardRecord) -> None:
        if seat == owner and "R'hllor" in rec.traits:
            self._ask(em, source, owner)

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        self._ask(em, source, owner)

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsKneelingChanged(cards=chosen, kneeling=True, card=source))


class SerDavosSeaworth(Ability):
    """Ser Davos Seaworth: Stealth; when he is killed, he goes back to your hand instead of the dead pile.

    Resolves once he is in the dead pile, as Ser Waymar Royce's (documented)."""

    code = "01050"
    kinds = ("interrupt",)

    def when_killed(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        seat = em.state.owner(source)
        if source in em.state.player(seat).dead:
            announce(em, self, source, owner)
            em.emit(ev.CardsReturnedToHand(seat_id=seat, cards=[source], from_pile="dead", card=source))


class VanguardLancer(Ability):
    """Vanguard Lancer: when it enters play, remove 1 power from an opponent's character or faction card.

    Reaction to its marshaling (the only way it enters play in its deck). Targets: the opponents'
    characters with power and their faction cards (named by seat id) with power; default: the
    (first such) faction card, else the character with the most power. The game goes on with your
    marshaling once it is answered."""

    code = "01057"
    kinds = ("reaction",)

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        s = em.state
        chars = sorted(
            (c for c in opponents_characters(s, owner) if s.in_play[c].power > 0),
            key=lambda c: (-s.in_play[c].power, c),
        )
        faction = [them for them in s.opponents(owner) if s.player(them).faction_power > 0]
        options = faction + sorted(chars)
        default = (faction + chars)[:1]
        ask_one(em, self, source, owner, options, default, "marshal")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        target = chosen[0]
        if target in em.state.seat_ids():
            em.emit(ev.CardsPowerRemoved(seat_id=target, amount=1, by=source))
        else:
            em.emit(ev.CardsPowerRemoved(seat_id=em.state.in_play[target].controller, amount=1, by=source, card=target))


class ShireenBaratheon(Ability):
    """Shireen Baratheon: Interrupt: when she is killed, kneel a character of your choice.

    Resolves once she is in the dead pile, as Ser Waymar Royce's (documented). Targets: every
    standing character in play; default: the opponent's with the highest printed STR, then the
    lowest id (else your own first one). Asked after a military claim's kills (the game then goes
    on with the keywords); a kill inside another ability takes the default at once
    (:func:`.base.choose`)."""

    code = "01051"
    kinds = ("interrupt",)

    def when_killed(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        s = em.state
        options = sorted(p.card for p in s.in_play.values() if s.record(p.card).type == "character" and not p.kneeling)
        theirs = sorted((c for c in options if s.in_play[c].controller != owner), key=lambda c: (-s.record(c).str_, c))
        choose(em, self, source, owner, options, (theirs or options)[:1], resume)

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        kneel(em, source, chosen)


ABILITIES += (
    ShireenBaratheon(),
    Melisandre(),
    SerDavosSeaworth(),
    VanguardLancer(),
)
