"""Every Action-phase decision has a deadline and a documented default applied at timeout."""

from __future__ import annotations

from domain.board.action import events as aev
from tests.support.action_positions import Position, acmd, ev, of_type
from tests.support.combat_helpers import attack, north


def test_raid_march_and_cp_defaults():
    sc = Position(6).setup(
        {
            "karhold": ("stark", {"footman": 1}),
            "winterfell": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "widows_watch": ("greyjoy", {"footman": 1}),
        },
        {"karhold": "raid", "winterfell": "march_0", "castle_black": "consolidate_power", "widows_watch": "support_0"},
        power={"stark": 0},
    )
    sc.begin()
    d = sc.decision()
    assert d.deadline == sc.state.deadline and "removed with no effect" in d.default
    out = sc.timeout()
    assert isinstance(out[0], ev.DecisionTimedOut) and of_type(out, aev.RaidResolved)[0].by_default
    out = sc.timeout()
    assert of_type(out, aev.MarchDeclared)[0].moves == {} and sc.state.areas["winterfell"].units == {"footman": 1}
    sc.timeout()
    assert sc.state.houses["stark"].power == 2 and sc.state.phase == "westeros"


def test_combat_defaults_no_support_lowest_card_no_blade_first_retreat():
    sc = north(
        att={"knight": 2},
        dfn={"footman": 1},
        d="greyjoy",
        extra={"castle_black": ("baratheon", {"footman": 1}), "the_shivering_sea": ("greyjoy", {"ship": 1})},
        orders={"castle_black": "support_0"},
    )
    attack(sc)
    assert sc.decision().default == "you support nobody"
    sc.timeout()
    assert of_type(sc.events, aev.SupportDeclared)[-1].side == "none"
    out = sc.timeout()  # both cards by default
    chosen = {e.house: e.card for e in of_type(out, aev.HouseCardChosen)}
    assert chosen == {"stark": "catelyn_stark", "greyjoy": "aeron_damphair"}
    while sc.state.phase == "action" and sc.state.action and sc.state.action.combat:
        sc.timeout()
    assert not of_type(sc.events, aev.BladeUsed)
    assert of_type(sc.events, aev.CombatEnded)


def test_every_pending_decision_lists_options_deadline_and_default():
    sc = north(
        att={"knight": 2}, dfn={"footman": 2, "knight": 1}, extra={"the_shivering_sea": ("lannister", {"ship": 1})}
    )
    attack(sc)
    for house, card in (("stark", "eddard_stark"), ("lannister", "ser_jaime_lannister")):
        d = sc.decision(house)
        assert d.commands == ["choose_house_card"] and card in d.options.cards and d.deadline and d.default
        sc.run(house, acmd.ChooseHouseCard(card=card))
    d = sc.decision()
    assert d.commands == ["choose_casualties"] and d.options.count == 2
    sc.timeout()
    assert of_type(sc.events, aev.CasualtiesChosen)[-1].units == {"footman": 2}
