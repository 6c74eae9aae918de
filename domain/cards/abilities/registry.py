"""The registry: card code -> its :class:`~.base.Ability` (one per implemented card), and the
active sources the rules ask at each timing point.

The catalog and the abilities are static, so what depends on a card's code only is computed once,
here at import: which codes override each hook of :class:`~.base.Ability` (:data:`HOOKED`), which
plots blank every character's text and which attachments may blank their bearer's. A rule that
asks one hook lists only the active sources whose ability overrides it (``active(state,
Ability.strength_bonus)``): the others would answer the hook's no-op default, so skipping them
changes no value and no order. Nothing here depends on a game's state between calls.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..catalog import CARDS, implemented
from ..state import CardState
from ..titles import TITLES
from . import baratheon, greyjoy, lannister, martell, neutral, stark, targaryen, thenightswatch, tyrell
from .base import Ability

ABILITIES: dict[str, Ability] = {}
for _module in (neutral, baratheon, greyjoy, lannister, martell, stark, targaryen, thenightswatch, tyrell):
    for _ability in _module.ABILITIES:
        assert _ability.code not in ABILITIES, f"two abilities for {_ability.code}"
        ABILITIES[_ability.code] = _ability


def _overrides(ability: Ability, hook: str) -> bool:
    return getattr(type(ability), hook) is not getattr(Ability, hook)


HOOKED: dict[str, frozenset[str]] = {
    name: frozenset(code for code, a in ABILITIES.items() if _overrides(a, name))
    for name, value in vars(Ability).items()
    if callable(value) and not name.startswith("_")
}
"""Hook name -> the card codes whose ability overrides it (the others keep its no-op default)."""

_BLANKS_CHARACTERS = frozenset(code for code, a in ABILITIES.items() if a.blanks_character_text())
"""The plots that blank every character's text box while revealed (Fortified Position)."""
_BLANKS_BEARER = HOOKED["blanks_text_of"]
"""The attachments that may blank their bearer's text box (Milk of the Poppy)."""

Hook = Callable[..., object]


@cache
def _codes_with(hooks: tuple[Hook, ...]) -> frozenset[str]:
    """The codes whose ability overrides at least one of ``hooks`` (static: a cache keyed on
    methods of :class:`~.base.Ability`, never on a game's state)."""
    return frozenset().union(*(HOOKED[h.__name__] for h in hooks))


def ability_of(code: str) -> Ability | None:
    return ABILITIES.get(code)


def text_blank(state: CardState, iid: str) -> bool:
    """Whether ``iid``'s printed text box counts as blank: a character while an active plot blanks
    every character's text (Fortified Position), or under an attachment that blanks it (Milk of the
    Poppy; an attachment's own text is never blanked this way, so this cannot loop)."""
    cards = state.cards
    if CARDS[cards[iid]].type != "character":
        return False
    for p in state.players:
        if p.plot is not None and cards[p.plot] in _BLANKS_CHARACTERS:
            return True
    for placed in state.in_play.values():
        if placed.attached_to == iid and cards[placed.card] in _BLANKS_BEARER:
            if ABILITIES[cards[placed.card]].blanks_text_of(state, placed.card, placed.controller, iid):
                return True
    return False


def active(state: CardState, *hooks: Hook) -> list[tuple[Ability, str, str]]:
    """Every active ability as (ability, source instance, owner): the revealed plots in player
    order, then the cards in play in the order they entered (skipping blank text boxes). Given
    ``hooks`` (methods of :class:`~.base.Ability`), only the sources whose ability overrides one of
    them: the same sources in the same order as without, less those that would answer the
    hooks' no-op defaults. Listed at once, as the state is now (a trigger's resolution that
    changes the state does not change the list it walks)."""
    wanted = _codes_with(hooks) if hooks else ABILITIES.keys()
    cards = state.cards
    out = [
        (ABILITIES[cards[p.plot]], p.plot, p.seat_id)
        for p in state.players
        if p.plot is not None and cards[p.plot] in wanted
    ]
    if len(out) > 1:
        order = state.player_order()
        out.sort(key=lambda source: order.index(source[2]))
    out += [
        (ABILITIES[cards[p.card]], p.card, p.controller)
        for p in state.in_play.values()
        if cards[p.card] in wanted and not text_blank(state, p.card)
    ]
    return out


def works(code: str) -> bool:
    """Whether the card plays exactly as its text says: no text beyond what the framework resolves
    (:func:`..catalog.implemented`), an ability of its own in the registry, or a melee title (its
    text is :mod:`..titles`, the one place for the titles, CG-MELEE-05)."""
    return implemented(CARDS[code]) or (code in ABILITIES and ABILITIES[code].complete) or code in TITLES
