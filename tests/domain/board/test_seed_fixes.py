"""Section 25 of the rules digest (BG-SEEDFIX-01..30): where seed 000 is wrong or vague, the engine
follows the rule. Each test sets up the position where the seed and the rule differ and asserts the
rule's outcome (so an engine built from the seed's reading fails it).

Entry 16 of section 25 (the Tides of Battle skull) belongs with the Tides variant and its tests.
"""

from __future__ import annotations

import pytest

from domain.board import board_data
from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.adjacency import can_support
from domain.board.control import controller
from domain.board.decisions import pending_decisions
from domain.board.mustering import ship_areas
from domain.board.power import pool
from domain.board.redaction import view_for
from domain.board.supply import armies_legal
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type
from tests.support.board_builders import ORDERS_4P, revealed_game, started_game
from tests.support.combat_helpers import attack, cards, fight, north
from tests.support.rounds import to_next_planning
from tests.support.westeros_positions import WesterosPosition, westeros, wev

M = acmd.ResolveMarch
QUIET = ("last_days_of_summer", "last_days_of_summer", "rains_of_autumn")


def phases(events) -> list[tuple[str, int]]:
    """(phase, round) each time the game enters a new phase."""
    out: list[tuple[str, int]] = []
    for e in events:
        if isinstance(e, ev.StepBegan) and (not out or out[-1] != (e.phase, e.round)):
            out.append((e.phase, e.round))
    return out


def test_BG_SEEDFIX_01_three_phases_and_no_westeros_in_round_1():
    sc = WesterosPosition(6).setup({"karhold": ("stark", {"footman": 1})}, {"karhold": "raid"})
    sc.begin()
    sc.run("stark", acmd.ResolveRaid(area="karhold"))
    to_next_planning(sc)
    assert phases(sc.events) == [("planning", 1), ("action", 1), ("westeros", 2), ("planning", 2)]


def test_BG_SEEDFIX_02_one_card_from_each_deck_in_order_from_fixed_lists():
    sc = westeros(6, ("mustering", "game_of_thrones", "sea_of_storms"))
    out = sc.begin_westeros()
    assert [(e.deck, e.card) for e in of_type(out, wev.WesterosCardDrawn)] == [
        ("deck_i", "mustering"),
        ("deck_ii", "game_of_thrones"),
        ("deck_iii", "sea_of_storms"),
    ]
    resolved = [e.card for e in of_type(out, wev.WesterosCardResolutionBegan)]
    assert resolved == ["mustering"]  # deck I first; its Mustering waits for the houses
    sc.pass_musters()
    resolved = [e.card for e in of_type(sc.events, wev.WesterosCardResolutionBegan)]
    assert resolved == ["mustering", "game_of_thrones", "sea_of_storms"]
    # The deck lists are fixed: each deck keeps its own 10 cards.
    decks = board_data.cards().westeros_decks
    assert {d: sum(c.count for c in cs) for d, cs in decks.items()} == {"deck_i": 10, "deck_ii": 10, "deck_iii": 10}
    assert sum(c.count for c in decks["deck_iii"] if c.id == "wildlings_attack") == 3


def test_BG_SEEDFIX_03_the_track_at_12_and_the_wildlings_attack_cards_both_attack():
    sc = westeros(6, ("last_days_of_summer", "game_of_thrones", "put_to_the_sword"), threat=10)
    out = sc.begin_westeros()
    assert [(a.strength, a.reason) for a in of_type(out, wev.WildlingAttackBegan)] == [(12, "BG-WEST-01")]
    sc2 = westeros(6, ("supply", "game_of_thrones", "wildlings_attack"), threat=4)
    sc2.begin_westeros()
    sc2.finish()
    assert [(a.strength, a.reason) for a in of_type(sc2.events, wev.WildlingAttackBegan)] == [(4, "BG-WCARD-09")]


