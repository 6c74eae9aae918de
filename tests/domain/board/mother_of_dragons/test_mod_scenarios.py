"""Scenario fixtures with Mother of Dragons (domain/board/scenario.py, docs/mother-of-dragons.md): a
position on the 7-house board naming the players' houses; every other house is a vassal (MOD-SETUP-01,
MOD-VASSAL-01), with no Power and no House cards of its own (MOD-SETUP-15, MOD-VASSAL-14/26); Arryn's
areas and cards and the 7-house tracks are taken; the game opens on the commanders' choice
(MOD-VASSAL-02). A position the rules could not produce is refused with the rule it breaks."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.decider import create, fold
from domain.board.decisions import pending_decisions
from domain.board.scenario_schema import Scenario
from domain.board.state import Settings
from domain.core.context import Context
from domain.core.errors import RuleViolation
from tests.domain.board.mother_of_dragons.test_mod_house_choice import MOD, ORGANIZER, Table
from tests.support.board_builders import NOW, SYSTEM

POSITION: dict[str, Any] = {
    "areas": {
        "the_eyrie": {"house": "arryn", "units": {"footman": 2}},
        "the_bite": {"house": "arryn", "units": {"ship": 1}},
        "the_vale_of_arryn": {"power_token": "arryn"},
        "winterfell": {"house": "stark", "units": {"knight": 1, "footman": 1}},
        "pyke": {"house": "greyjoy", "units": {"footman": 1}},
        "lannisport": {"house": "lannister", "units": {"footman": 1}},
        "highgarden": {"power_token": "tyrell"},
    },
    "seat_houses": ["arryn", "stark", "greyjoy"],
    "round": 4,
    "wildling_threat": 6,
    "tracks": {
        "iron_throne": ["arryn", "lannister", "stark", "greyjoy", "tyrell", "martell", "baratheon"],
        "fiefdoms": ["stark", "greyjoy", "arryn", "baratheon", "tyrell", "martell", "lannister"],
        "kings_court": ["greyjoy", "arryn", "stark", "martell", "lannister", "tyrell", "baratheon"],
    },
    "houses": {"arryn": {"power": 3, "hand": ["lysa_arryn_mod", "robert_arryn"]}, "stark": {"power": 9}},
}


def scenario(**changes: Any) -> Scenario:
    return msgspec.convert({**POSITION, **changes}, type=Scenario)


class FixtureTable(Table):
    """A Mother of Dragons game created from a scenario fixture, seated and started."""

    def __init__(self, sc: Scenario, seed: str = "mod-fixture", settings: Settings = MOD) -> None:  # noqa: D107
        self.ctx = Context(now=NOW, seed=seed, game_id=f"mod-{seed}")
        self.state = None
        self.batches = []
        self.apply(
            create(cmd.CreateGame(player_count=len(sc.seat_houses or []), settings=settings, scenario=sc), self.ctx)
        )
        for i in range(len(sc.seat_houses or [])):
            self.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(cmd.StartGame(), ORGANIZER)


def test_MOD_SETUP_01_a_position_names_the_players_and_the_other_houses_are_vassals() -> None:
    """MOD-SETUP-01 / MOD-VASSAL-01 / MOD-SETUP-15 / MOD-VASSAL-14: the players are the fixture's seat
    houses; the four others are vassals with no Power and no hand; the position's units, Power tokens,
    Arryn's areas (the Eyrie, The Bite), its hand and the 7-house tracks are as described."""
    t = FixtureTable(scenario())
    s = t.state
    assert s is not None
    assert {x.seat_id: x.house for x in s.seats} == {"seat1": "arryn", "seat2": "stark", "seat3": "greyjoy"}
    assert sorted(s.vassals) == ["baratheon", "lannister", "martell", "tyrell"]
    assert all(s.houses[v].power == 0 and s.houses[v].hand == [] for v in s.vassals)
    assert (s.houses["arryn"].power, s.houses["stark"].power, s.houses["greyjoy"].power) == (3, 9, 7)
    assert s.houses["arryn"].hand == ["lysa_arryn_mod", "robert_arryn"] and len(s.houses["stark"].hand) == 7
    assert s.areas["the_eyrie"].units == {"footman": 2} and s.areas["the_bite"].units == {"ship": 1}
    assert s.areas["the_vale_of_arryn"].power_token == "arryn"
    assert s.areas["lannisport"].house == "lannister" and s.areas["highgarden"].power_token == "tyrell"
    assert s.areas["kings_landing"].units == {} and s.areas["dragonstone"].units == {}  # the position only
    assert s.tracks is not None and s.tracks.iron_throne == POSITION["tracks"]["iron_throne"]
    assert (s.round, s.wildling_threat) == (4, 6)
    # MOD-VASSAL-02: Planning opens on the commanders' choice; the first set goes to the top player
    assert (s.phase, s.step) == ("planning", "choose_commanders")
    dealt = [e for e in t.all_events() if isinstance(e, mev.VassalOrderSetsDealt)]
    assert dealt and dealt[0].sets == {"arryn": 2, "stark": 1, "greyjoy": 1}
    assert not [e for e in t.all_events() if isinstance(e, mev.HouseChoiceOrdered)]


