"""Issue 9's rule defects, each decided by the rule digest's "Review 2" table
(``../shared/reference/rules/board-game.md``): a position that exercises the point and its outcome."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.core.errors import RuleViolation, WrongPhase
from tests.support.action_positions import Position, acmd, of_type
from tests.support.combat_helpers import fight, north
from tests.support.invariants import check_invariants

A = acmd.ChooseAbility

STARK_CARDS = (
    "eddard_stark",
    "robb_stark",
    "roose_bolton",
    "greatjon_umber",
    "ser_rodrick_cassel",
    "the_blackfish",
    "catelyn_stark",
)


def test_review2_mace_tyrell_cannot_kill_a_footman_of_the_blackfish_player():
    """Review 2 "Mace Tyrell vs The Blackfish" (section 15.9, The Blackfish): Mace's footman kill is
    House card text, so The Blackfish prevents it; the footmen stay and fight (and retreat)."""
    sc = north(a="tyrell", d="stark", att={"knight": 1}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "mace_tyrell", "the_blackfish", attacker="tyrell", defender="stark")
    assert [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "mace_tyrell"] == []
    d = of_type(sc.events, aev.CombatDecided)[-1]
    assert d.strength["stark"] == 2 + 1  # both footmen still count
    assert (d.winner, d.casualties) == ("tyrell", 0)
    retreated = [a for a, x in sc.state.areas.items() if x.house == "stark" and x.units == {"footman": 2}]
    assert len(retreated) == 1  # both footmen survived the combat
    check_invariants(sc.state)


def test_review2_mace_tyrell_still_kills_a_footman_of_any_other_card():
    """The same position with another defending card: Mace's text acts (the control of the row above)."""
    sc = north(a="tyrell", d="stark", att={"knight": 1}, dfn={"footman": 2}, no_blade=True)
    fight(sc, "mace_tyrell", "catelyn_stark", attacker="tyrell", defender="stark")
    [kill] = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "mace_tyrell"]
    assert (kill.house, kill.units) == ("stark", {"footman": 1})


def test_review2_BG_COMBAT_26_patchface_emptying_the_hand_refreshes_it_at_once():
    """Review 2 "Patchface" with BG-COMBAT-26: Stark plays its second-to-last card, so its hand keeps
    one card after the combat and the clean-up does not refresh it; Patchface then discards that last
    card. The hand refresh applies at once: every other discarded card comes back (the one Patchface
    discarded stays), so Stark never fights its next combat without a card."""
    others = [c for c in STARK_CARDS if c not in ("catelyn_stark", "eddard_stark")]
    sc = north(
        a="baratheon",
        d="stark",
        att={"knight": 2},
        no_blade=True,
        hands={"stark": ["catelyn_stark", "eddard_stark"]},
        discards={"stark": others},
    )
    fight(sc, "patchface", "catelyn_stark", attacker="baratheon", defender="stark")
    assert sc.state.houses["stark"].hand == ["eddard_stark"]  # no refresh at clean-up: one card left
    d = sc.decision()
    assert d.options.card == "patchface" and d.options.choices == ["eddard_stark"]
    events = sc.run("baratheon", A(choice="eddard_stark"))
    hs = sc.state.houses["stark"]
    assert hs.discards == ["eddard_stark"]
    assert sorted(hs.hand) == sorted(others + ["catelyn_stark"])
    [back] = [e for e in of_type(events, aev.HouseCardsReturned) if e.house == "stark"]
    assert back.reason == "BG-COMBAT-26" and "eddard_stark" not in back.cards
    check_invariants(sc.state)


def test_review2_doran_martell_offers_only_tracks_where_the_opponent_is_not_last():
    """Review 2 "Doran Martell": Lannister is already last on Fiefdoms (the 6-player start), so only
    the Iron Throne and the King's Court are offered."""
    sc = north(a="martell", att={"knight": 1}, no_blade=True)
    assert sc.state.tracks.fiefdoms[-1] == "lannister"
    fight(sc, "doran_martell", "the_hound", attacker="martell")
    d = sc.decision()
    assert d.options.card == "doran_martell" and d.options.choices == ["iron_throne", "kings_court"]