@pytest.mark.parametrize(("deck_i", "supply"), [("last_days_of_summer", 1), ("supply", 3)])
def test_BG_SEEDFIX_04_supply_moves_only_with_a_supply_effect(deck_i, supply):
    """Stark marches into blackwater (2 barrels) in the Action phase: its Supply token stays at 1,
    through the round and through a Westeros phase without a Supply card. Only a Supply card moves it
    (winterfell 1 + blackwater 2)."""
    sc = WesterosPosition(6).setup(
        {"winterfell": ("stark", {"footman": 1}), "stoney_sept": ("stark", {"footman": 1})},
        {"stoney_sept": "march_0", "winterfell": "defense_plus_1"},
        supply={"stark": 1},
    )
    sc.begin()
    sc.run("stark", M(area="stoney_sept", moves={"blackwater": {"footman": 1}}))
    assert sc.state.houses["stark"].supply == 1
    to_next_planning(sc, (deck_i, "last_days_of_summer", "rains_of_autumn"))
    assert sc.state.houses["stark"].supply == supply


def test_BG_SEEDFIX_04_supply_limits_armies_not_areas():
    assert armies_legal([1] * 12, 0)  # any number of single units
    assert armies_legal([2, 2], 0) and not armies_legal([2, 2, 2], 0) and not armies_legal([3], 0)


def test_BG_SEEDFIX_05_no_recruitment_without_a_mustering_effect():
    sc = westeros(6, QUIET)
    sc.begin_westeros()
    sc.finish()
    assert not of_type(sc.events, wev.MusteringBegan) and not of_type(sc.events, aev.UnitsPlaced)
    sc2 = westeros(6, ("mustering", "last_days_of_summer", "rains_of_autumn"))
    sc2.begin_westeros()
    assert of_type(sc2.events, wev.MusteringBegan) and sc2.state.step == "muster"


def test_BG_SEEDFIX_06_ships_go_to_a_sea_without_enemy_ships_or_the_port():
    """Winterfell touches the Bay of Ice (a Greyjoy Ship) and the Shivering Sea (empty): a new
    Ship may go to the Shivering Sea or Winterfell's port, never the Bay of Ice."""
    sc = Position(6).setup({"winterfell": ("stark", {"footman": 1}), "bay_of_ice": ("greyjoy", {"ship": 1})})
    assert ship_areas(sc.state, "stark", "winterfell") == ["port_of_winterfell", "the_shivering_sea"]


def test_BG_SEEDFIX_07_combat_ties_follow_fiefdoms_positions_not_the_blade_holder():
    """Greyjoy holds the Blade (Fiefdoms 1) but is not in the combat: between Stark and Lannister the
    tie goes to the higher of the two on Fiefdoms (Stark, 4th, over Lannister, 6th)."""
    sc = north(a="lannister", d="stark", att={"footman": 1}, dfn={"footman": 1})
    fight(sc, "ser_jaime_lannister", "roose_bolton", attacker="lannister", defender="stark")
    d = of_type(sc.events, aev.CombatDecided)[-1]
    assert d.strength["lannister"] == d.strength["stark"] and d.winner == "stark"
    assert not of_type(sc.events, aev.BladeUsed)


def test_BG_SEEDFIX_07_the_raven_looks_at_the_wildling_deck_never_at_westeros_cards():
    game = revealed_game(4, overrides=ORDERS_4P)
    (decision,) = pending_decisions(game.state)
    assert set(decision.commands) == {"raven_replace_order", "raven_peek_wildling", "raven_pass"}
    decks_before = {d: list(cs) for d, cs in game.state.westeros_decks.items()}
    out = game.run(cmd.RavenPeekWildling(), game.actor("lannister"))
    [peek] = of_type(out, ev.RavenWildlingPeeked)
    assert peek.card in {c.id for c in board_data.cards().wildling_cards}
    assert view_for(game.state, "lannister").raven_peek == peek.card
    assert game.state.westeros_decks == decks_before
    westeros_ids = {c.id for cs in board_data.cards().westeros_decks.values() for c in cs}
    assert not any(getattr(e, "card", None) in westeros_ids for e in out)


def clash(players=3, **kw):
    sc = westeros(players, ("last_days_of_summer", "clash_of_kings", "sea_of_storms"), **kw)
    sc.begin_westeros()
    return sc


def test_BG_SEEDFIX_08_dominance_tokens_move_track_by_track_the_new_throne_breaks_later_ties():
    """3 players: Baratheon holds the Iron Throne before the bids. Stark wins the Iron Throne bid;
    the Fiefdoms tie is then broken by Stark (the new holder), not by Baratheon."""
    sc = clash()
    sc.bids({"stark": 3, "lannister": 0, "baratheon": 1})
    assert sc.state.tracks.iron_throne[0] == "stark"
    sc.bids({"stark": 0, "lannister": 1, "baratheon": 1})
    d = sc.decision()
    assert d.house == "stark" and d.options.about == "bid_tie"