def test_a_mod_fixture_audits_clean_and_refolds_byte_for_byte() -> None:
    t = FixtureTable(scenario(), seed="mod-fixture-audit")
    while t.state is not None and t.state.step == "choose_commanders":
        t.timeout()
    envs = t.envelopes()
    report = audit(envs, t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(envs) and report.divergence is None
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    again = fold(t.all_events(), None)
    assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(t.state)


def test_mod_fixture_with_time_banks_runs_the_players_banks_only() -> None:
    """docs/clocks.md with a fixture: the players' banks, none for the vassals."""
    t = FixtureTable(scenario(), settings=Settings(expansion="mother_of_dragons", time_bank_s=100))
    assert t.state is not None and sorted(t.state.clocks) == ["arryn", "greyjoy", "stark"]


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"seat_houses": None}, "MOD-SETUP-01"),
        ({"seat_houses": ["arryn", "arryn", "stark"]}, "MOD-SETUP-01"),
        ({"seat_houses": ["arryn", "stark", "targaryen"]}, "MOD-SETUP-01"),
        ({"houses": {"tyrell": {"power": 2}}}, "MOD-VASSAL-26"),
        ({"houses": {"martell": {"hand": ["the_red_viper"]}}}, "MOD-VASSAL-14"),
        ({"houses": {"arryn": {"hand": ["eddard_stark"]}}}, "BG-SETUP-14"),
        (
            {
                "tracks": {
                    "iron_throne": ["arryn", "lannister", "stark", "greyjoy", "tyrell", "martell"],
                    "fiefdoms": POSITION["tracks"]["fiefdoms"],
                    "kings_court": POSITION["tracks"]["kings_court"],
                }
            },
            "BG-COK-04",
        ),
        ({"areas": {"the_eyrie": {"house": "arryn", "units": {"siege_engine": 3}}}}, "BG-COMP-03"),
        ({"areas": {"atlantis": {"house": "arryn", "units": {"footman": 1}}}}, "BG-MAP-01"),
    ],
)
def test_a_mod_position_the_rules_could_not_produce_is_refused(changes: dict[str, Any], rule: str) -> None:
    """Refused at creation with 422 ``invalid_scenario`` and the rule it breaks; nothing is created."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=MOD, scenario=scenario(**changes)), ctx)
    assert err.value.code == "invalid_scenario" and err.value.rule == rule, err.value


def test_other_start_points_and_a_deal_beside_the_fixture_are_refused() -> None:
    """Start points not offered with Mother of Dragons yet are refused by name; seat houses belong in
    the fixture, not beside it."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    for start_at in ("retreat",):  # not offered yet: a vassal's House card is drawn from the seed
        with pytest.raises(RuleViolation) as err:
            create(
                cmd.CreateGame(
                    player_count=3, settings=MOD, scenario=scenario(start_at=start_at, commanders=COMMANDERS)
                ),
                ctx,
            )
        assert err.value.code == "invalid_scenario" and f"start_at: {start_at} is not offered" in str(err.value)
    with pytest.raises(RuleViolation) as err:
        create(
            cmd.CreateGame(
                player_count=3, settings=MOD, scenario=scenario(), seat_houses=["arryn", "stark", "greyjoy"]
            ),
            ctx,
        )
    assert err.value.code == "invalid_seat_houses"


