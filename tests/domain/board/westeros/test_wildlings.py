"""BG-WILD-01..06: wildling attacks, and every wildling card's reward and penalties (BG-WILD-05)."""

from __future__ import annotations

import pytest

from domain.board.action import events as aev
from domain.board.power import pool
from domain.board.redaction import redact_event
from domain.core.errors import NotYourTurn, RuleViolation
from tests.support.westeros_positions import of_type, westeros, wev

# 4 players: Iron Throne baratheon, lannister, stark, greyjoy (turn order);
# Fiefdoms greyjoy, stark, baratheon, lannister; King's Court lannister, stark, baratheon, greyjoy.
# Starting units: stark winterfell K+F, white_harbor F, the_shivering_sea S; lannister lannisport K+F,
# stoney_sept F, the_golden_sound S, port_of_lannisport S; baratheon dragonstone K+F, kingswood F,
# shipbreaker_bay 2S; greyjoy pyke K+F, greywater_watch F, ironmans_bay S, port_of_pyke S.

LOSE_STARK = {"stark": 0, "lannister": 1, "baratheon": 1, "greyjoy": 1}  # 3 < 8: stark lowest
WIN_STARK = {"stark": 5, "lannister": 3, "baratheon": 0, "greyjoy": 0}  # 8 >= 8: stark highest


def attack(card: str, strength: int = 8, players: int = 4, units=None, **kw):
    """Deck III's Wildlings Attack at ``strength`` with ``card`` on top of the wildling deck
    (decks I and II: Last Days of Summer, whose two icons add 4 to the threat first)."""
    sc = westeros(
        players,
        ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"),
        units=units,
        wildling=[card],
        threat=strength - 4,
        **kw,
    )
    sc.begin_westeros()
    assert sc.state.step == "bid" and sc.state.westeros.attacks[-1].strength == strength
    return sc


def units_of(sc, house):
    return {a: dict(x.units) for a, x in sorted(sc.state.areas.items()) if x.house == house}


def count(sc, house):
    return sum(sum(u.values()) for u in units_of(sc, house).values())


# --- BG-WILD-01 ---------------------------------------------------------------------------------------------


def test_BG_WILD_01_nights_watch_wins_at_equal_strength_bids_go_to_the_pool_threat_resets():
    sc = attack("silence_at_the_wall")
    pools = {h: pool(sc.state, h) for h in WIN_STARK}
    out = sc.bids(WIN_STARK)
    [decided] = of_type(out, wev.WildlingAttackDecided)
    assert (decided.total, decided.strength, decided.nights_watch_won) == (8, 8, True)
    assert {e.house: e.amount for e in of_type(out, aev.PowerSpent)} == {"stark": 5, "lannister": 3}
    assert pool(sc.state, "stark") == pools["stark"] + 5
    assert sc.state.wildling_threat == 0
    assert sc.state.wildling_deck[-1] == "silence_at_the_wall" and len(sc.state.wildling_deck) == 9
    assert sc.state.phase == "planning"


def test_BG_WILD_01_a_wildling_victory_moves_the_threat_back_two_positions():
    sc = attack("silence_at_the_wall", strength=10)
    out = sc.bids(LOSE_STARK)
    assert not of_type(out, wev.WildlingAttackDecided)[0].nights_watch_won
    assert sc.state.wildling_threat == 6
    [moved] = [e for e in of_type(out, wev.WildlingThreatChanged) if e.reason == "BG-WILD-01"]
    assert (moved.previous, moved.threat) == (10, 6)


# --- BG-WILD-02 ---------------------------------------------------------------------------------------------


def test_BG_WILD_02_a_tie_for_lowest_bidder_is_broken_by_the_iron_throne_holder():
    sc = attack("mammoth_riders")
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 1, "greyjoy": 0})
    d = sc.decision()
    assert d.house == "baratheon" and d.options.about == "wildling_tie"
    assert d.options.options == ["lannister", "stark", "greyjoy"]  # turn order
    with pytest.raises(NotYourTurn):
        sc.choose("stark", "lannister")
    out = sc.choose("baratheon", "greyjoy")
    [chosen] = of_type(out, wev.WildlingBidderChosen)
    assert (chosen.role, chosen.house, chosen.chooser) == ("lowest", "greyjoy", "baratheon")


