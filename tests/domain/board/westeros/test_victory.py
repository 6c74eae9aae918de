"""BG-VIC-01..04: seven castles at once, the Victory track, the end after round 10, tie-breaks."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board.action import commands as acmd
from domain.board.decider import decide, pending_system_work
from domain.board.redaction import redact_event, view_for
from domain.board.state import Settings
from domain.board.victory import standings
from domain.core.errors import WrongPhase
from tests.support.westeros_positions import SYSTEM, WesterosPosition, of_type, westeros, wev

SIX_NORTH = {
    "winterfell": ("stark", {"footman": 1}),
    "white_harbor": ("stark", {"footman": 1}),
    "moat_cailin": ("stark", {"footman": 1}),
    "flints_finger": ("stark", {"footman": 1}),
    "seagard": ("stark", {"footman": 1}),
    "riverrun": ("stark", {"footman": 1}),
}


def test_BG_VIC_01_a_march_taking_the_seventh_castle_ends_the_game_in_the_same_batch():
    sc = WesterosPosition(6).setup(
        {**SIX_NORTH, "stoney_sept": ("stark", {"knight": 1}), "lannisport": ("lannister", {"footman": 1})},
        {"stoney_sept": "march_0", "lannisport": "defense_plus_1"},
    )
    sc.begin()
    assert (
        view_for(sc.state, None)
        .houses[[h.house for h in view_for(sc.state, None).houses].index("stark")]
        .victory_points
        == 6
    )
    out = sc.run("stark", acmd.ResolveMarch(area="stoney_sept", moves={"harrenhal": acmd.UnitCounts(knight=1)}))
    ended = out[-1]
    assert isinstance(ended, wev.GameEnded) and (ended.winner, ended.reason) == ("stark", "seven_castles")
    assert ended.standings[0].house == "stark" and ended.standings[0].castles == 7
    assert (sc.state.phase, sc.state.step, sc.state.winner) == ("ended", "game_over", "stark")
    assert not pending_system_work(sc.state)
    with pytest.raises(WrongPhase) as err:
        sc.run("lannister", acmd.ResolveRaid(area="lannisport"))
    assert err.value.code == "game_over"


def test_BG_VIC_01_a_westeros_effect_that_gives_back_a_home_area_can_end_the_game():
    # Lannister's only unit holds Winterfell; Stark controls six other castles. Mammoth Riders:
    # Lannister, lowest bidder, must destroy it; Winterfell is Stark's again: seven.
    units = {a: u for a, u in SIX_NORTH.items() if a != "winterfell"}
    units.update(
        {
            "harrenhal": ("stark", {"footman": 1}),
            "winterfell": ("lannister", {"footman": 1}),
            "dragonstone": ("baratheon", {"footman": 1, "knight": 1}),
        }
    )
    sc = westeros(
        6,
        ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"),
        units=units,
        wildling=["mammoth_riders"],
        threat=4,
    )
    sc.begin_westeros()
    out = sc.bids({h: (0 if h == "lannister" else 1) for h in sc.state.houses_in_play})
    ended = out[-1]
    assert isinstance(ended, wev.GameEnded) and (ended.winner, ended.reason) == ("stark", "seven_castles")
    assert sc.state.phase == "ended" and sc.decisions() == []


def test_BG_VIC_02_the_victory_track_is_derived_from_control():
    sc = WesterosPosition(6).setup(SIX_NORTH)
    stark = next(h for h in view_for(sc.state, None).houses if h.house == "stark")
    assert stark.victory_points == 6
    table = {s.house: s for s in standings(sc.state)}
    assert table["stark"].castles == 6 and table["stark"].strongholds == 3
    assert table["lannister"].castles == 1  # lannisport, home area with no units


def final(sc: WesterosPosition):
    sc.state.round = 10
    sc.state.phase, sc.state.step = "ended", "awaiting_final_scoring"
    return sc.resolve()


def test_BG_VIC_03_after_round_10_the_most_castles_win():
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "lannisport": ("lannister", {"footman": 1}),
            "riverrun": ("lannister", {"footman": 1}),
            "harrenhal": ("lannister", {"footman": 1}),
        }
    )
    out = final(sc)
    [ended] = out
    assert (ended.winner, ended.reason, ended.round) == ("lannister", "final_round", 10)
    assert [s.rank for s in ended.standings] == [1, 2, 3, 4, 5, 6]
    assert ended.standings[0].castles == 3
    assert redact_event(ended, None) == ended and redact_event(ended, "stark") == ended  # reveals nothing hidden


def test_BG_VIC_04_faq_v2_tie_breaks_land_areas_then_supply_then_iron_throne():
    # stark and lannister: 2 castles each. Lannister holds one more land area.
    units = {
        "winterfell": ("stark", {"footman": 1}),
        "white_harbor": ("stark", {"footman": 1}),
        "lannisport": ("lannister", {"footman": 1}),
        "riverrun": ("lannister", {"footman": 1}),
        "stoney_sept": ("lannister", {"footman": 1}),
    }
    [ended] = final(WesterosPosition(6).setup(units))
    assert ended.winner == "lannister" and ended.tiebreak_ruleset == "faq_v2"
    # equal land areas: the higher Supply wins
    units.pop("stoney_sept")
    units["karhold"] = ("stark", {"footman": 1})
    units["stoney_sept"] = ("lannister", {"footman": 1})
    [ended] = final(WesterosPosition(6).setup(units, supply={"stark": 3, "lannister": 2}))
    assert ended.winner == "stark"
    # equal Supply as well: the higher on the Iron Throne track (lannister is 2nd, stark 3rd)
    [ended] = final(WesterosPosition(6).setup(units, supply={"stark": 2, "lannister": 2}))
    assert ended.winner == "lannister"


def test_BG_VIC_04_the_seed_ruleset_counts_strongholds_then_supply_then_power():
    # 2 castles each; stark has 2 strongholds (winterfell, seagard), lannister 1 (lannisport) + a castle.
    units = {
        "winterfell": ("stark", {"footman": 1}),
        "seagard": ("stark", {"footman": 1}),
        "lannisport": ("lannister", {"footman": 1}),
        "harrenhal": ("lannister", {"footman": 1}),
        "stoney_sept": ("lannister", {"footman": 1}),
    }
    sc = WesterosPosition(6).setup(units)
    sc.state.settings = Settings(tiebreak_ruleset="seed")  # as if the game had been created with it
    [ended] = final(sc)
    assert (ended.winner, ended.tiebreak_ruleset) == ("stark", "seed")
    # under faq_v2 lannister's extra land area wins instead
    [ended] = final(WesterosPosition(6).setup(units))
    assert ended.winner == "lannister"


def test_BG_VIC_04_the_setting_is_chosen_at_creation():
    settings = msgspec.json.decode(b'{"tiebreak_ruleset": "seed"}', type=Settings)
    assert settings.tiebreak_ruleset == "seed" and Settings().tiebreak_ruleset == "faq_v2"
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"tiebreak_ruleset": "other"}', type=Settings)


def test_the_end_of_the_game_refuses_every_command():
    sc = WesterosPosition(3)
    [ended] = final(sc)
    for command, actor in ((cmd.ResolvePending(), SYSTEM), (cmd.RavenPass(), sc.actor("stark"))):
        with pytest.raises(WrongPhase):
            decide(sc.state, command, actor, sc.ctx)
    assert of_type(sc.events, wev.GameEnded) == [ended]
