"""Every Westeros decision is listed with its legal options, a deadline and a documented default;
the deadline applies it; the player commands decode from the REST body; the view and the log."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board.decider import decide
from domain.board.narrative import describe
from domain.board.redaction import view_for
from domain.board.westeros import commands as wcmd
from domain.board.westeros.timeouts import WESTEROS_DEFAULT_TEXT
from domain.core.errors import WrongPhase
from tests.support.westeros_positions import SYSTEM, of_type, westeros, wev

_json = msgspec.json.Encoder()


def check_decisions(sc, kind):
    ds = sc.decisions()
    assert ds and all(d.options.__struct_config__.tag == kind for d in ds)
    for d in ds:
        assert d.deadline == sc.state.deadline is not None
        assert d.default == WESTEROS_DEFAULT_TEXT[kind]
        assert kind in d.commands
        _json.encode(d)
    return ds


def test_every_kind_of_westeros_decision_has_options_a_deadline_and_a_default():
    sc = westeros(
        4,
        ("supply", "clash_of_kings", "wildlings_attack"),
        units={
            "lannisport": ("lannister", {"footman": 3}),
            "stoney_sept": ("lannister", {"footman": 3}),
            "winterfell": ("stark", {"footman": 1, "knight": 1}),
            "white_harbor": ("stark", {"footman": 1}),
            "the_shivering_sea": ("stark", {"ship": 1}),
        },
        supply={"lannister": 6},
        wildling=["mammoth_riders"],
        threat=6,
    )
    sc.begin_westeros()
    [d] = check_decisions(sc, "reconcile_armies")
    sc.timeout()
    check_decisions(sc, "bid")
    sc.zero_bids()
    [d] = check_decisions(sc, "westeros_choice")
    assert d.options.about == "bid_tie" and d.options.default
    while sc.state.westeros.current == "deck_ii":
        sc.timeout() if not sc.state.westeros.bidding or sc.state.westeros.bidding.revealed else sc.zero_bids()
    check_decisions(sc, "bid")  # the wildlings
    sc.bids({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1})
    [d] = check_decisions(sc, "select_units")
    assert (d.house, d.options.about, d.options.min) == ("stark", "destroy", 3)

    sc2 = westeros(4, ("mustering", "last_days_of_summer", "sea_of_storms"))
    sc2.begin_westeros()
    [d] = check_decisions(sc2, "muster")
    assert d.options.areas["dragonstone"].points == 2 and d.options.costs["knight"] == 2


def test_the_select_units_default_destroys_the_weakest_units():
    sc = westeros(
        4, ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), wildling=["mammoth_riders"], threat=4
    )
    sc.begin_westeros()
    sc.bids({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1})
    out = sc.timeout()
    [picked] = of_type(out, wev.UnitsSelected)
    assert picked.by_default and picked.house == "stark"
    assert picked.units == {
        "the_shivering_sea": {"ship": 1},
        "white_harbor": {"footman": 1},
        "winterfell": {"footman": 1},
    }


def test_an_optional_reward_is_not_taken_by_default():
    sc = westeros(
        4,
        ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"),
        wildling=["a_king_beyond_the_wall"],
        threat=4,
    )
    sc.begin_westeros()
    tracks = msgspec.structs.asdict(sc.state.tracks)
    sc.bids({"stark": 5, "lannister": 3, "baratheon": 0, "greyjoy": 0})  # 8 >= 8
    out = sc.timeout()
    [made] = of_type(out, wev.WesterosChoiceMade)
    assert made.choice is None and made.by_default
    assert msgspec.structs.asdict(sc.state.tracks) == tracks


def test_a_timeout_for_a_step_that_has_moved_on_is_void():
    sc = westeros(4, ("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    sc.begin_westeros()
    old = sc.state.step_version
    sc.choose("baratheon", "nothing")
    later = sc.ctx.__class__(now=sc.ctx.now.replace(year=2030), seed=sc.ctx.seed, game_id=sc.ctx.game_id)
    with pytest.raises(WrongPhase) as err:
        decide(sc.state, cmd.ApplyTimeout(step_version=old), SYSTEM, later)
    assert err.value.code == "timeout_void"


@pytest.mark.parametrize(
    "body,typ",
    [
        (b'{"type": "bid", "amount": 3}', wcmd.Bid),
        (b'{"type": "westeros_choice", "choice": "supply"}', wcmd.WesterosChoice),
        (b'{"type": "westeros_choice", "choice": null}', wcmd.WesterosChoice),
        (b'{"type": "select_units", "units": {"winterfell": {"footman": 1}}}', wcmd.SelectUnits),
        (b'{"type": "reconcile_armies", "units": {"winterfell": {"knight": 1}}}', wcmd.ReconcileArmies),
        (
            b'{"type": "muster", "recruits": {"winterfell": [{"unit": "ship", "area": "bay_of_ice"}, {"unit": "knight", "upgrade": true}]}}',
            wcmd.Muster,
        ),
    ],
)
def test_the_westeros_commands_are_player_commands_of_the_rest_api(body, typ):
    assert isinstance(msgspec.json.decode(body, type=cmd.PlayerCommand), typ)


def test_a_negative_bid_is_refused_by_the_schema():
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "bid", "amount": -1}', type=cmd.PlayerCommand)


def test_the_view_shows_the_revealed_cards_the_restrictions_and_the_attack():
    sc = westeros(
        4, ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), wildling=["mammoth_riders"], threat=4
    )
    sc.begin_westeros()
    v = view_for(sc.state, None)
    assert v.westeros.revealed == {
        "deck_i": "last_days_of_summer",
        "deck_ii": "last_days_of_summer",
        "deck_iii": "wildlings_attack",
    }
    assert v.westeros.attacks[0].strength == 8 and v.westeros.attacks[0].card is None
    _json.encode(v)
    sc.bids({"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1})
    v = view_for(sc.state, "lannister")
    assert v.westeros.attacks[0].card == "mammoth_riders" and v.westeros.attacks[0].bidding.bids["stark"] == 0


def test_every_public_westeros_event_has_a_log_sentence():
    sc = westeros(
        4, ("a_throne_of_blades", "clash_of_kings", "wildlings_attack"), wildling=["preemptive_raid"], threat=4
    )
    sc.begin_westeros()
    sc.finish()
    bookkeeping = (wev.WesterosStageBegan, wev.WildlingAttackStageBegan, wev.WildlingEffectDone, wev.BidTieBroken)
    for e in sc.events:
        if isinstance(e, wev.WESTEROS_EVENTS) and not isinstance(e, bookkeeping[:3]):
            assert describe(e), e
