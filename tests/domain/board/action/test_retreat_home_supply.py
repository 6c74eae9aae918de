"""BG-COMBAT-18 with BG-COMBAT-20: a losing attacker goes back to the area it marched from, and supply
applies there too. The units never left (they stand in their origin during the combat), but while
they fought they counted in the attacked area (BG-SUPPLY-06), so the house's armies may have been
built on that room: a 5-player bot game ended a round with three armies of 2 against a limit of
[3, 2] after such a return. The losses are taken from the returning units."""

from __future__ import annotations

from domain.board.action import events as aev
from tests.support.action_positions import acmd, of_type
from tests.support.combat_helpers import attack, cards, north
from tests.support.invariants import check_state

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


def _position(att: dict[str, int]):
    sc = north(
        a="lannister",
        d="stark",
        att=att,
        dfn={"knight": 2},
        no_blade=True,
        supply={**{h: 6 for h in HOUSES}, "lannister": 1},  # armies allowed: [3, 2]
        extra={"castle_black": ("lannister", {"footman": 2})},
        tokens={"winterfell": "lannister"},  # Stark's home, held by a Power token: the way home is open
    )
    attack(sc, house="lannister")
    # one more army of 2 elsewhere: with the attackers counted in Karhold this is [2, 2] (legal);
    # back home it is three armies of 2
    sc.state.areas["widows_watch"].house = "lannister"
    sc.state.areas["widows_watch"].units = {"footman": 2}
    return sc


def test_BG_COMBAT_20_a_losing_attacker_going_home_over_supply_loses_units_of_one_kind_at_once():
    sc = _position({"footman": 2})
    events = cards(sc, lannister="cersei_lannister", stark="catelyn_stark")
    lost = [e for e in of_type(events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-20"]
    assert [(e.area, e.units) for e in lost] == [("winterfell", {"footman": 1})]
    assert sc.state.areas["winterfell"].units == {"footman": 1}
    check_state(sc.state)


def test_BG_COMBAT_20_a_losing_attacker_going_home_over_supply_chooses_which_units_die():
    sc = _position({"footman": 1, "knight": 1})
    cards(sc, lannister="cersei_lannister", stark="catelyn_stark")
    d = sc.decision("lannister")
    assert d.commands == ["choose_retreat_losses"]
    assert (d.options.area, d.options.count, d.options.units) == ("winterfell", 1, {"footman": 1, "knight": 1})
    sc.run("lannister", acmd.ChooseRetreatLosses(units=acmd.UnitCounts(footman=1)))
    assert sc.state.areas["winterfell"].units == {"knight": 1}
    check_state(sc.state)
