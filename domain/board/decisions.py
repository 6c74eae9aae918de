"""Pending decisions: who must act now, with which legal options, by when, and what happens if not.

A client never has to guess: ``GET /v1/games/{id}/decisions`` returns exactly this for the caller.
"""

from __future__ import annotations

import msgspec

from ..core.context import rfc3339
from . import gifts, house_choice, planning
from .action.decisions import ActionDecisionOptions, pending_action_decisions
from .clock_times import house_deadline
from .house_choice import ChooseHouseOptions
from .orders import VASSAL_ORDERS_PER_VASSAL, is_special
from .planning import commanders
from .planning.commanders import ChooseCommanderOptions
from .state import BoardState
from .timeouts import DEFAULT_TEXT
from .undo_consent import DEFAULT_TEXT as UNDO_DEFAULT_TEXT
from .undo_consent import UndoConsentOptions, waiting_on
from .westeros.decisions import WesterosDecisionOptions, pending_westeros_decisions


class AssignOrdersOptions(msgspec.Struct, tag_field="kind", tag="assign_orders"):
    """Send ``{"type": "assign_orders", "orders": {area: order_id}}`` covering every area listed."""

    areas: list[str]
    tokens: dict[str, int]
    """Eligible order tokens (id -> copies owned)."""
    special_tokens: list[str]
    special_limit: int
    may_leave_areas_empty: bool
    submitted: dict[str, str] | None
    """Your sealed orders so far (you may amend them until everyone has submitted)."""
    max_orders: int | None = None
    """At most this many orders (a vassal's: 2, each token once, MOD-VASSAL-08); null: no limit but the tokens."""


class RavenOptions(msgspec.Struct, tag_field="kind", tag="messenger_raven"):
    """Send ``raven_replace_order`` (area + one of its listed tokens), ``raven_peek_wildling`` or ``raven_pass``."""

    replace: dict[str, list[str]]
    """area -> unused tokens your order there may be swapped for."""
    may_peek_wildling: bool


class RavenPlacementOptions(msgspec.Struct, tag_field="kind", tag="raven_wildling_placement"):
    """Send ``raven_place_wildling`` with ``to_bottom`` true or false."""

    card: str
    choices: list[bool]


DecisionOptions = (
    gifts.GiftPowerOptions
    | ChooseHouseOptions
    | ChooseCommanderOptions
    | AssignOrdersOptions
    | RavenOptions
    | RavenPlacementOptions
    | ActionDecisionOptions
    | WesterosDecisionOptions
    | UndoConsentOptions
)


class Decision(msgspec.Struct):
    seat_id: str
    house: str
    """The seat's house; empty while a Mother of Dragons seat has yet to choose one (``choose_house``)."""
    commands: list[str]
    """Command ``type`` values that answer this decision."""
    options: DecisionOptions
    deadline: str | None
    default: str
    """What the server does for you if the deadline passes."""
    for_vassal: str | None = None
    """Mother of Dragons: ``house`` is a vassal you command; send your answer with ``"for_vassal": house``
    (MOD-VASSAL-08/09/13)."""


