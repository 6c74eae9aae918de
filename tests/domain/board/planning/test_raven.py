"""The Messenger Raven at the end of Reveal Orders (BG-PLAN-07, BG-PLAN-08, BG-COK-10).

In every base player count Lannister holds King's Court position 1, so Lannister holds the Raven.
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import decide
from domain.board.decisions import RavenOptions, RavenPlacementOptions, pending_decisions
from domain.board.redaction import view_for
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from tests.support.board_builders import ORDERS_4P, ORGANIZER, Game, lobby_game, revealed_game, started_game

RAVEN_COMMANDS = [
    cmd.RavenPass(),
    cmd.RavenPeekWildling(),
    cmd.RavenPlaceWildling(to_bottom=True),
    cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special"),
]


@pytest.fixture
def raven4() -> Game:
    """4 players, orders revealed (ORDERS_4P), Messenger Raven step."""
    return revealed_game(4, overrides=ORDERS_4P)


def raven(game: Game, command, house: str = "lannister") -> list[ev.Event]:
    return game.run(command, game.actor(house))


def assert_planning_over(game: Game) -> None:
    s = game.state
    assert (s.phase, s.step) == ("action", "awaiting_action_phase")
    assert s.deadline is None
    assert pending_decisions(s) == []


def test_BG_PLAN_07_raven_decision_goes_to_kings_court_position_1(raven4):
    state = raven4.state
    assert state.raven_holder() == state.tracks.kings_court[0] == "lannister"
    (decision,) = pending_decisions(state)
    assert decision.house == "lannister" and decision.seat_id == raven4.seat_id_of("lannister")
    assert set(decision.commands) == {"raven_replace_order", "raven_peek_wildling", "raven_pass"}
    assert isinstance(decision.options, RavenOptions)
    assert decision.options.may_peek_wildling is True
    assert set(decision.options.replace) == set(ORDERS_4P["lannister"])


@pytest.mark.parametrize("house", ["stark", "baratheon", "greyjoy"])
@pytest.mark.parametrize("command", RAVEN_COMMANDS[:2] + RAVEN_COMMANDS[3:], ids=lambda c: type(c).__name__)
def test_BG_PLAN_07_non_holder_rejected(raven4, house, command):
    with pytest.raises(NotYourTurn) as err:
        decide(raven4.state, command, raven4.actor(house), raven4.ctx)
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize("command", RAVEN_COMMANDS, ids=lambda c: type(c).__name__)
def test_BG_PLAN_07_raven_only_after_the_reveal(command):
    game = started_game(4)
    with pytest.raises(WrongPhase):
        decide(game.state, command, game.actor("lannister"), game.ctx)


# --- replace an order -------------------------------------------------------------------------------


def test_BG_PLAN_07_replace_an_order_face_up(raven4):
    out = raven(raven4, cmd.RavenReplaceOrder(area="lannisport", new_order="march_plus_1_special"))
    assert out[0] == ev.RavenOrderReplaced(
        house="lannister", area="lannisport", old_order="march_0", new_order="march_plus_1_special"
    )
    placed = raven4.state.orders["lannisport"]
    assert (placed.house, placed.order) == ("lannister", "march_plus_1_special")
    # Face up: every reader, spectators included, sees the new order.
    for reader in ("stark", "baratheon", "greyjoy", "lannister", None):
        assert view_for(raven4.state, reader).areas["lannisport"].order == "march_plus_1_special"
    # Every other order is untouched.
    for _house, orders in ORDERS_4P.items():
        for area, order in orders.items():
            if area != "lannisport":
                assert raven4.state.orders[area].order == order
    assert raven4.state.raven_used is True  # BG-PLAN-08
    assert_planning_over(raven4)


def test_BG_PLAN_07_replacement_options_are_unused_tokens(raven4):
    """Lannister placed march_0 (its only copy), and one copy each of consolidate_power,
    defense_plus_1 and raid; no specials, 3 stars. Every unused token is an option (a swap for the
    second copy of the token already there would change nothing, so it is not required)."""
    (decision,) = pending_decisions(raven4.state)
    unused = {
        "march_minus_1",
        "march_plus_1_special",
        "defense_plus_1",
        "defense_plus_2_special",
        "support_0",
        "support_plus_1_special",
        "raid",
        "raid_special",
        "consolidate_power",
        "consolidate_power_special",
    }
    assert set(decision.options.replace) == set(ORDERS_4P["lannister"])
    for area, tokens in decision.options.replace.items():
        current = ORDERS_4P["lannister"][area]
        assert unused - {current} <= set(tokens) <= unused, area


@pytest.mark.parametrize("token", ["march_0", "not_a_token"])
def test_BG_PLAN_07_replace_with_a_token_in_use_or_unknown_rejected(raven4, token):
    """march_0 (1 copy) already stands in Lannisport, so it is not unused."""
    with pytest.raises(RuleViolation) as err:
        raven(raven4, cmd.RavenReplaceOrder(area="stoney_sept", new_order=token))
    assert err.value.rule == "BG-PLAN-07"
    assert raven4.state.orders["stoney_sept"].order == "defense_plus_1"
    assert raven4.state.step == "messenger_raven"


def test_BG_PLAN_07_replace_respects_the_special_limit():
    """Lannister (3 stars) already placed 3 specials: a 4th special is refused, a special-for-special
    swap and a special-for-regular swap are fine."""
    lannister = {
        "lannisport": "march_plus_1_special",
        "port_of_lannisport": "defense_plus_2_special",
        "stoney_sept": "support_plus_1_special",
        "the_golden_sound": "raid",
    }
    game = revealed_game(4, overrides={**ORDERS_4P, "lannister": lannister})
    with pytest.raises(RuleViolation):
        raven(game, cmd.RavenReplaceOrder(area="the_golden_sound", new_order="raid_special"))
    (decision,) = pending_decisions(game.state)
    assert not any(t.endswith("_special") for t in decision.options.replace["the_golden_sound"])
    assert "raid_special" in decision.options.replace["lannisport"]
    raven(game, cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special"))
    assert game.state.orders["lannisport"].order == "raid_special"


def test_BG_PLAN_07_replace_respects_the_limit_of_a_low_kings_court_holder():
    """The Raven holder's own special limit applies to the swap. Stark is moved to King's Court
    position 1 and that position given 1 star (state mutated directly before the game starts;
    Clash of Kings does not exist yet): Stark holds the Raven, has 1 special placed and may not
    swap a regular order for a second special."""
    game = lobby_game(4)
    game.state.tracks.kings_court = ["stark", "lannister", "baratheon", "greyjoy"]
    game.state.kings_court_stars = [1, 3, 2, 0]  # make the holder's limit 1 for this test
    game.run(cmd.StartGame(), ORGANIZER)
    stark = {"the_shivering_sea": "support_0", "white_harbor": "defense_plus_1", "winterfell": "march_plus_1_special"}
    game.submit_all({**ORDERS_4P, "stark": stark})
    game.reveal()
    assert game.state.raven_holder() == "stark"
    with pytest.raises(RuleViolation):
        raven(game, cmd.RavenReplaceOrder(area="white_harbor", new_order="defense_plus_2_special"), "stark")
    raven(game, cmd.RavenReplaceOrder(area="winterfell", new_order="raid_special"), "stark")
    assert game.state.orders["winterfell"].order == "raid_special"


def test_BG_PLAN_07_replace_respects_this_rounds_restrictions(raven4):
    """A forbidden type may not come in through the Raven (restriction set on the state directly:
    no Westeros card exists yet)."""
    raven4.state.forbidden_order_types = ["support"]
    (decision,) = pending_decisions(raven4.state)
    assert all(not t.startswith("support") for tokens in decision.options.replace.values() for t in tokens)
    with pytest.raises(RuleViolation):
        raven(raven4, cmd.RavenReplaceOrder(area="lannisport", new_order="support_0"))


@pytest.mark.parametrize("area", ["winterfell", "castle_black", "nowhere"])
def test_BG_PLAN_07_replace_only_your_own_order(raven4, area):
    with pytest.raises(RuleViolation) as err:
        raven(raven4, cmd.RavenReplaceOrder(area=area, new_order="raid_special"))
    assert err.value.rule == "BG-PLAN-07"
    if area == "winterfell":
        assert raven4.state.orders["winterfell"].house == "stark"


# --- look at the wildling deck -------------------------------------------------------------------------


@pytest.mark.parametrize("to_bottom", [False, True])
def test_BG_PLAN_07_peek_then_place(raven4, to_bottom):
    deck = list(raven4.state.wildling_deck)
    out = raven(raven4, cmd.RavenPeekWildling())
    assert out[0] == ev.RavenWildlingPeeked(house="lannister", card=deck[0])
    assert raven4.state.planning.raven_peek == deck[0]
    assert (raven4.state.phase, raven4.state.step) == ("planning", "raven_wildling_placement")
    assert raven4.state.raven_used is True
    (decision,) = pending_decisions(raven4.state)
    assert decision.commands == ["raven_place_wildling"]
    assert isinstance(decision.options, RavenPlacementOptions) and decision.options.card == deck[0]

    raven(raven4, cmd.RavenPlaceWildling(to_bottom=to_bottom))
    assert raven4.state.wildling_deck == (deck[1:] + deck[:1] if to_bottom else deck)
    assert sorted(raven4.state.wildling_deck) == sorted(deck)
    assert_planning_over(raven4)


def test_BG_PLAN_07_peek_does_not_change_orders(raven4):
    before = dict(raven4.state.orders)
    raven(raven4, cmd.RavenPeekWildling())
    raven(raven4, cmd.RavenPlaceWildling(to_bottom=True))
    assert raven4.state.orders == before


def test_BG_PLAN_07_placement_only_after_a_peek(raven4):
    with pytest.raises(WrongPhase):
        raven(raven4, cmd.RavenPlaceWildling(to_bottom=True))


def test_BG_PLAN_07_placement_only_by_the_holder(raven4):
    raven(raven4, cmd.RavenPeekWildling())
    with pytest.raises(NotYourTurn):
        raven(raven4, cmd.RavenPlaceWildling(to_bottom=True), "stark")


def test_BG_PLAN_07_after_peeking_no_replacement(raven4):
    """One option only: after looking at the deck the holder cannot also replace an order."""
    raven(raven4, cmd.RavenPeekWildling())
    replace = cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special")
    for command in (replace, cmd.RavenPeekWildling(), cmd.RavenPass()):
        with pytest.raises(WrongPhase):
            raven(raven4, command)


# --- pass, and once per round -------------------------------------------------------------------------


def test_BG_PLAN_07_pass(raven4):
    deck = list(raven4.state.wildling_deck)
    orders = dict(raven4.state.orders)
    out = raven(raven4, cmd.RavenPass())
    assert out[0] == ev.RavenPassed(house="lannister", by_default=False)
    assert raven4.state.orders == orders and raven4.state.wildling_deck == deck
    assert_planning_over(raven4)


@pytest.mark.parametrize(
    "first",
    [cmd.RavenPass(), cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special")],
    ids=lambda c: type(c).__name__,
)
def test_BG_PLAN_08_raven_cannot_be_used_twice(raven4, first):
    raven(raven4, first)
    for command in RAVEN_COMMANDS:
        with pytest.raises(RuleViolation):
            raven(raven4, command)
    replaced = isinstance(first, cmd.RavenReplaceOrder)
    assert raven4.state.orders["lannisport"].order == ("raid_special" if replaced else "march_0")


def test_BG_PLAN_08_used_raven_refused_even_in_the_raven_step(raven4):
    """Guard in the rule itself: a Raven already turned to its used side cannot act (state mutated
    directly; only the Action-phase clean-up, not written yet, would reset it)."""
    raven4.state.raven_used = True
    for command in (cmd.RavenPeekWildling(), cmd.RavenReplaceOrder(area="lannisport", new_order="raid_special")):
        with pytest.raises(RuleViolation) as err:
            raven(raven4, command)
        assert err.value.rule == "BG-PLAN-08"


def test_BG_PLAN_07_no_peek_at_an_empty_wildling_deck(raven4):
    """``pending_decisions`` offers the peek only when the deck has a card (``may_peek_wildling``);
    ``decide`` must refuse it the same way, with a RuleViolation rather than a crash (deck emptied on
    the state directly: no event empties it)."""
    raven4.state.wildling_deck = []
    (decision,) = pending_decisions(raven4.state)
    assert decision.options.may_peek_wildling is False
    with pytest.raises(RuleViolation) as err:
        raven(raven4, cmd.RavenPeekWildling())
    assert err.value.rule == "BG-PLAN-07"
    assert raven4.state.step == "messenger_raven"
    raven(raven4, cmd.RavenPass())  # the other options stay open