def test_BG_SEEDFIX_09_every_bid_winning_or_losing_goes_to_the_pool():
    sc = clash()
    before = {h: pool(sc.state, h) for h in ("stark", "lannister", "baratheon")}
    sc.bids({"stark": 3, "lannister": 2, "baratheon": 1})
    assert {h: pool(sc.state, h) - before[h] for h in before} == {"stark": 3, "lannister": 2, "baratheon": 1}


def wildling_attack(card: str, threat: int, players: int = 4):
    sc = westeros(
        players, ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"), wildling=[card], threat=threat - 4
    )
    sc.begin_westeros()
    return sc


def test_BG_SEEDFIX_10_bid_first_the_wildling_card_is_drawn_after():
    sc = wildling_attack("silence_at_the_wall", 8)
    assert sc.state.step == "bid" and not of_type(sc.events, wev.WildlingCardDrawn)
    assert sc.state.wildling_deck[0] == "silence_at_the_wall"  # still face down on top
    sc.bids({"stark": 1, "lannister": 1, "baratheon": 1, "greyjoy": 1})
    names = [type(e).__name__ for e in sc.events]
    assert names.index("BidsRevealed") < names.index("WildlingAttackDecided") < names.index("WildlingCardDrawn")


@pytest.mark.parametrize(("bids", "won", "threat_after"), [((3, 3, 0, 0), True, 0), ((2, 3, 0, 0), False, 2)])
def test_BG_SEEDFIX_11_bids_are_the_nights_watch_threat_is_the_wildlings(bids, won, threat_after):
    """Threat 6: Power bids summing to 6 hold the Wall and reset the threat to 0; 5 lose and move it
    back two positions (6 -> 2). The bids are Power tokens, at most what a house has."""
    sc = wildling_attack("silence_at_the_wall", 6)
    with pytest.raises(RuleViolation):
        sc.bid("stark", sc.state.houses["stark"].power + 1)
    out = sc.bids(dict(zip(("stark", "lannister", "baratheon", "greyjoy"), bids)))
    [d] = of_type(out, wev.WildlingAttackDecided)
    assert (d.total, d.strength, d.nights_watch_won) == (sum(bids), 6, won)
    assert sc.state.wildling_threat == threat_after


def test_BG_SEEDFIX_11_no_attack_at_the_end_of_a_round():
    sc = WesterosPosition(6).setup({"karhold": ("stark", {"footman": 1})}, {"karhold": "raid"})
    sc.state.wildling_threat = 12
    sc.begin()
    sc.run("stark", acmd.ResolveRaid(area="karhold"))  # the Action phase ends
    assert sc.state.phase == "westeros" and not of_type(sc.events, wev.WildlingAttackBegan)


def test_BG_SEEDFIX_12_a_march_may_split_freely_but_start_only_one_fight():
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 3, "knight": 1}),
            "karhold": ("greyjoy", {"footman": 1}),
            "castle_black": ("greyjoy", {"footman": 1}),
            "white_harbor": ("stark", {"footman": 1}),
        },
        {"winterfell": "march_0", "karhold": "defense_plus_1", "castle_black": "defense_plus_1"},
        supply={"stark": 6},
    )
    sc.begin()
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}, "castle_black": {"footman": 1}}))
    assert err.value.rule == "BG-MARCH-04"
    sc.run(
        "stark",
        M(
            area="winterfell",
            moves={"karhold": {"knight": 1}, "white_harbor": {"footman": 1}, "moat_cailin": {"footman": 1}},
        ),
    )
    a = sc.state.areas
    assert a["white_harbor"].units == {"footman": 2} and a["moat_cailin"].units == {"footman": 1}
    assert sc.state.action.combat.area == "karhold"  # the only fight


