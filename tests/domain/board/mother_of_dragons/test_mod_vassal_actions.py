"""Mother of Dragons: a vassal's orders resolved in the Action phase by its commander, in the vassal's
own Iron Throne position (MOD-VASSAL-09), with the vassal tokens' rules (MOD-VASSAL-11/12), the
family bans (MOD-VASSAL-11/27) and a vassal's Power token (MOD-VASSAL-26); the export audits clean.

The position: 4 players (baratheon, lannister, stark, martell); baratheon commands tyrell, lannister
arryn, stark greyjoy. Players hold Defense and Support orders only, so only the vassal acts.
"""

from __future__ import annotations

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.action import commands as acmd
from domain.board.action import events as aev
from domain.board.action.decisions import ConsolidateOptions, HouseCardOptions, MarchOptions, RaidOptions
from domain.board.action.marches import destinations
from domain.board.action.raids import raid_targets
from domain.board.audit import audit
from domain.board.decisions import pending_decisions
from domain.board.planning import areas_needing_orders
from domain.board.redaction import redact_event, view_for
from domain.board.state import AreaState
from domain.board.strength import supports
from tests.domain.board.mother_of_dragons.test_mod_house_choice import Table
from tests.support.board_builders import SYSTEM, Game, mod_game

FOUR = ["baratheon", "lannister", "stark", "martell"]
PASSIVE = ["defense_plus_1", "defense_plus_1", "support_0", "support_0"]


def planned(extra_stark: dict[str, str] | None = None) -> Game:
    """Commanders chosen (stark commands greyjoy); Assign Orders open. ``extra_stark``: areas given
    a stark Footman before the orders (a set-up position), with the order it will take there."""
    game = mod_game(FOUR)
    assert game.state is not None
    for area in extra_stark or {}:
        game.state.areas[area] = AreaState(house="stark", units={"footman": 1})
    for house, vassal in (("baratheon", "tyrell"), ("lannister", "arryn"), ("stark", "greyjoy")):
        game.run(cmd.CommandVassal(vassal=vassal), game.actor(house))
    assert game.state.commanders == {"tyrell": "baratheon", "arryn": "lannister", "greyjoy": "stark"}
    return game


def to_action(game: Game, greyjoy: dict[str, str], stark: dict[str, str] | None = None) -> Game:
    assert game.state is not None
    for house in FOUR:
        extra = (stark or {}) if house == "stark" else {}
        areas = [a for a in areas_needing_orders(game.state, house) if a not in extra]
        orders = dict(zip(areas, PASSIVE)) | extra
        game.submit(house, orders)
    game.run(cmd.AssignOrders(orders=greyjoy, for_vassal="greyjoy"), game.actor("greyjoy"))
    for vassal in ("tyrell", "arryn"):
        game.run(cmd.AssignOrders(orders={}, for_vassal=vassal), game.actor(vassal))
    game.reveal()
    game.run(cmd.RavenPass(), game.actor(game.state.raven_holder() or ""))
    game.run(cmd.ResolvePending(), SYSTEM)
    return game


