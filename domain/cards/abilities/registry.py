"""The registry: card code -> its :class:`~.base.Ability` (one per implemented card), and the
active sources the rules ask at each timing point."""

from __future__ import annotations

from collections.abc import Iterator

from ..catalog import CARDS, implemented
from ..state import CardState
from . import baratheon, greyjoy, lannister, martell, neutral, stark, targaryen, thenightswatch, tyrell
from .base import Ability

ABILITIES: dict[str, Ability] = {}
for _module in (neutral, baratheon, greyjoy, lannister, martell, stark, targaryen, thenightswatch, tyrell):
    for _ability in _module.ABILITIES:
        assert _ability.code not in ABILITIES, f"two abilities for {_ability.code}"
        ABILITIES[_ability.code] = _ability


def ability_of(code: str) -> Ability | None:
    return ABILITIES.get(code)


def text_blank(state: CardState, iid: str) -> bool:
    """Whether ``iid``'s printed text box counts as blank: a character while an active plot blanks
    every character's text (Fortified Position), or under an attachment that blanks it (Milk of the
    Poppy; an attachment's own text is never blanked this way, so this cannot loop)."""
    if state.record(iid).type != "character":
        return False
    for p in state.players:
        if p.plot is not None:
            a = ABILITIES.get(state.cards[p.plot])
            if a is not None and a.blanks_character_text():
                return True
    for placed in state.in_play.values():
        if placed.attached_to == iid:
            a = ABILITIES.get(state.cards[placed.card])
            if a is not None and a.blanks_text_of(state, placed.card, placed.controller, iid):
                return True
    return False


def active(state: CardState) -> Iterator[tuple[Ability, str, str]]:
    """Every active ability as (ability, source instance, owner): the revealed plots in player
    order, then the cards in play in the order they entered (skipping blank text boxes)."""
    for seat in state.player_order():
        plot = state.player(seat).plot
        if plot is not None:
            a = ABILITIES.get(state.cards[plot])
            if a is not None:
                yield a, plot, seat
    for placed in list(state.in_play.values()):
        a = ABILITIES.get(state.cards[placed.card])
        if a is not None and not text_blank(state, placed.card):
            yield a, placed.card, placed.controller


def works(code: str) -> bool:
    """Whether the card plays exactly as its text says: no text beyond what the framework resolves
    (:func:`..catalog.implemented`), or an ability of its own in the registry."""
    return implemented(CARDS[code]) or (code in ABILITIES and ABILITIES[code].complete)