def test_BG_SEEDFIX_13_a_raid_only_removes_an_order_never_a_march_or_control():
    sc = WesterosPosition(6).setup(
        {
            "karhold": ("stark", {"footman": 1}),
            "castle_black": ("stark", {"footman": 1}),
            "winterfell": ("greyjoy", {"footman": 1}),
        },
        {"karhold": "raid", "castle_black": "raid_special", "winterfell": "defense_plus_1"},
    )
    sc.begin()
    targets = sc.decision("stark").options.targets
    assert targets == {"karhold": [], "castle_black": ["winterfell"]}  # only the Special Raid takes a Defense
    sc.run("stark", acmd.ResolveRaid(area="castle_black", target="winterfell"))
    assert "winterfell" not in sc.state.orders
    assert controller(sc.state, "winterfell") == "greyjoy" and sc.state.areas["castle_black"].units == {"footman": 1}
    sc2 = WesterosPosition(6).setup(
        {"karhold": ("stark", {"footman": 1}), "winterfell": ("greyjoy", {"footman": 1})},
        {"karhold": "raid_special", "winterfell": "march_0"},
    )
    sc2.begin()
    assert sc2.decision("stark").options.targets == {"karhold": []}  # no Raid removes a March


def test_BG_SEEDFIX_14_only_the_home_area_stays_controlled_when_left():
    """Stark leaves all three starting areas: Winterfell (home) stays Stark's, White Harbor and the
    Shivering Sea are nobody's."""
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"knight": 1}),
            "white_harbor": ("stark", {"footman": 1}),
            "the_shivering_sea": ("stark", {"ship": 1}),
        },
        {
            "winterfell": "march_0",
            "white_harbor": "march_minus_1",
            "the_shivering_sea": "march_plus_1_special",
        },
        garrisons={},
    )
    sc.begin()
    sc.run("stark", M(area="winterfell", moves={"castle_black": {"knight": 1}}))
    sc.run("stark", M(area="white_harbor", moves={"widows_watch": {"footman": 1}}))
    sc.run("stark", M(area="the_shivering_sea", moves={"the_narrow_sea": {"ship": 1}}))
    s = sc.state
    assert controller(s, "winterfell") == "stark"
    assert controller(s, "white_harbor") is None and controller(s, "the_shivering_sea") is None


def test_BG_SEEDFIX_15_support_backs_any_side_including_its_own():
    sc = north(
        extra={"castle_black": ("stark", {"footman": 1}), "the_shivering_sea": ("greyjoy", {"ship": 1})},
        orders={"castle_black": "support_0", "the_shivering_sea": "support_0"},
    )
    attack(sc)
    assert sc.state.action.combat.support_queue == ["greyjoy"]  # Stark's own support is not asked
    sc.run("greyjoy", acmd.DeclareSupport(side="defender"))
    assert sc.decision("stark").options.strength == {"stark": 2 + 1, "lannister": 1 + 1}


def test_BG_SEEDFIX_15_consolidate_power_gains_power_or_musters_nothing_else():
    sc = WesterosPosition(6).setup(
        {"winterfell": ("stark", {"footman": 1}), "white_harbor": ("stark", {"footman": 1})},
        {"winterfell": "consolidate_power_special", "white_harbor": "consolidate_power"},
        power={"stark": 0},
    )
    sc.begin()
    opts = sc.decision("stark").options.orders
    assert (opts["winterfell"].power, opts["winterfell"].may_muster) == (2, True)
    assert (opts["white_harbor"].power, opts["white_harbor"].may_muster) == (1, False)
    out = sc.run("stark", acmd.ResolveConsolidatePower(area="white_harbor"))
    kinds = {type(e).__name__ for e in out} - {"ConsolidatedPower", "OrderRemoved", "OrderTurnBegan", "StepBegan"}
    assert kinds == {"PowerGained"} and sc.state.houses["stark"].power == 1
    out = sc.run("stark", acmd.ResolveConsolidatePower(area="winterfell", muster=[acmd.Recruit(unit="footman")]))
    assert of_type(out, aev.UnitsPlaced) and sc.state.houses["stark"].power == 1  # musters instead of Power


def test_BG_SEEDFIX_17_routed_units_and_siege_engines_of_the_loser_die_first_even_with_the_blackfish():
    """The losing defender has a routed footman, a Siege Engine and 2 footmen. Those two die first
    and do not count: Ser Gregor's 3 swords then take the 2 standing footmen... unless The Blackfish
    is played, which saves the footmen but not the routed unit nor the Siege Engine."""
    sc = north(a="lannister", d="stark", att={"knight": 2}, dfn={"footman": 3, "siege_engine": 1}, no_blade=True)
    sc.state.action.routed = {"karhold": {"footman": 1}}
    fight(sc, "ser_gregor_clegane", "the_blackfish", attacker="lannister", defender="stark")
    dead = [(e.units, e.reason) for e in of_type(sc.events, aev.UnitsDestroyed)]
    assert dead == [({"footman": 1, "siege_engine": 1}, "BG-COMBAT-14")]
    assert sc.state.areas["castle_black"].units == {"footman": 2}  # retreated, no sword casualties


