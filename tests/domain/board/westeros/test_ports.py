"""BG-MAP-07 in the Westeros phase: when a wildling penalty or a reconcile changes who controls a
port's land area, the Ships in the port follow (orphaned ones are destroyed; a house that takes the
land area back may put in its own Ships)."""

from __future__ import annotations

from domain.board.action import events as aev
from tests.support.westeros_positions import of_type, westeros

HORDE = ("last_days_of_summer", "last_days_of_summer", "wildlings_attack")


def test_BG_MAP_07_a_house_regaining_its_home_area_may_put_ships_in_its_port():
    sc = westeros(
        4,
        HORDE,
        wildling=["the_horde_descends"],
        threat=4,
        units={
            "winterfell": ("greyjoy", {"footman": 1}),
            "port_of_winterfell": ("greyjoy", {"ship": 1}),
            "pyke": ("greyjoy", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
            "the_shivering_sea": ("stark", {"ship": 1}),
        },
    )
    sc.begin_westeros()
    sc.bids({"stark": 1, "lannister": 0, "baratheon": 1, "greyjoy": 1})  # lannister lowest, greyjoy "everyone else"
    while sc.decision().house != "greyjoy":
        sc.timeout()
    sc.select("greyjoy", {"winterfell": {"footman": 1}})
    gone = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-MAP-07"]
    assert [(e.house, e.area) for e in gone] == [("greyjoy", "port_of_winterfell")]
    d = sc.decision()
    assert (d.house, d.options.about, d.options.options, d.options.context) == (
        "stark",
        "port_ships",
        ["0", "1"],
        "port_of_winterfell",
    )
    sc.choose("stark", "1")
    assert (
        sc.state.areas["port_of_winterfell"].units == {"ship": 1}
        and sc.state.areas["port_of_winterfell"].house == "stark"
    )


def test_BG_MAP_07_ships_in_a_port_whose_land_area_nobody_controls_are_destroyed():
    sc = westeros(
        4,
        HORDE,
        wildling=["the_horde_descends"],
        threat=4,
        units={
            "white_harbor": ("greyjoy", {"footman": 1}),
            "port_of_white_harbor": ("greyjoy", {"ship": 1}),
            "pyke": ("greyjoy", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
        },
    )
    sc.begin_westeros()
    sc.bids({"stark": 1, "lannister": 0, "baratheon": 1, "greyjoy": 1})
    while sc.decision().house != "greyjoy":
        sc.timeout()
    sc.select("greyjoy", {"white_harbor": {"footman": 1}})
    assert sc.state.areas["port_of_white_harbor"].units == {}
    assert not sc.state.westeros or not sc.state.westeros.choice
