"""Night's Watch cards' abilities (the watch_stag deck's Night's Watch half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..state import CardState
from .base import Ability, PrintedOnly, announce, bearer


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
