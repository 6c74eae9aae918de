"""BG-COK-01..07: Clash of Kings bidding, ties, Dominance tokens, the Power Pool."""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board.action import events as aev
from domain.board.decider import decide, pending_system_work
from domain.board.power import pool
from domain.board.redaction import redact_event, view_for
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from tests.support.westeros_positions import SYSTEM, of_type, westeros, wev

# 3 players: Iron Throne baratheon, lannister, stark; Fiefdoms stark, baratheon, lannister;
# King's Court lannister, stark, baratheon. Everyone has 5 Power.

COK = ("last_days_of_summer", "clash_of_kings", "put_to_the_sword")


def clash(players=3, **kw):
    sc = westeros(players, COK, **kw)
    sc.begin_westeros()
    return sc


def test_BG_COK_01_and_07_dominance_tokens_follow_position_1_of_each_track():
    sc = clash()
    sc.bids({"stark": 3, "lannister": 2, "baratheon": 1})  # Iron Throne
    assert sc.state.tracks.iron_throne == ["stark", "lannister", "baratheon"]
    sc.bids({"stark": 0, "lannister": 2, "baratheon": 1})  # Fiefdoms
    assert sc.state.tracks.fiefdoms[0] == "lannister"
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 1})  # King's Court
    sc.choose("stark", "stark")  # the new Iron Throne holder orders the tie at 0
    assert sc.state.tracks.kings_court == ["baratheon", "stark", "lannister"]
    assert sc.state.raven_holder() == "baratheon"
    from domain.board.action.combat import blade_holder

    assert blade_holder(sc.state) == "lannister"
    # Put to the Sword (deck III) is now the new Blade holder's choice
    assert sc.decision().house == "lannister" and sc.decision().options.about == "put_to_the_sword"


def test_BG_COK_02_the_tracks_are_bid_for_one_at_a_time_in_order():
    sc = clash()
    seen = []
    while sc.state.westeros.current == "deck_ii":
        ds = sc.decisions()
        if ds[0].commands == ["bid"]:
            assert {d.options.track for d in ds} == {ds[0].options.track}  # one track at a time
            seen.append(ds[0].options.track)
            sc.bids({"stark": 1, "lannister": 0, "baratheon": 0})
        else:
            sc.timeout()  # a tie: the Iron Throne holder's default
    assert seen == ["iron_throne", "fiefdoms", "kings_court"]
    assert [e.track for e in of_type(sc.events, wev.BiddingEnded)] == ["iron_throne", "fiefdoms", "kings_court"]


def test_BG_COK_03_bids_are_sealed_until_every_house_has_bid():
    sc = clash()
    assert {d.house: d.options.max for d in sc.decisions()} == {"baratheon": 5, "lannister": 5, "stark": 5}
    out = sc.bid("stark", 4)
    [sealed] = of_type(out, wev.BidSubmitted)
    assert redact_event(sealed, "stark").amount == 4
    assert redact_event(sealed, "lannister").amount is None and redact_event(sealed, None).amount is None
    assert view_for(sc.state, "lannister").westeros.bidding.bids == {}
    assert view_for(sc.state, "lannister").westeros.bidding.submitted == ["stark"]
    assert view_for(sc.state, "stark").westeros.bidding.bids == {"stark": 4}
    with pytest.raises(RuleViolation):
        sc.bid("stark", 2)  # a sealed bid stands
    with pytest.raises(WrongPhase):
        decide(sc.state, cmd.ResolvePending(), SYSTEM, sc.ctx)  # not everyone has bid
    sc.bid("lannister", 0)
    sc.bid("baratheon", 0)
    assert pending_system_work(sc.state)
    out = sc.resolve()
    assert of_type(out, wev.BidsRevealed)[0].bids == {"baratheon": 0, "lannister": 0, "stark": 4}


def test_BG_COK_03_a_bid_is_0_to_the_available_power():
    sc = clash(power={"stark": 2})
    with pytest.raises(RuleViolation) as err:
        sc.bid("stark", 3)
    assert err.value.code == "bid_too_high"
    sc.bid("stark", 2)


def test_BG_COK_03_a_house_without_power_bids_0_at_once():
    sc = clash(power={"stark": 0})
    assert "stark" not in {d.house for d in sc.decisions()}
    assert sc.state.westeros.bidding.sealed == {"stark": 0}


