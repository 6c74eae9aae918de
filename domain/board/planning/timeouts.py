"""Documented defaults applied when a Planning-phase decision's deadline passes (workers fire them).

* **Assign Orders** -- a house that has not submitted gets, for its areas in alphabetical order of
  area id, regular tokens in this fixed order of preference: ``defense_plus_1``, ``defense_plus_1``,
  ``support_0``, ``support_0``, ``consolidate_power``, ``consolidate_power``, ``raid``, ``raid``,
  ``march_0``, ``march_minus_1`` (never a special order; tokens of a forbidden type are skipped; areas
  left over when the tokens run out stay empty, as BG-PLAN-05 allows). A vassal whose commander
  has not placed its orders gets none (MOD-VASSAL-08 allows it). In sequential placement only
  the house whose turn it is gets the default; the next house then gets a fresh deadline.
* **Messenger Raven** -- not used.
* **Raven wildling placement** -- the peeked card stays on top.
"""

from __future__ import annotations

from ...core.context import Context
from .. import events as ev
from ..orders import order_type
from ..state import BoardState
from .assign import (
    areas_needing_orders,
    assign_orders_step,
    current_sequential_house,
    houses_still_to_submit,
    submitted,
)
from .raven import raven_pass

DEFAULT_ORDER_PREFERENCE = (
    "defense_plus_1",
    "defense_plus_1",
    "support_0",
    "support_0",
    "consolidate_power",
    "consolidate_power",
    "raid",
    "raid",
    "march_0",
    "march_minus_1",
)

DEFAULT_TEXT = {
    "assign_orders": "regular orders in a fixed order (defense, support, consolidate power, raid, march) on your areas in alphabetical order; a vassal you command gets no orders",
    "messenger_raven": "the Messenger Raven is not used",
    "raven_wildling_placement": "the wildling card stays on top of the deck",
}


def default_orders(state: BoardState, house: str) -> dict[str, str]:
    if house in state.vassals:  # MOD-VASSAL-08: a vassal may be left without orders
        return {}
    tokens = [t for t in DEFAULT_ORDER_PREFERENCE if order_type(t) not in state.forbidden_order_types]
    return dict(zip(areas_needing_orders(state, house), tokens))


def planning_timeout_events(state: BoardState, ctx: Context, only: set[str] | None = None) -> list[ev.Event]:
    """The events of a timeout at the current step (empty if nothing is waiting on a player); with
    ``only``, for those houses alone."""
    if state.step == "assign_orders":
        late = houses_still_to_submit(state)
        if state.planning.sequential:
            current = current_sequential_house(state)  # the first of ``late`` in turn order, if any
            late = [current] if current is not None else []
        if only is not None:
            late = [h for h in late if h in only]
        if not late:
            return []
        out: list[ev.Event] = [ev.DecisionTimedOut(step=state.step, houses=late)]
        for house in late:
            seq = state.version + len(out) + 1
            out.append(submitted(state, ctx, seq, house, default_orders(state, house), by_default=True))
        # In sequential placement the turn passes to the next house, with a fresh deadline.
        if state.planning.sequential and len(houses_still_to_submit(state)) > 1:
            out.append(assign_orders_step(state, ctx, sequential=True))
        return out
    if state.step not in ("messenger_raven", "raven_wildling_placement"):
        return []
    holder = state.raven_holder()
    assert holder is not None, "the raven's steps open only for its holder (King's Court position 1)"
    if only is not None and holder not in only:
        return []
    if state.step == "messenger_raven":
        return [ev.DecisionTimedOut(step=state.step, houses=[holder]), *raven_pass(state, holder, by_default=True)]
    return [  # raven_wildling_placement
        ev.DecisionTimedOut(step=state.step, houses=[holder]),
        ev.RavenWildlingPlaced(house=holder, to_bottom=False),
        ev.StepBegan(phase="action", step="awaiting_action_phase", round=state.round, deadline=None),
    ]
