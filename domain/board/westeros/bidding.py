"""Clash of Kings (BG-COK-01..07, BG-WCARD-07) and the sealed bids both it and the wildling attacks use.

Each track in turn (Iron Throne, Fiefdoms, King's Court, BG-COK-02): every house bids 0 or more of its
available Power in secret (BG-COK-03); once all bids are in, the system reveals them together
(``ResolvePending``) and every bid token goes to the Power Pool (BG-COK-06). Houses are placed from
the highest bid down (BG-COK-04); the holder of the Iron Throne *at that moment* places tied houses
in the order it likes, one choice at a time (BG-COK-05), so the new Iron Throne holder breaks the
Fiefdoms and King's Court ties. The new order takes effect at once; each Dominance token belongs to
position 1 of its track (BG-COK-07), which the state derives from the track.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from ..action import events as aev
from ..emitter import Emitter
from ..sealed_inputs import BID, seal
from ..state import BoardState
from ..tracks import track_order, tracks_of
from . import events as wev
from .evolve import open_bidding, westeros_of
from .steps import open_step

TRACKS = ("iron_throne", "fiefdoms", "kings_court")


def begin_track(em: Emitter, track: str) -> None:
    s = em.state
    em.emit(wev.BiddingBegan(kind="clash_of_kings", houses=s.turn_order(), track=track))
    auto_bid_nothing(em)
    open_step(em, "bid")


def auto_bid_nothing(em: Emitter) -> None:
    """A house with no available Power can only bid 0: its bid is sealed for it at once."""
    s = em.state
    b = open_bidding(s.westeros)
    assert b is not None, "called right after BiddingBegan"
    for h in b.houses:
        if s.houses[h].power == 0:
            sealed_bid(em, h, 0)


def houses_to_bid(state: BoardState) -> list[str]:
    b = open_bidding(state.westeros)
    if b is None:
        return []
    return [h for h in b.houses if h not in b.sealed]


def all_bids_in(state: BoardState) -> bool:
    b = open_bidding(state.westeros)
    return b is not None and not houses_to_bid(state)


def submit(em: Emitter, house: str, amount: int, by_default: bool = False) -> None:
    """BG-COK-03 / BG-WILD-01: a sealed bid of 0..available Power; once sealed it stands."""
    s = em.state
    b = open_bidding(s.westeros)
    if b is None:
        raise WrongPhase("no bidding is open", rule="BG-COK-03")
    if house not in b.houses:
        raise NotYourTurn(f"{house} takes no part in this bidding", rule="BG-WILD-05")
    if house in b.sealed:
        raise RuleViolation("your bid is already sealed", rule="BG-COK-03", code="already_bid")
    if not 0 <= amount <= s.houses[house].power:
        raise RuleViolation(
            f"a bid is 0 to your {s.houses[house].power} available Power, not {amount}",
            rule="BG-COK-03",
            code="bid_too_high",
        )
    sealed_bid(em, house, amount, by_default)


def sealed_bid(em: Emitter, house: str, amount: int, by_default: bool = False) -> None:
    """The bid's submission event, with its public commitment (:mod:`..sealed_inputs`)."""
    seq = em.state.version + len(em.events) + 1
    salt, commitment = seal(em.state, em.ctx, seq, BID, house, amount)
    em.emit(wev.BidSubmitted(house=house, amount=amount, by_default=by_default, salt=salt, commitment=commitment))


def reveal(em: Emitter) -> dict[str, int]:
    """Turn every bid face up at once and send the bid Power to the Pool (BG-COK-06, BG-WILD-01)."""
    s = em.state
    b = open_bidding(s.westeros)
    assert b is not None, "bids are revealed only while a bidding is open (all_bids_in)"
    bids = {h: b.sealed[h] for h in b.houses}
    salts = {h: b.salts[h] for h in bids if h in b.salts}
    em.emit(wev.BidsRevealed(kind=b.kind, bids=bids, track=b.track, salts=salts))
    reason = "BG-COK-06" if b.kind == "clash_of_kings" else "BG-WILD-01"
    for h, n in bids.items():
        if n > 0:
            em.emit(aev.PowerSpent(house=h, amount=n, reason=reason))
    return bids


def groups(bids: dict[str, int], track_before: list[str]) -> list[list[str]]:
    """Houses grouped by equal bids, highest first; each group listed in its order on the track
    before the bidding."""
    values = sorted(set(bids.values()), reverse=True)
    return [sorted((h for h, n in bids.items() if n == v), key=track_before.index) for v in values]


def settle(em: Emitter) -> None:
    """Place the houses on the track (BG-COK-04/05); open a tie choice for the Iron Throne holder
    when needed, else set the track (BG-COK-07) and end this bidding."""
    s = em.state
    b = westeros_of(s).bidding
    assert b is not None and b.track is not None, "Clash of Kings bids on one track at a time"
    track = b.track
    before = track_order(s, track)
    order: list[str] = []
    for group in groups(b.sealed, before):
        chosen = [h for h in b.placed if h in group]
        rest = [h for h in group if h not in chosen]
        order += chosen
        if len(rest) > 1:
            holder = s.top_player(tracks_of(s).iron_throne)  # MOD-VASSAL-20: never a vassal
            em.emit(
                wev.WesterosChoicePending(house=holder, kind="bid_tie", options=rest, default=rest[0], context=track)
            )
            open_step(em, "westeros_choice")
            return
        order += rest
    if order != before:
        em.emit(aev.InfluenceTrackChanged(track=track, order=order, reason="BG-COK-04"))
    em.emit(wev.BiddingEnded(track=track))


def tie_broken(em: Emitter, chooser: str, house: str, track: str) -> None:
    em.emit(wev.BidTieBroken(track=track, chooser=chooser, house=house))