def test_BG_WILD_02_a_tie_for_highest_bidder_is_broken_by_the_iron_throne_holder():
    sc = attack(
        "mammoth_riders",
        discards={"stark": ["eddard_stark"], "greyjoy": ["balon_greyjoy"]},
        hands={
            "stark": [
                "robb_stark",
                "the_blackfish",
                "roose_bolton",
                "greatjon_umber",
                "catelyn_stark",
                "ser_rodrik_cassel",
            ]
        },
    )
    sc.bids({"stark": 4, "lannister": 0, "baratheon": 0, "greyjoy": 4})
    d = sc.decision()
    assert (d.house, d.options.options, d.options.context) == ("baratheon", ["stark", "greyjoy"], "highest")
    sc.choose("baratheon", "stark")
    assert sc.decision().house == "stark" and sc.decision().options.about == "mammoth_riders_card"


def test_BG_WILD_02_no_tie_break_when_the_card_does_nothing():
    sc = attack("silence_at_the_wall")
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 0, "greyjoy": 0})
    assert not of_type(sc.events, wev.WildlingBidderChosen)
    assert sc.state.phase == "planning"


# --- BG-WILD-03 ---------------------------------------------------------------------------------------------


def test_BG_WILD_03_the_lowest_bidder_first_then_everyone_else_in_turn_order():
    sc = attack("mammoth_riders")
    out = sc.bids({"stark": 1, "lannister": 1, "baratheon": 1, "greyjoy": 0})
    assert of_type(out, wev.WildlingEffectQueued)[0].houses == ["greyjoy", "baratheon", "lannister", "stark"]
    seen = []
    while sc.state.westeros and sc.state.westeros.selection:
        sel = sc.state.westeros.selection
        seen.append((sel.house, sel.max))
        sc.timeout()
    assert seen == [("greyjoy", 3), ("baratheon", 2), ("lannister", 2), ("stark", 2)]


# --- BG-WILD-04 ---------------------------------------------------------------------------------------------


def test_BG_WILD_04_the_card_is_drawn_only_after_the_bids_are_revealed():
    sc = attack("crow_killers")
    top = sc.state.wildling_deck[0]
    for house, n in LOSE_STARK.items():
        sc.bid(house, n)
    assert sc.state.wildling_deck[0] == top and not of_type(sc.events, wev.WildlingCardDrawn)
    out = sc.resolve()
    types = [type(e).__name__ for e in out]
    assert types.index("BidsRevealed") < types.index("WildlingAttackDecided") < types.index("WildlingCardDrawn")
    [drawn] = of_type(out, wev.WildlingCardDrawn)
    assert drawn.card == "crow_killers" and redact_event(drawn, None) == drawn  # public once drawn


def test_BG_WILD_04_bids_are_sealed():
    sc = attack("crow_killers")
    out = sc.bid("stark", 3)
    assert redact_event(out[0], "lannister").amount is None and redact_event(out[0], "stark").amount == 3
    with pytest.raises(RuleViolation):
        sc.bid("lannister", 6)


# --- BG-WILD-05: A King Beyond the Wall -------------------------------------------------------------------


def test_BG_WILD_05_a_king_beyond_the_wall_lowest_bidder_to_the_bottom_of_all_tracks():
    sc = attack("a_king_beyond_the_wall")
    sc.bids(LOSE_STARK)
    for t in ("iron_throne", "fiefdoms", "kings_court"):
        assert getattr(sc.state.tracks, t)[-1] == "stark"


def test_BG_WILD_05_a_king_beyond_the_wall_everyone_else_picks_fiefdoms_or_kings_court():
    sc = attack("a_king_beyond_the_wall")
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (d.house, d.options.options, d.options.may_skip) == ("baratheon", ["fiefdoms", "kings_court"], False)
    sc.choose("baratheon", "kings_court")
    assert sc.state.tracks.kings_court[-1] == "baratheon"
    assert sc.decision().house == "lannister"
    sc.timeout()  # default: Fiefdoms
    assert sc.state.tracks.fiefdoms[-1] == "lannister"
    sc.choose("greyjoy", "fiefdoms")
    assert sc.state.tracks.fiefdoms[-1] == "greyjoy"