def test_BG_SEEDFIX_18_march_removed_losing_defenders_order_removed_winning_defenders_kept():
    sc = north(att={"knight": 2}, dfn={"footman": 1}, defense="defense_plus_1")
    fight(sc, "eddard_stark", "the_hound")  # Stark wins
    assert {e.area for e in of_type(sc.events, aev.OrderRemoved)} == {"winterfell", "karhold"}
    sc2 = north(
        att={"footman": 1},
        dfn={"knight": 1},
        defense="defense_plus_1",
        extra={"castle_black": ("lannister", {"footman": 1})},
        orders={"castle_black": "consolidate_power"},
    )
    sc2.run("stark", M(area="winterfell", moves={"karhold": {"footman": 1}}))
    cards(sc2, stark="catelyn_stark", lannister="the_hound")  # Lannister wins
    removed = {e.area for e in of_type(sc2.events, aev.OrderRemoved)}
    assert "winterfell" in removed and "karhold" not in removed and sc2.state.orders["karhold"].house == "lannister"


def test_BG_SEEDFIX_19_siege_engines_and_routed_units_die_before_casualties_are_counted():
    """2 swords against a loser with a routed footman, a Siege Engine and 2 standing footmen: the two
    that cannot retreat die first, then the 2 casualties take both standing footmen."""
    sc = north(dfn={"footman": 3, "siege_engine": 1}, att={"knight": 2}, no_blade=True)
    sc.state.action.routed = {"karhold": {"footman": 1}}
    fight(sc, "eddard_stark", "ser_kevan_lannister")
    dead = [(e.units, e.reason) for e in of_type(sc.events, aev.UnitsDestroyed)]
    assert dead == [({"footman": 1, "siege_engine": 1}, "BG-COMBAT-14"), ({"footman": 2}, "BG-COMBAT-15")]


def test_BG_SEEDFIX_20_faq_tie_breaks_no_power_for_fortresses():
    """Equal castles; Stark has more strongholds, Lannister more land areas: the default (FAQ v2.0)
    gives the win to Lannister, and the final scoring hands out no Power."""
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "seagard": ("stark", {"footman": 1}),
            "lannisport": ("lannister", {"footman": 1}),
            "harrenhal": ("lannister", {"footman": 1}),
            "stoney_sept": ("lannister", {"footman": 1}),
        }
    )
    power = {h: x.power for h, x in sc.state.houses.items()}
    sc.state.round = 10
    sc.state.phase, sc.state.step = "ended", "awaiting_final_scoring"
    [ended] = sc.resolve()
    assert ended.winner == "lannister" and ended.tiebreak_ruleset == "faq_v2"
    assert {h: x.power for h, x in sc.state.houses.items()} == power


def test_BG_SEEDFIX_21_iron_throne_position_1_acts_first():
    sc = WesterosPosition(6).setup(
        {"karhold": ("stark", {"footman": 1}), "lannisport": ("lannister", {"footman": 1})},
        {"karhold": "raid", "lannisport": "raid"},
        tracks={"iron_throne": ["stark", "lannister", "baratheon", "martell", "greyjoy", "tyrell"]},
    )
    sc.begin()
    assert sc.state.action.current_house == "stark"
    sc2 = westeros(6, ("mustering", "last_days_of_summer", "rains_of_autumn"))
    sc2.begin_westeros()
    assert sc2.state.westeros.musterers[0] == sc2.state.tracks.iron_throne[0]


def test_BG_SEEDFIX_22_game_of_thrones_adds_ports_to_crowns():
    sc = westeros(
        6,
        ("last_days_of_summer", "game_of_thrones", "sea_of_storms"),
        units={
            "winterfell": ("stark", {"footman": 1}),  # 1 crown
            "port_of_winterfell": ("stark", {"ship": 1}),  # bay of ice free: +1
            "white_harbor": ("stark", {"footman": 1}),
            "port_of_white_harbor": ("stark", {"ship": 1}),  # Greyjoy ship in the narrow sea: +0
            "the_narrow_sea": ("greyjoy", {"ship": 1}),
        },
        power={"stark": 0},
    )
    out = sc.begin_westeros()
    assert {e.house: e.amount for e in of_type(out, aev.PowerGained)}["stark"] == 2


