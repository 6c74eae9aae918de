"""Offline audit of an auction's replay export: the chain, the seed, the tie-break draws, the rules.

Given the export's envelopes (and the seed, once the game has ended and revealed it) it checks that

1. every event links to the one before it (sequence numbers and the sha256 hash chain,
   :func:`~domain.core.envelope.verify_chain`);
2. the seed matches the commitment published in ``AuctionCreated`` (:func:`~domain.core.rng.commit_seed`);
3. every tie-break draw recorded in a reveal is what the seed produces for that round
   (``derive_rng(seed, f"{game_id}/round/{n}")``), so nobody could have chosen the winner;
4. the events fold by the rules: each bid is re-decided against the state before it, each reveal
   is recomputed from the sealed bids (winner, price, tied candidates), and the final winner from
   the points and coins.

Events of an older schema are read through the game's upcasters (:mod:`.upcasters`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..core.commands import Actor
from ..core.context import Context
from ..core.envelope import ChainError, Envelope, verify_chain
from ..core.errors import GameError
from ..core.game import AuditReport
from ..core.rng import commit_seed, derive_rng
from ..core.upcast import EventCodec
from . import events as ev
from . import rules
from .commands import PlaceBid
from .evolve import evolve
from .state import AuctionState
from .upcasters import UPCASTERS

_codec = EventCodec(ev.AuctionEvent, ev.SCHEMA_VERSION, UPCASTERS)


def audit(envelopes: list[Envelope], seed: str | None, redacted: frozenset[int] = frozenset()) -> AuditReport:
    """The verdict on an export; ``seed`` is None while it is still secret. An auction's events are
    re-checked one by one (each reveal recomputed from the sealed bids); ``redacted`` events (sealed
    bids hidden from the reader) keep their link in the chain and are not re-checked."""
    problems: list[str] = []
    chain_ok = True
    try:
        verify_chain(envelopes, redacted=redacted)
    except ChainError as e:
        chain_ok = False
        problems.append(f"chain: {e}")
    try:
        events: list[ev.Event] = [_codec.decode(bytes(e.event), e.schema) for e in envelopes]
    except Exception as e:  # an unreadable event: nothing further can be checked
        problems.append(f"an event cannot be read: {e}")
        return AuditReport(len(envelopes), chain_ok, None, None, False, problems)
    if not events or not isinstance(events[0], ev.AuctionCreated):
        problems.append("the export does not start with auction_created")
        return AuditReport(len(envelopes), chain_ok, None, None, False, problems)

    seed_ok: bool | None = None
    if seed is not None:
        seed_ok = commit_seed(seed) == events[0].seed_commitment
        if not seed_ok:
            problems.append("the seed does not match the commitment in auction_created")
    draws_ok: bool | None = None if seed is None else True
    rules_ok = True
    state: AuctionState | None = None
    unverified: list[str] = []
    if redacted:
        unverified.append(f"events {min(redacted)} to {len(events)} not re-checked: event {min(redacted)} is redacted")
    for seq, event in enumerate(events, start=1):
        if state is not None and not (redacted and seq >= min(redacted)):
            found = _recheck(state, event)
            if found:
                rules_ok = False
                problems.extend(f"event {seq}: {p}" for p in found)
            if seed is not None and isinstance(event, ev.AuctionBidsRevealed) and not _draw_ok(state, event, seed):
                draws_ok = False
                problems.append(f"event {seq}: the tie-break draw of round {event.round} is not the seed's")
        try:
            state = evolve(state, event)
        except Exception as e:
            rules_ok = False
            problems.append(f"event {seq} cannot be applied: {e}")
            break
        state.version += 1
    return AuditReport(
        version=len(envelopes),
        chain_ok=chain_ok,
        seed_ok=seed_ok,
        shuffles_ok=draws_ok,
        rules_ok=rules_ok,
        problems=problems,
        unverified=unverified,
        seed_commitment=events[0].seed_commitment,
        game_over=state is not None and state.phase == "ended",
    )


def _draw_ok(state: AuctionState, event: ev.AuctionBidsRevealed, seed: str) -> bool:
    """AU-REVEAL-02: the recorded draw is the one the seed gives for this round."""
    if event.tie_break is None:
        return True
    n = len(event.tie_break.candidates)
    rng = derive_rng(seed, f"{state.game_id}/{rules.tie_break_purpose(event.round)}")
    return rng.below(n) == event.tie_break.draw


def _recheck(state: AuctionState, event: ev.Event) -> list[str]:
    """What is wrong with ``event`` given the state before it (empty: nothing)."""
    match event:
        case ev.AuctionBidSealed(by_default=False):
            ctx = Context(now=datetime.now(UTC), seed="", game_id=state.game_id)
            try:
                expected = rules.decide(
                    state, PlaceBid(amount=event.amount or 0), Actor(kind="seat", seat_id=event.seat_id), ctx
                )
            except GameError as e:
                return [f"{event.seat_id}'s bid breaks the rules: {e.detail}"]
            return [] if expected == [event] else [f"{event.seat_id}'s bid is not what the rules record"]
        case ev.AuctionBidSealed(by_default=True):
            if event.amount != rules.DEFAULT_BID or event.seat_id not in state.missing_bids():
                return [f"{event.seat_id}'s default bid is not a missing bid of {rules.DEFAULT_BID}"]
        case ev.AuctionBidsRevealed():
            return _recheck_reveal(state, event)
        case ev.AuctionEnded():
            winner = rules.game_winner(state.seat_ids(), state.points, state.coins)
            if event.winner != winner or event.points != state.points or event.coins != state.coins:
                return [f"the game's winner is {winner} by the points and coins, not {event.winner}"]
    return []


def _recheck_reveal(state: AuctionState, event: ev.AuctionBidsRevealed) -> list[str]:
    """AU-REVEAL-01/02: the reveal is the sealed bids, the highest wins and pays, a tie is drawn."""
    if state.phase != "bidding" or state.missing_bids() or event.round != state.round:
        return [f"round {event.round} was revealed before every bid was in"]
    if event.bids != state.sealed:
        return [f"the bids revealed in round {event.round} are not the sealed ones"]
    top = max(event.bids.values())
    candidates = [s for s in state.seat_ids() if event.bids[s] == top]
    found = []
    if event.price != event.bids.get(event.winner):
        found.append(f"round {event.round}'s winner did not pay its bid")
    if len(candidates) == 1:
        if event.tie_break is not None or event.winner != candidates[0]:
            found.append(f"round {event.round} is won by the highest bid, {candidates[0]}")
    elif (
        event.tie_break is None
        or event.tie_break.candidates != candidates
        or not 0 <= event.tie_break.draw < len(candidates)
        or event.winner != candidates[event.tie_break.draw]
    ):
        found.append(f"round {event.round}'s tie among {candidates} was not broken by its draw")
    return found