def test_BG_WILD_05_a_king_beyond_the_wall_nights_watch_top_of_one_track_with_its_token():
    sc = attack("a_king_beyond_the_wall")
    sc.bids(WIN_STARK)
    d = sc.decision()
    assert (
        d.house == "stark"
        and d.options.may_skip
        and set(d.options.options) == {"iron_throne", "fiefdoms", "kings_court"}
    )
    sc.choose("stark", "kings_court")
    assert sc.state.tracks.kings_court[0] == "stark" and sc.state.raven_holder() == "stark"


# --- Mammoth Riders ---------------------------------------------------------------------------------------------


def test_BG_WILD_05_mammoth_riders_lowest_bidder_destroys_3_units_everyone_else_2():
    sc = attack("mammoth_riders")
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (d.house, d.options.min, d.options.max) == ("stark", 3, 3)
    with pytest.raises(RuleViolation):
        sc.select("stark", {"winterfell": {"knight": 1}})
    before = count(sc, "stark")
    sc.select("stark", {"winterfell": {"knight": 1, "footman": 1}, "the_shivering_sea": {"ship": 1}})
    assert count(sc, "stark") == before - 3
    assert sc.decision().house == "baratheon" and sc.decision().options.max == 2


def test_BG_WILD_05_mammoth_riders_nights_watch_takes_one_discarded_card_back():
    sc = attack(
        "mammoth_riders",
        hands={"stark": ["robb_stark", "roose_bolton", "greatjon_umber", "catelyn_stark", "ser_rodrik_cassel"]},
        discards={"stark": ["eddard_stark", "the_blackfish"]},
    )
    sc.bids(WIN_STARK)
    d = sc.decision()
    assert d.options.options == ["eddard_stark", "the_blackfish"] and d.options.may_skip
    sc.choose("stark", "the_blackfish")
    assert "the_blackfish" in sc.state.houses["stark"].hand and sc.state.houses["stark"].discards == ["eddard_stark"]


# --- Massing on the Milkwater -------------------------------------------------------------------------------


def test_BG_WILD_05_massing_on_the_milkwater_lowest_bidder_discards_its_strongest_cards():
    sc = attack(
        "massing_on_the_milkwater",
        hands={"stark": ["eddard_stark", "robb_stark", "the_blackfish"]},
        discards={"stark": ["roose_bolton", "greatjon_umber", "catelyn_stark", "ser_rodrik_cassel"]},
    )
    sc.bids(LOSE_STARK)
    assert sorted(sc.state.houses["stark"].hand) == ["robb_stark", "the_blackfish"]  # Eddard (4) goes


def test_BG_WILD_05_massing_on_the_milkwater_all_equal_discards_nothing():
    sc = attack(
        "massing_on_the_milkwater",
        hands={"stark": ["roose_bolton", "greatjon_umber"]},
        discards={"stark": ["eddard_stark", "robb_stark", "catelyn_stark", "ser_rodrik_cassel", "the_blackfish"]},
    )
    sc.bids(LOSE_STARK)
    assert sorted(sc.state.houses["stark"].hand) == ["greatjon_umber", "roose_bolton"]  # both strength 2


def test_BG_WILD_05_massing_on_the_milkwater_everyone_else_discards_a_card_of_its_choice():
    sc = attack(
        "massing_on_the_milkwater",
        hands={"greyjoy": ["balon_greyjoy"]},
        discards={
            "greyjoy": [
                "euron_crows_eye",
                "victarion_greyjoy",
                "theon_greyjoy",
                "asha_greyjoy",
                "dagmar_cleftjaw",
                "aeron_damphair",
            ]
        },
    )
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert d.house == "baratheon" and d.options.about == "massing_on_the_milkwater_discard"
    assert d.options.options == sorted(sc.state.houses["baratheon"].hand)
    # the options are the chooser's hand: hidden from everyone else
    pending = of_type(sc.events, wev.WesterosChoicePending)[-1]
    assert redact_event(pending, "stark").options == [] and redact_event(pending, "baratheon").options
    sc.choose("baratheon", "stannis_baratheon")
    assert "stannis_baratheon" in sc.state.houses["baratheon"].discards
    sc.timeout()  # lannister: the weakest card by default
    assert "cersei_lannister" in sc.state.houses["lannister"].discards
    # greyjoy holds one card: nothing to discard
    assert sc.state.houses["greyjoy"].hand == ["balon_greyjoy"] and sc.state.phase == "planning"


