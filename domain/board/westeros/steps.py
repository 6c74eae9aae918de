"""Opening a Westeros-phase decision: the ``StepBegan`` every card, bid and wildling attack uses
when a player must answer (kept apart from :mod:`.deck` so the card modules need not import the deck
that runs them)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter


def open_step(em: Emitter, step: str, fresh: bool = True) -> None:
    """Announce a Westeros decision with a deadline (``fresh`` False keeps an open step's deadline)."""
    s = em.state
    if fresh or s.step != step:
        em.emit(ev.StepBegan(phase="westeros", step=step, round=s.round, deadline=em.deadline()))