def test_BG_SEEDFIX_23_starting_influence_tracks_shift_left_without_absent_houses():
    s = started_game(4).state
    assert s.tracks.iron_throne == ["baratheon", "lannister", "stark", "greyjoy"]
    assert s.tracks.fiefdoms == ["greyjoy", "stark", "baratheon", "lannister"]
    assert s.tracks.kings_court == ["lannister", "stark", "baratheon", "greyjoy"]


def test_BG_SEEDFIX_24_three_players_the_south_is_impassable():
    sc = WesterosPosition(3).setup({"the_reach": ("baratheon", {"footman": 1})}, {"the_reach": "march_0"})
    assert sc.state.areas["highgarden"].blocked and sc.state.areas["dornish_marches"].blocked
    sc.begin()
    with pytest.raises(RuleViolation) as err:
        sc.run("baratheon", M(area="the_reach", moves={"highgarden": {"footman": 1}}))
    assert err.value.rule == "BG-SETUP-06"


def test_BG_SEEDFIX_25_the_supporter_chooses_the_supported_side_cannot_refuse():
    sc = north(extra={"castle_black": ("baratheon", {"footman": 1})}, orders={"castle_black": "support_0"})
    attack(sc)
    assert [d.house for d in sc.decisions()] == ["baratheon"]  # nobody else is asked
    sc.run("baratheon", acmd.DeclareSupport(side="attacker"))
    assert sc.state.step == "choose_house_card"
    assert sc.decision("stark").options.strength == {"stark": 2 + 1, "lannister": 1}


def test_BG_SEEDFIX_26_land_supports_land_ships_support_land_and_sea():
    sc = Position(6)
    assert can_support(sc.state, "castle_black", "karhold")  # land -> adjacent land
    assert not can_support(sc.state, "karhold", "the_shivering_sea")  # land never -> sea
    assert can_support(sc.state, "the_shivering_sea", "karhold")  # sea -> land
    assert can_support(sc.state, "the_shivering_sea", "the_narrow_sea")  # sea -> sea
    sc = north(
        att={"knight": 1},
        extra={"castle_black": ("stark", {"footman": 1}), "the_shivering_sea": ("stark", {"ship": 1})},
        orders={"castle_black": "support_0", "the_shivering_sea": "support_0"},
    )
    attack(sc)
    assert sc.decision("stark").options.strength["stark"] == 2 + 1 + 1  # a land and a sea supporter


def test_BG_SEEDFIX_27_initial_strength_is_set_before_house_cards():
    sc = north(
        march="march_plus_1_special",
        defense="defense_plus_1",
        garrisons={"karhold": 2},
        extra={"castle_black": ("stark", {"footman": 1})},
        orders={"castle_black": "support_0"},
        no_blade=True,
    )
    attack(sc)
    initial = sc.decision("stark").options.strength
    assert initial == {"stark": 2 + 1 + 1, "lannister": 1 + 1 + 2}
    cards(sc, stark="greatjon_umber", lannister="the_hound")
    final = of_type(sc.events, aev.CombatDecided)[-1].strength
    assert final == {"stark": initial["stark"] + 2, "lannister": initial["lannister"] + 2}


def test_BG_SEEDFIX_28_the_blade_stays_used_for_the_round_and_resets_at_clean_up():
    sc = north(
        att={"knight": 2},
        extra={"white_harbor": ("stark", {"knight": 1}), "widows_watch": ("lannister", {"footman": 1})},
        orders={"white_harbor": "march_0", "widows_watch": "defense_plus_1"},
        tracks={"fiefdoms": ["stark", "greyjoy", "tyrell", "martell", "baratheon", "lannister"]},
    )
    fight(sc, "eddard_stark", "the_hound")
    sc.run("stark", acmd.UseBlade(use=True))
    assert sc.state.blade_used and sc.state.phase == "action"
    sc.run("stark", M(area="white_harbor", moves={"widows_watch": {"knight": 1}}))
    cards(sc, stark="greatjon_umber", lannister="ser_jaime_lannister")
    assert len(of_type(sc.events, aev.BladeUsed)) == 1 and not of_type(sc.events, aev.BladeDeclined)
    assert sc.state.phase == "westeros" and not sc.state.blade_used


