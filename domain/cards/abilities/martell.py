"""Martell cards' abilities (the targaryen_sun deck's Martell half)."""

from __future__ import annotations

from .. import events as ev
from ..catalog import CHALLENGE_TYPES
from ..emitter import Emitter
from ..state import CardState, Challenge
from .base import Ability, NextCheaper, Query, announce, bearer, lasting, limit_free, may_enter, put_into_play


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


class ObaraSand(Ability):
    """Obara Sand: may be declared as a defender in power challenges against you even while kneeling."""

    code = "01108"
    kinds = ("constant",)

    def defends_kneeling(self, state: CardState, source: str, owner: str, challenge: str) -> bool:
        ch = state.challenge
        return challenge == "power" and ch is not None and ch.defender == owner


class Sunspear(Ability):
    """Sunspear: after losing a challenge as defender, kneel it: for the rest of the phase your claim is +1 in challenges of that type.

    Cost: kneel it (so it must be standing); always taken (documented). The lasting effect is the
    limit key ``phase:<Sunspear>:<type>``, cleared as the phase ends."""

    code = "01117"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if challenge.defender != owner or winner == owner or em.state.in_play[source].kneeling:
            return
        announce(em, self, source, owner, limit=f"phase:{source}:{challenge.type}")
        em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=True, card=source))  # the cost

    def claim_modifier(self, state: CardState, source: str, owner: str, challenge: Challenge) -> int:
        return 1 if challenge.attacker == owner and f"phase:{source}:{challenge.type}" in state.used_abilities else 0


ABILITIES: tuple[Ability, ...] = (PalaceSpearman(), ObaraSand(), Dawn(), Sunspear())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class DesertScavenger(NextCheaper):
    """Desert Scavenger: Marshaling Action: kneel it: the next Martell character you marshal this phase costs 1 less."""

    code = "01110"
    faction = "martell"


class BloodOrangeGrove(NextCheaper):
    """Blood Orange Grove: Marshaling Action: kneel it: the next Martell card you marshal this phase costs 1 less."""

    code = "01118"
    faction = "martell"
    card_type = None


class EdricDayne(Ability):
    """Edric Dayne: Action: pay 1 gold: he gains a challenge icon of your choice until the end of the phase.

    Targets: the challenge types he lacks (``military``, ``intrigue``, ``power``)."""

    code = "01106"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).gold < 1:
            return None
        lacks = [t for t in CHALLENGE_TYPES if not now.has_icon(state, source, t)]
        return list(lacks) or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsGoldGained(seat_id=owner, gold=-1, card=source))
        announce(em, self, source, owner)
        lasting(em, source, source, "phase", icon=target)


class ArianneMartell(Ability):
    """Arianne Martell: Action: put a character of printed cost 5 or less from your hand into play, then return Arianne to your hand (once per phase).

    Targets: the characters of your hand (seen by you only) that may enter play."""

    code = "01104"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if limit_free(state, f"phase:{source}", 1) is None:
            return None
        hand = [
            c
            for c in state.player(owner).hand
            if state.record(c).type == "character" and state.record(c).printed_cost <= 5 and may_enter(state, owner, c)
        ]
        return hand or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"phase:{source}")
        put_into_play(em, owner, target, "hand", source)
        em.emit(ev.CardsReturnedFromPlay(cards=[source], card=source))


ABILITIES += (
    DesertScavenger(),
    BloodOrangeGrove(),
    EdricDayne(),
    ArianneMartell(),
)
