"""Stark cards' abilities (the stark_kraken deck's Stark half)."""

from __future__ import annotations

from ..emitter import Emitter
from ..state import CardState, Challenge
from .base import Ability, announce, controls, participates, stand


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


class TheWolfswood(Ability):
    """The Wolfswood: Direwolf cards in your hand gain ambush, with a cost equal to their printed cost."""

    code = "01155"
    kinds = ("constant",)

    def ambush_cost(self, state: CardState, source: str, owner: str, card: str) -> int | None:
        rec = state.record(card)
        if "Direwolf" in rec.traits and card in state.player(owner).hand:
            return rec.printed_cost
        return None


ABILITIES: tuple[Ability, ...] = (
    CatelynStark(),
    EddardStark(),
    RobbStark(),
    DirewolfPup(),
    VanguardOfTheNorth(),
    TheWolfswood(),
)