def test_the_base_game_still_refuses_the_vale_of_arryn() -> None:
    """BG-MAP-01: without the expansion The Vale of Arryn (a Mother of Dragons overlay area) is no area."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    base = {"areas": {"the_vale_of_arryn": {"house": "stark", "units": {"footman": 1}}}}
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=Settings(), scenario=msgspec.convert(base, type=Scenario)), ctx)
    assert err.value.rule == "BG-MAP-01"


# --- start_at: action, with the round's commanders and orders on the board ----------------------

COMMANDERS = {"lannister": "arryn", "tyrell": "stark", "martell": "greyjoy", "baratheon": "greyjoy"}
"""Iron Throne: Arryn, (Lannister), Stark, Greyjoy: the four sets went Arryn 2, Stark 1, Greyjoy 1
(MOD-VASSAL-02), and each picked with its own."""


def with_orders(**orders: str) -> dict[str, Any]:
    """POSITION's areas with the given orders (area -> order token)."""
    areas: dict[str, Any] = {a: dict(v) for a, v in POSITION["areas"].items()}
    for area, order in orders.items():
        areas[area]["order"] = order
    return areas


ACTION_ORDERS = with_orders(
    the_eyrie="march_plus_1_special",
    the_bite="sea_support",
    winterfell="sea_march_minus_1",
    pyke="consolidate_power",
    lannisport="vassal_raid_or_support_plus_1",
)


def refused_with(sc: Scenario, rule: str, players: int = 3, settings: Settings = MOD) -> RuleViolation:
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=players, settings=settings, scenario=sc), ctx)
    assert err.value.code == "invalid_scenario" and err.value.rule == rule, err.value
    return err.value


def test_MOD_VASSAL_09_an_action_fixture_opens_with_its_commanders_and_vassal_and_sea_orders() -> None:
    """MOD-VASSAL-03/07/09, MOD-SEA-01/02: ``start_at: action`` with the commanders given and orders
    on the board (a special order, sea tokens, a vassal's token) opens the Action phase: the sea
    token left on land goes first (MOD-SEA-02), the one at sea stays (MOD-SEA-01), and the vassal's
    Raid/Support is the first Raid, decided by its commander's seat (MOD-VASSAL-09)."""
    t = FixtureTable(scenario(areas=ACTION_ORDERS, start_at="action", commanders=COMMANDERS), seed="mod-action")
    s = t.state
    assert s is not None
    assert (s.phase, s.step) == ("action", "awaiting_action_phase")
    assert s.commanders == COMMANDERS and s.vassal_order_sets == {}  # MOD-VASSAL-07: the choice is over
    assert s.orders["lannisport"].house == "lannister" and s.orders["winterfell"].order == "sea_march_minus_1"
    t.run(cmd.ResolvePending(), SYSTEM)  # what the worker does at the Action phase's threshold
    s = t.state
    assert s is not None
    assert "winterfell" not in s.orders and s.orders["the_bite"].order == "sea_support"  # MOD-SEA-02
    assert s.step == "resolve_raid"
    (d,) = pending_decisions(s)
    assert (d.seat_id, d.house, d.for_vassal) == ("seat1", "lannister", "lannister")  # Arryn's seat
    for _ in range(12):
        if s.step in ("assign_orders", "choose_commanders", "game_over") or s.phase == "westeros":
            break
        t.timeout()
        s = t.state
        assert s is not None
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)


@pytest.mark.parametrize(
    "commanders",
    [
        {"lannister": "stark", "tyrell": "stark", "martell": "greyjoy", "baratheon": "greyjoy"},
        {"lannister": "greyjoy", "tyrell": "greyjoy", "martell": "greyjoy", "baratheon": "greyjoy"},
        {"lannister": "arryn", "tyrell": "arryn", "martell": "stark", "baratheon": "greyjoy"},
    ],
)
def test_MOD_VASSAL_04_05_06_commanders_the_sets_could_produce_are_taken(commanders: dict[str, str]) -> None:
    """MOD-VASSAL-04 (Arryn passes both sets to Stark), MOD-VASSAL-05 (everyone passes: the last
    player commands all four), MOD-VASSAL-06 (Arryn picks with both of its sets)."""
    t = FixtureTable(scenario(areas=ACTION_ORDERS, start_at="action", commanders=commanders), seed="mod-sets")
    assert t.state is not None and t.state.commanders == commanders


