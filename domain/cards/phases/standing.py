"""The standing phase (CG-PHASE-16): every kneeling card stands, the faction card too (CG-GEN-04)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter


def stand_all(em: Emitter) -> None:
    em.emit(ev.CardsStood())
