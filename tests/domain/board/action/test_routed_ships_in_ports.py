"""BG-MAP-07 with BG-COMBAT-22: routed Ships in a port whose land area is lost are destroyed, and
are no longer counted as routed (a 6-player bot game through the API once ended with two routed
Ships recorded in an empty port)."""

from __future__ import annotations

from domain.board.action import events as aev
from tests.support.action_positions import Position, acmd, of_type
from tests.support.combat_helpers import attack, cards
from tests.support.invariants import check_state

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


def test_BG_MAP_07_routed_ships_orphaned_with_their_port_leave_no_routed_mark():
    sc = Position(6).setup(
        {
            "winterfell": ("lannister", {"knight": 2}),
            "white_harbor": ("stark", {"footman": 1}),
            "port_of_white_harbor": ("stark", {"ship": 2}),
        },
        {"winterfell": "march_0"},
        garrisons={},
        supply={h: 6 for h in HOUSES},
    )
    sc.state.blade_used = True
    sc.begin()
    sc.state.action.routed["port_of_white_harbor"] = {"ship": 2}  # they retreated there earlier
    attack(sc, frm="winterfell", to="white_harbor", house="lannister")
    cards(sc, lannister="tywin_lannister", stark="catelyn_stark")
    d = sc.decision("stark")
    events = sc.run("stark", acmd.ChooseRetreat(area=d.options.areas[0]))
    destroyed = [e for e in of_type(events, aev.UnitsDestroyed) if e.area == "port_of_white_harbor"]
    assert [(e.units, e.routed, e.reason) for e in destroyed] == [({"ship": 2}, {"ship": 2}, "BG-MAP-07")]
    assert sc.state.areas["port_of_white_harbor"].units == {}
    assert "port_of_white_harbor" not in sc.state.action.routed
    check_state(sc.state)