def test_MOD_VASSAL_09_11_26_the_commander_raids_and_marches_for_its_vassal() -> None:
    """MOD-VASSAL-09: the vassal's orders wait on its commander's seat (``for_vassal``);
    MOD-VASSAL-11: its Raid/Support token not used as a Raid stays as a Support +1, and it never
    marches into a port; MOD-VASSAL-26: its March emptying a land area leaves its Power token, and
    it spends no Power."""
    game = to_action(planned(), {"greywater_watch": "vassal_march_0", "ironmans_bay": "vassal_raid_or_support_plus_1"})
    assert game.state is not None and game.state.step == "resolve_raid"
    [d] = pending_decisions(game.state)
    assert d.house == "greyjoy" and d.for_vassal == "greyjoy" and d.seat_id == game.seat_id_of("stark")
    assert isinstance(d.options, RaidOptions) and "ironmans_bay" in d.options.targets
    game.run(acmd.ResolveRaid(area="ironmans_bay", target=None, for_vassal="greyjoy"), game.actor("stark"))
    assert game.state.orders["ironmans_bay"].order == "vassal_support_plus_1"  # MOD-VASSAL-11
    assert game.state.step == "resolve_march"
    [d] = pending_decisions(game.state)
    assert isinstance(d.options, MarchOptions) and d.for_vassal == "greyjoy"
    assert "port_of_pyke" not in destinations(game.state, "greyjoy", "ironmans_bay")["ship"]  # MOD-VASSAL-11
    move = acmd.ResolveMarch(
        area="greywater_watch", moves={"moat_cailin": acmd.UnitCounts(footman=1)}, for_vassal="greyjoy"
    )
    game.run(move, game.actor("stark"))
    placed = [e for e in game.events if isinstance(e, mev.VassalPowerTokenPlaced)]
    assert placed == [mev.VassalPowerTokenPlaced(house="greyjoy", area="greywater_watch")]
    assert game.state.areas["greywater_watch"].power_token == "greyjoy"
    assert game.state.houses["greyjoy"].power == 0
    assert game.state.areas["moat_cailin"].house == "greyjoy"


def test_MOD_VASSAL_11_27_no_march_or_raid_inside_the_vassal_family() -> None:
    """MOD-VASSAL-11: a vassal marches into no area of its commander and raids none of its orders;
    MOD-VASSAL-27: the commander marches into no area of its vassal."""
    game = planned({"seagard": "consolidate_power", "moat_cailin": "march_0"})
    to_action(
        game,
        {"greywater_watch": "vassal_march_0", "ironmans_bay": "vassal_raid_or_support_plus_1"},
        stark={"seagard": "consolidate_power", "moat_cailin": "march_0"},
    )
    s = game.state
    assert s is not None
    assert "seagard" not in raid_targets(s, "greyjoy", "ironmans_bay")
    land = destinations(s, "greyjoy", "greywater_watch")["land"]
    assert "seagard" not in land and "moat_cailin" not in land and "flints_finger" in land
    assert "greywater_watch" not in destinations(s, "stark", "moat_cailin")["land"]
    # the same board with another commander: the family bans are gone
    s.commanders["greyjoy"] = "martell"
    assert "seagard" in raid_targets(s, "greyjoy", "ironmans_bay")
    assert "seagard" in destinations(s, "greyjoy", "greywater_watch")["land"]
    assert "greywater_watch" in destinations(s, "stark", "moat_cailin")["land"]


def test_MOD_VASSAL_12_the_defense_muster_token_musters_in_the_consolidate_step() -> None:
    """MOD-VASSAL-11/12: the Defense/Muster token is resolved with the Consolidate Power orders, may
    muster like a Special Consolidate Power, and stays a Defense +1 order afterwards; the vassal
    gains no Power (MOD-VASSAL-26)."""
    game = to_action(planned(), {"pyke": "vassal_defense_plus_1_with_muster"})
    s = game.state
    assert s is not None and s.step == "resolve_consolidate_power"
    [d] = pending_decisions(s)
    assert d.for_vassal == "greyjoy" and isinstance(d.options, ConsolidateOptions)
    assert d.options.orders["pyke"].may_muster
    muster = acmd.ResolveConsolidatePower(area="pyke", muster=[acmd.Recruit(unit="footman")], for_vassal="greyjoy")
    game.run(muster, game.actor("stark"))
    assert game.state.areas["pyke"].units == {"knight": 1, "footman": 2}
    assert game.state.houses["greyjoy"].power == 0


