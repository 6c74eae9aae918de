"""The Westeros phase as one reader may see it (used by :func:`domain.board.redaction.view_for`).

Hidden: other houses' sealed bids until they are revealed (the reader learns only *who* has bid),
and the House cards of a Massing on the Milkwater choice (they are the chooser's hand). The revealed
Westeros cards, a drawn wildling card, revealed bids and every pending choice are public.
"""

from __future__ import annotations

import msgspec

from ..state import BoardState
from .state import Bidding

HAND_CHOICES = ("massing_on_the_milkwater_discard",)


class BiddingView(msgspec.Struct, omit_defaults=True):
    kind: str
    houses: list[str]
    track: str | None = None
    submitted: list[str] = []
    """Houses that have sealed their bid."""
    bids: dict[str, int] = {}
    """Revealed bids; before the reveal only your own."""
    revealed: bool = False


class AttackView(msgspec.Struct, omit_defaults=True):
    strength: int
    houses: list[str]
    reason: str
    stage: str
    bidding: BiddingView | None = None
    nights_watch_won: bool | None = None
    total: int = 0
    target: str | None = None
    card: str | None = None
    queue: list[str] = []


class ChoiceView(msgspec.Struct, omit_defaults=True):
    house: str
    about: str
    options: list[str] = []
    may_skip: bool = False


class WesterosView(msgspec.Struct, omit_defaults=True):
    revealed: dict[str, str] = {}
    resolved: list[str] = []
    current: str | None = None
    effect: str | None = None
    choice: ChoiceView | None = None
    selection_house: str | None = None
    reconcile: list[str] = []
    musterers: list[str] = []
    bidding: BiddingView | None = None
    attacks: list[AttackView] = []


def _bidding(b: Bidding | None, reader: str | None, over: bool) -> BiddingView | None:
    if b is None:
        return None
    if b.revealed or over:
        bids = dict(b.sealed)
    else:
        bids = {h: n for h, n in b.sealed.items() if h == reader}
    return BiddingView(
        kind=b.kind, houses=list(b.houses), track=b.track, submitted=sorted(b.sealed), bids=bids, revealed=b.revealed
    )


def westeros_view(state: BoardState, reader: str | None, over: bool = False) -> WesterosView | None:
    w = state.westeros
    if w is None:
        return None
    choice = None
    if w.choice is not None:
        c = w.choice
        hidden = c.kind in HAND_CHOICES and not over and reader != c.house
        choice = ChoiceView(house=c.house, about=c.kind, options=[] if hidden else list(c.options), may_skip=c.may_skip)
    return WesterosView(
        revealed=dict(w.revealed),
        resolved=list(w.resolved),
        current=w.current,
        effect=w.effect,
        choice=choice,
        selection_house=w.selection.house if w.selection else None,
        reconcile=list(w.reconcile),
        musterers=list(w.musterers),
        bidding=_bidding(w.bidding, reader, over),
        attacks=[
            AttackView(
                strength=a.strength,
                houses=list(a.houses),
                reason=a.reason,
                stage=a.stage,
                bidding=_bidding(a.bidding, reader, over),
                nights_watch_won=a.nights_watch_won,
                total=a.total,
                target=a.target,
                card=a.card,
                queue=list(a.queue),
            )
            for a in w.attacks
        ],
    )
