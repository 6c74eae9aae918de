"""The Planning phase: assigning orders (BG-PLAN-02..05, BG-ORDER-01) and revealing them (BG-PLAN-06).

Starting areas in a 4-player game (BG-SETUP-10), King's Court stars (BG-SETUP-07):

* Stark (KC 2, 2 stars): the_shivering_sea, white_harbor, winterfell
* Lannister (KC 1, 3 stars): lannisport, port_of_lannisport, stoney_sept, the_golden_sound
* Baratheon (KC 3, 1 star): dragonstone, kingswood, shipbreaker_bay
* Greyjoy (KC 4, 0 stars): greywater_watch, ironmans_bay, port_of_pyke, pyke
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import decide
from domain.board.decisions import AssignOrdersOptions, pending_decisions
from domain.board.planning import (
    areas_needing_orders,
    eligible_count,
    needs_sequential_placement,
    special_order_limit,
)
from domain.core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from tests.support.board_builders import (
    BARATHEON,
    GREYJOY,
    LANNISTER,
    ORDERS_4P,
    ORGANIZER,
    STARK,
    SYSTEM,
    Game,
    lobby_game,
    simple_orders,
    started_game,
)
from tests.support.sealed import unsealed


def rejected(game: Game, house: str, orders: dict[str, str]) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        decide(game.state, cmd.AssignOrders(orders=orders), game.actor(house), game.ctx)
    return err.value


@pytest.fixture
def game4() -> Game:
    return started_game(4)


# --- BG-PLAN-02 -----------------------------------------------------------------------------------


def test_BG_PLAN_02_areas_needing_orders_are_the_areas_with_units(game4):
    state = game4.state
    assert {h: set(areas_needing_orders(state, h)) for h in state.houses_in_play} == {
        h: set(o) for h, o in ORDERS_4P.items()
    }


def test_BG_PLAN_02_one_order_on_every_area_is_accepted_and_sealed(game4):
    out = game4.submit("stark", STARK)
    assert [unsealed(e) for e in out] == [ev.OrdersSubmitted(house="stark", orders=STARK)]
    assert game4.state.planning.sealed == {"stark": STARK}
    assert game4.state.orders == {}  # face down: nothing on the board yet
    assert game4.state.step == "assign_orders"


@pytest.mark.parametrize("missing", sorted(LANNISTER))
def test_BG_PLAN_02_missing_area_rejected(game4, missing):
    orders = {a: o for a, o in LANNISTER.items() if a != missing}
    err = rejected(game4, "lannister", orders)
    assert err.code == "orders_incomplete"
    assert missing in err.detail


def test_BG_PLAN_02_empty_submission_rejected(game4):
    assert rejected(game4, "stark", {}).code == "orders_incomplete"


@pytest.mark.parametrize(
    "area",
    [
        "lannisport",  # another house's units
        "kings_landing",  # neutral force, no units
        "castle_black",  # empty land
        "bay_of_ice",  # empty sea
        "port_of_winterfell",  # Stark's own port, but no ship in it
        "atlantis",  # not an area at all
    ],
)
def test_BG_PLAN_02_order_in_area_without_your_units_rejected(game4, area):
    err = rejected(game4, "stark", {**STARK, area: "raid"})
    assert err.rule == "BG-PLAN-02"
    assert area in err.detail
    assert "stark" not in game4.state.planning.sealed


def test_BG_PLAN_02_port_with_a_ship_needs_an_order(game4):
    """The port of Lannisport holds a Lannister ship (4 players), so it needs an order like any area."""
    assert "port_of_lannisport" in areas_needing_orders(game4.state, "lannister")
    orders = {a: o for a, o in LANNISTER.items() if a != "port_of_lannisport"}
    assert rejected(game4, "lannister", orders).code == "orders_incomplete"
    game4.submit("lannister", LANNISTER)
    assert game4.state.planning.sealed["lannister"]["port_of_lannisport"] == "consolidate_power"


def test_BG_PLAN_02_empty_port_takes_no_order_three_players():
    """With 3 players the port-of-Lannisport ship is not placed (BG-SETUP-10): no order there."""
    game = started_game(3)
    assert "port_of_lannisport" not in areas_needing_orders(game.state, "lannister")
    three_areas = {a: o for a, o in LANNISTER.items() if a != "port_of_lannisport"}
    assert rejected(game, "lannister", LANNISTER).rule == "BG-PLAN-02"
    game.submit("lannister", three_areas)
    assert game.state.planning.sealed["lannister"] == three_areas


def test_BG_PLAN_02_orders_need_a_seated_house(game4):
    for actor in (ORGANIZER, SYSTEM):
        with pytest.raises(Forbidden):
            decide(game4.state, cmd.AssignOrders(orders=STARK), actor, game4.ctx)
    with pytest.raises(NotYourTurn):
        decide(game4.state, cmd.AssignOrders(orders=STARK), cmd.Actor(kind="seat", seat_id="seat99"), game4.ctx)


# --- BG-PLAN-04 -----------------------------------------------------------------------------------

SPECIALS = [
    "march_plus_1_special",
    "defense_plus_2_special",
    "support_plus_1_special",
    "raid_special",
    "consolidate_power_special",
]


def with_specials(orders: dict[str, str], n: int) -> dict[str, str]:
    """``orders`` with its first ``n`` areas (by id) switched to distinct special tokens."""
    out = dict(orders)
    for area, special in zip(sorted(out)[:n], SPECIALS):
        out[area] = special
    return out


@pytest.mark.parametrize("house, limit", [("lannister", 3), ("stark", 2), ("baratheon", 1), ("greyjoy", 0)])
def test_BG_PLAN_04_special_limit_by_kings_court_position_4_players(game4, house, limit):
    assert special_order_limit(game4.state, house) == limit
    n_areas = len(ORDERS_4P[house])
    if limit + 1 <= n_areas:
        err = rejected(game4, house, with_specials(ORDERS_4P[house], limit + 1))
        assert err.code == "special_order_limit"
        assert err.rule == "BG-PLAN-04"
    game4.submit(house, with_specials(ORDERS_4P[house], limit))  # exactly the limit is fine
    assert sum(o.endswith("_special") for o in game4.state.planning.sealed[house].values()) == limit


def test_BG_PLAN_04_position_4_of_4_has_no_star(game4):
    assert game4.state.tracks.kings_court[3] == "greyjoy"
    err = rejected(game4, "greyjoy", {**GREYJOY, "pyke": "march_plus_1_special"})
    assert err.code == "special_order_limit"


@pytest.mark.parametrize(
    "house, limit",
    [("lannister", 3), ("stark", 3), ("martell", 2), ("baratheon", 1), ("tyrell", 0), ("greyjoy", 0)],
)
def test_BG_PLAN_04_special_limit_six_players(house, limit):
    game = started_game(6)
    assert special_order_limit(game.state, house) == limit
    base = simple_orders(game.state, house)
    if limit + 1 <= len(base):
        assert rejected(game, house, with_specials(base, limit + 1)).code == "special_order_limit"
    game.submit(house, with_specials(base, min(limit, len(base))))


def test_BG_PLAN_04_limit_follows_the_track_not_the_house(game4):
    """Moving Greyjoy to King's Court position 1 gives it 3 stars (state mutated directly; Clash of
    Kings does not exist yet)."""
    game4.state.tracks.kings_court = ["greyjoy", "stark", "baratheon", "lannister"]
    assert special_order_limit(game4.state, "greyjoy") == 3
    assert special_order_limit(game4.state, "lannister") == 0
    game4.submit("greyjoy", with_specials(GREYJOY, 3))
    assert rejected(game4, "lannister", with_specials(LANNISTER, 1)).code == "special_order_limit"


# --- BG-ORDER-01 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "house, orders",
    [
        ("lannister", {**LANNISTER, "lannisport": "raid", "stoney_sept": "raid", "the_golden_sound": "raid"}),
        ("greyjoy", {**GREYJOY, "pyke": "march_0", "port_of_pyke": "march_0"}),  # 1 copy of march_0
        ("lannister", {**LANNISTER, "lannisport": "march_minus_1", "stoney_sept": "march_minus_1"}),
        ("stark", {"the_shivering_sea": "support_0", "white_harbor": "support_0", "winterfell": "support_0"}),
    ],
)
def test_BG_ORDER_01_more_copies_than_owned_rejected(game4, house, orders):
    err = rejected(game4, house, orders)
    assert err.rule == "BG-ORDER-01"
    assert house not in game4.state.planning.sealed


def test_BG_ORDER_01_both_copies_of_a_doubled_token_allowed(game4):
    game4.submit("greyjoy", GREYJOY)  # raid twice
    assert list(game4.state.planning.sealed["greyjoy"].values()).count("raid") == 2


@pytest.mark.parametrize("token", ["march_plus_2", "defense_plus_3_special", "crown", "MARCH_0", ""])
def test_BG_ORDER_01_unknown_token_rejected(game4, token):
    err = rejected(game4, "stark", {**STARK, "winterfell": token})
    assert err.code == "unknown_order"
    assert err.rule == "BG-ORDER-01"


# --- BG-PLAN-03: secret and amendable ---------------------------------------------------------------


def test_BG_PLAN_03_orders_may_be_amended_before_everyone_submitted(game4):
    game4.submit("stark", STARK)
    amended = {**STARK, "winterfell": "march_plus_1_special"}
    game4.submit("stark", amended)
    assert game4.state.planning.sealed["stark"] == amended
    # Amending does not count as a second house: three houses are still to submit.
    assert len(pending_decisions(game4.state)) == 4
    game4.submit("lannister", LANNISTER)
    game4.submit("baratheon", BARATHEON)
    game4.submit("stark", STARK)  # still possible: Greyjoy has not submitted
    assert game4.state.planning.sealed["stark"] == STARK


def test_BG_PLAN_03_no_assignment_after_everyone_submitted(game4):
    for house, orders in ORDERS_4P.items():
        game4.submit(house, orders)
    with pytest.raises(WrongPhase) as err:
        decide(game4.state, cmd.AssignOrders(orders=STARK), game4.actor("stark"), game4.ctx)
    assert err.value.code == "wrong_phase"
    # After the reveal too.
    game4.reveal()
    with pytest.raises(WrongPhase):
        decide(game4.state, cmd.AssignOrders(orders=STARK), game4.actor("stark"), game4.ctx)


def test_BG_PLAN_03_pending_decisions_list_every_house_with_its_options(game4):
    decisions = pending_decisions(game4.state)
    assert [d.house for d in decisions] == game4.state.turn_order()
    for d in decisions:
        assert d.seat_id == game4.seat_id_of(d.house)
        assert d.commands == ["assign_orders"]
        assert isinstance(d.options, AssignOrdersOptions)
        assert d.options.areas == sorted(ORDERS_4P[d.house])
        assert d.options.special_limit == special_order_limit(game4.state, d.house)
        assert sum(d.options.tokens.values()) == 15
        assert len(d.options.special_tokens) == 5
        assert d.options.may_leave_areas_empty is False
        assert d.deadline == game4.state.deadline
    game4.submit("stark", STARK)
    stark = next(d for d in pending_decisions(game4.state) if d.house == "stark")
    assert stark.options.submitted == STARK


# --- BG-PLAN-06: reveal -------------------------------------------------------------------------------


def test_BG_PLAN_06_reveal_before_everyone_submitted_rejected(game4):
    with pytest.raises(WrongPhase):
        decide(game4.state, cmd.ResolvePending(), SYSTEM, game4.ctx)
    for house in ("stark", "lannister", "baratheon"):
        game4.submit(house, ORDERS_4P[house])
    with pytest.raises(WrongPhase) as err:
        decide(game4.state, cmd.ResolvePending(), SYSTEM, game4.ctx)
    assert err.value.code == "nothing_pending"
    assert game4.state.orders == {}


def test_BG_PLAN_06_reveal_places_all_orders_face_up(game4):
    for house, orders in ORDERS_4P.items():
        game4.submit(house, orders)
    out = game4.reveal()
    assert isinstance(out[0], ev.OrdersRevealed)
    assert out[0].orders == {h: ORDERS_4P[h] for h in game4.state.turn_order()}
    assert isinstance(out[1], ev.StepBegan) and out[1].step == "messenger_raven"
    state = game4.state
    expected = {area: (house, order) for house, orders in ORDERS_4P.items() for area, order in orders.items()}
    assert {a: (o.house, o.order) for a, o in state.orders.items()} == expected
    assert state.planning.sealed == {}
    assert (state.phase, state.step) == ("planning", "messenger_raven")
    # Revealing twice is impossible.
    with pytest.raises(WrongPhase):
        decide(state, cmd.ResolvePending(), SYSTEM, game4.ctx)


def test_BG_PLAN_06_the_last_amendment_is_what_is_revealed(game4):
    game4.submit("stark", {**STARK, "winterfell": "raid_special"})
    game4.submit("stark", STARK)
    game4.submit_all(ORDERS_4P)
    game4.reveal()
    assert game4.state.orders["winterfell"].order == "march_0"


# --- BG-PLAN-05: too few tokens -> sequential placement -----------------------------------------------

ONLY_CONSOLIDATE = ["march", "defense", "support", "raid"]


@pytest.fixture
def sequential4() -> Game:
    """A 4-player game whose Planning opens with only Consolidate Power tokens eligible.

    No event can forbid order types yet (Westeros cards come later), so the lobby state is mutated
    directly (``forbidden_order_types``) before ``StartGame``; the StepBegan that ``decide`` then
    produces computes ``sequential`` from the real rule. Eligible: Lannister 2 CP + 1 special CP = 3
    for 4 areas, Greyjoy (0 stars) 2 for 4 areas -> sequential placement."""
    game = lobby_game(4)
    game.state.forbidden_order_types = list(ONLY_CONSOLIDATE)
    game.run(cmd.StartGame(), ORGANIZER)
    return game


CP3 = ["consolidate_power", "consolidate_power", "consolidate_power_special"]


def test_BG_PLAN_05_sequential_when_a_house_has_too_few_tokens(sequential4):
    state = sequential4.state
    assert sequential4.events[-1] == ev.StepBegan(
        phase="planning", step="assign_orders", round=1, deadline=state.deadline, sequential=True
    )
    assert state.planning.sequential is True
    assert eligible_count(state, "lannister") == 3 < 4
    assert eligible_count(state, "greyjoy") == 2 < 4
    assert eligible_count(state, "stark") == 3
    # Only the first house in turn order is asked.
    decisions = pending_decisions(state)
    assert [d.house for d in decisions] == ["baratheon"]
    assert decisions[0].options.tokens == {"consolidate_power": 2, "consolidate_power_special": 1}


def test_BG_PLAN_05_not_sequential_without_restrictions(game4):
    assert game4.state.planning.sequential is False
    assert needs_sequential_placement(game4.state) is False


def test_BG_PLAN_05_too_many_areas_also_triggers_sequential(game4):
    """Units in more areas than tokens: Greyjoy (0 stars, 10 regular tokens) in 11 areas
    (state mutated directly to add units)."""
    extra = ["castle_black", "karhold", "the_twins", "the_fingers", "seagard", "flints_finger", "riverrun"]
    for area in extra:
        a = game4.state.areas[area]
        a.house, a.units = "greyjoy", {"footman": 1}
    assert len(areas_needing_orders(game4.state, "greyjoy")) == 11
    assert eligible_count(game4.state, "greyjoy") == 10
    assert needs_sequential_placement(game4.state) is True


def test_BG_PLAN_05_houses_place_in_turn_order(sequential4):
    g = sequential4
    baratheon = dict(zip(sorted(BARATHEON), CP3))
    for house in ("lannister", "stark", "greyjoy"):
        with pytest.raises(NotYourTurn):
            decide(g.state, cmd.AssignOrders(orders=ORDERS_4P[house]), g.actor(house), g.ctx)
    deadline_before = g.state.deadline
    out = g.submit("baratheon", baratheon)
    assert isinstance(out[-1], ev.StepBegan) and out[-1].sequential is True
    assert g.state.planning.sealed == {"baratheon": baratheon}  # the new StepBegan keeps the sealed orders
    assert [d.house for d in pending_decisions(g.state)] == ["lannister"]
    # Baratheon's turn is over: no more amending.
    with pytest.raises(NotYourTurn):
        decide(g.state, cmd.AssignOrders(orders=baratheon), g.actor("baratheon"), g.ctx)
    assert deadline_before is not None and g.state.deadline is not None


def test_BG_PLAN_05_forbidden_type_rejected(sequential4):
    err = rejected(sequential4, "baratheon", BARATHEON)
    assert err.rule == "BG-PLAN-05"


def test_BG_PLAN_05_house_with_enough_tokens_must_fill_every_area(sequential4):
    two = dict(zip(sorted(BARATHEON)[:2], CP3[:2]))
    assert rejected(sequential4, "baratheon", two).code == "orders_incomplete"


def test_BG_PLAN_05_short_house_places_all_eligible_tokens_and_chooses_empty_areas(sequential4):
    g = sequential4
    g.submit("baratheon", dict(zip(sorted(BARATHEON), CP3)))
    lannister_decision = pending_decisions(g.state)[0]
    assert lannister_decision.house == "lannister" and lannister_decision.options.may_leave_areas_empty
    # Placing only two of its three eligible tokens is not allowed ...
    two = {"lannisport": "consolidate_power", "stoney_sept": "consolidate_power"}
    assert rejected(g, "lannister", two).code == "orders_incomplete"
    # ... three, leaving an area of its choice empty, is.
    chosen = {
        "port_of_lannisport": "consolidate_power",
        "stoney_sept": "consolidate_power",
        "the_golden_sound": "consolidate_power_special",
    }
    g.submit("lannister", chosen)
    g.submit("stark", dict(zip(sorted(STARK), CP3)))
    # Greyjoy has no star: its special CP token is not eligible, so 2 orders for 4 areas.
    assert rejected(g, "greyjoy", {"pyke": "consolidate_power", "ironmans_bay": "consolidate_power_special"}).code == (
        "special_order_limit"
    )
    assert rejected(g, "greyjoy", {"pyke": "consolidate_power"}).code == "orders_incomplete"
    g.submit("greyjoy", {"pyke": "consolidate_power", "port_of_pyke": "consolidate_power"})
    g.reveal()
    lannister_areas = {a for a, o in g.state.orders.items() if o.house == "lannister"}
    assert lannister_areas == set(chosen)
    assert "lannisport" not in g.state.orders
    assert {a for a, o in g.state.orders.items() if o.house == "greyjoy"} == {"pyke", "port_of_pyke"}
