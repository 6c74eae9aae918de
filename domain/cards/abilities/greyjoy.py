"""Greyjoy cards' abilities (the stark_kraken deck's Greyjoy half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..state import CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    PrintedOnly,
    Query,
    announce,
    ask_one,
    bearer,
    controls,
    kill_one,
    kneel,
    lasting,
    participates,
    stand,
    standing,
)


class AlannysGreyjoy(Ability):
    """Alannys Greyjoy: while you are first player, each opponent's revealed plot has 1 less reserve."""

    code = "01066"
    kinds = ("constant",)

    def reserve_modifier(self, state: CardState, source: str, owner: str, seat: str) -> int:
        return -1 if seat != owner and state.first_player == owner else 0


class AshaGreyjoy(Ability):
    """Asha Greyjoy: after you win an unopposed challenge she took part in, stand her.

    Reaction; the "may" is always taken (documented)."""

    code = "01067"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner == owner and challenge.unopposed and participates(em.state, source):
            announce(em, self, source, owner)
            stand(em, source, [source])


class TheonGreyjoy(Ability):
    """Theon Greyjoy: after you win an unopposed challenge he took part in, he gains 1 power."""

    code = "01071"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner == owner and challenge.unopposed and participates(em.state, source):
            announce(em, self, source, owner)
            em.emit(ev.CardsPowerGained(seat_id=owner, amount=1, reason="Theon Greyjoy", card=source))


class DrownedMen(Ability):
    """Drowned Men: +1 STR for each Warship location you control."""

    code = "01073"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        if target != source:
            return 0
        return sum(1 for c in controls(state, owner, trait="Warship") if state.record(c).type == "location")


class SaltyNavigator(PrintedOnly):
    """Salty Navigator: adds 1 to your initiative (a printed modifier, CG-GEN-08)."""

    code = "01076"


class AeronDamphair(Ability):
    """Aeron Damphair: after you win dominance, put an Ironborn character from your dead pile into play.

    Reaction; the "may" is taken when one may enter (CG-UNIQUE-01/02). Targets: such characters
    of your dead pile (public); default: the highest printed cost, then the lowest id. The
    standing phase follows the answer."""

    code = "01065"
    kinds = ("reaction",)

    def after_dominance(self, em: Emitter, source: str, owner: str, winner: str) -> None:
        if winner != owner:
            return
        s = em.state
        options = sorted(
            c
            for c in s.player(owner).dead
            if s.record(c).type == "character"
            and "Ironborn" in s.record(c).traits
            and placement(s, owner, c) is not None
        )
        default = sorted(options, key=lambda c: (-s.record(c).printed_cost, c))[:1]
        ask_one(em, self, source, owner, options, default, "dominance_won")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        put_into_play(em, owner, chosen[0], "dead", source)


ABILITIES: tuple[Ability, ...] = (AlannysGreyjoy(), AshaGreyjoy(), TheonGreyjoy(), DrownedMen(), SaltyNavigator())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class IronIslandsFishmonger(NextCheaper):
    """Iron Islands Fishmonger: Marshaling Action: kneel it: the next Greyjoy character you marshal this phase costs 1 less."""

    code = "01074"
    faction = "greyjoy"


class LordsportShipwright(Ability):
    """Lordsport Shipwright: Marshaling Action: kneel it to kneel a location of printed cost 2 or less (3 or less if you are the first player).

    Targets: every standing location in play with that printed cost."""

    code = "01075"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if not standing(state, source):
            return None
        most = 3 if state.first_player == owner else 2
        targets = [
            p.card
            for p in state.in_play.values()
            if not p.kneeling and state.record(p.card).type == "location" and state.record(p.card).printed_cost <= most
        ]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        kneel(em, source, [target])


class IronFleetScout(Ability):
    """Iron Fleet Scout: Challenges Action: kneel it: a participating Greyjoy character you control gets +1 STR until the end of the challenge (+2 if you are the first player)."""

    code = "01079"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if not standing(state, source):
            return None
        mine = [c for c in controls(state, owner) if participates(state, c) and state.record(c).faction == "greyjoy"]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        lasting(em, source, target, "challenge", strength=2 if em.state.first_player == owner else 1)


ABILITIES += (
    IronIslandsFishmonger(),
    LordsportShipwright(),
    IronFleetScout(),
)


class ThrowingAxe(Ability):
    """Throwing Axe: Ironborn character only. After you win a challenge in which the attached character is attacking, sacrifice Throwing Axe to kill a defending character.

    Reaction; the "may" is taken when a character defends. Targets: the defending characters;
    default: the highest printed STR, then the lowest id. The axe is sacrificed (to its owner's
    discard pile) as the target is chosen; a duplicate saves the character (CG-UNIQUE-03, always,
    as for claim). Asked right after the win (before claim); the claim follows the answer."""

    code = "01077"
    kinds = ("reaction",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        return None if "Ironborn" in state.record(target).traits else "Throwing Axe goes on an Ironborn character only"

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner != owner or bearer(em.state, source) not in challenge.attackers:
            return
        s = em.state
        options = sorted(c for c in challenge.defenders if c in s.in_play)
        default = sorted(options, key=lambda c: (-s.record(c).str_, c))[:1]
        ask_one(em, self, source, owner, options, default, "challenge_won")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsDiscardedFromPlay(cards=[source], card=source))  # the sacrifice
        kill_one(em, chosen[0])


ABILITIES += (ThrowingAxe(), AeronDamphair())