def test_MOD_VASSAL_12_without_mustering_the_token_stays_a_defense() -> None:
    """MOD-VASSAL-11: resolved without mustering, the token gives nothing (no Power for a vassal) and
    stays on the board as a Defense +1 order until the clean-up."""
    game = to_action(planned(), {"pyke": "vassal_defense_plus_1_with_muster", "ironmans_bay": "vassal_defense_plus_3"})
    assert game.state is not None
    game.run(acmd.ResolveConsolidatePower(area="pyke", for_vassal="greyjoy"), game.actor("stark"))
    placed = [e for e in game.events[-4:] if getattr(e, "order", None) == "vassal_defense_plus_1"]
    assert placed and game.state.houses["greyjoy"].power == 0


def test_MOD_VASSAL_09_an_export_with_vassal_actions_audits_clean() -> None:
    """The audit reads the commander's raid, march and muster back as commands for the vassal."""
    t = Table(4, seed="vassal-actions")
    s = t.state
    assert s is not None
    for seat_id, house in zip(list(s.house_choice_order), FOUR):
        t.run(cmd.ChooseHouse(house=house), t.seat(seat_id))
    seat = {h: t.state.seat_of_house(h).seat_id for h in FOUR}  # type: ignore[union-attr]
    for house, vassal in (("baratheon", "tyrell"), ("lannister", "arryn"), ("stark", "greyjoy")):
        t.run(cmd.CommandVassal(vassal=vassal), t.seat(seat[house]))
    for house in FOUR:
        t.run(cmd.AssignOrders(orders=dict(zip(areas_needing_orders(t.state, house), PASSIVE))), t.seat(seat[house]))
    greyjoy = {
        "greywater_watch": "vassal_march_0",
        "ironmans_bay": "vassal_raid_or_support_plus_1",
        "pyke": "vassal_defense_plus_1_with_muster",
    }
    with_orders = {"greyjoy": greyjoy, "tyrell": {}, "arryn": {}}
    for vassal, orders in with_orders.items():
        t.run(
            cmd.AssignOrders(orders=dict(list(orders.items())[:2]), for_vassal=vassal),
            t.seat(seat[t.state.commanders[vassal]]),
        )  # type: ignore[union-attr]
    t.run(cmd.ResolvePending(), SYSTEM)
    t.run(cmd.RavenPass(), t.seat(seat[t.state.raven_holder()]))  # type: ignore[union-attr, index]
    t.run(cmd.ResolvePending(), SYSTEM)
    stark = t.seat(seat["stark"])
    t.run(acmd.ResolveRaid(area="ironmans_bay", target=None, for_vassal="greyjoy"), stark)
    move = acmd.ResolveMarch(
        area="greywater_watch", moves={"moat_cailin": acmd.UnitCounts(footman=1)}, for_vassal="greyjoy"
    )
    t.run(move, stark)
    assert t.state is not None and t.state.areas["greywater_watch"].power_token == "greyjoy"
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.rules_ok, report.problems


def vassal_combat(blade: str | None = None) -> Game:
    """Greyjoy (commanded by stark) marches 3 Knights from Greywater Watch on a martell Footman in
    Moat Cailin (a set-up position): strength 6 against at most 1 + 4. ``blade``: the player put
    first on the Fiefdoms track."""
    game = mod_game(FOUR)
    assert game.state is not None and game.state.tracks is not None
    if blade is not None:
        fiefdoms = game.state.tracks.fiefdoms
        fiefdoms.remove(blade)
        fiefdoms.insert(0, blade)
    game.state.areas["greywater_watch"] = AreaState(house="greyjoy", units={"knight": 3})
    game.state.areas["moat_cailin"] = AreaState(house="martell", units={"footman": 1})
    for house, vassal in (("baratheon", "tyrell"), ("lannister", "arryn"), ("stark", "greyjoy")):
        game.run(cmd.CommandVassal(vassal=vassal), game.actor(house))
    to_action(game, {"greywater_watch": "vassal_march_0"})
    move = acmd.ResolveMarch(
        area="greywater_watch", moves={"moat_cailin": acmd.UnitCounts(knight=3)}, for_vassal="greyjoy"
    )
    game.run(move, game.actor("stark"))
    return game


