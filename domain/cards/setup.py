"""Setup (CG-SETUP-01..10): the first player, shuffles, the 7-card hand, one mulligan, facedown
setup cards revealed at once, and the hand drawn back up to 7."""

from __future__ import annotations

from ..core.errors import RuleViolation
from . import current
from . import events as ev
from .abilities import triggers
from .emitter import Emitter
from .phases.draw import draw, shuffle
from .phases.marshaling import can_attach
from .state import CardState, SetupPick

HAND_SIZE = 7
SETUP_GOLD = 8
FIRST_PLAYER_PURPOSE = "start/first_player"


def start(em: Emitter) -> None:
    """CG-SETUP-02: a random first player; CG-SETUP-05: each deck shuffled; CG-SETUP-06: 7 cards each."""
    order = em.ctx.rng(FIRST_PLAYER_PURPOSE).shuffled(em.state.seat_ids())
    em.emit(ev.CardsGameStarted(order=order, first_player=order[0]))
    for seat in em.state.player_order():
        shuffle(em, seat)
        draw(em, seat, HAND_SIZE, "setup")
    em.open_step("mulligan", em.state.player_order())


def mulligan(em: Emitter, seat: str, take: bool, by_default: bool = False) -> None:
    """CG-SETUP-06: one mulligan: the 7 cards go back, the deck is shuffled, 7 new cards are kept."""
    em.emit(ev.CardsMulliganChosen(seat_id=seat, mulligan=take, by_default=by_default))
    if take:
        shuffle(em, seat)
        draw(em, seat, HAND_SIZE, "mulligan")


def check_setup(state: CardState, seat: str, picks: list[SetupPick]) -> None:
    """CG-SETUP-07: cards from hand, no events, printed cost at most 8 (duplicates of a unique card
    free), at most 1 Limited, each attachment on one of the seat's own setup characters."""
    hand = state.player(seat).hand
    cards = [p.card for p in picks]
    if len(set(cards)) != len(cards):
        raise RuleViolation("a card is chosen twice", rule="CG-SETUP-07")
    for c in cards:
        if c not in hand:
            raise RuleViolation(f"{c} is not in your hand", rule="CG-SETUP-07")
    placed = placements(state, picks)
    cost = limited = 0
    by_card = {p.card: p for p in placed}
    for pick in picks:
        rec = state.record(pick.card)
        if rec.type not in ("character", "location", "attachment"):
            raise RuleViolation(
                f"{rec.name} is an {rec.type}: only characters, locations and attachments are set up",
                rule="CG-SETUP-07",
            )
        pl = by_card[pick.card]
        if pl.as_ == "duplicate":
            continue
        cost += rec.printed_cost
        limited += rec.limited
        if rec.type == "attachment":
            target = by_card.get(pick.attach_to or "")
            if target is None or target.as_ != "character":
                raise RuleViolation(
                    f"{rec.name} must go on one of your setup characters (attach_to)", rule="CG-SETUP-07"
                )
            why = attach_refusal(state, pick.card, target.card)
            if why:
                raise RuleViolation(why, rule="CG-KEY-09")
        elif pick.attach_to is not None:
            raise RuleViolation(f"{rec.name} is not an attachment", rule="CG-SETUP-07")
    if cost > SETUP_GOLD:
        raise RuleViolation(f"setup cards cost {cost}; at most {SETUP_GOLD}", rule="CG-SETUP-07")
    if limited > 1:
        raise RuleViolation("at most 1 Limited card may be set up", rule="CG-SETUP-07")


def attach_refusal(state: CardState, attachment: str, character: str) -> str | None:
    """CG-KEY-09: why ``attachment`` may not be set up on ``character`` (None: it may): the basic
    restrictions ("No attachments") and the attachment's own ("Night's Watch only", "Dothraki only"),
    as when it is marshaled."""
    return can_attach(state.record(character), state.record(attachment)) or current.attach_forbidden(
        state, attachment, character
    )


def setup_attach_targets(state: CardState, seat: str) -> dict[str, list[str]]:
    """CG-SETUP-07, CG-KEY-09: each attachment of the seat's hand -> the characters of its hand it
    may be set up on (what :func:`check_setup` accepts, when that character is set up too and not as
    a duplicate); an attachment no character of the hand takes maps to none (it cannot be set up)."""
    hand = state.player(seat).hand
    chars = [c for c in hand if state.record(c).type == "character"]
    return {
        a: [c for c in chars if attach_refusal(state, a, c) is None]
        for a in hand
        if state.record(a).type == "attachment"
    }


def placements(state: CardState, picks: list[SetupPick]) -> list[ev.Placement]:
    """Where each setup card goes (CG-SETUP-08): characters and locations first, in the order given,
    a further copy of a unique title as a duplicate under the first; then the attachments."""
    out: list[ev.Placement] = []
    first_of: dict[str, str] = {}
    ordered = [p for p in picks if state.record(p.card).type != "attachment"] + [
        p for p in picks if state.record(p.card).type == "attachment"
    ]
    for pick in ordered:
        rec = state.record(pick.card)
        if rec.unique and rec.name in first_of:
            out.append(ev.Placement(card=pick.card, code=rec.code, as_="duplicate", on=first_of[rec.name]))
            continue
        if rec.unique:
            first_of[rec.name] = pick.card
        as_ = rec.type
        out.append(
            ev.Placement(card=pick.card, code=rec.code, as_=as_, on=pick.attach_to if as_ == "attachment" else None)
        )
    return out


def reveal(em: Emitter) -> None:
    """CG-SETUP-08: every setup card revealed at once and placed; CG-SETUP-09: hands drawn back to 7."""
    s = em.state
    placed = {seat: placements(s, s.player(seat).setup or []) for seat in s.player_order()}
    chosen = {seat: list(s.player(seat).setup or []) for seat in s.player_order()}
    salts = {seat: s.player(seat).sealed_salt or "" for seat in s.player_order()}
    em.emit(ev.CardsSetupRevealed(placed=placed, chosen=chosen, salts=salts))
    triggers.entered(em, [p.card for ps in placed.values() for p in ps if p.as_ != "duplicate"], setup=True)
    for seat in s.player_order():
        draw(em, seat, HAND_SIZE - len(em.state.player(seat).hand), "setup")