def test_BG_WILD_05_massing_on_the_milkwater_nights_watch_takes_back_every_discard():
    sc = attack(
        "massing_on_the_milkwater",
        hands={"stark": ["eddard_stark"]},
        discards={
            "stark": [
                "robb_stark",
                "roose_bolton",
                "greatjon_umber",
                "catelyn_stark",
                "ser_rodrik_cassel",
                "the_blackfish",
            ]
        },
    )
    sc.bids(WIN_STARK)
    assert len(sc.state.houses["stark"].hand) == 7 and sc.state.houses["stark"].discards == []


# --- Crow Killers ---------------------------------------------------------------------------------------------


KNIGHTS = {
    "winterfell": ("stark", {"knight": 2, "footman": 1}),
    "white_harbor": ("stark", {"knight": 1}),
    "lannisport": ("lannister", {"knight": 2}),
    "stoney_sept": ("lannister", {"knight": 1}),
    "dragonstone": ("baratheon", {"knight": 1}),
    "pyke": ("greyjoy", {"footman": 2}),
}


def test_BG_WILD_05_crow_killers_lowest_bidder_replaces_all_its_knights_with_footmen():
    sc = attack("crow_killers", units=KNIGHTS)
    sc.bids(LOSE_STARK)
    assert units_of(sc, "stark") == {"white_harbor": {"footman": 1}, "winterfell": {"footman": 3}}


def test_BG_WILD_05_crow_killers_a_knight_without_a_footman_to_replace_it_is_destroyed():
    units = dict(KNIGHTS, winterfell=("stark", {"knight": 2, "footman": 9}))  # every Footman but one on the board
    sc = attack("crow_killers", units=units)
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (d.house, d.options.about, d.options.max) == ("stark", "crow_killers_destroy", 2)  # 3 knights, 1 footman
    sc.select("stark", {"winterfell": {"knight": 2}})
    assert units_of(sc, "stark") == {"white_harbor": {"footman": 1}, "winterfell": {"footman": 9}}


def test_BG_WILD_05_crow_killers_everyone_else_replaces_2_knights():
    sc = attack("crow_killers", units=KNIGHTS)
    sc.bids(LOSE_STARK)
    # baratheon has one Knight: replaced at once; lannister has three: it picks two
    assert units_of(sc, "baratheon") == {"dragonstone": {"footman": 1}}
    d = sc.decision()
    assert (d.house, d.options.about, d.options.min, d.options.max) == ("lannister", "crow_killers_replace", 2, 2)
    sc.select("lannister", {"lannisport": {"knight": 1}, "stoney_sept": {"knight": 1}})
    assert units_of(sc, "lannister")["lannisport"] == {"knight": 1, "footman": 1}
    assert units_of(sc, "lannister")["stoney_sept"] == {"footman": 1}


def test_BG_WILD_05_crow_killers_nights_watch_may_upgrade_up_to_2_footmen():
    sc = attack("crow_killers", units={"winterfell": ("stark", {"footman": 2}), "karhold": ("stark", {"footman": 1})})
    sc.bids(WIN_STARK)
    d = sc.decision()
    assert (d.options.about, d.options.min, d.options.max) == ("crow_killers_upgrade", 0, 2)
    sc.select("stark", {"winterfell": {"footman": 1}, "karhold": {"footman": 1}})
    assert units_of(sc, "stark") == {"karhold": {"knight": 1}, "winterfell": {"footman": 1, "knight": 1}}


# --- The Horde Descends -----------------------------------------------------------------------------------------


def test_BG_WILD_05_the_horde_descends_lowest_bidder_2_units_in_one_castle_area():
    sc = attack(
        "the_horde_descends",
        units={
            "winterfell": ("stark", {"footman": 2}),
            "white_harbor": ("stark", {"footman": 2}),
            "karhold": ("stark", {"footman": 2}),
            "lannisport": ("lannister", {"footman": 1}),
        },
    )
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (
        d.options.about == "horde_castle"
        and d.options.same_area
        and set(d.options.units) == {"winterfell", "white_harbor"}
    )
    with pytest.raises(RuleViolation):
        sc.select("stark", {"winterfell": {"footman": 1}, "white_harbor": {"footman": 1}})
    with pytest.raises(RuleViolation):
        sc.select("stark", {"karhold": {"footman": 2}})
    sc.select("stark", {"white_harbor": {"footman": 2}})
    assert "white_harbor" not in units_of(sc, "stark")