def test_review2_doran_martell_does_nothing_when_the_opponent_is_last_everywhere():
    """Review 2 "Doran Martell": last on all three tracks, the ability does nothing (no decision)."""
    last = {
        "iron_throne": ["baratheon", "stark", "martell", "greyjoy", "tyrell", "lannister"],
        "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
        "kings_court": ["stark", "martell", "baratheon", "tyrell", "greyjoy", "lannister"],
    }
    sc = north(a="martell", att={"knight": 1}, no_blade=True, tracks=last)
    fight(sc, "doran_martell", "the_hound", attacker="martell")
    [done] = [e for e in of_type(sc.events, aev.AbilityResolved) if e.card == "doran_martell"]
    assert done.choice is None and not done.by_default
    assert of_type(sc.events, aev.InfluenceTrackChanged) == []
    assert [d.options.card for d in sc.decisions() if getattr(d.options, "card", None)] != ["doran_martell"]
    assert of_type(sc.events, aev.CombatDecided)  # the combat went on to its result


# --- API details of issue 9 ------------------------------------------------------------------------


def test_BG_MAP_07_a_march_into_a_port_whose_land_area_another_house_holds_names_the_port_rule():
    """BG-MAP-07: Ships enter a port from its sea only while their house controls the port's land area.
    The refusal names BG-MAP-07 with its own code, not BG-MARCH-03's ``not_adjacent``: the port is
    adjacent, only its castle belongs to another house."""
    sc = Position(6).setup(
        {"ironmans_bay": ("lannister", {"ship": 1}), "pyke": ("greyjoy", {"footman": 1})},
        {"ironmans_bay": "march_0"},
    )
    sc.begin()
    with pytest.raises(RuleViolation) as err:
        sc.run("lannister", acmd.ResolveMarch(area="ironmans_bay", moves={"port_of_pyke": {"ship": 1}}))
    assert (err.value.rule, err.value.code) == ("BG-MAP-07", "port_not_controlled")
    assert "pyke" in err.value.detail and "greyjoy" in err.value.detail
    # a port that is not adjacent at all is still BG-MARCH-03's not_adjacent
    with pytest.raises(RuleViolation) as err:
        sc.run("lannister", acmd.ResolveMarch(area="ironmans_bay", moves={"port_of_sunspear": {"ship": 1}}))
    assert (err.value.rule, err.value.code) == ("BG-MARCH-03", "not_adjacent")


def _only_one_retreat(extra_orders: dict[str, str] | None = None):
    """Karhold's losing defender has one legal area (castle_black): the engine retreats it at once."""
    extra = {"the_eyrie": ("stark", {"footman": 1})} if extra_orders else {}
    sc = north(att={"knight": 2}, dfn={"footman": 1}, extra=extra, orders=extra_orders, no_blade=True)
    fight(sc, "eddard_stark", "the_hound")
    assert sc.state.areas["castle_black"].units == {"footman": 1}  # retreated without a decision
    return sc


@pytest.mark.parametrize("more_marches", [False, True], ids=["phase_over", "phase_goes_on"])
def test_BG_COMBAT_19_a_retreat_sent_after_the_engine_resolved_it_says_the_decision_is_closed(more_marches):
    """BG-COMBAT-19/20: with one legal area the engine retreats the army itself. A ``choose_retreat``
    that arrives afterwards is told that no retreat decision is open any more (``decision_closed``,
    409), whether the Action phase has ended since or goes on."""
    sc = _only_one_retreat({"the_eyrie": "march_0"} if more_marches else None)
    assert (sc.state.phase == "action") is more_marches
    with pytest.raises(WrongPhase) as err:
        sc.run("lannister", acmd.ChooseRetreat(area="castle_black"))
    assert err.value.code == "decision_closed" and err.value.kind == "conflict"
    assert "retreat" in err.value.detail and "no longer open" in err.value.detail
    assert "only during the Action phase" not in err.value.detail


# --- BG-COMBAT-20: the retreating house chooses its supply losses ------------------------------------


def _retreat_over_supply():
    """Lannister (supply 0: armies of 2 and 2) loses Karhold with a Footman and a Knight; its only
    legal area, Castle Black, already holds a Footman and Lannisport holds two: one unit must go."""
    sc = north(
        att={"knight": 2},
        dfn={"footman": 1, "knight": 1},
        extra={"castle_black": ("lannister", {"footman": 1}), "lannisport": ("lannister", {"footman": 2})},
        supply={"lannister": 0, "stark": 6},
        no_blade=True,
    )
    fight(sc, "eddard_stark", "the_hound")  # 8 to 5, 2 swords against 2 towers: no casualties
    return sc


