"""Documented defaults for every Westeros-phase decision at its deadline.

* **bid** (Clash of Kings, wildlings) -- 0 Power.
* **westeros_choice** -- the option named ``default`` in the decision (null: the choice is skipped):
  A Throne of Blades, Dark Wings Dark Words and Put to the Sword: ``nothing`` happens; a Clash of Kings
  tie: the tied houses keep their order on the track before the bidding; a wildling tie, Preemptive
  Raid's track: the first listed (turn order / track order); A King Beyond the Wall: ``fiefdoms``;
  Preemptive Raid: ``destroy_units``; Massing on the Milkwater: the card with the lowest printed
  strength (ties: alphabetical); optional rewards (top of a track, a card back): not taken;
  a captured port: no Ship put in.
* **select_units** -- the fewest allowed (0 for Crow Killers' optional upgrade); otherwise weakest
  first (Footmen, Ships, Knights, Siege Engines), areas in alphabetical order; The Horde Descends:
  the first such area in alphabetical order.
* **reconcile_armies** -- the fewest units possible, weakest first in each area.
* **muster** -- nothing is mustered.
"""

from __future__ import annotations

from ...core.context import Context
from .. import events as ev
from ..action.commands import UnitCounts
from ..emitter import Emitter
from ..state import BoardState
from . import commands as wcmd
from .decider import handle
from .decisions import (
    BidOptions,
    ChoiceOptions,
    ReconcileOptions,
    SelectUnitsOptions,
    WesterosDecisionOptions,
    pending_westeros_decisions,
)
from .deck import advance
from .reconcile import default_reconcile
from .units import pick_default

WESTEROS_DEFAULT_TEXT = {
    "bid": "a bid of 0 Power",
    "westeros_choice": "the option named in `options.default` (null: the choice is skipped)",
    "select_units": "the fewest allowed, weakest first (Footmen, Ships, Knights, Siege Engines), areas alphabetical",
    "reconcile_armies": "the fewest units possible, weakest first in each area",
    "muster": "nothing is mustered",
}


def default_command(state: BoardState, house: str, options: WesterosDecisionOptions) -> wcmd.WesterosCommand:
    if isinstance(options, BidOptions):
        return wcmd.Bid(amount=0)
    if isinstance(options, ChoiceOptions):
        return wcmd.WesterosChoice(
            choice=options.default if options.default is not None or options.may_skip else options.options[0]
        )
    if isinstance(options, SelectUnitsOptions):
        picked = pick_default(options.units, options.min, options.same_area)
        return wcmd.SelectUnits(units={a: UnitCounts(**u) for a, u in picked.items()})
    if isinstance(options, ReconcileOptions):
        return wcmd.ReconcileArmies(units={a: UnitCounts(**u) for a, u in default_reconcile(state, house).items()})
    return wcmd.Muster(recruits={})


def westeros_timeout_events(state: BoardState, ctx: Context, only: set[str] | None = None) -> list[ev.Event]:
    """``DecisionTimedOut`` and the defaults of every Westeros decision now pending (empty if none);
    with ``only``, of those houses' decisions alone."""
    pending = [p for p in pending_westeros_decisions(state) if only is None or p[0] in only]
    if not pending:
        return []
    em = Emitter(state, ctx)
    late: list[str] = []
    for h, _, _ in pending:
        if h not in late:
            late.append(h)
    em.emit(ev.DecisionTimedOut(step=state.step, houses=late))
    for house, _, options in pending:
        kind = options.__struct_config__.tag
        now = [o for h, _, o in pending_westeros_decisions(em.state) if h == house and o.__struct_config__.tag == kind]
        if now:
            handle(em, default_command(em.state, house, now[0]), house, by_default=True)
    advance(em)
    return em.events
