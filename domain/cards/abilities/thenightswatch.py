"""Night's Watch cards' abilities (the watch_stag deck's Night's Watch half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..phases.draw import draw
from ..state import CardState
from .base import (
    Ability,
    NextCheaper,
    PrintedOnly,
    Query,
    announce,
    bearer,
    kneel,
    lasting,
    limit_free,
    stand,
    standing,
)


class SamwellTarly(PrintedOnly):
    """Samwell Tarly: Insight; adds 1 to your reserve (a keyword and a printed modifier)."""

    code = "01127"


class Longclaw(Ability):
    """Longclaw: Night's Watch only. The bearer gets +1 STR and renown."""

    code = "01135"
    kinds = ("constant",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        if state.record(target).faction == "thenightswatch":
            return None
        return "Longclaw goes on a Night's Watch character only"

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 1 if bearer(state, source) == target else 0

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("renown",) if bearer(state, source) == target else ()


class SerWaymarRoyce(Ability):
    """Ser Waymar Royce: when he is killed, each opponent discards 1 random card from hand.

    The card is drawn from the seed (``waymar/<round>/<card>``) and named in the event."""

    code = "01128"
    kinds = ("interrupt",)

    def when_killed(self, em: Emitter, source: str, owner: str) -> None:
        opponent = em.state.opponent(owner)
        hand = em.state.player(opponent).hand
        announce(em, self, source, owner)
        if hand:
            card = hand[em.ctx.rng(f"waymar/{em.state.round}/{source}").below(len(hand))]
            em.emit(ev.CardsDiscardedFromHand(seat_id=opponent, cards=[card], reason="Ser Waymar Royce"))


ABILITIES: tuple[Ability, ...] = (SamwellTarly(), Longclaw(), SerWaymarRoyce())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class StewardAtTheWall(NextCheaper):
    """Steward at the Wall: Marshaling Action: kneel it: the next Night's Watch character you marshal this phase costs 1 less."""

    code = "01133"
    faction = "thenightswatch"


class MessengerRaven(Ability):
    """Messenger Raven: Dominance Action: return it to your hand to draw a card."""

    code = "01130"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return []

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        em.emit(ev.CardsReturnedToHand(cards=[source], card=source))
        announce(em, self, source, owner)
        draw(em, owner, 1, "ability")


class OldForestHunter(Ability):
    """Old Forest Hunter: Action: discard a card from your hand to gain 1 gold (once per phase).

    Targets: the cards of your hand (seen by you only; the discarded card is public)."""

    code = "01131"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if limit_free(state, f"phase:{source}", 1) is None:
            return None
        return list(state.player(owner).hand) or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsDiscardedFromHand(seat_id=owner, cards=[target], reason="Old Forest Hunter"))
        announce(em, self, source, owner, limit=f"phase:{source}")
        em.emit(ev.CardsGoldGained(seat_id=owner, gold=1, card=source))


class VeteranBuilder(Ability):
    """Veteran Builder: Action: sacrifice it to stand a location.

    Targets: every kneeling location in play."""

    code = "01134"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        knelt = [p.card for p in state.in_play.values() if p.kneeling and state.record(p.card).type == "location"]
        return knelt or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))
        announce(em, self, source, owner)
        stand(em, source, [target])


class CastleBlack(Ability):
    """Castle Black: Action: kneel it to stand a defending Night's Watch character, which gets +2 STR until the end of the challenge."""

    code = "01136"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if not standing(state, source) or ch is None or ch.defender != owner or ch.winner is not None:
            return None
        mine = [c for c in ch.defenders if c in state.in_play and state.record(c).faction == "thenightswatch"]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        stand(em, source, [target])
        lasting(em, source, target, "challenge", strength=2)


ABILITIES += (
    StewardAtTheWall(),
    MessengerRaven(),
    OldForestHunter(),
    VeteranBuilder(),
    CastleBlack(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class TakeTheBlack(Ability):
    """Take the Black: Dominance Action: take control of a non-unique character with printed cost 6 or less (once per round).

    Targets: the opponent's non-unique characters with that printed cost."""

    code = "01139"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if f"round:{self.code}:{owner}" in state.used_abilities:
            return None
        targets = [
            p.card
            for p in state.characters(state.opponent(owner))
            if not state.record(p.card).unique and state.record(p.card).printed_cost <= 6
        ]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"round:{self.code}:{owner}")
        em.emit(ev.CardsControlTaken(seat_id=owner, target=target, card=source))


ABILITIES += (TakeTheBlack(),)
