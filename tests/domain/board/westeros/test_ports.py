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


def test_BG_MAP_07_several_ports_captured_by_one_effect_each_new_owner_is_offered_its_ships():
    """Review 2 "BG-MAP-07 several ports": Mammoth Riders, Lannister lowest bidder destroys its footmen
    holding Dragonstone and Winterfell (and a third one). Both home areas go back to their houses at
    once, so both ports are captured in one effect: Lannister's Ships leave both, and each new owner
    in turn (board order: Dragonstone, then Winterfell) is offered to put in its own Ships."""
    sc = westeros(
        6,
        HORDE,
        wildling=["mammoth_riders"],
        threat=4,
        units={
            "winterfell": ("lannister", {"footman": 1}),
            "port_of_winterfell": ("lannister", {"ship": 1}),
            "dragonstone": ("lannister", {"footman": 1}),
            "port_of_dragonstone": ("lannister", {"ship": 2}),
            "lannisport": ("lannister", {"footman": 1}),
        },
        garrisons={},
    )
    sc.begin_westeros()
    sc.bids({h: (0 if h == "lannister" else 1) for h in sc.state.houses_in_play})
    d = sc.decision()
    assert (d.house, d.options.about) == ("lannister", "destroy")
    out = sc.select(
        "lannister", {"winterfell": {"footman": 1}, "dragonstone": {"footman": 1}, "lannisport": {"footman": 1}}
    )
    gone = [(e.house, e.area, e.units) for e in of_type(out, aev.UnitsDestroyed) if e.reason == "BG-MAP-07"]
    assert gone == [("lannister", "port_of_dragonstone", {"ship": 2}), ("lannister", "port_of_winterfell", {"ship": 1})]
    d = sc.decision()
    assert (d.house, d.options.about, d.options.options, d.options.context) == (
        "baratheon",
        "port_ships",
        ["0", "1", "2"],
        "port_of_dragonstone",
    )
    placed = of_type(sc.choose("baratheon", "2"), aev.UnitsPlaced)
    assert [(e.house, e.area, e.units) for e in placed] == [("baratheon", "port_of_dragonstone", {"ship": 2})]
    assert sc.state.areas["port_of_dragonstone"].house == "baratheon"
    d = sc.decision()
    assert (d.house, d.options.about, d.options.options, d.options.context) == (
        "stark",
        "port_ships",
        ["0", "1"],
        "port_of_winterfell",
    )
    out = sc.choose("stark", "1")
    placed = of_type(out, aev.UnitsPlaced)
    assert [(e.house, e.area, e.units) for e in placed] == [("stark", "port_of_winterfell", {"ship": 1})]
    # only then does the card go on: "everyone else" destroys 2 units each, here the new Ships
    lost = [(e.house, e.area) for e in of_type(out, aev.UnitsDestroyed)]
    assert lost == [("baratheon", "port_of_dragonstone"), ("stark", "port_of_winterfell")]
    assert out.index(placed[0]) < out.index(of_type(out, aev.UnitsDestroyed)[0])
