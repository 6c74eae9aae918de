"""The auction's rules: ``decide(state, command, actor, ctx) -> events``.

``decide`` is pure: it reads the state and the context (time, seeded randomness) and returns new
events, or raises a :class:`~domain.core.errors.GameError` and returns nothing. It never mutates
the state. The rules, by id:

* AU-SETUP-01 -- a game is for 2 to 4 seats; seats are ``seat1``, ``seat2``... in order of joining,
  in the lobby only (a full lobby refuses with ``game_full``).
* AU-SETUP-02 -- the organizer starts the game once every seat is taken (else ``seats_missing``);
  every seat receives 10 coins and round 1 opens.
* AU-BID-01 -- in a round every seat seals a bid from 0 up to its coins (more is ``illegal_move``);
  it may amend it until every seat has bid.
* AU-REVEAL-01 -- once every bid is in, the system (``ResolvePending``) reveals them all at once:
  the highest bid wins 1 point and pays its bid to the bank.
* AU-REVEAL-02 -- a tie for the highest bid (0 included) is broken by a uniform draw among the tied
  seats from ``ctx.rng(f"round/{n}")``; the draw is written into the reveal so it is never
  re-rolled and can be audited once the seed is revealed.
* AU-TIME-01 -- when a round's deadline passes (``ApplyTimeout``), every missing bid defaults to 0,
  and the round is revealed in the same batch.
* AU-END-01 -- after the last round the game ends: the most points wins, then the most coins left,
  then the lowest seat number. Any command after the end is refused with ``game_over``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.commands import Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from ..core.context import Context, parse_rfc3339
from ..core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from ..core.lobby import check_can_start, next_seat
from ..core.rng import commit_seed
from . import events as ev
from .commands import AuctionCreateBody, PlaceBid
from .state import STARTING_COINS, AuctionState

DEFAULT_BID = 0
"""AU-TIME-01: the bid of a seat that missed the deadline."""
DEFAULT_TEXT = "a bid of 0"
"""The documented default, as the decisions answer shows it."""


def tie_break_purpose(round_no: int) -> str:
    """The RNG purpose of round ``round_no``'s tie-break (AU-REVEAL-02); the audit derives the same."""
    return f"round/{round_no}"


def create(body: AuctionCreateBody, ctx: Context) -> list[ev.Event]:
    """AU-SETUP-01: a new auction; the seed is committed as its sha256."""
    if not 2 <= body.player_count <= 4:
        raise RuleViolation(
            f"an auction is for 2-4 seats, not {body.player_count}", rule="AU-SETUP-01", code="invalid_player_count"
        )
    return [
        ev.AuctionCreated(
            game_id=ctx.game_id,
            player_count=body.player_count,
            settings=body.settings,
            seed_commitment=commit_seed(ctx.seed),
        )
    ]


def decide(state: AuctionState, command: object, actor: Actor, ctx: Context) -> list[ev.Event]:
    """Turn a command into events, or raise. Never mutates ``state``."""
    if state.phase == "ended":
        raise WrongPhase("the game is over", code="game_over")
    match command:
        case JoinGame():
            return _join(state, command)
        case StartGame():
            return _start(state, actor, ctx)
        case PlaceBid():
            return _place_bid(state, command, actor)
        case ResolvePending():
            _system_only(actor)
            if state.phase != "bidding" or state.missing_bids():
                raise WrongPhase("no round has every bid in", code="nothing_pending")
            return reveal(state, dict(state.sealed), ctx)
        case ApplyTimeout():
            _system_only(actor)
            return _timeout(state, command, ctx)
    raise RuleViolation(f"an auction does not understand {type(command).__name__}", code="unknown_command")


def _system_only(actor: Actor) -> None:
    if actor.kind != "system":
        raise Forbidden("only the system sends this command")


def _join(state: AuctionState, command: JoinGame) -> list[ev.Event]:
    """AU-SETUP-01: the next free seat, in the lobby only."""
    seat_id = next_seat(state.phase == "lobby", len(state.seats), state.player_count)
    return [ev.AuctionSeatJoined(seat_id=seat_id, name=command.name)]


