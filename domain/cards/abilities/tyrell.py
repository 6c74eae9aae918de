"""Tyrell cards' abilities (the lannister_rose deck's Tyrell half)."""

from __future__ import annotations

from .. import events as ev
from ..catalog import CHALLENGE_TYPES
from ..emitter import Emitter
from ..state import CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    ask_one,
    bearer,
    characters_in_play,
    controls,
    kneel,
    lasting,
    limit_free,
    participates,
    standing,
)


class _Twin(Ability):
    """Left and Right: while you control the other, +1 STR, an icon, and no kneeling when defending."""

    other = ""
    icon = ""

    def _paired(self, state: CardState, owner: str) -> bool:
        return bool(controls(state, owner, name=self.other))

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 1 if target == source and self._paired(state, owner) else 0

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return (self.icon,) if target == source and self._paired(state, owner) else ()

    def kneels_to_defend(self, state: CardState, source: str, owner: str, defender: str) -> bool:
        return not self._paired(state, owner)


class TheKnightOfFlowers(Ability):
    """The Knight of Flowers: Renown; while he attacks alone, the defender may declare at most one defender."""

    code = "01185"
    kinds = ("constant",)

    def participant_limit(self, state: CardState, source: str, owner: str, seat: str, side: str) -> int | None:
        ch = state.challenge
        if side == "defenders" and ch is not None and ch.attacker == owner and seat == ch.defender:
            return 1 if ch.attackers == [source] else None
        return None


class Left(_Twin):
    """Left: while you control Right, +1 STR, a power icon, and does not kneel when defending."""

    code = "01179"
    kinds = ("constant",)
    other = "Right"
    icon = "power"


class Right(_Twin):
    """Right: while you control Left, +1 STR, an intrigue icon, and does not kneel when defending."""

    code = "01184"
    kinds = ("constant",)
    other = "Left"
    icon = "intrigue"


class MaesterLomys(Ability):
    """Maester Lomys: after you win an intrigue challenge as defender, the attacker discards 1 random card from hand.

    The card is drawn from the seed (``lomys/<round>/<card>/<n>``, n the challenges so far) and named in the event."""

    code = "01180"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner != owner or challenge.defender != owner or challenge.type != "intrigue":
            return
        hand = em.state.player(challenge.attacker).hand
        announce(em, self, source, owner)
        if hand:
            n = len(em.state.player(challenge.attacker).challenges_made)
            card = hand[em.ctx.rng(f"lomys/{em.state.round}/{source}/{n}").below(len(hand))]
            em.emit(ev.CardsDiscardedFromHand(seat_id=challenge.attacker, cards=[card], reason="Maester Lomys"))


class WardensOfTheReach(Ability):
    """Wardens of the Reach: +1 STR for each location with the trait The Reach you control."""

    code = "01190"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        if target != source:
            return 0
        return sum(1 for c in controls(state, owner, trait="The Reach") if state.record(c).type == "location")


class OlennasInformant(Ability):
    """Olenna's Informant: Ambush (4). If it enters play during the challenges phase, name a challenge type: you may initiate one extra challenge of that type this phase.

    Reaction to its Ambush (the challenges phase's windows are the only ones); default: military.
    The type is read back from ``state.choices_made`` while the Informant stays in play (the
    extra challenge is lost if it leaves play: documented simplification). The action window goes
    on once it is answered."""

    code = "01189"
    kinds = ("reaction",)

    def after_ambushed(self, em: Emitter, source: str, owner: str) -> None:
        if em.state.phase == "challenges":
            ask_one(em, self, source, owner, list(CHALLENGE_TYPES), ["military"], "window")

    def extra_challenges(self, state: CardState, source: str, owner: str, seat: str) -> tuple[str, ...]:
        if seat != owner or state.phase != "challenges":
            return ()
        return tuple(state.choices_made.get(f"{source}/{owner}", []))


ABILITIES: tuple[Ability, ...] = (Left(), Right(), MaesterLomys(), WardensOfTheReach())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class GardenCaretaker(NextCheaper):
    """Garden Caretaker: Marshaling Action: kneel it: the next Tyrell character you marshal this phase costs 1 less."""

    code = "01188"
    faction = "tyrell"


class RoseGarden(NextCheaper):
    """Rose Garden: Marshaling Action: kneel it: the next Tyrell card you marshal this phase costs 1 less."""

    code = "01194"
    faction = "tyrell"
    card_type = None


class MargaeryTyrell(Ability):
    """Margaery Tyrell: Challenges Action: kneel her to give a character +3 STR until the end of the phase."""

    code = "01181"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return characters_in_play(state) if standing(state, source) else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        lasting(em, source, target, "phase", strength=3)


class Heartsbane(Ability):
    """Heartsbane: Action: while the attached character takes part in a challenge, kneel Heartsbane: it gets +3 STR until the end of the challenge."""

    code = "01191"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        host = bearer(state, source)
        return [] if standing(state, source) and host is not None and participates(state, host) else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        host = bearer(em.state, source)
        assert host is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        lasting(em, source, host, "challenge", strength=3)


ABILITIES += (
    GardenCaretaker(),
    RoseGarden(),
    MargaeryTyrell(),
    Heartsbane(),
)


class RandyllTarly(Ability):
    """Randyll Tarly: Renown. Reaction: after a card effect raises his STR, stand him (twice per phase).

    A card effect raising his STR is a lasting +STR put on him (Margaery Tyrell, Heartsbane...;
    :func:`.triggers.strength_raised`); a constant bonus that starts to count (an attachment
    marshaled onto him) is not seen (documented). The "may" is taken while he kneels; the limit
    keys are ``phase:<Randyll>#1`` and ``#2``."""

    code = "01183"
    kinds = ("constant", "reaction")

    def after_strength_raised(self, em: Emitter, source: str, owner: str, target: str) -> None:
        key = limit_free(em.state, f"phase:{source}", 2)
        if target != source or key is None or standing(em.state, source):
            return
        announce(em, self, source, owner, limit=key)
        em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=False, card=source))


ABILITIES += (TheKnightOfFlowers(), OlennasInformant(), RandyllTarly())