def test_MOD_VASSAL_13_14_16_17_the_commander_fights_with_the_vassal_deck() -> None:
    """MOD-VASSAL-14: the commander draws 3 cards of the shared Vassal House deck as the vassal's hand
    and chooses one; MOD-VASSAL-16: after the combat all seven go back; MOD-VASSAL-17: the vassal won,
    so its commander gains 1 Power."""
    game = vassal_combat()
    s = game.state
    assert s is not None and s.step == "choose_house_card"
    [drawn] = [e for e in game.events if isinstance(e, mev.VassalHouseCardsDrawn)]
    assert drawn.commander == "stark" and drawn.cards is not None and len(drawn.cards) == 3
    assert sorted(s.houses["greyjoy"].hand) == sorted(drawn.cards) and len(s.vassal_house_deck) == 4
    mine = next(d for d in pending_decisions(s) if d.house == "greyjoy")
    assert mine.seat_id == game.seat_id_of("stark") and mine.for_vassal == "greyjoy"
    assert isinstance(mine.options, HouseCardOptions) and sorted(mine.options.cards) == sorted(drawn.cards)
    power = s.houses["stark"].power
    game.run(acmd.ChooseHouseCard(card=mine.options.cards[0], for_vassal="greyjoy"), game.actor("stark"))
    while game.state.action is not None and game.state.action.combat is not None:
        game.timeout()
    decided = [e for e in game.events if isinstance(e, aev.CombatDecided)][-1]
    assert decided.winner == "greyjoy"
    assert game.state.houses["stark"].power == power + 1  # MOD-VASSAL-17
    assert game.state.houses["greyjoy"].power == 0
    assert sorted(game.state.vassal_house_deck) == sorted(
        ["varys", "syrio_forel", "jaqen_h_ghar", "janos_slynt", "jon_connington", "beric_dondarrion", "bronn"]
    )
    assert game.state.houses["greyjoy"].hand == [] and game.state.houses["greyjoy"].discards == []


def test_MOD_VASSAL_14_the_vassal_cards_are_seen_by_the_commander_only() -> None:
    """Hidden information: the drawn vassal cards and the chosen one are seen by the commander only
    until the reveal; the deck's shuffled order by nobody."""
    game = vassal_combat()
    s = game.state
    assert s is not None
    [drawn] = [e for e in game.events if isinstance(e, mev.VassalHouseCardsDrawn)]
    seen = redact_event(drawn, "stark")
    assert isinstance(seen, mev.VassalHouseCardsDrawn) and seen.cards == drawn.cards and seen.deck is None
    for reader in (None, "martell", "baratheon", "lannister"):
        other = redact_event(drawn, reader)
        assert isinstance(other, mev.VassalHouseCardsDrawn) and other.cards is None and other.deck is None
        assert next(h for h in view_for(s, reader).houses if h.house == "greyjoy").hand is None
    assert next(h for h in view_for(s, "stark").houses if h.house == "greyjoy").hand == s.houses["greyjoy"].hand
    card = s.houses["greyjoy"].hand[0]
    [chosen] = game.run(acmd.ChooseHouseCard(card=card, for_vassal="greyjoy"), game.actor("stark"))[:1]
    assert isinstance(chosen, aev.HouseCardChosen) and chosen.commander == "stark"
    assert redact_event(chosen, "stark") == chosen
    for reader in (None, "martell", "greyjoy"):
        hidden = redact_event(chosen, reader)
        assert isinstance(hidden, aev.HouseCardChosen) and hidden.card is None


