"""Sea Order tokens in the Action phase (Mother of Dragons, MOD-SEA-01/02).

MOD-SEA-01 -- a Sea Order token works exactly like an ordinary order token, but it can be resolved
only in a sea area or in a port holding a Ship (a port holds nothing but Ships, so any order in a
port qualifies).
MOD-SEA-02 -- before the first order is resolved, and after the moment the Messenger Raven is used,
every Sea Order token in a land area is removed with no effect. Placing one there is allowed: the
orders are face down, so it is a bluff (or, after the Raven, a swap that gains nothing).
"""

from __future__ import annotations

from .. import board_data
from ..emitter import Emitter
from ..orders import is_sea_order
from . import events as aev

REASON = "MOD-SEA-02"


def sea_orders_on_land(em: Emitter) -> list[str]:
    """The land areas holding a Sea Order token, sorted by id."""
    s = em.state
    areas = board_data.areas_for(s.settings.expansion)
    return sorted(a for a, o in s.orders.items() if is_sea_order(o.order) and areas[a].kind == "land")


def remove_sea_orders_on_land(em: Emitter) -> None:
    """MOD-SEA-02: every Sea Order token in a land area leaves the board, with no effect."""
    for area in sea_orders_on_land(em):
        placed = em.state.orders[area]
        em.emit(aev.OrderRemoved(area=area, house=placed.house, order=placed.order, reason=REASON))
