"""Mother of Dragons: the commander places its vassals' orders (MOD-VASSAL-08, MOD-VASSAL-11), sealed
and revealed like any order; the sealed ones are seen by the commander only (hidden information);
the Messenger Raven cannot swap them (MOD-VASSAL-10); the export audits clean.
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.audit import audit
from domain.board.decider import decide
from domain.board.decisions import AssignOrdersOptions, pending_decisions
from domain.board.redaction import redact_event, view_for
from domain.core.errors import Forbidden, RuleViolation
from tests.domain.board.mother_of_dragons.test_mod_house_choice import Table
from tests.support.board_builders import Game, mod_game, simple_orders

FOUR = ["baratheon", "lannister", "stark", "martell"]


def commanded() -> Game:
    """4 players; the defaults gave greyjoy to baratheon, tyrell to lannister, arryn to stark."""
    game = mod_game(FOUR)
    for _ in range(3):
        game.timeout()
    assert game.state is not None and game.state.step == "assign_orders"
    assert game.state.commanders == {"greyjoy": "baratheon", "tyrell": "lannister", "arryn": "stark"}
    return game


def vassal_orders(game: Game, vassal: str, orders: dict[str, str]) -> list[ev.Event]:
    return game.run(cmd.AssignOrders(orders=orders, for_vassal=vassal), game.actor(vassal))


def test_MOD_VASSAL_08_the_commander_places_up_to_two_vassal_tokens() -> None:
    """MOD-VASSAL-08/11: up to two tokens of the vassal's set, in areas with its units; the options
    say so; an area may stay without an order."""
    game = commanded()
    assert game.state is not None
    d = next(d for d in pending_decisions(game.state) if d.house == "greyjoy")
    assert d.seat_id == game.seat_id_of("baratheon") and d.for_vassal == "greyjoy"
    assert isinstance(d.options, AssignOrdersOptions)
    assert d.options.max_orders == 2 and d.options.may_leave_areas_empty
    assert d.options.tokens == {
        "vassal_defense_plus_1_with_muster": 1,
        "vassal_defense_plus_3": 1,
        "vassal_march_0": 1,
        "vassal_raid_or_support_plus_1": 1,
    }
    out = vassal_orders(game, "greyjoy", {"pyke": "vassal_march_0", "greywater_watch": "vassal_defense_plus_3"})
    assert isinstance(out[0], ev.OrdersSubmitted) and out[0].commander == "baratheon"
    assert game.state.planning.sealed["greyjoy"] == {
        "greywater_watch": "vassal_defense_plus_3",
        "pyke": "vassal_march_0",
    }
    vassal_orders(game, "tyrell", {})  # no order at all is allowed
    assert game.state.planning.sealed["tyrell"] == {}


@pytest.mark.parametrize(
    ("orders", "code"),
    [
        (
            {
                "pyke": "vassal_march_0",
                "greywater_watch": "vassal_defense_plus_3",
                "ironmans_bay": "vassal_raid_or_support_plus_1",
            },
            "too_many_orders",
        ),
        ({"pyke": "march_0"}, "unknown_order"),  # a player's token
        ({"highgarden": "vassal_march_0"}, "illegal_move"),  # tyrell's area, not greyjoy's
        ({"pyke": "vassal_defense_plus_3", "greywater_watch": "vassal_defense_plus_3"}, "illegal_move"),
    ],
)
def test_MOD_VASSAL_08_11_bad_vassal_orders_are_refused(orders: dict[str, str], code: str) -> None:
    """MOD-VASSAL-08/11: too many tokens, a token outside the vassal set, an area without the
    vassal's units, a token twice: each refused with a clear error, nothing changes."""
    game = commanded()
    assert game.state is not None
    version = game.state.version
    with pytest.raises(RuleViolation) as err:
        decide(game.state, cmd.AssignOrders(orders=orders, for_vassal="greyjoy"), game.actor("baratheon"), game.ctx)
    assert err.value.code == code
    assert game.state.version == version and "greyjoy" not in game.state.planning.sealed


def test_MOD_VASSAL_11_a_player_cannot_use_vassal_tokens_for_itself() -> None:
    """MOD-VASSAL-11: the Vassal Order tokens are the vassal's, not the commander's."""
    game = commanded()
    assert game.state is not None
    with pytest.raises(RuleViolation):
        game.submit("baratheon", {"dragonstone": "vassal_defense_plus_3"})


