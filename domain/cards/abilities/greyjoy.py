"""Greyjoy cards' abilities (the stark_kraken deck's Greyjoy half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..state import CardState, Challenge
from .base import Ability, PrintedOnly, announce, controls, participates, stand


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


ABILITIES: tuple[Ability, ...] = (AlannysGreyjoy(), AshaGreyjoy(), TheonGreyjoy(), DrownedMen(), SaltyNavigator())