def test_MOD_VASSAL_14_an_export_with_a_vassal_combat_audits_clean() -> None:
    """Greyjoy's two Ships (commanded by stark) attack lannister's Ship in the Golden Sound: the audit
    re-derives the vassal deck's shuffle and draw, the commander's card and the rest of the combat."""
    t = Table(4, seed="vassal-combat")
    s = t.state
    assert s is not None
    for seat_id, house in zip(list(s.house_choice_order), FOUR):
        t.run(cmd.ChooseHouse(house=house), t.seat(seat_id))
    seat = {h: t.state.seat_of_house(h).seat_id for h in FOUR}  # type: ignore[union-attr]
    for house, vassal in (("baratheon", "tyrell"), ("lannister", "arryn"), ("stark", "greyjoy")):
        t.run(cmd.CommandVassal(vassal=vassal), t.seat(seat[house]))
    for house in FOUR:
        t.run(cmd.AssignOrders(orders=dict(zip(areas_needing_orders(t.state, house), PASSIVE))), t.seat(seat[house]))
    vassal_orders = {"greyjoy": {"ironmans_bay": "vassal_march_0"}, "tyrell": {}, "arryn": {}}
    for vassal, orders in vassal_orders.items():
        t.run(cmd.AssignOrders(orders=orders, for_vassal=vassal), t.seat(seat[t.state.commanders[vassal]]))  # type: ignore[union-attr]
    t.run(cmd.ResolvePending(), SYSTEM)
    t.run(cmd.RavenPass(), t.seat(seat[t.state.raven_holder()]))  # type: ignore[union-attr, index]
    t.run(cmd.ResolvePending(), SYSTEM)
    stark = t.seat(seat["stark"])
    move = acmd.ResolveMarch(
        area="ironmans_bay", moves={"the_golden_sound": acmd.UnitCounts(ship=2)}, for_vassal="greyjoy"
    )
    t.run(move, stark)
    assert t.state is not None and t.state.step == "choose_house_card"
    t.run(acmd.ChooseHouseCard(card=t.state.houses["greyjoy"].hand[0], for_vassal="greyjoy"), stark)
    while t.state.action is not None and t.state.action.combat is not None:
        t.timeout()
    assert any(isinstance(e, mev.VassalHouseDeckRestored) for e in t.all_events())
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.rules_ok, report.problems
    unsealed = audit(t.envelopes())  # without the seed: the shuffle is read from the export
    assert unsealed.rules_ok, unsealed.problems


def test_MOD_VASSAL_15_the_blade_holding_commander_may_give_its_vassal_plus_one() -> None:
    """MOD-VASSAL-15: the commander holding the Valyrian Steel Blade may use it for its vassal, which
    is not first on the Fiefdoms track."""
    game = vassal_combat(blade="stark")
    s = game.state
    assert s is not None and s.blade_holder() == "stark"
    for d in pending_decisions(s):
        options = d.options
        assert isinstance(options, HouseCardOptions)
        game.run(acmd.ChooseHouseCard(card=options.cards[0], for_vassal=d.for_vassal), game.actor(d.house))
    assert game.state.step == "use_blade"
    [d] = pending_decisions(game.state)
    assert d.house == "stark" and d.for_vassal is None
    game.run(acmd.UseBlade(use=True), game.actor("stark"))
    used = [e for e in game.events if isinstance(e, aev.BladeUsed)]
    assert used == [aev.BladeUsed(house="greyjoy")] and game.state.blade_used
    decided = [e for e in game.events if isinstance(e, aev.CombatDecided)]
    assert decided and decided[-1].strength["greyjoy"] >= 7  # 3 Knights + a card of 0..4 + the Blade


def test_MOD_VASSAL_18_the_family_support_backs_its_side_without_a_declaration() -> None:
    """MOD-VASSAL-18: in a vassal's combat its commander's Support orders back the vassal without a
    declaration (stark's Support in Winterfell, next to Moat Cailin); a combat inside one family
    cannot start, since no March may target the family's areas (the bans tested above)."""
    game = vassal_combat()
    s = game.state
    assert s is not None and s.action is not None and s.action.combat is not None
    c = s.action.combat
    assert s.orders["winterfell"].house == "stark" and s.orders["winterfell"].order == "support_0"
    assert "stark" not in c.support_queue
    assert ("winterfell", "stark", "attacker") in supports(s, c)
    assert c.defender == "martell" and s.family(c.defender) != s.family(c.attacker)