@pytest.mark.parametrize(
    ("changes", "rule", "says"),
    [
        ({"start_at": "action"}, "MOD-VASSAL-07", "each vassal"),
        ({"start_at": "action", "commanders": {**COMMANDERS, "tyrell": None}}, None, None),
        (
            {"start_at": "action", "commanders": {k: v for k, v in COMMANDERS.items() if k != "tyrell"}},
            "MOD-VASSAL-07",
            "each vassal",
        ),
        ({"start_at": "action", "commanders": {**COMMANDERS, "tyrell": "martell"}}, "MOD-VASSAL-03", "player house"),
        ({"commanders": COMMANDERS}, "MOD-VASSAL-02", "chosen when the game opens"),
        # Stark holds one set and Arryn keeps one of its two: Stark cannot command three vassals
        (
            {
                "start_at": "action",
                "commanders": {"lannister": "arryn", "tyrell": "stark", "martell": "stark", "baratheon": "stark"},
            },
            "MOD-VASSAL-04",
            "passes only down",
        ),
        # the top player holds two sets, not three (MOD-VASSAL-06: one vassal per set)
        (
            {
                "start_at": "action",
                "commanders": {"lannister": "arryn", "tyrell": "arryn", "martell": "arryn", "baratheon": "greyjoy"},
            },
            "MOD-VASSAL-04",
            "held 2",
        ),
        (
            {"start_at": "action", "commanders": COMMANDERS, "areas": with_orders(lannisport="march_0")},
            "MOD-VASSAL-11",
            "Vassal Order",
        ),
        (
            {"start_at": "action", "commanders": COMMANDERS, "areas": with_orders(pyke="vassal_march_0")},
            "BG-ORDER-01",
            "not an order token",
        ),
        # a vassal's Raid/Support shows its Support face only once the raids are over
        (
            {"start_at": "action", "commanders": COMMANDERS, "areas": with_orders(lannisport="vassal_support_plus_1")},
            "MOD-VASSAL-11",
            "Vassal Order",
        ),
        (
            {
                "start_at": "action",
                "commanders": COMMANDERS,
                "areas": with_orders(the_eyrie="sea_support", the_bite="sea_support"),
            },
            "BG-ORDER-01",
            "owns 1",
        ),
        (
            {"start_at": "action", "commanders": COMMANDERS, "areas": with_orders(the_eyrie="iron_bank_x")},
            "BG-ORDER-01",
            "not an order token",
        ),
    ],
)
def test_commanders_and_orders_the_rules_could_not_produce_are_refused(
    changes: dict[str, Any], rule: str | None, says: str | None
) -> None:
    """A missing or impossible commanders' choice, a vassal's order outside its set, a player's token
    count over its 18 tokens (MOD-SEA-05: one of each sea token): 422 ``invalid_scenario`` naming the rule."""
    if rule is None:  # a commander that is no house at all is refused by the schema itself
        with pytest.raises(msgspec.ValidationError):
            scenario(**changes)
        return
    err = refused_with(scenario(**changes), rule)
    assert says is not None and says in str(err), err


def test_MOD_VASSAL_08_11_a_vassal_places_at_most_two_tokens_of_its_set_each_once() -> None:
    """MOD-VASSAL-08: up to two tokens per vassal; MOD-VASSAL-11: one of each kind in the set."""
    areas = with_orders(lannisport="vassal_march_0")
    areas["searoad_marches"] = {"house": "lannister", "units": {"footman": 1}, "order": "vassal_march_0"}
    err = refused_with(scenario(areas=areas, start_at="action", commanders=COMMANDERS), "MOD-VASSAL-11")
    assert "one token of each kind" in str(err)
    areas["searoad_marches"]["order"] = "vassal_defense_plus_3"
    areas["riverrun"] = {"house": "lannister", "units": {"footman": 1}, "order": "vassal_raid_or_support_plus_1"}
    err = refused_with(scenario(areas=areas, start_at="action", commanders=COMMANDERS), "MOD-VASSAL-08")
    assert "at most 2" in str(err)
    del areas["riverrun"]
    t = FixtureTable(scenario(areas=areas, start_at="action", commanders=COMMANDERS), seed="mod-two")
    assert t.state is not None and t.state.orders["searoad_marches"].order == "vassal_defense_plus_3"


