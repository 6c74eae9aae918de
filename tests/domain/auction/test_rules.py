"""Each rule of the auction (domain/auction/rules.py), through ``GAME.create/decide/fold``."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest

from domain.auction.commands import AuctionCreateBody, PlaceBid
from domain.auction.game import GAME
from domain.core.commands import ORGANIZER, SYSTEM, ApplyTimeout, JoinGame, ResolvePending, StartGame
from domain.core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import commit_seed, derive_rng

from .table import GAME_ID, Table, ev, of_type, seat


def test_create_body_is_strict():
    dec = msgspec.json.Decoder(AuctionCreateBody)
    body = dec.decode(b'{"kind": "auction", "player_count": 3}')
    assert body.settings.rounds == 3 and body.settings.decision_timeout_s == 600
    for bad in (
        b'{"player_count": 3}',  # kind is required
        b'{"kind": "board", "player_count": 3}',
        b'{"kind": "auction", "player_count": 5}',
        b'{"kind": "auction", "player_count": 2, "settings": {"rounds": 6}}',
        b'{"kind": "auction", "player_count": 2, "settings": {"decision_timeout_s": 0}}',
        b'{"kind": "auction", "player_count": 2, "extra": 1}',
    ):
        with pytest.raises(msgspec.ValidationError):
            dec.decode(bad)


def test_place_bid_command_is_strict():
    dec = msgspec.json.Decoder(GAME.command_type)
    assert dec.decode(b'{"type": "place_bid", "amount": 4}') == PlaceBid(amount=4)
    for bad in (b'{"type": "place_bid", "amount": -1}', b'{"type": "place_bid", "amount": 2, "x": 1}'):
        with pytest.raises(msgspec.ValidationError):
            dec.decode(bad)


def test_created_commits_to_the_seed():
    t = Table(3)
    created = t.events[0]
    assert isinstance(created, ev.AuctionCreated)
    assert created.game_id == GAME_ID and created.seed_commitment == commit_seed("s")
    assert GAME.seed_commitment(t.state) == commit_seed("s") and t.state.version == 1


def test_seats_join_in_order_until_full():
    t = Table(2)
    joined = t.run(JoinGame(name="ann"), seat(0))
    assert GAME.joined_seat(joined) == "seat1"
    assert GAME.joined_seat(t.run(JoinGame(name="bob"), seat(0))) == "seat2"
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, JoinGame(name="cat"), seat(0), t.ctx)
    assert e.value.code == "game_full"
    assert GAME.has_seat(t.state, "seat2") and not GAME.has_seat(t.state, "seat3")
    assert GAME.readers(t.state) == ["seat1", "seat2"] and GAME.reader_of(t.state, "seat1") == "seat1"


def test_only_the_organizer_starts_a_full_game():
    t = Table(3)
    t.run(JoinGame(name="ann"), seat(0))
    with pytest.raises(Forbidden):
        GAME.decide(t.state, StartGame(), seat(1), t.ctx)
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, StartGame(), ORGANIZER, t.ctx)
    assert e.value.code == "seats_missing"
    t.run(JoinGame(name="bob"), seat(0))
    t.run(JoinGame(name="cat"), seat(0))
    started = t.run(StartGame(), ORGANIZER)
    assert [type(e) for e in started] == [ev.AuctionStarted, ev.AuctionRoundBegan]
    assert t.state.coins == {"seat1": 10, "seat2": 10, "seat3": 10}
    assert t.state.phase == "bidding" and t.state.round == 1
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, JoinGame(name="dan"), seat(0), t.ctx)
    assert e.value.code == "game_started"


def test_bids_are_for_seats_in_bidding_only():
    t = Table(2).seat_all()
    with pytest.raises(NotYourTurn):
        GAME.decide(t.state, PlaceBid(amount=1), seat(1), t.ctx)
    t.run(StartGame(), ORGANIZER)
    with pytest.raises(Forbidden):
        GAME.decide(t.state, PlaceBid(amount=1), ORGANIZER, t.ctx)
    with pytest.raises(Forbidden):
        GAME.decide(t.state, PlaceBid(amount=1), seat(7), t.ctx)


def test_a_bid_may_not_exceed_the_coins():
    t = Table(2).start()
    with pytest.raises(RuleViolation) as e:
        GAME.decide(t.state, PlaceBid(amount=11), seat(1), t.ctx)
    assert e.value.code == "illegal_move" and e.value.kind == "invalid"
    t.play_round(7, 0)  # seat1 pays 7: 3 coins left
    with pytest.raises(RuleViolation):
        GAME.decide(t.state, PlaceBid(amount=4), seat(1), t.ctx)
    assert t.bid(1, 3)


def test_a_bid_may_be_amended_until_every_bid_is_in():
    t = Table(2).start()
    t.bid(1, 5)
    t.bid(1, 2)
    assert t.state.sealed == {"seat1": 2}
    assert not GAME.pending_system_work(t.state)
    t.bid(2, 1)
    assert GAME.pending_system_work(t.state)
    with pytest.raises(NotYourTurn):
        GAME.decide(t.state, PlaceBid(amount=9), seat(1), t.ctx)
    revealed = of_type(t.resolve(), ev.AuctionBidsRevealed)[0]
    assert revealed.bids == {"seat1": 2, "seat2": 1} and revealed.winner == "seat1" and revealed.price == 2


def test_resolve_needs_every_bid():
    t = Table(3).start()
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, ResolvePending(), SYSTEM, t.ctx)
    assert e.value.code == "nothing_pending"
    t.bid(1, 1)
    t.bid(2, 1)
    with pytest.raises(WrongPhase):
        GAME.decide(t.state, ResolvePending(), SYSTEM, t.ctx)
    t.bid(3, 0)
    with pytest.raises(Forbidden):
        GAME.decide(t.state, ResolvePending(), seat(1), t.ctx)
    t.resolve()
    assert t.state.round == 2 and t.state.sealed == {}


def test_the_highest_bid_wins_a_point_and_pays():
    t = Table(3).start()
    t.play_round(3, 5, 4)
    assert t.state.points == {"seat1": 0, "seat2": 1, "seat3": 0}
    assert t.state.coins == {"seat1": 10, "seat2": 5, "seat3": 10}


def test_a_tie_is_broken_by_the_rounds_seeded_draw():
    t = Table(4).start()
    revealed = of_type(t.play_round(2, 6, 6, 6), ev.AuctionBidsRevealed)[0]
    tie = revealed.tie_break
    assert tie is not None and tie.candidates == ["seat2", "seat3", "seat4"]
    assert tie.draw == derive_rng("s", f"{GAME_ID}/round/1").below(3)
    assert revealed.winner == tie.candidates[tie.draw] and revealed.price == 6
    again = Table(4).start().play_round(2, 6, 6, 6)
    assert of_type(again, ev.AuctionBidsRevealed) == [revealed]  # the same seed draws the same winner


def test_timeout_is_void_for_another_step_and_early_before_the_deadline():
    t = Table(2).start()
    step = t.state.step_version
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, ApplyTimeout(step_version=step), SYSTEM, t.ctx)
    assert e.value.code == "timeout_early"
    t.play_round(1, 0)
    t.now += timedelta(hours=1)
    with pytest.raises(WrongPhase) as e:
        GAME.decide(t.state, ApplyTimeout(step_version=step), SYSTEM, t.ctx)
    assert e.value.code == "timeout_void"


def test_a_missed_deadline_bids_zero_and_reveals_in_the_same_batch():
    t = Table(3).start()
    t.bid(2, 1)
    batch = t.timeout()
    defaults = of_type(batch, ev.AuctionBidSealed)
    assert [(d.seat_id, d.amount, d.by_default) for d in defaults] == [("seat1", 0, True), ("seat3", 0, True)]
    revealed = of_type(batch, ev.AuctionBidsRevealed)[0]
    assert revealed.bids == {"seat1": 0, "seat2": 1, "seat3": 0} and revealed.winner == "seat2"
    assert isinstance(batch[-1], ev.AuctionRoundBegan) and t.state.round == 2
    assert GAME.decisions(t.state, "seat1").decisions[0].default == "a bid of 0"


def test_the_game_ends_after_the_last_round_and_refuses_everything():
    t = Table(2, rounds=2).start()
    t.play_round(3, 0)
    ended = t.play_round(0, 3)[-1]
    assert isinstance(ended, ev.AuctionEnded)
    # 1 point each; 7 coins each; the lowest seat number wins
    assert ended.points == {"seat1": 1, "seat2": 1} and ended.coins == {"seat1": 7, "seat2": 7}
    assert ended.winner == "seat1" and GAME.is_over(t.state) and GAME.deadline(t.state) is None
    for command, actor in (
        (PlaceBid(amount=0), seat(1)),
        (JoinGame(name="x"), seat(0)),
        (StartGame(), ORGANIZER),
        (ResolvePending(), SYSTEM),
        (ApplyTimeout(step_version=t.state.step_version), SYSTEM),
    ):
        with pytest.raises(WrongPhase) as e:
            GAME.decide(t.state, command, actor, t.ctx)
        assert e.value.code == "game_over"


def test_points_then_coins_decide_the_winner():
    t = Table(3, rounds=2).start()
    t.play_round(5, 1, 0)  # seat1 1 point, 5 coins
    ended = t.play_round(0, 2, 1)[-1]  # seat2 1 point, 8 coins
    assert ended.points == {"seat1": 1, "seat2": 1, "seat3": 0}
    assert ended.winner == "seat2" and t.state.winner == "seat2"


def test_deadline_and_decisions():
    t = Table(2).start()
    d = GAME.deadline(t.state)
    assert d is not None and d.step_version == t.state.step_version == t.state.version
    assert d.at == "2026-01-01T12:10:00.000Z"
    t.bid(1, 4)
    out = GAME.decisions(t.state, "seat1")
    assert out.step == "place_bids" and out.waiting_for == ["seat2"]
    [decision] = out.decisions
    assert (decision.kind, decision.max_amount, decision.submitted, decision.deadline) == ("place_bid", 10, 4, d.at)
    assert GAME.decisions(t.state, None).decisions == []
    t.bid(2, 0)
    out = GAME.decisions(t.state, "seat1")
    assert out.step == "reveal" and out.decisions == [] and out.waiting_for == []
    msgspec.json.encode(out)
