"""Where a card entering play goes under the unique rules (CG-UNIQUE-01..03): for marshaling
(:mod:`.phases.marshaling`) and the one place where a card ability puts a card into play
(:func:`put_into_play`: Reinforcements, Arianne Martell, Fire and Blood, Yoren, Old Bear Mormont...).

Imports no rule module that reads the abilities, so the abilities may use it."""

from __future__ import annotations

from . import events as ev
from .catalog import CardRecord
from .emitter import Emitter
from .state import CardState


def unique_in_play(state: CardState, seat: str, rec: CardRecord) -> str | None:
    """The seat's own copy in play of a unique card's title (owned and controlled), if any (CG-UNIQUE-01/03)."""
    if not rec.unique:
        return None
    for p in state.in_play.values():
        if p.controller == seat and state.owner(p.card) == seat and state.record(p.card).name == rec.name:
            return p.card
    return None


def placement(state: CardState, seat: str, card: str) -> ev.Placement | None:
    """Where a character or location put into play by a card ability goes under ``seat``'s control
    (no cost, Limited ignored, CG-PHASE-10), or None when it cannot enter: a unique card whose
    title is in ``seat``'s dead pile (CG-UNIQUE-02) or that ``seat`` controls already from another
    owner (CG-UNIQUE-01). A further copy of ``seat``'s own unique card enters as a duplicate
    (CG-UNIQUE-03)."""
    rec = state.record(card)
    if rec.type not in ("character", "location"):
        return None
    if rec.unique and any(state.record(d).name == rec.name for d in state.player(seat).dead if d != card):
        return None
    mine = unique_in_play(state, seat, rec) if state.owner(card) == seat else None
    if mine is not None:
        return ev.Placement(card=card, code=rec.code, as_="duplicate", on=mine)
    if rec.unique and any(
        state.record(x.card).name == rec.name and x.controller == seat for x in state.in_play.values()
    ):
        return None
    return ev.Placement(card=card, code=rec.code, as_=rec.type)


def put_into_play(em: Emitter, seat: str, card: str, from_pile: str, source: str) -> bool:
    """``source``'s ability puts ``card`` into play under ``seat``'s control from its owner's
    ``from_pile`` (``hand``, ``discard`` or ``dead``): where :func:`placement` says (a further
    copy of ``seat``'s own unique card as a duplicate). False, and nothing written, when it cannot
    enter (CG-UNIQUE-01/02, or not a character or location)."""
    placed = placement(em.state, seat, card)
    if placed is None:
        return False
    em.emit(
        ev.CardsPutIntoPlay(
            seat_id=seat, card=card, code=em.state.cards[card], from_pile=from_pile, placed=placed, by=source
        )
    )
    return True
