"""How a House card's optional text ("you may ...") is offered (BG-COMBAT-09), shared by the base
houses' cards (:mod:`.house_cards`), Arryn's (:mod:`.arryn_cards`) and the vassals' (:mod:`.vassal_cards`)."""

from __future__ import annotations

from ..emitter import Emitter
from . import events as aev


def offer_optional(em: Emitter, house: str, card: str, choices: list[str]) -> bool:
    """``house``'s optional choice among ``choices`` for ``card``: pending (it may skip) when there
    is something to choose, and True; otherwise the text is resolved with nothing to do, and False."""
    if choices:
        em.emit(aev.AbilityChoicePending(house=house, card=card, choices=choices, may_skip=True))
        return True
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False
