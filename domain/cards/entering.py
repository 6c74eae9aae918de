"""Where a card entering play goes under the unique rules (CG-UNIQUE-01..03): for marshaling
(:mod:`.phases.marshaling`) and for the card abilities that put a card into play (Reinforcements).

Imports no rule module that reads the abilities, so the abilities may use it."""

from __future__ import annotations

from . import events as ev
from .catalog import CardRecord
from .state import CardState


def unique_in_play(state: CardState, seat: str, rec: CardRecord) -> str | None:
    """The seat's own copy in play of a unique card's title (owned and controlled), if any (CG-UNIQUE-01/03)."""
    if not rec.unique:
        return None
    for p in state.in_play.values():
        if p.controller == seat and state.owner(p.card) == seat and state.record(p.card).name == rec.name:
            return p.card
    return None


def put_into_play(state: CardState, seat: str, card: str) -> ev.Placement | None:
    """Where a character or location put into play by a card ability goes under ``seat``'s control
    (no cost, Limited ignored, CG-PHASE-10), or None when it cannot enter: a unique card whose
    title is in ``seat``'s dead pile (CG-UNIQUE-02) or that ``seat`` controls already from another
    owner (CG-UNIQUE-01). A further copy of ``seat``'s own unique card enters as a duplicate
    (CG-UNIQUE-03)."""
    rec = state.record(card)
    if rec.type not in ("character", "location"):
        return None
    if rec.unique and any(state.record(d).name == rec.name for d in state.player(seat).dead):
        return None
    mine = unique_in_play(state, seat, rec) if state.owner(card) == seat else None
    if mine is not None:
        return ev.Placement(card=card, code=rec.code, as_="duplicate", on=mine)
    if rec.unique and any(
        state.record(x.card).name == rec.name and x.controller == seat for x in state.in_play.values()
    ):
        return None
    return ev.Placement(card=card, code=rec.code, as_=rec.type)
