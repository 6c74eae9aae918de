"""Scenario fixtures with Mother of Dragons (domain/board/scenario.py, docs/mother-of-dragons.md): a
position on the 7-house board naming the players' houses; every other house is a vassal (MOD-SETUP-01,
MOD-VASSAL-01), with no Power and no House cards of its own (MOD-SETUP-15, MOD-VASSAL-14/26); Arryn's
areas and cards and the 7-house tracks are taken; the game opens on the commanders' choice
(MOD-VASSAL-02). A position the rules could not produce is refused with the rule it breaks."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.decider import create, fold
from domain.board.scenario_schema import Scenario
from domain.board.state import Settings
from domain.core.context import Context
from domain.core.errors import RuleViolation
from tests.domain.board.mother_of_dragons.test_mod_house_choice import MOD, ORGANIZER, Table
from tests.support.board_builders import NOW

POSITION: dict[str, Any] = {
    "areas": {
        "the_eyrie": {"house": "arryn", "units": {"footman": 2}},
        "the_bite": {"house": "arryn", "units": {"ship": 1}},
        "the_vale_of_arryn": {"power_token": "arryn"},
        "winterfell": {"house": "stark", "units": {"knight": 1, "footman": 1}},
        "pyke": {"house": "greyjoy", "units": {"footman": 1}},
        "lannisport": {"house": "lannister", "units": {"footman": 1}},
        "highgarden": {"power_token": "tyrell"},
    },
    "seat_houses": ["arryn", "stark", "greyjoy"],
    "round": 4,
    "wildling_threat": 6,
    "tracks": {
        "iron_throne": ["arryn", "lannister", "stark", "greyjoy", "tyrell", "martell", "baratheon"],
        "fiefdoms": ["stark", "greyjoy", "arryn", "baratheon", "tyrell", "martell", "lannister"],
        "kings_court": ["greyjoy", "arryn", "stark", "martell", "lannister", "tyrell", "baratheon"],
    },
    "houses": {"arryn": {"power": 3, "hand": ["lysa_arryn_mod", "robert_arryn"]}, "stark": {"power": 9}},
}


def scenario(**changes: Any) -> Scenario:
    return msgspec.convert({**POSITION, **changes}, type=Scenario)


class FixtureTable(Table):
    """A Mother of Dragons game created from a scenario fixture, seated and started."""

    def __init__(self, sc: Scenario, seed: str = "mod-fixture", settings: Settings = MOD) -> None:  # noqa: D107
        self.ctx = Context(now=NOW, seed=seed, game_id=f"mod-{seed}")
        self.state = None
        self.batches = []
        self.apply(
            create(cmd.CreateGame(player_count=len(sc.seat_houses or []), settings=settings, scenario=sc), self.ctx)
        )
        for i in range(len(sc.seat_houses or [])):
            self.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(cmd.StartGame(), ORGANIZER)


def test_MOD_SETUP_01_a_position_names_the_players_and_the_other_houses_are_vassals() -> None:
    """MOD-SETUP-01 / MOD-VASSAL-01 / MOD-SETUP-15 / MOD-VASSAL-14: the players are the fixture's seat
    houses; the four others are vassals with no Power and no hand; the position's units, Power tokens,
    Arryn's areas (the Eyrie, The Bite), its hand and the 7-house tracks are as described."""
    t = FixtureTable(scenario())
    s = t.state
    assert s is not None
    assert {x.seat_id: x.house for x in s.seats} == {"seat1": "arryn", "seat2": "stark", "seat3": "greyjoy"}
    assert sorted(s.vassals) == ["baratheon", "lannister", "martell", "tyrell"]
    assert all(s.houses[v].power == 0 and s.houses[v].hand == [] for v in s.vassals)
    assert (s.houses["arryn"].power, s.houses["stark"].power, s.houses["greyjoy"].power) == (3, 9, 7)
    assert s.houses["arryn"].hand == ["lysa_arryn_mod", "robert_arryn"] and len(s.houses["stark"].hand) == 7
    assert s.areas["the_eyrie"].units == {"footman": 2} and s.areas["the_bite"].units == {"ship": 1}
    assert s.areas["the_vale_of_arryn"].power_token == "arryn"
    assert s.areas["lannisport"].house == "lannister" and s.areas["highgarden"].power_token == "tyrell"
    assert s.areas["kings_landing"].units == {} and s.areas["dragonstone"].units == {}  # the position only
    assert s.tracks is not None and s.tracks.iron_throne == POSITION["tracks"]["iron_throne"]
    assert (s.round, s.wildling_threat) == (4, 6)
    # MOD-VASSAL-02: Planning opens on the commanders' choice; the first set goes to the top player
    assert (s.phase, s.step) == ("planning", "choose_commanders")
    dealt = [e for e in t.all_events() if isinstance(e, mev.VassalOrderSetsDealt)]
    assert dealt and dealt[0].sets == {"arryn": 2, "stark": 1, "greyjoy": 1}
    assert not [e for e in t.all_events() if isinstance(e, mev.HouseChoiceOrdered)]


