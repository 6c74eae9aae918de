"""Carry a scenario across a round boundary, through the real decider.

A :class:`~tests.support.westeros_positions.WesterosPosition` whose Action phase has been played to its
clean-up stands at the Westeros threshold. :func:`to_next_planning` stacks quiet Westeros cards (Last
Days of Summer twice, then Rains of Autumn, which forbids only the March +1 token) and lets the
documented defaults carry the Westeros phase to the next Planning phase; :func:`to_next_action` then
places orders, reveals them, passes the Raven and opens the next Action phase.
"""

from __future__ import annotations

from domain.board.commands import AssignOrders, RavenPass
from domain.board.planning import areas_needing_orders
from tests.support.action_positions import FILL
from tests.support.westeros_positions import WesterosPosition

QUIET = ("last_days_of_summer", "last_days_of_summer", "rains_of_autumn")


def to_next_planning(sc: WesterosPosition, cards: tuple = QUIET) -> None:
    assert (sc.state.phase, sc.state.step) == ("westeros", "awaiting_westeros_phase"), sc.state.step
    sc.to_westeros(cards, round=sc.state.round)
    sc.begin_westeros()
    sc.finish()
    assert (sc.state.phase, sc.state.step) == ("planning", "assign_orders")


def to_next_action(sc: WesterosPosition, orders: dict[str, dict[str, str]], cards: tuple = QUIET) -> None:
    """``orders``: house -> area -> token; other houses get a regular fill."""
    to_next_planning(sc, cards)
    for house in sc.state.turn_order():
        mine = orders.get(house) or dict(zip(areas_needing_orders(sc.state, house), FILL))
        sc.run(house, AssignOrders(orders=mine))
    sc.resolve()
    sc.run(sc.state.raven_holder(), RavenPass())
    sc.begin()
