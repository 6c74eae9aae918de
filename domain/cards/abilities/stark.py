"""Stark cards' abilities (the stark_kraken deck's Stark half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..phases.draw import draw
from ..state import CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    characters_in_play,
    controls,
    kill,
    kneel,
    lasting,
    participates,
    stand,
    standing,
)


class CatelynStark(Ability):
    """Catelyn Stark: while she takes part in a challenge, opponents may not trigger card abilities."""

    code = "01143"
    kinds = ("constant",)

    def forbids_triggers(self, state: CardState, source: str, owner: str, seat: str) -> bool:
        return seat != owner and participates(state, source)


class EddardStark(Ability):
    """Eddard Stark: after a challenge is started against you, stand him.

    Reaction; the "may" is always taken (documented)."""

    code = "01144"
    kinds = ("reaction",)

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        if challenge.defender == owner and em.state.in_play[source].kneeling:
            announce(em, self, source, owner)
            stand(em, source, [source])


class RobbStark(Ability):
    """Robb Stark: after a Stark character of yours is killed, stand all your characters (once per round)."""

    code = "01146"
    kinds = ("reaction",)

    def after_killed(self, em: Emitter, source: str, owner: str, killed: list[str], seat: str) -> None:
        key = f"round:{source}"
        if seat != owner or key in em.state.used_abilities:
            return
        if any(em.state.record(c).faction == "stark" for c in killed):
            announce(em, self, source, owner, limit=key)
            stand(em, source, [p.card for p in em.state.characters(owner)])


class DirewolfPup(Ability):
    """Direwolf Pup: +1 STR for each other Direwolf card you control."""

    code = "01149"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return len([c for c in controls(state, owner, trait="Direwolf") if c != source]) if target == source else 0


class VanguardOfTheNorth(Ability):
    """Vanguard of the North: while any player has a War plot revealed, it does not kneel when attacking in military challenges."""

    code = "01151"
    kinds = ("constant",)

    def kneels_to_attack(self, state: CardState, source: str, owner: str, attacker: str, challenge: str) -> bool:
        war = any(p.plot is not None and "War" in state.record(p.plot).traits for p in state.players)
        return not (war and challenge == "military")


ABILITIES: tuple[Ability, ...] = (CatelynStark(), EddardStark(), RobbStark(), DirewolfPup(), VanguardOfTheNorth())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class WinterfellSteward(NextCheaper):
    """Winterfell Steward: Marshaling Action: kneel it: the next Stark character you marshal this phase costs 1 less."""

    code = "01152"
    faction = "stark"


class HeartTreeGrove(NextCheaper):
    """Heart Tree Grove: Marshaling Action: kneel it: the next Stark card you marshal this phase costs 1 less."""

    code = "01156"
    faction = "stark"
    card_type = None


class GreyWind(Ability):
    """Grey Wind: Challenges Action: kneel him to kill a character with STR 1 or less (2 or less if you control Robb Stark).

    Targets: every character in play with that STR, Grey Wind aside."""

    code = "01145"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if not standing(state, source):
            return None
        most = 2 if controls(state, owner, name="Robb Stark") else 1
        targets = [c for c in characters_in_play(state) if c != source and now.strength(state, c) <= most]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        kill(em, em.state.in_play[target].controller, [target])


class GatesOfWinterfell(Ability):
    """Gates of Winterfell: Challenges Action: kneel it to reveal the top card of your deck; if it is a Stark card, draw it."""

    code = "01154"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return [] if standing(state, source) and state.player(owner).deck else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        kneel(em, source, [source])
        announce(em, self, source, owner)
        top = em.state.player(owner).deck[0]
        em.emit(ev.CardsTopCardRevealed(seat_id=owner, card=top, code=em.state.cards[top], card_source=source))
        if em.state.record(top).faction == "stark":
            draw(em, owner, 1, "ability")


ABILITIES += (
    WinterfellSteward(),
    HeartTreeGrove(),
    GreyWind(),
    GatesOfWinterfell(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class ForTheNorth(Ability):
    """For the North!: Action (during a military challenge): a participating Stark character you control gets +2 STR until the end of the challenge; if you win it, draw a card."""

    code = "01157"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if ch is None or ch.type != "military" or ch.winner is not None:
            return None
        mine = [
            c
            for c in ch.attackers + ch.defenders
            if c in state.in_play and state.in_play[c].controller == owner and state.record(c).faction == "stark"
        ]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner)
        lasting(em, source, target, "challenge", strength=2)
        lasting(em, source, owner, "challenge", at_end="draw_if_won")


class WinterIsComing(Ability):
    """Winter Is Coming: Action (during a challenge you attack in): your plot claim is 1 higher for this challenge (max once per challenge)."""

    code = "01159"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if ch is None or ch.winner is not None or ch.attacker != owner:
            return None
        if any(state.cards.get(e.source) == self.code and e.target == owner for e in state.effects):
            return None
        return []

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        announce(em, self, source, owner)
        lasting(em, source, owner, "challenge", claim=1)


ABILITIES += (
    ForTheNorth(),
    WinterIsComing(),
)


class TheWolfswood(Ability):
    """The Wolfswood: Direwolf cards in your hand gain ambush, with a cost equal to their printed cost."""

    code = "01155"
    kinds = ("constant",)

    def ambush_cost(self, state: CardState, source: str, owner: str, card: str) -> int | None:
        rec = state.record(card)
        if "Direwolf" in rec.traits and card in state.player(owner).hand:
            return rec.printed_cost
        return None


ABILITIES += (TheWolfswood(),)
