"""Property tests of the whole Planning phase, driven only by what ``pending_decisions`` offers.

For random player counts, seeds, submission orders, amendments and order assignments drawn from
the decision options, the phase always reaches the reveal with: exactly one order on every area
with units (BG-PLAN-02), at most the King's Court stars in special orders (BG-PLAN-04), no token
used more often than owned (BG-ORDER-01); the Raven (BG-PLAN-07) then keeps all of that.
The second property adds Westeros restrictions (lobby state mutated before the start, since no
Westeros card exists yet), which can force sequential placement (BG-PLAN-05), and random timeouts.
"""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.board import board_data
from domain.board import commands as cmd
from domain.board.decisions import AssignOrdersOptions, RavenOptions, pending_decisions
from domain.board.orders import is_special, order_type, owned_tokens
from domain.board.planning import areas_needing_orders, eligible_count, special_order_limit
from domain.board.state import BoardState
from domain.board.timeouts import default_orders
from tests.support.board_builders import ORGANIZER, Game, lobby_game, started_game

ORDER_TYPES = ["march", "defense", "support", "raid", "consolidate_power"]
#: 100 examples keep the suite fast; set PLANNING_EXAMPLES=2000 for a deeper local run.
SETTINGS = settings(
    max_examples=int(os.environ.get("PLANNING_EXAMPLES", "100")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def draw_assignment(data, opts: AssignOrdersOptions) -> dict[str, str]:
    """A random legal assignment built only from the options a client is shown."""
    areas = list(opts.areas)
    remaining = Counter(opts.tokens)
    if opts.may_leave_areas_empty:
        regular = sum(n for t, n in remaining.items() if t not in opts.special_tokens)
        special = sum(n for t, n in remaining.items() if t in opts.special_tokens)
        placeable = regular + min(special, opts.special_limit)
        areas = data.draw(st.permutations(areas))[:placeable]
    orders: dict[str, str] = {}
    specials = 0
    for area in areas:
        choices = sorted(
            t for t, n in remaining.items() if n > 0 and (t not in opts.special_tokens or specials < opts.special_limit)
        )
        token = data.draw(st.sampled_from(choices))
        remaining[token] -= 1
        specials += token in opts.special_tokens
        orders[area] = token
    return orders


def check_house_orders(state: BoardState, house: str, placed: dict[str, str], full: bool) -> None:
    needed = set(areas_needing_orders(state, house))
    assert set(placed) <= needed
    if full:
        assert set(placed) == needed, (house, needed - set(placed))
    else:
        assert len(placed) == min(len(needed), eligible_count(state, house))
    used = Counter(placed.values())
    assert not used - owned_tokens(), (house, used)  # BG-ORDER-01
    assert sum(n for t, n in used.items() if is_special(t)) <= special_order_limit(state, house)  # BG-PLAN-04
    assert not {order_type(t) for t in used} & set(state.forbidden_order_types)


def board_orders(state: BoardState) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {h: {} for h in state.houses_in_play}
    for area, placed in state.orders.items():
        assert state.areas[area].house == placed.house  # an order only where the house has units
        out[placed.house][area] = placed.order
    return out


def play_assign_orders(data, game: Game, allow_timeouts: bool) -> dict[str, str]:
    """Answer decisions until every house has submitted; returns house -> how it submitted."""
    how: dict[str, str] = {}
    steps = 0
    while decisions := pending_decisions(game.state):
        steps += 1
        assert steps <= len(game.state.houses_in_play), "every answer or timeout must settle a house"
        if game.state.planning.sequential:
            assert len(decisions) == 1  # BG-PLAN-05: one house at a time, in turn order
            assert decisions[0].house == next(h for h in game.state.turn_order() if h not in game.state.planning.sealed)
        if allow_timeouts and data.draw(st.integers(0, 4)) == 0:
            game.timeout()
            for house in game.state.planning.sealed:
                how.setdefault(house, "default")
            continue
        # Amendments are exercised separately; here every answer comes from a house still to submit.
        decision = data.draw(st.sampled_from([d for d in decisions if d.house not in game.state.planning.sealed]))
        orders = draw_assignment(data, decision.options)
        game.run(cmd.AssignOrders(orders=orders), cmd.Actor(kind="seat", seat_id=decision.seat_id))
        assert game.state.planning.sealed[decision.house] == orders
        how[decision.house] = "player"
    return how


def play_raven(data, game: Game) -> None:
    (decision,) = pending_decisions(game.state)
    assert decision.house == game.state.tracks.kings_court[0]
    opts = decision.options
    assert isinstance(opts, RavenOptions)
    actor = cmd.Actor(kind="seat", seat_id=decision.seat_id)
    choices = ["pass", "peek", "timeout"] + (["replace"] if opts.replace else [])
    choice = data.draw(st.sampled_from(choices))
    deck = list(game.state.wildling_deck)
    before = dict(game.state.orders)
    if choice == "pass":
        game.run(cmd.RavenPass(), actor)
    elif choice == "timeout":
        game.timeout()
    elif choice == "peek":
        game.run(cmd.RavenPeekWildling(), actor)
        to_bottom = data.draw(st.booleans())
        game.run(cmd.RavenPlaceWildling(to_bottom=to_bottom), actor)
        assert game.state.wildling_deck == (deck[1:] + deck[:1] if to_bottom else deck)
    else:
        area = data.draw(st.sampled_from(sorted(opts.replace)))
        token = data.draw(st.sampled_from(opts.replace[area]))
        game.run(cmd.RavenReplaceOrder(area=area, new_order=token), actor)
        assert game.state.orders[area].order == token
        after = {a: o for a, o in game.state.orders.items() if a != area}
        assert after == {a: o for a, o in before.items() if a != area}
    if choice != "replace":
        assert game.state.orders == before
    assert sorted(game.state.wildling_deck) == sorted(deck)
    assert (game.state.phase, game.state.step) == ("action", "awaiting_action_phase")
    assert pending_decisions(game.state) == []


@SETTINGS
@given(data=st.data(), player_count=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0, 10**6))
def test_BG_PLAN_02_04_ORDER_01_random_valid_planning_always_reveals_a_legal_board(data, player_count, seed):
    game = started_game(player_count, seed=f"seed-{seed}")
    # Random amendments first (BG-PLAN-03): some houses submit, then re-submit later.
    for decision in data.draw(st.lists(st.sampled_from(pending_decisions(game.state)), max_size=3)):
        orders = draw_assignment(data, decision.options)
        game.run(cmd.AssignOrders(orders=orders), cmd.Actor(kind="seat", seat_id=decision.seat_id))
    final = dict(game.state.planning.sealed)
    play_assign_orders(data, game, allow_timeouts=False)
    final.update(game.state.planning.sealed)
    game.reveal()

    state = game.state
    assert (state.phase, state.step) == ("planning", "messenger_raven")
    on_board = board_orders(state)
    assert on_board == {h: final[h] for h in state.houses_in_play}  # BG-PLAN-06: exactly what was sealed
    for house in state.houses_in_play:
        check_house_orders(state, house, on_board[house], full=True)

    play_raven(data, game)
    for house, placed in board_orders(game.state).items():
        check_house_orders(game.state, house, placed, full=True)


@SETTINGS
@given(
    data=st.data(),
    player_count=st.sampled_from([3, 4, 5, 6]),
    forbidden=st.sampled_from([0, 1, 3, 4, 4, 5]).flatmap(
        lambda k: st.permutations(ORDER_TYPES).map(lambda types: sorted(types[:k]))
    ),
    extra_areas=st.integers(0, 9),
)
def test_BG_PLAN_05_restricted_planning_with_timeouts_stays_legal(data, player_count, forbidden, extra_areas):
    game = lobby_game(player_count)
    # No Westeros card and no mustering exist yet: restrictions and extra units are set on the lobby
    # state directly. The last house on King's Court (fewest stars) gets footmen in free land areas.
    game.state.forbidden_order_types = forbidden
    last = game.state.tracks.kings_court[-1]
    free = [
        aid
        for aid, a in sorted(game.state.areas.items())
        if board_data.areas()[aid].kind == "land" and a.house is None and not a.blocked and not a.neutral
    ]
    for aid in free[:extra_areas]:
        game.state.areas[aid].house, game.state.areas[aid].units = last, {"footman": 1}
    game.run(cmd.StartGame(), ORGANIZER)
    state = game.state
    short = {h for h in state.houses_in_play if eligible_count(state, h) < len(areas_needing_orders(state, h))}
    assert state.planning.sequential == bool(short)
    event(f"sequential={state.planning.sequential}")

    how = play_assign_orders(data, game, allow_timeouts=True)
    event(f"timeouts={'default' in how.values()}")
    game.reveal()
    on_board = board_orders(game.state)
    for house in game.state.houses_in_play:
        if how[house] == "default":
            assert on_board[house] == default_orders(game.state, house)
            assert not any(is_special(t) for t in on_board[house].values())
        else:
            check_house_orders(game.state, house, on_board[house], full=house not in short)
    play_raven(data, game)