def test_BG_COMBAT_20_the_retreating_house_chooses_which_units_supply_destroys():
    """Review 2 "BG-COMBAT-20 retreat losses": when a retreat would exceed supply, the retreating house
    chooses which of its retreating units it destroys. The decision states the constraint: how many,
    among which units, into which area. Lannister keeps its Footman and gives up the Knight."""
    sc = _retreat_over_supply()
    assert sc.state.step == "choose_retreat_losses"
    d = sc.decision()
    assert (d.house, d.commands) == ("lannister", ["choose_retreat_losses"])
    assert (d.options.area, d.options.count, d.options.units) == ("castle_black", 1, {"footman": 1, "knight": 1})
    with pytest.raises(RuleViolation) as err:
        sc.run("lannister", acmd.ChooseRetreatLosses(units=acmd.UnitCounts(footman=1, knight=1)))
    assert (err.value.rule, err.value.code) == ("BG-COMBAT-20", "retreat_loss_count")
    with pytest.raises(RuleViolation):
        sc.run("lannister", acmd.ChooseRetreatLosses(units=acmd.UnitCounts(siege_engine=1)))
    out = sc.run("lannister", acmd.ChooseRetreatLosses(units=acmd.UnitCounts(knight=1)))
    [lost] = [e for e in of_type(out, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-20"]
    assert (lost.house, lost.area, lost.units) == ("lannister", "karhold", {"knight": 1})
    assert sc.state.areas["castle_black"].units == {"footman": 2}
    [routed] = of_type(out, aev.UnitsRouted)  # the retreated Footman is routed (BG-COMBAT-22)
    assert (routed.house, routed.area, routed.units) == ("lannister", "castle_black", {"footman": 1})
    assert sc.state.areas["karhold"].house == "stark"
    check_invariants(sc.state)


def test_BG_COMBAT_20_retreat_losses_default_at_the_deadline_weakest_first():
    """The documented default (timeout): the weakest retreating units go first (Footmen, Ships,
    Knights, Siege Engines), never a unit that was already in the retreat area."""
    sc = _retreat_over_supply()
    assert "Footmen" in sc.decision().default
    sc.timeout()
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-20"]
    assert [(e.area, e.units) for e in lost] == [("karhold", {"footman": 1})]
    assert sc.state.areas["castle_black"].units == {"footman": 1, "knight": 1}
    check_invariants(sc.state)


def test_BG_COMBAT_20_retreat_losses_of_one_unit_type_need_no_decision():
    """When every retreating unit has the same type, which ones die makes no difference: the engine
    destroys them at once (no decision)."""
    sc = north(
        att={"knight": 2},
        dfn={"footman": 2},
        extra={"castle_black": ("lannister", {"footman": 1}), "lannisport": ("lannister", {"footman": 2})},
        supply={"lannister": 0, "stark": 6},
        no_blade=True,
    )
    fight(sc, "eddard_stark", "the_hound")
    assert sc.state.step != "choose_retreat_losses"
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-20"]
    assert [(e.area, e.units) for e in lost] == [("karhold", {"footman": 1})]
    assert sc.state.areas["castle_black"].units == {"footman": 2}


def test_BG_MAP_07_two_ports_taken_by_one_march_each_offer_states_what_is_still_possible():
    """BG-MAP-07 (Review 2 "several ports") in the Action phase: one March takes Winterfell and White
    Harbor from Greyjoy's Power tokens; Greyjoy's Ships leave both ports and Stark is offered each port
    in turn. Stark has only 2 Ships left off the board: once it puts both in the first port, the
    second offer says 0 (the decision states the limit as it stands, so an answer within it is never
    refused)."""
    sc = Position(6).setup(
        {
            "moat_cailin": ("stark", {"footman": 2}),
            "port_of_winterfell": ("greyjoy", {"ship": 2}),
            "port_of_white_harbor": ("greyjoy", {"ship": 2}),
            "bay_of_ice": ("stark", {"ship": 2}),
            "the_shivering_sea": ("stark", {"ship": 2}),
            "pyke": ("greyjoy", {"footman": 1}),
        },
        {"moat_cailin": "march_0"},
        tokens={"winterfell": "greyjoy", "white_harbor": "greyjoy"},
        garrisons={},
        supply={"stark": 6},
    )
    sc.begin()
    sc.run(
        "stark",
        acmd.ResolveMarch(area="moat_cailin", moves={"winterfell": {"footman": 1}, "white_harbor": {"footman": 1}}),
    )
    assert sc.state.areas["port_of_winterfell"].units == {} and sc.state.areas["port_of_white_harbor"].units == {}
    first = sc.decision()
    assert (first.house, first.commands, first.options.max) == ("stark", ["replace_port_ships"], 2)
    sc.run("stark", acmd.ReplacePortShips(count=2))
    second = sc.decision()
    assert second.commands == ["replace_port_ships"] and second.options.port != first.options.port
    assert second.options.max == 0
    sc.run("stark", acmd.ReplacePortShips(count=second.options.max))
    check_invariants(sc.state)