def pending_decisions(state: BoardState) -> list[Decision]:
    """Every decision the game is waiting on, in turn order."""
    out: list[Decision] = []
    opts: DecisionOptions
    if state.phase == "setup" and state.step == house_choice.STEP:
        current = house_choice.chooser(state)
        if current is not None:
            out.append(
                Decision(
                    seat_id=current,
                    house="",
                    commands=["choose_house"],
                    options=house_choice.options(state),
                    deadline=state.deadline,
                    default=DEFAULT_TEXT[house_choice.STEP],
                )
            )
    elif state.phase == "planning" and state.step == commanders.STEP:
        house = commanders.chooser(state)
        if house is not None:
            out.append(_decision(state, house, ["command_vassal"], commanders.options(state, house)))
    elif state.phase == "planning" and state.step == "assign_orders":
        remaining = planning.houses_still_to_submit(state)
        houses = planning.ordering_houses(state) if remaining else []  # none: the system reveals them
        if state.planning.sequential:
            current = planning.current_sequential_house(state)  # the first of ``remaining``
            houses = [current] if current is not None else []
        for house in houses:
            tokens = planning.eligible_tokens(state, house)
            areas = planning.areas_needing_orders(state, house)
            vassal = house in state.vassals
            opts = AssignOrdersOptions(
                areas=areas,
                tokens=dict(sorted(tokens.items())),
                special_tokens=sorted(t for t in tokens if is_special(t)),
                special_limit=planning.special_order_limit(state, house),
                may_leave_areas_empty=vassal or planning.eligible_count(state, house) < len(areas),
                submitted=state.planning.sealed.get(house),
                max_orders=VASSAL_ORDERS_PER_VASSAL if vassal else None,
            )
            out.append(_decision(state, house, ["assign_orders"], opts))
    elif state.phase == "planning" and state.step == "messenger_raven":
        house = _raven_holder(state)
        opts = RavenOptions(
            replace=planning.raven_replacement_options(state, house),
            may_peek_wildling=bool(state.wildling_deck),
        )
        out.append(_decision(state, house, ["raven_replace_order", "raven_peek_wildling", "raven_pass"], opts))
    elif state.phase == "planning" and state.step == "raven_wildling_placement":
        house = _raven_holder(state)
        opts = RavenPlacementOptions(card=state.planning.raven_peek or "", choices=[False, True])
        out.append(_decision(state, house, ["raven_place_wildling"], opts))
    elif state.phase == "action" and state.action is not None:
        for house, commands, opts in pending_action_decisions(state):
            out.append(_decision(state, house, commands, opts))
    elif state.phase == "westeros" and state.westeros is not None:
        for house, commands, opts in pending_westeros_decisions(state):
            out.append(_decision(state, house, commands, opts))
    if commanders.rechoosing(state):  # Review 2: commanders chosen again at once after a player left
        house = commanders.chooser(state)
        assert house is not None, "a re-choice has a player holding a set"
        out.insert(0, _decision(state, house, ["command_vassal"], commanders.options(state, house)))
    return out + _undo_consents(state)


def optional_decisions(state: BoardState, seat_id: str) -> list[Decision]:
    """What a seat may do at any time without anyone waiting for it (never in ``waiting_for``, no
    deadline): with Mother of Dragons, a gift of Power (MOD-GIFT-01..03) while it can give one."""
    seat = state.seat(seat_id)
    if seat is None or seat.house is None:
        return []
    opts = gifts.gift_options(state, seat.house)
    if opts is None:
        return []
    return [
        Decision(
            seat_id=seat_id,
            house=seat.house,
            commands=["gift_power"],
            options=opts,
            deadline=None,
            default=gifts.DEFAULT_TEXT,
        )
    ]


def _undo_consents(state: BoardState) -> list[Decision]:
    """An opponent's undo request waits on every other seat's consent (docs/judge.md); refused by
    default at the request's deadline."""
    req = state.undo_request
    if req is None:
        return []
    opts = UndoConsentOptions(seat_id=req.seat_id, house=req.house, version=req.version, reason=req.reason)
    return [
        Decision(
            seat_id=seat.seat_id,
            house=seat.house or "",
            commands=["answer_undo"],
            options=opts,
            deadline=req.deadline if state.paused is None else None,
            default=UNDO_DEFAULT_TEXT,
        )
        for seat_id in waiting_on(state, req)
        if (seat := state.seat(seat_id)) is not None
    ]


def _raven_holder(state: BoardState) -> str:
    """The Messenger Raven's holder, who alone decides at the raven's steps."""
    holder = state.raven_holder()
    assert holder is not None, "the raven's steps open only for its holder (King's Court position 1)"
    return holder


def _decision(state: BoardState, house: str, commands: list[str], options: DecisionOptions) -> Decision:
    seat = state.deciding_seat(house)  # a vassal's decisions are its commander's (MOD-VASSAL-09)
    tag = options.__struct_config__.tag
    assert isinstance(tag, str), "every options Struct is tagged by its step's name"
    return Decision(
        seat_id=seat.seat_id if seat else "",
        house=house,
        commands=commands,
        options=options,
        deadline=_deadline(state, house),
        default=DEFAULT_TEXT[tag],
        for_vassal=house if house in state.commanders else None,
    )


def _deadline(state: BoardState, house: str) -> str | None:
    """The house's own deadline (docs/clocks.md): the step's, or earlier when its time bank runs out
    first; null while the clocks are paused."""
    at = house_deadline(state, house)
    return rfc3339(at) if at is not None else None
