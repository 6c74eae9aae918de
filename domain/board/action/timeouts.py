"""Documented defaults for every Action-phase decision at its deadline.

* **resolve_raid** -- the house's first Raid order in area-id order is removed with no effect.
* **resolve_march** -- its first March order in area-id order is removed; nothing moves.
* **resolve_consolidate_power** -- its first Consolidate Power order in area-id order is resolved
  as a regular one (gains Power; a special order does not muster).
* **declare_support** -- the house supports nobody.
* **choose_house_card** -- the card with the lowest printed strength (ties: alphabetical id).
* **house_card_ability** -- an optional ability is not used; a mandatory one takes the first
  listed choice. Mother of Dragons' vassal cards (:mod:`.vassal_cards`): Bronn's opponent does not
  discard Power, Jon Connington musters no Knight, Beric Dondarrion destroys the weakest unit type
  listed first.
* **use_blade** -- the Blade is not used.
* **choose_casualties** -- Footmen die first, then Ships, then Knights, then Siege Engines.
* **choose_retreat** -- the first listed legal area (alphabetical).
* **choose_retreat_losses** -- the weakest retreating units go first: Footmen, then Ships, then
  Knights, then Siege Engines (BG-COMBAT-20).
* **replace_port_ships** -- no Ship is put in the captured port.
"""

from __future__ import annotations

from ...core.context import Context
from .. import events as ev
from ..emitter import Emitter
from ..state import BoardState
from . import commands as acmd
from .combat import default_casualties
from .decider import handle
from .decisions import (
    AbilityOptions,
    ActionDecisionOptions,
    BladeOptions,
    CasualtyOptions,
    ConsolidateOptions,
    HouseCardOptions,
    MarchOptions,
    RaidOptions,
    RetreatLossesOptions,
    RetreatOptions,
    SupportOptions,
    pending_action_decisions,
)
from .flow import advance
from .house_cards import all_cards
from .turns import orders_of

ACTION_DEFAULT_TEXT = {
    "resolve_raid": "your first Raid order (by area id) is removed with no effect",
    "resolve_march": "your first March order (by area id) is removed; nothing moves",
    "resolve_consolidate_power": "your first Consolidate Power order (by area id) gives its Power (no mustering)",
    "declare_support": "you support nobody",
    "choose_house_card": "your card with the lowest printed strength (ties: alphabetical)",
    "house_card_ability": "an optional ability is not used; a mandatory one takes the first choice",
    "use_blade": "the Valyrian Steel Blade is not used",
    "choose_casualties": "Footmen die first, then Ships, then Knights, then Siege Engines",
    "choose_retreat": "the first listed legal area",
    "choose_retreat_losses": "the weakest retreating units go first: Footmen, then Ships, then Knights, then Siege Engines",
    "replace_port_ships": "no Ship is put in the port",
}


def default_command(state: BoardState, house: str, options: ActionDecisionOptions) -> acmd.ActionCommand:
    if isinstance(options, RaidOptions):
        return acmd.ResolveRaid(area=orders_of(state, house, "raid")[0])
    if isinstance(options, MarchOptions):
        return acmd.ResolveMarch(area=orders_of(state, house, "march")[0])
    if isinstance(options, ConsolidateOptions):
        return acmd.ResolveConsolidatePower(area=orders_of(state, house, "consolidate_power")[0])
    if isinstance(options, SupportOptions):
        return acmd.DeclareSupport(side="none")
    if isinstance(options, HouseCardOptions):
        cards = all_cards()
        return acmd.ChooseHouseCard(card=min(options.cards, key=lambda c: (cards[c].strength, c)))
    if isinstance(options, AbilityOptions):
        return acmd.ChooseAbility(choice=None if options.may_skip else options.choices[0])
    if isinstance(options, BladeOptions):
        return acmd.UseBlade(use=False)
    if isinstance(options, CasualtyOptions):
        # A plain dict, weakest first (``handle`` reads it through ``unit_map``): a UnitCounts would
        # reorder the keys of the CasualtiesChosen/UnitsDestroyed events a timeout has always written.
        return acmd.ChooseCasualties(units=default_casualties(options.units, options.count))  # type: ignore[arg-type]
    if isinstance(options, RetreatLossesOptions):
        return acmd.ChooseRetreatLosses(units=default_casualties(options.units, options.count))  # type: ignore[arg-type]  # a plain dict, as for casualties above
    if isinstance(options, RetreatOptions):
        return acmd.ChooseRetreat(area=options.areas[0])
    return acmd.ReplacePortShips(count=0)


def action_timeout_events(state: BoardState, ctx: Context, only: set[str] | None = None) -> list[ev.Event]:
    """``DecisionTimedOut`` and the defaults of every decision now pending (empty if none); with
    ``only``, of those houses' decisions alone."""
    pending = [p for p in pending_action_decisions(state) if only is None or p[0] in only]
    if not pending:
        return []
    em = Emitter(state, ctx)
    em.emit(ev.DecisionTimedOut(step=state.step, houses=[h for h, _, _ in pending]))
    for house, _, options in pending:
        handle(em, default_command(em.state, house, options), house, by_default=True)
    advance(em)
    return em.events
