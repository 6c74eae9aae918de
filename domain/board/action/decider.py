"""The Action phase as a Decider slice: ``decide_action``/``evolve_action``/``start_action_phase``.

Every command is checked, turned into events on an :class:`~domain.board.emitter.Emitter` (so each rule sees the
board as the previous events left it), then :func:`~.flow.advance` runs the automatic consequences
up to the next pending decision. A rejected command raises and returns nothing.
"""

from __future__ import annotations

from ...core.context import Context
from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from ..emitter import Emitter
from ..event_base import Event
from ..ports import max_port_replacement
from ..state import BoardState
from . import combat, consolidate, flow, marches, raids
from . import commands as acmd
from . import events as aev
from .evolve import evolve_action
from .turns import action_of, require_step

__all__ = ["decide_action", "evolve_action", "start_action_phase", "handle", "ACTION_COMMANDS"]

ACTION_COMMANDS = (
    acmd.ResolveRaid,
    acmd.ResolveMarch,
    acmd.ResolveConsolidatePower,
    acmd.DeclareSupport,
    acmd.ChooseHouseCard,
    acmd.ChooseAbility,
    acmd.UseBlade,
    acmd.ChooseCasualties,
    acmd.ChooseRetreat,
    acmd.ChooseRetreatLosses,
    acmd.ReplacePortShips,
)


def start_action_phase(state: BoardState, ctx: Context) -> list[Event]:
    """BG-ACT-01: open the Action phase from the ``awaiting_action_phase`` threshold."""
    if state.phase != "action" or state.step != "awaiting_action_phase":
        raise WrongPhase("the Action phase starts only when the Planning phase is over", code="nothing_pending")
    em = Emitter(state, ctx)
    flow.start(em)
    return em.events


def replace_port_ships(em: Emitter, house: str, count: int, by_default: bool = False) -> None:
    """BG-MAP-07: the new controller of a port's land area puts 0..max of its Ships in the port."""
    s = em.state
    require_step(s, "replace_port_ships")
    cap = action_of(s).port_captures[0]
    if house != cap.house:
        raise NotYourTurn(f"{cap.house} decides about the captured port", rule="BG-MAP-07")
    limit = min(cap.max, max_port_replacement(s, house, cap.port, cap.max))
    if not 0 <= count <= limit:
        raise RuleViolation(f"you may put 0 to {limit} Ships in '{cap.port}'", rule="BG-MAP-07", code="too_many_ships")
    em.emit(aev.PortShipsReplaced(house=house, port=cap.port, count=count, by_default=by_default))
    if count:
        em.emit(aev.UnitsPlaced(house=house, area=cap.port, units={"ship": count}, reason="BG-MAP-07"))


def unit_map(units: acmd.UnitCounts | dict[str, int]) -> dict[str, int]:
    """Units as ``{type: count}``, from the API's :class:`UnitCounts` or an internal dict."""
    return units.as_dict() if isinstance(units, acmd.UnitCounts) else dict(units)


def handle(em: Emitter, command: acmd.ActionCommand, house: str, by_default: bool = False) -> None:
    """Apply one player command to the emitter (no advance)."""
    match command:
        case acmd.ResolveRaid():
            raids.resolve_raid(em, house, command.area, command.target, by_default)
        case acmd.ResolveMarch():
            marches.resolve_march(
                em,
                house,
                command.area,
                {d: unit_map(u) for d, u in command.moves.items()},
                command.leave_power_token,
                by_default,
            )
        case acmd.ResolveConsolidatePower():
            consolidate.resolve_consolidate_power(em, house, command.area, command.muster, by_default)
        case acmd.DeclareSupport():
            combat.declare_support(em, house, command.side, by_default)
        case acmd.ChooseHouseCard():
            combat.choose_house_card(em, house, command.card, by_default)
        case acmd.ChooseAbility():
            combat.choose_ability(em, house, command.choice, by_default)
        case acmd.UseBlade():
            combat.use_blade(em, house, command.use, by_default)
        case acmd.ChooseCasualties():
            combat.choose_casualties(em, house, unit_map(command.units), by_default)
        case acmd.ChooseRetreat():
            combat.choose_retreat(em, house, command.area, by_default)
        case acmd.ChooseRetreatLosses():
            combat.choose_retreat_losses(em, house, unit_map(command.units), by_default)
        case acmd.ReplacePortShips():
            replace_port_ships(em, house, command.count, by_default)
        case _:
            raise RuleViolation(f"unknown command {type(command).__name__}", code="unknown_command")


#: Commands that answer one combat or port decision: the step that must be open, and its name.
ANSWERS: dict[type, tuple[str, str, str]] = {
    acmd.DeclareSupport: ("declare_support", "support declaration", "BG-COMBAT-04"),
    acmd.ChooseHouseCard: ("choose_house_card", "House card choice", "BG-COMBAT-09"),
    acmd.ChooseAbility: ("house_card_ability", "House card ability", "BG-COMBAT-09"),
    acmd.UseBlade: ("use_blade", "Valyrian Steel Blade", "BG-COMBAT-11"),
    acmd.ChooseCasualties: ("choose_casualties", "casualty choice", "BG-COMBAT-15"),
    acmd.ChooseRetreat: ("choose_retreat", "retreat", "BG-COMBAT-19"),
    acmd.ChooseRetreatLosses: ("choose_retreat_losses", "retreat supply losses", "BG-COMBAT-20"),
    acmd.ReplacePortShips: ("replace_port_ships", "port replacement", "BG-MAP-07"),
}


def require_open_decision(state: BoardState, command: acmd.ActionCommand) -> None:
    """An answer to a decision that is not open (any more) is refused with ``decision_closed``: the
    engine resolves a step with a single legal answer itself (e.g. a retreat with one legal area,
    BG-COMBAT-19), a deadline applies the default, or the combat ended since. Said plainly, rather
    than "wrong phase", because the client answered a decision it saw or expected."""
    answer = ANSWERS.get(type(command))
    if answer is None:
        return
    step, what, rule = answer
    if state.phase == "action" and state.action is not None and state.step == step:
        return
    raise WrongPhase(
        f"the {what} decision is no longer open (or was never opened): the engine resolved it itself "
        f"when only one answer was legal, a deadline applied its default, or the game moved on; read the "
        f"pending decisions again",
        rule=rule,
        code="decision_closed",
    )


def decide_action(state: BoardState, command: acmd.ActionCommand, house: str, ctx: Context) -> list[Event]:
    """Turn one Action-phase command of ``house`` into events, or raise a RuleViolation."""
    require_open_decision(state, command)
    if state.phase != "action" or state.action is None:
        raise WrongPhase("this command is used only during the Action phase", rule="BG-ACT-01")
    em = Emitter(state, ctx)
    handle(em, command, house)
    flow.advance(em)
    return em.events
