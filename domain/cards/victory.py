"""The end of the game: 15 power (CG-END-01), an empty draw deck (CG-END-03).

Both are checked after every step that can change them: power gained or moved, a card drawn or
discarded from a deck.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from . import events as ev
from .emitter import Emitter
from .power import total_power

WINNING_POWER = 15


def _power(em: Emitter) -> dict[str, int]:
    return {s: total_power(em.state, s) for s in em.state.seat_ids()}


CONCEDED = "conceded"


def concede(em: Emitter, seat: str) -> None:
    """CG-END-04: a player who concedes is eliminated; the one left wins. In a melee with more than
    two players left, a concession is refused while the game waits for that player (documented:
    ``melee_concede_waiting``); otherwise the game goes on without it."""
    s = em.state
    if not s.melee:
        em.emit(ev.CardsPlayerEliminated(seat_id=seat, reason=CONCEDED))
        em.emit(ev.CardsGameEnded(winner=s.opponent(seat), reason=f"{seat} conceded", power=_power(em)))
        return
    if seat in s.eliminated:
        raise RuleViolation("you are out of the game already", rule="CG-END-04", code="eliminated")
    left = [x for x in s.alive() if x != seat]
    busy = (
        seat in s.waiting
        or s.active == seat
        or (s.challenge is not None and seat in (s.challenge.attacker, s.challenge.defender))
    )
    if len(left) > 1 and busy:
        raise RuleViolation(
            "a melee concession waits until the game no longer waits for you (answer or let the deadline pass)",
            rule="CG-END-04",
            code="melee_concede_waiting",
        )
    em.emit(ev.CardsPlayerEliminated(seat_id=seat, reason=CONCEDED))
    if len(left) == 1:
        em.emit(ev.CardsGameEnded(winner=left[0], reason=f"{seat} conceded", power=_power(em)))


def check(em: Emitter) -> bool:
    """End the game if someone has won; True when it is over (then nothing more is decided)."""
    if em.over:
        return True
    s = em.state
    decked = [seat for seat in s.player_order() if not s.player(seat).deck]
    if decked and s.melee:
        # CG-END-03 (Melee): eliminated at once, in player order; the game goes on while 2 remain
        for seat in decked:
            em.emit(ev.CardsPlayerEliminated(seat_id=seat, reason="its draw deck is empty"))
        left = em.state.player_order()
        if len(left) <= 1:
            winner = left[0] if left else decked[-1]
            em.emit(ev.CardsGameEnded(winner=winner, reason="the other players were eliminated", power=_power(em)))
            return True
        decked = []
    if decked:
        # CG-END-03: eliminated at once; several at once are ordered by the first player, who is
        # documented to eliminate the others first (so, in a joust, it wins when both deck out).
        for seat in decked:
            em.emit(ev.CardsPlayerEliminated(seat_id=seat, reason="its draw deck is empty"))
        left = [seat for seat in s.player_order() if seat not in decked] or [s.player_order()[0]]
        em.emit(ev.CardsGameEnded(winner=left[0], reason="the other player was eliminated", power=_power(em)))
        return True
    power = _power(em)
    reached = [seat for seat in s.player_order() if power[seat] >= WINNING_POWER]
    if reached:
        # CG-END-01; CG-END-02: several at once, the first player chooses (documented: the first in player order)
        em.emit(ev.CardsGameEnded(winner=reached[0], reason=f"{WINNING_POWER} power", power=power))
        return True
    return False