def test_BG_WILD_05_the_horde_descends_without_such_a_castle_area_2_units_anywhere_others_1():
    sc = attack(
        "the_horde_descends",
        units={
            "winterfell": ("stark", {"footman": 1}),
            "karhold": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "lannisport": ("lannister", {"footman": 1}),
            "kingswood": ("baratheon", {"footman": 1}),
            "dragonstone": ("baratheon", {"footman": 1}),
        },
    )
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (d.house, d.options.about, d.options.max) == ("stark", "destroy", 2)
    sc.select("stark", {"karhold": {"footman": 1}, "castle_black": {"footman": 1}})
    d = sc.decision()
    assert (d.house, d.options.max) == ("baratheon", 1)
    sc.select("baratheon", {"kingswood": {"footman": 1}})
    # lannister's single unit goes at once (no choice); greyjoy has no units
    assert units_of(sc, "lannister") == {} and sc.state.phase == "planning"


def test_BG_WILD_05_the_horde_descends_nights_watch_musters_in_one_castle_area():
    sc = attack(
        "the_horde_descends", units={"winterfell": ("stark", {"footman": 1}), "white_harbor": ("stark", {"footman": 1})}
    )
    sc.bids(WIN_STARK)
    d = sc.decision()
    assert d.commands == ["muster"] and d.options.max_areas == 1
    from tests.support.westeros_positions import Recruit

    with pytest.raises(RuleViolation):
        sc.muster("stark", {"winterfell": [Recruit(unit="footman")], "white_harbor": [Recruit(unit="footman")]})
    sc.muster("stark", {"winterfell": [Recruit(unit="knight")]})
    assert units_of(sc, "stark")["winterfell"] == {"footman": 1, "knight": 1}


# --- Preemptive Raid ---------------------------------------------------------------------------------------------


def test_BG_WILD_05_preemptive_raid_lowest_bidder_destroys_2_units():
    sc = attack("preemptive_raid")
    sc.bids(LOSE_STARK)
    d = sc.decision()
    assert (d.house, d.options.options) == ("stark", ["destroy_units", "reduce_influence"])
    sc.choose("stark", "destroy_units")
    sc.select("stark", {"white_harbor": {"footman": 1}, "the_shivering_sea": {"ship": 1}})
    assert units_of(sc, "stark") == {"winterfell": {"footman": 1, "knight": 1}}
    assert sc.state.phase == "planning"  # everyone else: nothing


def test_BG_WILD_05_preemptive_raid_lowest_bidder_drops_2_on_its_highest_track():
    sc = attack(
        "preemptive_raid",
        tracks={
            "iron_throne": ["baratheon", "stark", "lannister", "greyjoy"],
            "fiefdoms": ["greyjoy", "baratheon", "lannister", "stark"],
            "kings_court": ["lannister", "baratheon", "greyjoy", "stark"],
        },
    )
    sc.bids(LOSE_STARK)
    sc.choose("stark", "reduce_influence")
    assert sc.state.tracks.iron_throne == ["baratheon", "lannister", "greyjoy", "stark"]


def test_BG_WILD_05_preemptive_raid_equal_highest_tracks_the_iron_throne_holder_picks():
    sc = attack(
        "preemptive_raid",
        tracks={
            "iron_throne": ["baratheon", "stark", "lannister", "greyjoy"],
            "fiefdoms": ["greyjoy", "stark", "lannister", "baratheon"],
            "kings_court": ["lannister", "baratheon", "greyjoy", "stark"],
        },
    )
    sc.bids(LOSE_STARK)
    sc.choose("stark", "reduce_influence")
    d = sc.decision()
    assert (d.house, d.options.options) == ("baratheon", ["iron_throne", "fiefdoms"])
    sc.choose("baratheon", "fiefdoms")
    assert sc.state.tracks.fiefdoms == ["greyjoy", "lannister", "baratheon", "stark"]


