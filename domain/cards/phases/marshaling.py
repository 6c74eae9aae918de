"""The marshaling phase (CG-PHASE-08..10) and what may enter play where (CG-KEY-09, CG-UNIQUE-01..03).

Each player in turn collects its income and marshals cards from hand by paying their printed cost:
characters and locations enter play, attachments go onto a character (any player's, CG-KEY-09
permitting), a further copy of a unique card the player controls goes under it as a free
duplicate. At most one Limited card per round; a unique card whose title is in its owner's dead
pile cannot be marshaled.
"""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import current
from .. import events as ev
from ..catalog import CardRecord
from ..entering import unique_in_play
from ..state import CardState


def can_attach(target: CardRecord, attachment: CardRecord) -> str | None:
    """Why ``attachment`` may not go on ``target`` (None: it may). The basic restriction: onto a
    character (CG-PHASE-09); "No attachments" (except Weapon) (CG-KEY-09)."""
    if target.type != "character":
        return f"{attachment.name} goes on a character, not on {target.name}"
    if target.has_keyword("no attachments"):
        return f"{target.name} takes no attachments (CG-KEY-09)"
    if target.has_keyword("no attachments except Weapon") and "Weapon" not in attachment.traits:
        return f"{target.name} takes no attachments except Weapons (CG-KEY-09)"
    return None


def placement(
    state: CardState, seat: str, card: str, attach_to: str | None, *, ambush: bool = False, x: int | None = None
) -> tuple[ev.Placement, int]:
    """Where a marshaled card goes and what it costs, or a RuleViolation naming the rule. With
    ``ambush``: put into play for its Ambush cost X instead (CG-KEY-06): Limited is ignored, and a
    further copy of an own unique card still enters as a duplicate (for X). ``x`` picks one of
    several Ambush (X) keywords (CG-KEY-10; None: the lowest)."""
    p = state.player(seat)
    if card not in p.hand:
        raise RuleViolation(f"{card} is not in your hand", rule="CG-KEY-06" if ambush else "CG-PHASE-09")
    rec = state.record(card)
    ambush_cost = current.ambush_cost(state, card) if ambush else None
    if ambush and ambush_cost is None:
        raise RuleViolation(f"{rec.name} has no Ambush", rule="CG-KEY-06")
    if ambush and x is not None:
        if x not in current.ambush_costs(state, card):
            raise RuleViolation(
                f"{rec.name} has no Ambush ({x}): its Ambush costs are {current.ambush_costs(state, card)}",
                rule="CG-KEY-10",
            )
        ambush_cost = x
    if rec.type == "event":
        raise RuleViolation(f"{rec.name} is an event: events are never marshaled", rule="CG-PHASE-09")
    if rec.type not in ("character", "location", "attachment"):
        raise RuleViolation(f"{rec.name} cannot be marshaled", rule="CG-PHASE-09")
    if rec.unique and any(state.record(d).name == rec.name for d in p.dead):
        raise RuleViolation(f"a copy of {rec.name} is in your dead pile", rule="CG-UNIQUE-02")
    if not ambush:
        why = current.marshal_forbidden(state, seat, rec)
        if why:
            raise RuleViolation(why, rule="CG-PHASE-09")
    mine = unique_in_play(state, seat, rec)
    cost = (ambush_cost or 0) if ambush else max(0, rec.printed_cost - current.cost_reduction(state, seat, rec))
    if mine is not None:
        if attach_to is not None:
            raise RuleViolation(f"{rec.name} enters as a duplicate under {mine}: no target", rule="CG-UNIQUE-03")
        if ambush and cost > p.gold:
            raise RuleViolation(f"{rec.name}'s Ambush costs {cost} gold; you have {p.gold}", rule="CG-KEY-06")
        return ev.Placement(card=card, code=rec.code, as_="duplicate", on=mine), cost if ambush else 0
    if rec.unique and any(
        state.record(x.card).name == rec.name and x.controller == seat for x in state.in_play.values()
    ):
        raise RuleViolation(f"you already control a {rec.name}", rule="CG-UNIQUE-01")
    if rec.limited and not ambush and p.limited_count >= current.limited_allowed(state, seat):
        raise RuleViolation("you have marshaled your Limited card(s) this round already", rule="CG-PHASE-10")
    if cost > p.gold:
        what = "Ambush costs" if ambush else "costs"
        raise RuleViolation(
            f"{rec.name} {what} {cost} gold; you have {p.gold}", rule="CG-KEY-06" if ambush else "CG-PHASE-08"
        )
    if rec.type == "attachment":
        if attach_to is None or attach_to not in state.in_play:
            raise RuleViolation(
                f"{rec.name} is an attachment: name a character in play (attach_to)", rule="CG-PHASE-09"
            )
        why = can_attach(state.record(attach_to), rec) or current.attach_forbidden(state, card, attach_to)
        if why:
            raise RuleViolation(why, rule="CG-KEY-09")
        return ev.Placement(card=card, code=rec.code, as_="attachment", on=attach_to), cost
    if attach_to is not None:
        raise RuleViolation(f"{rec.name} is not an attachment", rule="CG-PHASE-09")
    return ev.Placement(card=card, code=rec.code, as_=rec.type), cost


def marshalable(state: CardState, seat: str) -> dict[str, list[str]]:
    """Every card the seat may marshal now -> its legal targets (empty for a non-attachment)."""
    out: dict[str, list[str]] = {}
    for card in state.player(seat).hand:
        rec = state.record(card)
        if rec.type == "attachment":
            targets = [t for t in state.in_play if _ok(state, seat, card, t)]
            if unique_in_play(state, seat, rec) is not None and _ok(state, seat, card, None):
                out[card] = []
            elif targets:
                out[card] = targets
        elif _ok(state, seat, card, None):
            out[card] = []
    return out


def ambushable(state: CardState, seat: str) -> dict[str, list[str]]:
    """Every card the seat may put into play by Ambush now -> its legal targets (CG-KEY-06)."""
    out: dict[str, list[str]] = {}
    for card in state.player(seat).hand:
        rec = state.record(card)
        if current.ambush_cost(state, card) is None:
            continue
        if rec.type == "attachment" and unique_in_play(state, seat, rec) is None:
            targets = [t for t in state.in_play if _ok(state, seat, card, t, ambush=True)]
            if targets:
                out[card] = targets
        elif _ok(state, seat, card, None, ambush=True):
            out[card] = []
    return out


def _ok(state: CardState, seat: str, card: str, target: str | None, ambush: bool = False) -> bool:
    try:
        placement(state, seat, card, target, ambush=ambush)
    except RuleViolation:
        return False
    return True
