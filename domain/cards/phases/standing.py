"""The standing phase (CG-PHASE-16): every kneeling card stands, the faction card too (CG-GEN-04)."""

from __future__ import annotations

from .. import events as ev
from ..abilities import triggers
from ..emitter import Emitter


def stand_all(em: Emitter) -> None:
    """Every kneeling card stands; then the reactions to it (Sansa Stark)."""
    kneeling = [p.card for p in em.state.in_play.values() if p.kneeling]
    em.emit(ev.CardsStood())
    if kneeling:
        triggers.stood(em, kneeling)
