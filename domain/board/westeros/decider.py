"""The Westeros phase as a Decider slice: ``start_westeros_phase``, ``decide_westeros``,
``reveal_bids`` and ``evolve_westeros``.

Every command is checked and turned into events on an :class:`~domain.board.emitter.Emitter`
(each rule sees the board as the previous events left it); then :func:`.deck.advance` runs the
automatic consequences up to the next pending decision. A rejected command raises and returns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core.context import Context
from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from ..action import events as aev
from ..action.commands import UnitCounts
from ..emitter import Emitter
from ..events import Event
from ..state import WESTEROS_STEP, BoardState
from . import bidding, cards, deck, mustering, reconcile, wildlings
from . import commands as wcmd
from . import events as wev
from .evolve import evolve_westeros, westeros_of
from .state import PendingChoice

__all__ = [
    "start_westeros_phase",
    "decide_westeros",
    "reveal_bids",
    "evolve_westeros",
    "handle",
    "WESTEROS_COMMANDS",
    "bids_ready",
]

WESTEROS_COMMANDS = wcmd.WESTEROS_COMMANDS


def start_westeros_phase(state: BoardState, ctx: Context) -> list[Event]:
    """BG-WEST-01: open the Westeros phase from the ``awaiting_westeros_phase`` threshold."""
    if state.phase != "westeros" or state.step != WESTEROS_STEP:
        raise WrongPhase("the Westeros phase starts only after the Action phase's clean-up", code="nothing_pending")
    em = Emitter(state, ctx)
    deck.start(em)
    return em.events


def bids_ready(state: BoardState) -> bool:
    """Every house has sealed its bid: the system reveals them (``ResolvePending``)."""
    return state.phase == "westeros" and state.westeros is not None and bidding.all_bids_in(state)


def reveal_bids(state: BoardState, ctx: Context) -> list[Event]:
    """BG-COK-03 / BG-WILD-01: reveal all sealed bids at once, then carry on."""
    if not bids_ready(state):
        raise WrongPhase("bids are revealed only once every house has bid", rule="BG-COK-03", code="nothing_pending")
    em = Emitter(state, ctx)
    w = westeros_of(state)
    if w.bidding is not None and not w.bidding.revealed:
        bidding.reveal(em)
    else:
        wildlings.reveal(em)
    deck.advance(em)
    return em.events


def answer_choice(em: Emitter, house: str, choice: str | None, by_default: bool = False) -> None:
    s = em.state
    c = s.westeros.choice if s.westeros else None
    if c is None:
        raise closed("choice")
    if c.house != house:
        raise NotYourTurn(f"{c.house} makes this choice", rule="BG-WEST-01")
    if choice is None and not c.may_skip:
        raise RuleViolation(f"choose one of: {', '.join(c.options)}", code="choice_required")
    if choice is not None and choice not in c.options:
        raise RuleViolation(f"'{choice}' is not one of: {', '.join(c.options)}", code="illegal_choice")
    em.emit(wev.WesterosChoiceMade(house=house, kind=c.kind, choice=choice, by_default=by_default))
    kind = c.kind
    # The two choices that may be skipped (``may_skip``): skipping does nothing.
    if kind == "a_king_beyond_the_wall_top":
        if choice is not None:
            wildlings.move_to_top(em, house, choice, "a_king_beyond_the_wall")
        return
    if kind == "mammoth_riders_card":
        if choice is not None:
            em.emit(aev.HouseCardsReturned(house=house, cards=[choice], reason="mammoth_riders"))
        return
    assert choice is not None, f"a {kind} choice cannot be skipped (checked above: may_skip is False)"
    if kind in cards.CHOOSERS:
        cards.chosen(em, house, kind, choice)
    elif kind == "bid_tie":
        bidding.tie_broken(em, house, choice, _context(c))
    elif kind == "wildling_tie":
        wildlings.choose_target(em, choice, house)
    elif kind == "a_king_beyond_the_wall_bottom":
        wildlings.move_to_bottom(em, house, choice, "a_king_beyond_the_wall")
    elif kind == "massing_on_the_milkwater_discard":
        em.emit(aev.HouseCardsDiscarded(house=house, cards=[choice], reason="massing_on_the_milkwater"))
    elif kind == "preemptive_raid":
        wildlings.preemptive_raid_choice(em, house, choice)
    elif kind == "preemptive_raid_track":
        wildlings.move_down(em, _context(c), choice, 2, "preemptive_raid")
    elif kind == "port_ships":
        n = int(choice)
        if n:
            em.emit(aev.UnitsPlaced(house=house, area=_context(c), units={"ship": n}, reason="BG-MAP-07"))
    else:
        raise AssertionError(kind)


def closed(what: str) -> WrongPhase:
    """An answer to a Westeros decision that is not open (any more): ``decision_closed``, as in the
    Action phase (:func:`domain.board.action.decider.require_open_decision`)."""
    return WrongPhase(
        f"the Westeros {what} decision is no longer open (or was never opened): the engine resolved it "
        f"itself when only one answer was legal, a deadline applied its default, or the game moved on; "
        f"read the pending decisions again",
        rule="BG-WEST-01",
        code="decision_closed",
    )


def _context(c: PendingChoice) -> str:
    """The extra data a choice carries (the track of a bid tie, the house of a Preemptive Raid
    track choice, the port of a capture): always set for those kinds."""
    assert c.context is not None, f"a {c.kind} choice carries its context"
    return c.context


def unit_map(units: Mapping[str, UnitCounts | Mapping[str, int]]) -> dict[str, dict[str, int]]:
    return {a: (u.as_dict() if hasattr(u, "as_dict") else dict(u)) for a, u in units.items()}


def handle(em: Emitter, command: object, house: str, by_default: bool = False) -> None:
    """Apply one player command to the emitter (no advance)."""
    match command:
        case wcmd.Bid():
            bidding.submit(em, house, command.amount, by_default)
        case wcmd.WesterosChoice():
            answer_choice(em, house, command.choice, by_default)
        case wcmd.SelectUnits():
            wildlings.answer_selection(em, house, unit_map(command.units), by_default)
        case wcmd.ReconcileArmies():
            reconcile.reconcile(em, house, unit_map(command.units), by_default)
        case wcmd.Muster():
            mustering.muster(em, house, dict(command.recruits), by_default)
        case _:
            raise RuleViolation(f"unknown command {type(command).__name__}", code="unknown_command")


def decide_westeros(state: BoardState, command: object, house: str, ctx: Context) -> list[Event]:
    """Turn one Westeros-phase command of ``house`` into events, or raise a RuleViolation."""
    if (state.phase != "westeros" or state.westeros is None) and isinstance(
        command, wcmd.WesterosChoice | wcmd.SelectUnits
    ):
        raise closed("choice" if isinstance(command, wcmd.WesterosChoice) else "unit pick")
    if state.phase != "westeros" or state.westeros is None:
        raise WrongPhase("this command is used only during the Westeros phase", rule="BG-WEST-01")
    em = Emitter(state, ctx)
    handle(em, command, house)
    deck.advance(em)
    return em.events
