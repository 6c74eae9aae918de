"""BG-SUPPLY-03/04 (the Supply token and the forced reconcile) and BG-MUSTER-01..06 (the Mustering
card), as the Westeros phase applies them."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.core.errors import NotYourTurn, RuleViolation
from tests.support.westeros_positions import Recruit, of_type, westeros, wev

QUIET = ("last_days_of_summer", "game_of_thrones", "put_to_the_sword")


def supply_card(units, supply, **kw):
    return westeros(6, ("supply", "last_days_of_summer", "sea_of_storms"), units=units, supply=supply, **kw)


# --- BG-SUPPLY-03 --------------------------------------------------------------------------------------


def test_BG_SUPPLY_03_the_token_moves_only_when_a_supply_effect_says_so():
    # Stark controls 3 barrels but its token says 1: Game of Thrones and the rest leave it alone.
    sc = westeros(
        6,
        QUIET,
        units={
            "winterfell": ("stark", {"footman": 1}),
            "widows_watch": ("stark", {"footman": 1}),
            "the_stony_shore": ("stark", {"footman": 1}),
        },
        supply={"stark": 1},
    )
    sc.begin_westeros()
    sc.finish()
    assert sc.state.houses["stark"].supply == 1
    assert not of_type(sc.events, wev.SupplyAdjusted)


def test_BG_SUPPLY_03_the_value_is_capped_at_6():
    sc = supply_card(
        {
            "lannisport": ("lannister", {"footman": 1}),
            "blackwater": ("lannister", {"footman": 1}),
            "highgarden": ("lannister", {"footman": 1}),
            "riverrun": ("lannister", {"footman": 1}),
            "seagard": ("lannister", {"footman": 1}),
        },
        {"lannister": 2},
    )
    sc.begin_westeros()
    assert sc.state.houses["lannister"].supply == 6  # 2 + 2 + 2 + 1 + 1 = 8 barrels


# --- BG-SUPPLY-04 reconcile ------------------------------------------------------------------------------

OVER = {
    "lannisport": ("lannister", {"footman": 3}),
    "stoney_sept": ("lannister", {"footman": 2, "knight": 1}),
    "searoad_marches": ("lannister", {"footman": 2}),
}


def over_limit():
    # barrels: lannisport 2 + searoad marches 1 = 3 -> allowed 3, 2, 2, 2; armies 3, 3, 2: one 3 too many
    return supply_card(OVER, {"lannister": 6})


def test_BG_SUPPLY_04_a_house_over_its_new_limit_must_reconcile_before_the_phase_goes_on():
    sc = over_limit()
    sc.begin_westeros()
    d = sc.decision("lannister")
    assert d.options.supply == 3 and d.options.allowed == [3, 2, 2, 2] and d.options.fewest == 1
    assert set(d.options.armies) == {"lannisport", "stoney_sept", "searoad_marches"}
    assert sc.state.westeros.current == "deck_i"  # the Supply card waits for the reconcile


def test_BG_SUPPLY_04_too_few_losses_are_refused():
    sc = over_limit()
    sc.begin_westeros()
    with pytest.raises(RuleViolation) as err:
        sc.reconcile("lannister", {"searoad_marches": {"footman": 1}})
    assert err.value.rule == "BG-SUPPLY-04"


def test_BG_SUPPLY_04_losses_beyond_what_is_needed_are_refused():
    sc = over_limit()
    sc.begin_westeros()
    with pytest.raises(RuleViolation) as err:
        sc.reconcile("lannister", {"lannisport": {"footman": 2}})
    assert err.value.code == "too_many_losses"
    with pytest.raises(RuleViolation):
        sc.reconcile("lannister", {"lannisport": {"footman": 1}, "searoad_marches": {"footman": 1}})


def test_BG_SUPPLY_04_the_house_chooses_which_units_die():
    sc = over_limit()
    sc.begin_westeros()
    out = sc.reconcile("lannister", {"stoney_sept": {"knight": 1}})
    [done] = of_type(out, wev.ArmiesReconciled)
    assert done.units == {"stoney_sept": {"knight": 1}}
    assert of_type(out, aev.UnitsDestroyed)[0].reason == "BG-SUPPLY-04"
    assert sc.state.areas["stoney_sept"].units == {"footman": 2}
    assert sc.state.phase == "planning"


def test_BG_SUPPLY_04_shrinking_an_army_to_one_unit_is_a_legal_way_to_fit():
    sc = supply_card(
        {
            "lannisport": ("lannister", {"footman": 2}),
            "stoney_sept": ("lannister", {"footman": 2}),
            "searoad_marches": ("lannister", {"footman": 2}),
        },
        {"lannister": 6},
    )
    # barrels 3 -> 3,2,2,2: legal, no reconcile
    sc.begin_westeros()
    assert sc.state.phase == "planning"
    sc2 = supply_card(
        {
            "lannisport": ("lannister", {"footman": 2}),
            "stoney_sept": ("lannister", {"footman": 2}),
            "kingswood": ("lannister", {"footman": 2}),
            "blackwater": ("lannister", {"footman": 2}),
        },
        {"lannister": 6},
        round=3,
    )
    # barrels: lannisport 2 + kingswood 1 + blackwater 2 = 5 -> 4,3,2,2: legal as well
    sc2.begin_westeros()
    assert sc2.state.phase == "planning"


def test_BG_SUPPLY_04_every_house_over_its_limit_reconciles_at_the_same_time():
    units = dict(OVER)
    units.update({"winterfell": ("stark", {"footman": 3}), "white_harbor": ("stark", {"footman": 3})})
    sc = supply_card(units, {"lannister": 6, "stark": 6})
    sc.begin_westeros()
    assert sorted(d.house for d in sc.decisions()) == ["lannister", "stark"]
    sc.reconcile("stark", {"white_harbor": {"footman": 1}})
    assert [d.house for d in sc.decisions()] == ["lannister"]


def test_BG_SUPPLY_04_the_default_at_the_deadline_destroys_the_fewest_weakest_units():
    sc = over_limit()
    sc.begin_westeros()
    out = sc.timeout()
    [done] = of_type(out, wev.ArmiesReconciled)
    assert done.by_default and sum(n for us in done.units.values() for n in us.values()) == 1
    assert list(done.units.values()) == [{"footman": 1}]


# --- BG-MUSTER-* -------------------------------------------------------------------------------------------


def mustering(units=None, **kw):
    units = units or {"winterfell": ("stark", {"footman": 1}), "white_harbor": ("stark", {"footman": 1})}
    return westeros(6, ("mustering", "last_days_of_summer", "sea_of_storms"), units=units, **kw)


def until(sc, house):
    while sc.state.westeros.musterers[0] != house:
        sc.muster(sc.state.westeros.musterers[0], {})


def test_BG_MUSTER_01_each_castle_gives_1_point_each_stronghold_2_spent_only_there():
    sc = mustering()
    sc.begin_westeros()
    until(sc, "stark")
    opts = sc.decision("stark").options
    assert {a: o.points for a, o in opts.areas.items()} == {"white_harbor": 1, "winterfell": 2}
    with pytest.raises(RuleViolation):  # 3 points in winterfell
        sc.muster("stark", {"winterfell": [Recruit(unit="knight"), Recruit(unit="footman")]})
    with pytest.raises(RuleViolation):  # white harbor's point cannot buy a Knight
        sc.muster("stark", {"white_harbor": [Recruit(unit="knight")]})
    out = sc.muster("stark", {"winterfell": [Recruit(unit="knight")], "white_harbor": [Recruit(unit="footman")]})
    placed = {(e.area, tuple(e.units.items())) for e in of_type(out, aev.UnitsPlaced)}
    assert placed == {("winterfell", (("knight", 1),)), ("white_harbor", (("footman", 1),))}


def test_BG_MUSTER_01_only_areas_the_house_controls():
    sc = mustering()
    sc.begin_westeros()
    until(sc, "stark")
    with pytest.raises(RuleViolation) as err:
        sc.muster("stark", {"moat_cailin": [Recruit(unit="footman")]})
    assert err.value.rule == "BG-MUSTER-01"


def test_BG_MUSTER_02_an_upgrade_costs_1_and_replaces_a_footman_of_that_area():
    sc = mustering()
    sc.begin_westeros()
    until(sc, "stark")
    out = sc.muster("stark", {"winterfell": [Recruit(unit="knight", upgrade=True), Recruit(unit="footman")]})
    [up] = of_type(out, aev.UnitUpgraded)
    assert (up.area, up.from_unit, up.to_unit) == ("winterfell", "footman", "knight")
    assert sc.state.areas["winterfell"].units == {"knight": 1, "footman": 1}


def test_BG_MUSTER_03_land_units_are_placed_in_the_mustering_area():
    sc = mustering()
    sc.begin_westeros()
    until(sc, "stark")
    with pytest.raises(RuleViolation) as err:
        sc.muster("stark", {"winterfell": [Recruit(unit="footman", area="castle_black")]})
    assert err.value.rule == "BG-MUSTER-03"


def test_BG_MUSTER_04_ships_go_to_an_adjacent_sea_without_enemy_ships_or_to_the_port():
    sc = mustering({"winterfell": ("stark", {"footman": 1}), "the_shivering_sea": ("greyjoy", {"ship": 1})})
    sc.begin_westeros()
    until(sc, "stark")
    ships = sc.decision("stark").options.areas["winterfell"].ship_areas
    assert "the_shivering_sea" not in ships and {"bay_of_ice", "port_of_winterfell"} <= set(ships)
    with pytest.raises(RuleViolation) as err:
        sc.muster("stark", {"winterfell": [Recruit(unit="ship", area="the_shivering_sea")]})
    assert err.value.rule == "BG-MUSTER-04"
    sc.muster(
        "stark",
        {"winterfell": [Recruit(unit="ship", area="port_of_winterfell"), Recruit(unit="ship", area="bay_of_ice")]},
    )
    assert sc.state.areas["port_of_winterfell"].units == {"ship": 1}
    assert sc.state.areas["bay_of_ice"].units == {"ship": 1}


def test_BG_MUSTER_05_mustering_respects_supply_and_unit_limits():
    sc = mustering(
        {
            "winterfell": ("stark", {"footman": 2}),
            "white_harbor": ("stark", {"footman": 2}),
            "karhold": ("stark", {"footman": 1}),
        },
        supply={"stark": 1},
    )
    # supply 1 allows armies of 3 and 2
    sc.begin_westeros()
    until(sc, "stark")
    with pytest.raises(RuleViolation) as err:  # 2 -> 4 in winterfell: more than 3
        sc.muster("stark", {"winterfell": [Recruit(unit="footman"), Recruit(unit="footman")]})
    assert err.value.rule == "BG-MUSTER-05"
    with pytest.raises(RuleViolation):  # 3 and 3: the second army may be 2 at most
        sc.muster("stark", {"winterfell": [Recruit(unit="footman")], "white_harbor": [Recruit(unit="footman")]})
    sc.muster("stark", {"winterfell": [Recruit(unit="footman")]})


def test_BG_MUSTER_05_unit_limits():
    sc = mustering({"winterfell": ("stark", {"siege_engine": 2}), "white_harbor": ("stark", {"footman": 1})})
    sc.begin_westeros()
    until(sc, "stark")
    with pytest.raises(RuleViolation) as err:
        sc.muster("stark", {"white_harbor": [Recruit(unit="siege_engine", upgrade=True)]})
    assert err.value.rule == "BG-COMP-03"


def test_BG_MUSTER_06_houses_muster_one_at_a_time_in_turn_order():
    sc = mustering()
    sc.begin_westeros()
    order = sc.state.westeros.musterers
    assert order == sc.state.turn_order()
    with pytest.raises(NotYourTurn):
        sc.muster("stark", {})
    deadline = sc.state.deadline
    sc.muster("baratheon", {"dragonstone": [Recruit(unit="footman")]})
    assert [d.house for d in sc.decisions()] == ["lannister"]
    assert sc.state.step == "muster" and sc.state.step_version > 0 and deadline is not None
    sc.pass_musters()
    assert sc.state.phase == "planning"


def test_BG_MUSTER_06_the_default_at_the_deadline_musters_nothing():
    sc = mustering()
    sc.begin_westeros()
    out = sc.timeout()
    [m] = of_type(out, wev.HouseMustered)
    assert (m.house, m.areas, m.by_default) == ("baratheon", [], True)
    assert sc.decision().house == "lannister"