def test_BG_COK_04_houses_are_placed_from_the_highest_bid_down():
    sc = clash()
    out = sc.bids({"stark": 1, "lannister": 3, "baratheon": 2})
    [changed] = of_type(out, aev.InfluenceTrackChanged)
    assert (changed.track, changed.order, changed.reason) == (
        "iron_throne",
        ["lannister", "baratheon", "stark"],
        "BG-COK-04",
    )


def test_BG_COK_05_ties_on_the_iron_throne_are_broken_by_the_holder_before_the_bid():
    sc = clash()
    sc.bids({"stark": 3, "lannister": 1, "baratheon": 1})
    d = sc.decision()
    assert d.house == "baratheon" and d.options.about == "bid_tie" and d.options.options == ["baratheon", "lannister"]
    assert d.options.default == "baratheon"  # default: the order the track had
    with pytest.raises(NotYourTurn):
        sc.choose("stark", "lannister")
    sc.choose("baratheon", "lannister")
    assert sc.state.tracks.iron_throne == ["stark", "lannister", "baratheon"]
    # Fiefdoms: a three-way tie is broken by the *new* Iron Throne holder, one house at a time
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 0})
    d = sc.decision()
    assert d.house == "stark" and d.options.options == ["stark", "baratheon", "lannister"]
    sc.choose("stark", "lannister")
    assert sc.decision().options.options == ["stark", "baratheon"]
    sc.choose("stark", "baratheon")
    assert sc.state.tracks.fiefdoms == ["lannister", "baratheon", "stark"]
    assert [e.chooser for e in of_type(sc.events, wev.BidTieBroken)] == ["baratheon", "stark", "stark"]


def test_BG_COK_05_the_default_keeps_tied_houses_in_their_track_order():
    sc = clash()
    sc.bids({"stark": 3, "lannister": 1, "baratheon": 1})
    out = sc.timeout()
    assert of_type(out, wev.WesterosChoiceMade)[0].by_default
    assert sc.state.tracks.iron_throne == ["stark", "baratheon", "lannister"]


def test_BG_COK_06_every_bid_goes_to_the_power_pool():
    sc = clash()
    pools = {h: pool(sc.state, h) for h in ("stark", "lannister", "baratheon")}
    out = sc.bids({"stark": 3, "lannister": 2, "baratheon": 0})
    spent = {e.house: e.amount for e in of_type(out, aev.PowerSpent)}
    assert spent == {"stark": 3, "lannister": 2}
    assert all(e.reason == "BG-COK-06" for e in of_type(out, aev.PowerSpent))
    assert sc.state.houses["stark"].power == 2 and sc.state.houses["lannister"].power == 3
    assert pool(sc.state, "stark") == pools["stark"] + 3 and pool(sc.state, "lannister") == pools["lannister"] + 2


def test_BG_COK_the_bid_deadline_bids_0():
    sc = clash()
    sc.bid("stark", 2)
    out = sc.timeout()
    assert {e.house for e in of_type(out, wev.BidSubmitted) if e.by_default} == {"lannister", "baratheon"}
    assert pending_system_work(sc.state)


def test_BG_COK_08_the_iron_throne_holder_breaks_every_tie_outside_combat():
    """Clash of Kings ties (above), the highest/lowest wildling bidder (test_wildlings.py) and
    Preemptive Raid's equal tracks all go to the Iron Throne holder: here a 4-player wildling tie."""
    sc = westeros(
        4, ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), wildling=["mammoth_riders"], threat=4
    )
    sc.begin_westeros()
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 0, "greyjoy": 0})
    assert sc.decision().house == sc.state.tracks.iron_throne[0] == "baratheon"


def test_BG_COK_11_turn_order_follows_the_new_iron_throne_track_at_once():
    sc = westeros(3, ("mustering", "clash_of_kings", "put_to_the_sword"))
    sc.begin_westeros()
    assert sc.state.westeros.musterers == ["baratheon", "lannister", "stark"]
    sc.pass_musters()
    sc.bids({"stark": 5, "lannister": 3, "baratheon": 0})
    assert sc.state.turn_order() == ["stark", "lannister", "baratheon"]