def test_BG_SEEDFIX_29_consolidate_power_land_sea_and_port():
    sc = WesterosPosition(6).setup(
        {
            "winterfell": ("stark", {"footman": 1}),
            "bay_of_ice": ("stark", {"ship": 1}),
            "port_of_winterfell": ("stark", {"ship": 1}),
        },
        {
            "winterfell": "consolidate_power",
            "bay_of_ice": "consolidate_power",
            "port_of_winterfell": "consolidate_power_special",
        },
    )
    sc.begin()
    opts = sc.decision("stark").options.orders
    assert {a: o.power for a, o in opts.items()} == {"winterfell": 2, "bay_of_ice": 0, "port_of_winterfell": 1}


@pytest.mark.parametrize(
    ("extra", "legal"),
    [
        ({}, ["castle_black", "white_harbor", "widows_watch"]),
        ({"tokens": {"castle_black": "greyjoy"}}, ["white_harbor", "widows_watch"]),
        ({"neutral": {"white_harbor": 3}}, ["castle_black", "widows_watch"]),
        ({"units": {"widows_watch": ("greyjoy", {"footman": 1})}}, ["castle_black", "white_harbor"]),
    ],
)
def test_BG_SEEDFIX_30_retreat_excludes_origin_enemies_tokens_neutrals_and_sea(extra, legal):
    """Lannister loses karhold: it may retreat to castle_black, or by its ship in the Shivering Sea to
    white_harbor or widows_watch; never winterfell (the attack came from there) nor the sea itself.
    An enemy Power token, a neutral force or enemy units close an area."""
    units = {"the_shivering_sea": ("lannister", {"ship": 1}), **extra.get("units", {})}
    sc = north(
        att={"knight": 2},
        dfn={"footman": 1},
        extra=units,
        tokens=extra.get("tokens", {}),
        neutral=extra.get("neutral", {}),
        no_blade=True,
    )
    fight(sc, "catelyn_stark", "the_hound")  # 4 vs 3: Stark wins, no swords
    assert sc.decision("lannister").options.areas == legal


@pytest.mark.parametrize(
    ("extra", "outcome"),
    [
        ({}, ["shipbreaker_bay"]),
        ({"white_harbor": ("lannister", {"footman": 1})}, ["port_of_white_harbor", "shipbreaker_bay"]),
        ({"white_harbor": ("greyjoy", {"footman": 1})}, ["shipbreaker_bay"]),
        (
            {"white_harbor": ("lannister", {"footman": 1}), "shipbreaker_bay": ("greyjoy", {"ship": 1})},
            ["port_of_white_harbor"],
        ),
        (
            {"white_harbor": ("lannister", {"footman": 1}), "port_of_white_harbor": ("lannister", {"ship": 2})},
            ["shipbreaker_bay"],
        ),
    ],
)
def test_BG_SEEDFIX_30_ships_retreat_to_a_free_sea_or_the_port_of_their_own_land(extra, outcome):
    """Lannister's 2 Ships lose the Narrow Sea to Stark's, come from the Shivering Sea: they may go to
    Shipbreaker Bay (unless enemy Ships are there) or White Harbor's port only while Lannister holds
    White Harbor and the port has room for both (3 Ships at most); a single legal area is taken at once."""
    sc = north(
        extra={"the_shivering_sea": ("stark", {"ship": 3}), "the_narrow_sea": ("lannister", {"ship": 2}), **extra},
        orders={"the_shivering_sea": "march_0", "the_narrow_sea": "defense_plus_1"},
        march="defense_plus_1",
        no_blade=True,
    )
    sc.run("stark", M(area="the_shivering_sea", moves={"the_narrow_sea": {"ship": 3}}))
    cards(sc, stark="eddard_stark", lannister="the_hound")  # 3+4 vs 2+1+2; 2 swords, 2 towers
    if len(outcome) > 1:
        assert sc.decision("lannister").options.areas == outcome
    else:
        [moved] = [e for e in of_type(sc.events, aev.UnitsMoved) if e.house == "lannister"]
        assert (moved.from_area, moved.to_area, moved.units) == ("the_narrow_sea", outcome[0], {"ship": 2})
