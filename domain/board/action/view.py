"""The Action phase as one reader may see it (used by :func:`domain.board.redaction.view_for`).

Hidden: a combatant's House card until both are revealed (BG-COMBAT-09) -- the other houses and
spectators only learn *that* it has chosen; a combatant's Tides of Battle card until both are
revealed (BG-TIDES-03) -- the others see ``"sealed"``; Patchface's view of the opponent's hand.
"""

from __future__ import annotations

import msgspec

from ..state import BoardState
from .state import Combat


class CombatView(msgspec.Struct, omit_defaults=True):
    """The combat in progress (BG-COMBAT-*), or a march on a neutral force (``defender`` null).

    Where the attacking units are (one model for every client): they **stay in ``from_area``** on
    the board until the combat ends -- the view's ``areas[from_area]`` counts them, ``areas[area]``
    shows only the defender's units -- and ``units`` lists which of ``from_area``'s units are the
    attacking ones. Their losses (casualties, BG-COMBAT-15; House card texts) are recorded there:
    ``units_destroyed`` with ``area`` = ``from_area`` and ``combat_units: true``, and ``units`` shrinks
    with them. Only when the attacker wins do the survivors move into ``area`` (``units_moved``
    ``from_area`` -> ``area``, reason ``BG-COMBAT-24``; not against Arianne Martell); a losing
    attacker's units retreat from ``from_area`` (home, that is they stay there routed, BG-COMBAT-18,
    or where Robb Stark sends them). Supply alone counts them in ``area`` already (BG-SUPPLY-06; a
    decision's ``supply.units`` does too)."""

    attacker: str
    defender: str | None
    area: str
    """The embattled area: the defender's units stand here (the attackers do not yet)."""
    from_area: str
    """The March's area, where the attacking ``units`` stand until the combat ends."""
    units: dict[str, int]
    """The attacking units (type -> count), standing in ``from_area`` (among any of the attacker's
    units that stayed behind there); losses taken in the combat are removed from both."""
    stage: str
    support: dict[str, str] = {}
    support_queue: list[str] = []
    cards: dict[str, str | None] = {}
    """Chosen cards: yours, or every card once revealed; ``"sealed"`` for an unrevealed choice."""
    strength: dict[str, int] = {}
    winner: str | None = None
    blade: str | None = None
    tides: dict[str, str] = {}
    """Tides of Battle cards drawn (BG-TIDES-03): yours, or both once revealed; ``"sealed"`` for
    another house's card before the reveal. Empty without the variant or before the draw."""


class ActionView(msgspec.Struct, omit_defaults=True):
    order_type: str
    current_house: str | None = None
    routed: dict[str, dict[str, int]] = {}
    combat: CombatView | None = None


def tides_view(c: Combat, reader: str | None, game_over: bool) -> dict[str, str]:
    """BG-TIDES-03: a drawn Tides card is seen by its house only until both are revealed."""
    t = c.tides
    if t is None:
        return {}
    return {h: card if (t.revealed or game_over or h == reader) else "sealed" for h, card in t.drawn.items()}


def action_view(state: BoardState, reader: str | None, game_over: bool = False) -> ActionView | None:
    act = state.action
    if act is None:
        return None
    c = act.combat
    cv = None
    if c is not None:
        cards: dict[str, str | None] = {}
        for h, card in c.cards.items():
            mine = reader is not None and state.family(h) == reader  # a vassal's: its commander's (MOD-VASSAL-14)
            cards[h] = card if (c.revealed or game_over or mine or c.winner) else "sealed"
        for h in c.no_card:
            cards[h] = None
        cv = CombatView(
            attacker=c.attacker,
            defender=c.defender,
            area=c.area,
            from_area=c.from_area,
            units=dict(c.units),
            stage=c.stage,
            support=dict(c.support),
            support_queue=list(c.support_queue),
            cards=cards,
            strength=dict(c.strength),
            winner=c.winner,
            blade=c.blade,
            tides=tides_view(c, reader, game_over),
        )
    return ActionView(
        order_type=act.order_type,
        current_house=act.current_house,
        routed={a: dict(u) for a, u in act.routed.items()},
        combat=cv,
    )