def test_MOD_VASSAL_03_only_the_commander_acts_for_its_vassal() -> None:
    """A seat may act only for a vassal its house commands this round."""
    game = commanded()
    assert game.state is not None
    with pytest.raises(Forbidden) as err:
        decide(game.state, cmd.AssignOrders(orders={}, for_vassal="greyjoy"), game.actor("lannister"), game.ctx)
    assert err.value.code == "not_your_vassal"
    with pytest.raises(Forbidden):
        decide(game.state, cmd.AssignOrders(orders={}, for_vassal="stark"), game.actor("lannister"), game.ctx)


def test_MOD_VASSAL_08_sealed_vassal_orders_are_hidden_from_everyone_but_the_commander() -> None:
    """Hidden information: a vassal's sealed orders are seen by its commander only, not by the other
    seats, the vassal-less spectator or another commander; at the reveal everyone sees them."""
    game = commanded()
    assert game.state is not None
    submitted = vassal_orders(game, "greyjoy", {"pyke": "vassal_march_0"})[0]
    assert isinstance(submitted, ev.OrdersSubmitted)
    assert redact_event(submitted, "baratheon") == submitted
    for reader in (None, "lannister", "stark", "martell", "greyjoy", "tyrell"):
        hidden = redact_event(submitted, reader)
        assert isinstance(hidden, ev.OrdersSubmitted) and hidden.orders is None and hidden.salt is None
        assert hidden.commitment == submitted.commitment
        assert view_for(game.state, reader).areas["pyke"].order == "sealed"
    assert view_for(game.state, "baratheon").areas["pyke"].order == "vassal_march_0"
    for house in FOUR:
        game.submit(house, simple_orders(game.state, house))
    for vassal in ("tyrell", "arryn"):
        vassal_orders(game, vassal, {})
    game.reveal()
    assert game.state.orders["pyke"].house == "greyjoy" and game.state.orders["pyke"].order == "vassal_march_0"
    assert view_for(game.state, None).areas["pyke"].order == "vassal_march_0"


def test_MOD_VASSAL_08_default_leaves_a_vassal_without_orders() -> None:
    """The documented default: a vassal whose commander did not place its orders gets none."""
    game = commanded()
    assert game.state is not None
    for house in FOUR:
        game.submit(house, simple_orders(game.state, house))
    game.timeout()
    assert all(game.state.planning.sealed[v] == {} for v in ("greyjoy", "tyrell", "arryn"))


def test_MOD_VASSAL_10_the_raven_cannot_swap_a_vassal_order() -> None:
    """MOD-VASSAL-10: the Messenger Raven holder (lannister, which commands tyrell) cannot swap its
    vassal's order."""
    game = commanded()
    assert game.state is not None
    for house in FOUR:
        game.submit(house, simple_orders(game.state, house))
    vassal_orders(game, "tyrell", {"highgarden": "vassal_defense_plus_3"})
    vassal_orders(game, "greyjoy", {})
    vassal_orders(game, "arryn", {})
    game.reveal()
    assert game.state.step == "messenger_raven" and game.state.raven_holder() == "lannister"
    with pytest.raises(RuleViolation):
        game.run(
            cmd.RavenReplaceOrder(area="highgarden", new_order="vassal_defense_plus_1_with_muster"),
            game.actor("lannister"),
        )
    with pytest.raises(RuleViolation):
        game.run(
            cmd.RavenReplaceOrder(area="highgarden", new_order="defense_plus_1", for_vassal="tyrell"),
            game.actor("lannister"),
        )


def test_MOD_VASSAL_08_an_export_with_vassal_orders_audits_clean() -> None:
    """The audit reads a vassal's submission back as its commander's command for the vassal."""
    t = Table(4, seed="vassal-orders")
    assert t.state is not None
    while t.state.step != "assign_orders":
        t.timeout()
    for d in pending_decisions(t.state):
        options = d.options
        assert isinstance(options, AssignOrdersOptions)
        if d.for_vassal is None:
            orders = dict(zip(options.areas, ["defense_plus_1", "support_0", "consolidate_power", "raid", "march_0"]))
        else:
            orders = dict(zip(options.areas, ["vassal_defense_plus_3", "vassal_march_0"]))
        t.run(cmd.AssignOrders(orders=orders, for_vassal=d.for_vassal), t.seat(d.seat_id))
    t.run(cmd.ResolvePending(), cmd.Actor(kind="system"))
    assert any(o.house in t.state.vassals for o in t.state.orders.values())
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.rules_ok, report.problems
