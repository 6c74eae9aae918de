"""Martell cards' abilities (the targaryen_sun deck's Martell half)."""

from __future__ import annotations

from .. import events as ev
from ..catalog import CHALLENGE_TYPES
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..state import CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    ask_one,
    bearer,
    lasting,
    limit_free,
    lost_by,
    participates,
)


class MaesterCaleotte(Ability):
    """Maester Caleotte: after you lose a challenge in which he is participating, choose a character: it loses a challenge icon of your choice until the end of the phase.

    Reaction; targets are ``<character>:<icon>`` pairs (each character in play with each printed
    icon it has); default: the opponent's character with the highest printed STR, its first icon.
    The loss is the limit key ``phase:<Caleotte>/<character>:<icon>`` (cleared as the phase ends;
    it stops if Caleotte leaves play: documented). Asked right after the loss; the claim follows."""

    code = "01107"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner == owner or not participates(em.state, source):
            return
        s = em.state
        pairs = [
            (p.card, icon)
            for p in s.in_play.values()
            if s.record(p.card).type == "character"
            for icon in CHALLENGE_TYPES
            if (icons := s.record(p.card).icons) is not None and icons.has(icon)
        ]
        options = sorted(f"{c}:{i}" for c, i in pairs)
        theirs = sorted(
            (pair for pair in pairs if s.in_play[pair[0]].controller != owner),
            key=lambda pair: (-s.record(pair[0]).str_, pair[0], CHALLENGE_TYPES.index(pair[1])),
        )
        default = [f"{c}:{i}" for c, i in theirs[:1]] or options[:1]
        ask_one(em, self, source, owner, options, default, "challenge_won")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return f"phase:{source}/{chosen[0]}"

    def icon_removals(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        prefix = f"phase:{source}/{target}:"
        return tuple(k[len(prefix) :] for k in state.used_abilities if k.startswith(prefix))


class DornishParamour(Ability):
    """Dornish Paramour: after it is declared as an attacker, choose a character the defending player controls: it must defend this challenge if able.

    Reaction; targets: the defender's characters; default: the one with the highest printed STR,
    then the lowest id. Remembered as ``phase:<Paramour>/<character>@<n>`` (the attacker's n-th
    challenge of the phase); the ``defend`` decision lists it in ``must_defend``."""

    code = "01111"
    kinds = ("reaction",)

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        if challenge.attacker != owner or source not in challenge.attackers:
            return
        s = em.state
        options = sorted(p.card for p in s.characters(challenge.defender))
        default = sorted(options, key=lambda c: (-s.record(c).str_, c))[:1]
        ask_one(em, self, source, owner, options, default, "declared")

    @staticmethod
    def _key(state: CardState, source: str, target: str) -> str | None:
        ch = state.challenge
        if ch is None:
            return None
        return f"phase:{source}/{target}@{len(state.player(ch.attacker).challenges_made)}"

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return self._key(state, source, chosen[0])

    def must_defend(self, state: CardState, source: str, owner: str, target: str) -> bool:
        key = self._key(state, source, target)
        return key is not None and key in state.used_abilities


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


ABILITIES: tuple[Ability, ...] = (
    PalaceSpearman(),
    ObaraSand(),
    Dawn(),
    Sunspear(),
    DornishParamour(),
    MaesterCaleotte(),
)


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
            if state.record(c).type == "character"
            and state.record(c).printed_cost <= 5
            and placement(state, owner, c) is not None
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


# -- Reaction events (a reaction window: domain/cards/phases/flow.py) --------------------------


class UnbowedUnbentUnbroken(Ability):
    """Unbowed, Unbent, Unbroken: Reaction: after you lose a challenge as the defender, if you are not the first player, name a challenge type: the winner may not initiate challenges of that type this phase (max 1 per challenge).

    Targets: the challenge types."""

    code = "01120"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        if trigger != "challenge_won" or state.first_player == owner or not lost_by(state, owner, None, "defender"):
            return None
        if f"challenge:{self.code}:{owner}" in state.used_abilities:
            return None
        return list(CHALLENGE_TYPES)

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        lasting(em, source, em.state.opponent(owner), "phase", forbids=target)


ABILITIES += (UnbowedUnbentUnbroken(),)