def test_a_mod_fixture_audits_clean_and_refolds_byte_for_byte() -> None:
    t = FixtureTable(scenario(), seed="mod-fixture-audit")
    while t.state is not None and t.state.step == "choose_commanders":
        t.timeout()
    envs = t.envelopes()
    report = audit(envs, t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(envs) and report.divergence is None
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    again = fold(t.all_events(), None)
    assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(t.state)


def test_mod_fixture_with_time_banks_runs_the_players_banks_only() -> None:
    """docs/clocks.md with a fixture: the players' banks, none for the vassals."""
    t = FixtureTable(scenario(), settings=Settings(expansion="mother_of_dragons", time_bank_s=100))
    assert t.state is not None and sorted(t.state.clocks) == ["arryn", "greyjoy", "stark"]


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"seat_houses": None}, "MOD-SETUP-01"),
        ({"seat_houses": ["arryn", "arryn", "stark"]}, "MOD-SETUP-01"),
        ({"seat_houses": ["arryn", "stark", "targaryen"]}, "MOD-SETUP-01"),
        ({"houses": {"tyrell": {"power": 2}}}, "MOD-VASSAL-26"),
        ({"houses": {"martell": {"hand": ["the_red_viper"]}}}, "MOD-VASSAL-14"),
        ({"houses": {"arryn": {"hand": ["eddard_stark"]}}}, "BG-SETUP-14"),
        (
            {
                "tracks": {
                    "iron_throne": ["arryn", "lannister", "stark", "greyjoy", "tyrell", "martell"],
                    "fiefdoms": POSITION["tracks"]["fiefdoms"],
                    "kings_court": POSITION["tracks"]["kings_court"],
                }
            },
            "BG-COK-04",
        ),
        ({"areas": {"the_eyrie": {"house": "arryn", "units": {"siege_engine": 3}}}}, "BG-COMP-03"),
        ({"areas": {"atlantis": {"house": "arryn", "units": {"footman": 1}}}}, "BG-MAP-01"),
    ],
)
def test_a_mod_position_the_rules_could_not_produce_is_refused(changes: dict[str, Any], rule: str) -> None:
    """Refused at creation with 422 ``invalid_scenario`` and the rule it breaks; nothing is created."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=MOD, scenario=scenario(**changes)), ctx)
    assert err.value.code == "invalid_scenario" and err.value.rule == rule, err.value


def test_other_start_points_and_a_deal_beside_the_fixture_are_refused() -> None:
    """Only ``start_at: planning`` is offered with Mother of Dragons yet; seat houses belong in the
    fixture, not beside it."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=MOD, scenario=scenario(start_at="action")), ctx)
    assert err.value.code == "invalid_scenario" and "not offered" in str(err.value)
    with pytest.raises(RuleViolation) as err:
        create(
            cmd.CreateGame(
                player_count=3, settings=MOD, scenario=scenario(), seat_houses=["arryn", "stark", "greyjoy"]
            ),
            ctx,
        )
    assert err.value.code == "invalid_seat_houses"


def test_the_base_game_still_refuses_the_vale_of_arryn() -> None:
    """BG-MAP-01: without the expansion The Vale of Arryn (a Mother of Dragons overlay area) is no area."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    base = {"areas": {"the_vale_of_arryn": {"house": "stark", "units": {"footman": 1}}}}
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=Settings(), scenario=msgspec.convert(base, type=Scenario)), ctx)
    assert err.value.rule == "BG-MAP-01"
