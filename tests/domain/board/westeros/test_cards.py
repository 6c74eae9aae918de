"""BG-WCARD-01..16: every Westeros card of decks I-III, with its holder's choices."""

from __future__ import annotations

import pytest

from domain.board import board_data
from domain.board import commands as cmd
from domain.board.action import events as aev
from domain.board.planning import eligible_tokens
from domain.board.redaction import redact_event
from domain.board.westeros.deck import shuffle_purpose
from domain.core.errors import NotYourTurn, RuleViolation
from tests.support.westeros_positions import WesterosPosition, event_types, of_type, westeros, wev

ICON = {c.id: c.wildling_icon for d in board_data.cards().westeros_decks.values() for c in d}


def stark_north(**kw) -> dict:
    return {"winterfell": ("stark", {"footman": 1, "knight": 1}), **kw}


# --- BG-WCARD-01 Supply --------------------------------------------------------------------------------


def test_BG_WCARD_01_supply_sets_every_house_to_its_barrels_capped_at_6():
    sc = westeros(
        6,
        ("supply", "last_days_of_summer", "sea_of_storms"),
        units=stark_north(widows_watch=("stark", {"footman": 1}), the_stony_shore=("stark", {"footman": 1})),
        supply={"stark": 1, "lannister": 5},
    )
    out = sc.begin_westeros()
    [adj] = of_type(out, wev.SupplyAdjusted)
    assert adj.reason == "BG-WCARD-01"
    assert adj.supply["stark"] == 3  # winterfell 1 + widow's watch 1 + the stony shore 1
    assert adj.supply["lannister"] == 2  # lannisport's 2 barrels (home area, no units)
    assert sc.state.houses["stark"].supply == 3 and sc.state.houses["lannister"].supply == 2


def test_BG_WCARD_01_supply_is_followed_by_a_reconcile_of_armies_over_the_limit():
    sc = westeros(
        6,
        ("supply", "last_days_of_summer", "sea_of_storms"),
        units={"lannisport": ("lannister", {"footman": 3}), "stoney_sept": ("lannister", {"footman": 3})},
        supply={"lannister": 6},
    )
    out = sc.begin_westeros()
    assert of_type(out, wev.ReconcileRequired)[0].houses == ["lannister"]
    d = sc.decision("lannister")
    assert d.commands == ["reconcile_armies"] and d.options.allowed == [3, 2, 2] and d.options.fewest == 1
    sc.reconcile("lannister", {"stoney_sept": {"footman": 1}})
    assert sc.state.areas["stoney_sept"].units == {"footman": 2}
    assert sc.state.phase == "planning"


# --- BG-WCARD-02 Mustering (details in test_supply_mustering.py) --------------------------------------------


def test_BG_WCARD_02_mustering_every_house_in_turn_order():
    sc = westeros(6, ("mustering", "last_days_of_summer", "sea_of_storms"))
    out = sc.begin_westeros()
    [began] = of_type(out, wev.MusteringBegan)
    assert began.houses == sc.state.turn_order()  # each house controls its home stronghold
    assert [d.house for d in sc.decisions()] == ["baratheon"]


