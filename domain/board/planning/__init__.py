"""The Planning phase (BG-PLAN-01..08): assign orders in secret, reveal them together, the Raven.

* ``assign``   -- BG-PLAN-01..06: which areas need orders, the tokens a house may use, the special
  order limit, sequential placement, submitting and revealing;
* ``raven``    -- BG-PLAN-07/08: the Messenger Raven;
* ``commanders`` -- Mother of Dragons, MOD-VASSAL-02..07: the vassals' commanders, chosen first;
* ``timeouts`` -- the documented defaults at the deadline.

The functions the rest of the board uses are re-exported here.
"""

from __future__ import annotations

from .assign import (
    areas_needing_orders,
    assign_orders,
    assign_orders_step,
    current_sequential_house,
    eligible_count,
    eligible_tokens,
    forbidden,
    houses_still_to_submit,
    needs_sequential_placement,
    ordering_houses,
    reveal_orders,
    special_order_limit,
    validate_orders,
)
from .raven import (
    raven_pass,
    raven_peek_wildling,
    raven_place_wildling,
    raven_replace_order,
    raven_replacement_options,
)

__all__ = [
    "areas_needing_orders",
    "assign_orders",
    "assign_orders_step",
    "current_sequential_house",
    "eligible_count",
    "eligible_tokens",
    "forbidden",
    "houses_still_to_submit",
    "needs_sequential_placement",
    "ordering_houses",
    "raven_pass",
    "raven_peek_wildling",
    "raven_place_wildling",
    "raven_replace_order",
    "raven_replacement_options",
    "reveal_orders",
    "special_order_limit",
    "validate_orders",
]