def _start(state: AuctionState, actor: Actor, ctx: Context) -> list[ev.Event]:
    """AU-SETUP-02: the organizer starts a full lobby; everyone gets 10 coins; round 1 opens."""
    if actor.kind != "organizer":
        raise Forbidden("only the organizer may start the game")
    check_can_start(state.phase == "lobby", len(state.seats), state.player_count)
    return [
        ev.AuctionStarted(seats=state.seat_ids(), starting_coins=STARTING_COINS),
        _round_begins(state, 1, ctx),
    ]


def _round_begins(state: AuctionState, round_no: int, ctx: Context) -> ev.AuctionRoundBegan:
    return ev.AuctionRoundBegan(round=round_no, deadline=ctx.deadline(state.settings.decision_timeout_s))


def bidder_of(state: AuctionState, actor: Actor) -> str:
    """The seat id of a seated actor of this game, or Forbidden."""
    if actor.kind != "seat" or actor.seat_id is None or not state.has_seat(actor.seat_id):
        raise Forbidden("only a seat of this game may bid")
    return actor.seat_id


def _place_bid(state: AuctionState, command: PlaceBid, actor: Actor) -> list[ev.Event]:
    """AU-BID-01: 0 up to the seat's coins; amendable until every seat has bid."""
    seat_id = bidder_of(state, actor)
    if state.phase != "bidding":
        raise NotYourTurn("no round is open for bids", rule="AU-BID-01")
    if not state.missing_bids():
        raise NotYourTurn("every bid is in; the round is being revealed", rule="AU-BID-01", code="bids_closed")
    coins = state.coins.get(seat_id, 0)
    if command.amount > coins:
        raise RuleViolation(
            f"a bid of {command.amount} is more than your {coins} coins", rule="AU-BID-01", code="illegal_move"
        )
    return [ev.AuctionBidSealed(seat_id=seat_id, amount=command.amount)]


def _timeout(state: AuctionState, command: ApplyTimeout, ctx: Context) -> list[ev.Event]:
    """AU-TIME-01: missing bids default to 0, then the round is revealed in the same batch."""
    if state.step_version != command.step_version or state.deadline is None:
        raise WrongPhase("the round this timeout was for is over", code="timeout_void")
    if parse_rfc3339(state.deadline) > ctx.now:
        raise WrongPhase("the deadline has not passed yet", code="timeout_early")
    defaults: list[ev.Event] = [
        ev.AuctionBidSealed(seat_id=s, amount=DEFAULT_BID, by_default=True) for s in state.missing_bids()
    ]
    bids = dict(state.sealed) | {s: DEFAULT_BID for s in state.missing_bids()}
    return defaults + reveal(state, bids, ctx)


def round_winner(state: AuctionState, bids: Mapping[str, int], ctx: Context) -> tuple[str, ev.TieBreak | None]:
    """AU-REVEAL-01/02: the highest bid; a tie is broken by the round's seeded draw."""
    top = max(bids.values())
    candidates = [s for s in state.seat_ids() if bids.get(s) == top]
    if len(candidates) == 1:
        return candidates[0], None
    draw = ctx.rng(tie_break_purpose(state.round)).below(len(candidates))
    return candidates[draw], ev.TieBreak(candidates=candidates, draw=draw)


def reveal(state: AuctionState, bids: Mapping[str, int], ctx: Context) -> list[ev.Event]:
    """AU-REVEAL-01: reveal every bid; then the next round opens, or the game ends (AU-END-01)."""
    winner, tie_break = round_winner(state, bids, ctx)
    price = bids[winner]
    ordered = {s: bids[s] for s in state.seat_ids()}
    revealed = ev.AuctionBidsRevealed(round=state.round, bids=ordered, winner=winner, price=price, tie_break=tie_break)
    if state.round < state.settings.rounds:
        return [revealed, _round_begins(state, state.round + 1, ctx)]
    points = {s: state.points.get(s, 0) + (1 if s == winner else 0) for s in state.seat_ids()}
    coins = {s: state.coins.get(s, 0) - (price if s == winner else 0) for s in state.seat_ids()}
    return [revealed, ev.AuctionEnded(winner=game_winner(state.seat_ids(), points, coins), points=points, coins=coins)]


def game_winner(seat_ids: list[str], points: Mapping[str, int], coins: Mapping[str, int]) -> str:
    """AU-END-01: the most points, then the most coins left, then the lowest seat number."""
    return min(seat_ids, key=lambda s: (-points[s], -coins[s], seat_ids.index(s)))