# --- BG-WCARD-03 A Throne of Blades ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "choice,effect_event", [("supply", wev.SupplyAdjusted), ("mustering", wev.MusteringBegan), ("nothing", None)]
)
def test_BG_WCARD_03_a_throne_of_blades_the_iron_throne_holder_chooses(choice, effect_event):
    sc = westeros(6, ("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    sc.begin_westeros()
    d = sc.decision()
    assert d.house == "baratheon" and d.options.about == "a_throne_of_blades"
    assert d.options.options == ["supply", "mustering", "nothing"] and not d.options.may_skip
    with pytest.raises(NotYourTurn):
        sc.choose("lannister", "supply")
    out = sc.choose("baratheon", choice)
    began = of_type(out, wev.WesterosEffectBegan)[0]
    assert (began.effect, began.chooser) == (choice, "baratheon")
    if effect_event is not None:
        assert of_type(out, effect_event)
    else:
        assert sc.state.phase == "planning"


def test_BG_WCARD_03_only_the_listed_options_are_accepted():
    sc = westeros(6, ("a_throne_of_blades", "last_days_of_summer", "sea_of_storms"))
    sc.begin_westeros()
    with pytest.raises(RuleViolation):
        sc.choose("baratheon", "clash_of_kings")
    with pytest.raises(RuleViolation):
        sc.choose("baratheon", None)


# --- BG-WCARD-04 Winter Is Coming ---------------------------------------------------------------------


def test_BG_WCARD_04_winter_is_coming_reshuffles_the_whole_deck_and_reveals_another_card():
    sc = westeros(6, (["winter_is_coming"], "last_days_of_summer", "sea_of_storms"), threat=0)
    before = list(sc.state.westeros_decks["deck_i"])
    out = sc.begin_westeros()
    shuffles = of_type(out, wev.WesterosDeckShuffled)
    assert shuffles and all(s.deck == "deck_i" for s in shuffles)
    first = shuffles[0]
    assert sorted(first.cards) == sorted(before)  # all 10 cards, this Winter Is Coming included
    expected = sc.ctx.rng(shuffle_purpose(2, "deck_i", 1)).shuffled(before)
    assert first.cards == expected  # the recorded outcome is the seed's
    drawn = [e.card for e in of_type(out, wev.WesterosCardDrawn) if e.deck == "deck_i"]
    assert drawn[0] == "winter_is_coming" and drawn[1] == first.cards[0]
    final = drawn[-1]
    assert final != "winter_is_coming"
    # the replacement is resolved in deck I's slot and its icon counts
    assert of_type(out, wev.WesterosCardResolutionBegan)[0].card == final
    icons = ICON[final] + ICON["last_days_of_summer"] + ICON["sea_of_storms"]
    assert sc.state.wildling_threat == 2 * icons


def test_BG_WCARD_04_the_new_deck_order_is_hidden_from_every_player():
    sc = westeros(6, (["winter_is_coming"], "last_days_of_summer", "sea_of_storms"))
    out = sc.begin_westeros()
    shuffled = of_type(out, wev.WesterosDeckShuffled)[0]
    for reader in ("stark", "lannister", None):
        assert redact_event(shuffled, reader).cards is None
    assert redact_event(shuffled, None, game_over=True).cards == shuffled.cards


# --- BG-WCARD-05 Last Days of Summer ---------------------------------------------------------------------


def test_BG_WCARD_05_last_days_of_summer_does_nothing():
    sc = westeros(6, ("last_days_of_summer", "last_days_of_summer", "sea_of_storms"))
    power = {h: x.power for h, x in sc.state.houses.items()}
    out = sc.begin_westeros()
    effects = [e.effect for e in of_type(out, wev.WesterosEffectBegan)]
    assert effects == ["nothing", "nothing", "forbid_raid"]
    assert {h: x.power for h, x in sc.state.houses.items()} == power


# --- BG-WCARD-06 Game of Thrones ------------------------------------------------------------------------


def test_BG_WCARD_06_game_of_thrones_crowns_and_ports_without_enemy_ships():
    sc = westeros(
        6,
        ("last_days_of_summer", "game_of_thrones", "sea_of_storms"),
        units={
            "winterfell": ("stark", {"footman": 1}),  # 1 crown
            "karhold": ("stark", {"footman": 1}),  # 1 crown
            "port_of_winterfell": ("stark", {"ship": 1}),  # bay of ice empty: +1
            "white_harbor": ("stark", {"footman": 1}),
            "port_of_white_harbor": ("stark", {"ship": 1}),  # enemy ship in the narrow sea: +0
            "the_narrow_sea": ("greyjoy", {"ship": 1}),
        },
        tokens={"castle_black": "stark"},  # 1 crown through a Power token
        power={"stark": 0, "lannister": 0, "baratheon": 0},
    )
    out = sc.begin_westeros()
    gains = {e.house: e.amount for e in of_type(out, aev.PowerGained) if e.reason == "BG-WCARD-06"}
    assert gains["stark"] == 4
    assert "lannister" not in gains  # lannisport has no crown
    assert gains["baratheon"] == 1  # dragonstone (home area, printed control)
    assert sc.state.houses["stark"].power == 4


# --- BG-WCARD-07 Clash of Kings (details in test_bidding.py) ---------------------------------------------


def test_BG_WCARD_07_clash_of_kings_bids_for_the_three_tracks():
    sc = westeros(6, ("last_days_of_summer", "clash_of_kings", "sea_of_storms"))
    sc.begin_westeros()
    assert {d.house for d in sc.decisions()} == set(sc.state.houses_in_play)
    assert all(d.options.bidding == "clash_of_kings" and d.options.track == "iron_throne" for d in sc.decisions())
    sc.finish()
    assert [e.track for e in of_type(sc.events, wev.BiddingBegan)] == ["iron_throne", "fiefdoms", "kings_court"]


# --- BG-WCARD-08 Dark Wings, Dark Words ----------------------------------------------------------------


@pytest.mark.parametrize("choice", ["clash_of_kings", "game_of_thrones", "nothing"])
def test_BG_WCARD_08_dark_wings_dark_words_the_raven_holder_chooses(choice):
    sc = westeros(6, ("last_days_of_summer", "dark_wings_dark_words", "sea_of_storms"))
    sc.begin_westeros()
    d = sc.decision()
    assert d.house == sc.state.raven_holder() == "lannister"
    assert d.options.options == ["clash_of_kings", "game_of_thrones", "nothing"]
    out = sc.choose("lannister", choice)
    if choice == "clash_of_kings":
        assert of_type(out, wev.BiddingBegan)
    elif choice == "game_of_thrones":
        assert any(e.reason == "BG-WCARD-06" for e in of_type(out, aev.PowerGained))
    else:
        assert sc.state.phase == "planning"


# --- BG-WCARD-09 Wildlings Attack ---------------------------------------------------------------------------


def test_BG_WCARD_09_wildlings_attack_at_the_current_threat():
    sc = westeros(6, ("supply", "game_of_thrones", "wildlings_attack"), threat=6)
    out = sc.begin_westeros()
    [attack] = of_type(out, wev.WildlingAttackBegan)
    assert (attack.strength, attack.reason, attack.houses) == (6, "BG-WCARD-09", sc.state.turn_order())


# --- BG-WCARD-10..16 restrictions -----------------------------------------------------------------------


def only_stark_at_winterfell(cards, **kw) -> WesterosPosition:
    return westeros(6, cards, units={"winterfell": ("stark", {"footman": 1})}, **kw)


@pytest.mark.parametrize(
    "choice,forbidden,token",
    [
        ("forbid_defense", ["defense"], "defense_plus_1"),
        ("forbid_march_plus_1", ["march_plus_1_special"], "march_plus_1_special"),
    ],
)
def test_BG_WCARD_10_put_to_the_sword_the_blade_holder_picks_a_restriction(choice, forbidden, token):
    sc = only_stark_at_winterfell(("last_days_of_summer", "last_days_of_summer", "put_to_the_sword"))
    sc.begin_westeros()
    d = sc.decision()
    assert d.house == sc.state.tracks.fiefdoms[0] == "greyjoy"
    assert d.options.options == ["forbid_defense", "forbid_march_plus_1", "nothing"]
    sc.choose("greyjoy", choice)
    assert sc.state.forbidden_order_types == forbidden and sc.state.phase == "planning"
    with pytest.raises(RuleViolation):
        sc.run("stark", cmd.AssignOrders(orders={"winterfell": token}))
    assert token not in eligible_tokens(sc.state, "stark")


def test_BG_WCARD_10_put_to_the_sword_may_restrict_nothing():
    sc = only_stark_at_winterfell(("last_days_of_summer", "last_days_of_summer", "put_to_the_sword"))
    sc.begin_westeros()
    sc.choose("greyjoy", "nothing")
    assert sc.state.forbidden_order_types == []


def restriction(card: str, rule: str, refused: list[str], allowed: str) -> None:
    sc = only_stark_at_winterfell(("last_days_of_summer", "last_days_of_summer", card))
    out = sc.begin_westeros()
    [forbid] = of_type(out, wev.OrdersForbidden)
    assert forbid.reason == rule
    for token in refused:
        assert token not in eligible_tokens(sc.state, "stark")
        with pytest.raises(RuleViolation):
            sc.run("stark", cmd.AssignOrders(orders={"winterfell": token}))
    sc.run("stark", cmd.AssignOrders(orders={"winterfell": allowed}))


def test_BG_WCARD_11_sea_of_storms_no_raid_orders():
    restriction("sea_of_storms", "BG-WCARD-11", ["raid", "raid_special"], "march_0")


def test_BG_WCARD_12_rains_of_autumn_no_march_plus_1():
    restriction("rains_of_autumn", "BG-WCARD-12", ["march_plus_1_special"], "march_0")


def test_BG_WCARD_13_feast_for_crows_no_consolidate_power():
    restriction("feast_for_crows", "BG-WCARD-13", ["consolidate_power", "consolidate_power_special"], "raid")


def test_BG_WCARD_14_web_of_lies_no_support():
    restriction("web_of_lies", "BG-WCARD-14", ["support_0", "support_plus_1_special"], "raid")


def test_BG_WCARD_15_storm_of_swords_no_defense():
    restriction("storm_of_swords", "BG-WCARD-15", ["defense_plus_1", "defense_plus_2_special"], "support_0")


def test_BG_WCARD_16_restrictions_last_only_for_the_round_and_shape_eligible_tokens():
    sc = only_stark_at_winterfell(("last_days_of_summer", "last_days_of_summer", "web_of_lies"))
    sc.begin_westeros()
    assert sc.state.forbidden_order_types == ["support"]
    assert not {t for t in eligible_tokens(sc.state, "stark") if t.startswith("support")}
    # the next round's Westeros phase lifts it (another restriction may replace it)
    sc.to_westeros(("last_days_of_summer", "last_days_of_summer", "storm_of_swords"), round=3, threat=0)
    out = sc.begin_westeros()
    assert isinstance(out[0], wev.WesterosPhaseBegan)
    assert sc.state.forbidden_order_types == ["defense"]
    assert event_types(out).count("OrdersForbidden") == 1