def test_BG_WILD_05_preemptive_raid_nights_watch_the_wildlings_attack_again_at_6_without_the_highest_bidder():
    sc = attack("preemptive_raid")
    out = sc.bids(WIN_STARK)
    second = of_type(out, wev.WildlingAttackBegan)[-1]
    assert (second.strength, second.reason, second.adjust_threat) == (6, "preemptive_raid", False)
    assert "stark" not in second.houses and {d.house for d in sc.decisions()} == {"lannister", "baratheon", "greyjoy"}
    with pytest.raises(NotYourTurn):
        sc.bid("stark", 0)
    sc.bids({"lannister": 2, "baratheon": 4, "greyjoy": 0})  # 6 >= 6: the Night's Watch wins again
    assert sc.state.wildling_threat == 0
    assert len(sc.state.wildling_deck) == 9 and sc.state.wildling_deck[-1] == "preemptive_raid"


# --- Rattleshirt's Raiders -------------------------------------------------------------------------------------


def test_BG_WILD_05_rattleshirts_raiders_supply_down_2_for_the_lowest_1_for_the_rest_then_reconcile():
    sc = attack(
        "rattleshirts_raiders",
        units={
            "winterfell": ("stark", {"footman": 3}),
            "white_harbor": ("stark", {"footman": 2}),
            "lannisport": ("lannister", {"footman": 1}),
        },
        supply={"stark": 2, "lannister": 2, "baratheon": 0, "greyjoy": 1},
    )
    out = sc.bids(LOSE_STARK)
    moves = {h: n for e in of_type(out, wev.SupplyAdjusted) for h, n in e.supply.items()}
    assert moves == {"stark": 0}
    d = sc.decision()  # supply 0 allows 2, 2: winterfell's 3 must shrink
    assert (d.house, d.commands, d.options.allowed) == ("stark", ["reconcile_armies"], [2, 2])
    sc.reconcile("stark", {"winterfell": {"footman": 1}})
    assert sc.state.houses["lannister"].supply == 1 and sc.state.houses["greyjoy"].supply == 0
    assert sc.state.houses["baratheon"].supply == 0  # never below 0


def test_BG_WILD_05_rattleshirts_raiders_nights_watch_up_1_to_6_at_most():
    sc = attack("rattleshirts_raiders", supply={"stark": 6})
    sc.bids(WIN_STARK)
    assert sc.state.houses["stark"].supply == 6 and not of_type(sc.events, wev.SupplyAdjusted)
    sc2 = attack("rattleshirts_raiders", supply={"stark": 2})
    sc2.bids(WIN_STARK)
    assert sc2.state.houses["stark"].supply == 3


# --- Silence at the Wall / Skinchanger Scout ------------------------------------------------------------------


def test_BG_WILD_05_silence_at_the_wall_nothing_happens():
    sc = attack("silence_at_the_wall")
    before = {h: (x.power, x.supply, list(x.hand)) for h, x in sc.state.houses.items()}
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 0, "greyjoy": 0})
    assert {h: (x.power, x.supply, list(x.hand)) for h, x in sc.state.houses.items()} == before


def test_BG_WILD_05_skinchanger_scout_lowest_loses_all_power_others_2():
    sc = attack("skinchanger_scout", power={"stark": 5, "lannister": 5, "baratheon": 5, "greyjoy": 2})
    sc.bids({"stark": 1, "lannister": 1, "baratheon": 1, "greyjoy": 0})
    assert sc.state.houses["greyjoy"].power == 0
    assert [sc.state.houses[h].power for h in ("stark", "lannister", "baratheon")] == [2, 2, 2]


def test_BG_WILD_05_skinchanger_scout_nights_watch_takes_its_bid_back():
    sc = attack("skinchanger_scout")
    sc.bids(WIN_STARK)
    assert sc.state.houses["stark"].power == 5 and sc.state.houses["lannister"].power == 2


# --- BG-WILD-06 -----------------------------------------------------------------------------------------------


def test_BG_WILD_06_the_threat_never_goes_below_0():
    sc = westeros(4, ("supply", "last_days_of_summer", "wildlings_attack"), wildling=["silence_at_the_wall"], threat=0)
    sc.begin_westeros()
    assert sc.state.westeros.attacks[-1].strength == 2
    sc.bids({"stark": 0, "lannister": 0, "baratheon": 0, "greyjoy": 1})  # 1 < 2
    assert sc.state.wildling_threat == 0


def test_BG_WILD_06_the_threat_never_goes_above_12():
    sc = westeros(4, ("a_throne_of_blades", "dark_wings_dark_words", "sea_of_storms"), threat=10)
    out = sc.begin_westeros()
    assert of_type(out, wev.WildlingThreatChanged)[0].threat == 12 and sc.state.wildling_threat == 12