def test_MOD_VASSAL_01_commanders_without_the_expansion_are_refused() -> None:
    """MOD-VASSAL-01: only Mother of Dragons has vassals to command."""
    base = {
        "areas": {"winterfell": {"house": "stark", "units": {"footman": 1}, "order": "march_0"}},
        "start_at": "action",
        "commanders": {"tyrell": "stark"},
    }
    refused_with(msgspec.convert(base, type=Scenario), "MOD-VASSAL-01", settings=Settings())


# --- start_at: westeros and combat ------------------------------------------------------------------

DECK_I = ["mustering", "supply", "supply", "a_throne_of_blades", "mustering", "last_days_of_summer"]
DECK_I += ["supply", "mustering", "a_throne_of_blades", "winter_is_coming"]
COMBAT_AREAS: dict[str, Any] = {
    "the_eyrie": {"house": "arryn", "units": {"footman": 2}, "order": "defense_plus_1"},
    "winterfell": {"house": "stark", "units": {"knight": 1, "footman": 1}, "order": "defense_plus_1"},
    "moat_cailin": {"house": "stark", "units": {"knight": 1, "footman": 1}, "order": "march_0"},
    "the_twins": {"house": "lannister", "units": {"footman": 1}, "order": "vassal_defense_plus_3"},
    "the_bite": {"house": "baratheon", "units": {"ship": 1}, "order": "vassal_support_plus_1"},
    "pyke": {"house": "greyjoy", "units": {"footman": 1}, "order": "consolidate_power"},
}
ATTACK: dict[str, Any] = {
    "from_area": "moat_cailin",
    "to_area": "the_twins",
    "units": {"knight": 1, "footman": 1},
    "support": {"baratheon": "defender"},
}


def advance(t: FixtureTable) -> None:
    """One step on: the defaults of the decisions due, or the worker's move at a threshold."""
    assert t.state is not None
    if pending_decisions(t.state) and t.state.deadline is not None:
        t.timeout()
    else:
        t.run(cmd.ResolvePending(), SYSTEM)


def test_MOD_VASSAL_09_a_westeros_fixture_keeps_the_rounds_commanders_for_the_vassals_mustering() -> None:
    """``start_at: westeros`` (round 2+): the commanders of the round stay until the next Planning
    phase (MOD-VASSAL-03), so a vassal's mustering is decided by its commander's seat (MOD-VASSAL-09);
    the Planning phase that follows deals the sets afresh (MOD-VASSAL-02)."""
    sc = scenario(start_at="westeros", commanders=COMMANDERS, westeros={"decks": {"deck_i": DECK_I}})
    t = FixtureTable(sc, seed="mod-westeros")
    s = t.state
    assert s is not None and (s.phase, s.step) == ("westeros", "muster")
    seen: set[tuple[str, str | None, str]] = set()
    for _ in range(80):  # the musterings, then Clash of Kings (ties among vassals: Arryn decides)
        if s.phase != "westeros":
            break
        seen |= {(d.house, d.for_vassal, d.seat_id) for d in pending_decisions(s)}
        advance(t)
        s = t.state
        assert s is not None
    assert ("arryn", None, "seat1") in seen and ("lannister", "lannister", "seat1") in seen, seen
    assert (s.phase, s.step) == ("planning", "choose_commanders") and s.commanders == {}
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems


def test_MOD_VASSAL_09_a_combat_fixture_against_a_vassal_waits_for_its_commanders_card() -> None:
    """``start_at: combat`` against a vassal: the vassal's support (its Raid/Support token, Support
    face after the raids, MOD-VASSAL-11) is declared as given, and the vassal's House card is chosen by
    its commander's seat (MOD-VASSAL-09) beside the attacker's; the game audits clean."""
    sc = scenario(areas=COMBAT_AREAS, start_at="combat", commanders=COMMANDERS, combat=ATTACK)
    t = FixtureTable(sc, seed="mod-combat")
    s = t.state
    assert s is not None and (s.phase, s.step) == ("action", "choose_house_card")
    assert s.action is not None and s.action.combat is not None
    assert (s.action.combat.attacker, s.action.combat.defender) == ("stark", "lannister")
    got = {(d.seat_id, d.house, d.for_vassal) for d in pending_decisions(s)}
    assert got == {("seat1", "lannister", "lannister"), ("seat2", "stark", None)}
    for _ in range(12):
        if s.phase != "action" or s.action is None or s.action.combat is None:
            break
        advance(t)
        s = t.state
        assert s is not None
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems


def test_BG_ACT_01_a_vassal_raid_left_before_a_combat_is_refused() -> None:
    """BG-ACT-01 / MOD-VASSAL-11: the raids come first, so a vassal's Raid/Support still showing its
    Raid side cannot stand at a combat (its Support face can, above)."""
    areas = {
        **COMBAT_AREAS,
        "the_bite": {**COMBAT_AREAS["the_bite"], "order": "vassal_raid_or_support_plus_1"},
    }
    refused_with(scenario(areas=areas, start_at="combat", commanders=COMMANDERS, combat=ATTACK), "BG-ACT-01")


def test_MOD_VASSAL_10_a_raven_fixture_lets_the_holder_replace_its_own_order_not_its_vassals() -> None:
    """``start_at: raven``: the orders on the board are revealed and the Raven holder (Greyjoy, King's
    Court first) decides; it may replace its own order (BG-PLAN-07) but not the order of Baratheon,
    a vassal it commands (MOD-VASSAL-10); then the Action phase's threshold opens."""
    areas = {
        **ACTION_ORDERS,
        "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "vassal_defense_plus_3"},
    }
    t = FixtureTable(scenario(areas=areas, start_at="raven", commanders=COMMANDERS), seed="mod-raven")
    s = t.state
    assert s is not None and (s.phase, s.step) == ("planning", "messenger_raven")
    (d,) = [x for x in pending_decisions(s) if "raven_pass" in x.commands]
    assert (d.seat_id, d.house) == ("seat3", "greyjoy")
    greyjoy = cmd.Actor(kind="seat", seat_id="seat3")
    with pytest.raises(RuleViolation):
        t.run(cmd.RavenReplaceOrder(area="dragonstone", new_order="raid"), greyjoy)
    assert t.state is not None and t.state.orders["dragonstone"].order == "vassal_defense_plus_3"
    t.run(cmd.RavenReplaceOrder(area="pyke", new_order="raid"), greyjoy)
    s = t.state
    assert s is not None and s.orders["pyke"].order == "raid" and s.step == "awaiting_action_phase"


def test_MOD_VASSAL_09_a_muster_fixture_opens_on_the_first_musterer_and_the_vassals_muster_by_commander() -> None:
    """``start_at: muster``: the first card resolved is a Mustering (BG-WCARD-02); the houses muster in
    Iron Throne order, Arryn first, then Lannister by its commander Arryn's seat (MOD-VASSAL-09)."""
    sc = scenario(start_at="muster", commanders=COMMANDERS, westeros={"decks": {"deck_i": DECK_I}})
    t = FixtureTable(sc, seed="mod-muster")
    s = t.state
    assert s is not None and (s.phase, s.step) == ("westeros", "muster")
    assert [(d.seat_id, d.house, d.for_vassal) for d in pending_decisions(s) if "muster" in d.commands] == [
        ("seat1", "arryn", None)
    ]
    t.timeout()
    s = t.state
    assert s is not None
    assert [(d.seat_id, d.house, d.for_vassal) for d in pending_decisions(s) if "muster" in d.commands] == [
        ("seat1", "lannister", "lannister")
    ]
    shuffled = [*DECK_I[1:], DECK_I[0]]  # a Supply first: no mustering to open on
    refused_with(
        scenario(start_at="muster", commanders=COMMANDERS, westeros={"decks": {"deck_i": shuffled}}), "BG-WCARD-02"
    )


def test_MOD_VASSAL_04_the_sets_are_checked_on_the_track_of_the_rounds_planning() -> None:
    """MOD-VASSAL-04: at a Westeros phase opening at deck I the track is the one the sets were dealt
    on (the choice Stark could not make is refused); opening at deck III, a Clash of Kings resolved
    before may have moved the track, so only each vassal's one player commander is checked."""
    impossible = {"lannister": "arryn", "tyrell": "stark", "martell": "stark", "baratheon": "stark"}
    refused_with(scenario(start_at="westeros", commanders=impossible), "MOD-VASSAL-04")
    later = scenario(start_at="westeros", commanders=impossible, westeros={"start_deck": "deck_iii"})
    t = FixtureTable(later, seed="mod-deck-iii")
    assert t.state is not None and t.state.phase == "westeros" and t.state.commanders == impossible
