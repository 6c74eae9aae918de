"""The Messenger Raven at the end of the Planning phase (BG-PLAN-07/08, BG-COK-10).

The holder (King's Court position 1) may replace one of its orders with an unused token, or look at
the top wildling card and leave it on top or put it at the bottom, or pass; then the Planning phase
is over and the Action phase waits to be opened.
"""

from __future__ import annotations

from collections import Counter

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import events as ev
from ..orders import is_special, owned_tokens
from ..state import BoardState
from .assign import forbidden, special_order_limit


def _require_raven_holder(state: BoardState, house: str, step: str) -> None:
    if state.phase != "planning" or state.step != step:
        raise WrongPhase("the Messenger Raven is used only at the end of Reveal Orders", rule="BG-PLAN-07")
    if house != state.raven_holder():
        raise NotYourTurn(f"only the Messenger Raven holder ({state.raven_holder()}) may do this", rule="BG-COK-10")
    if state.raven_used and step == "messenger_raven":
        raise RuleViolation("the Messenger Raven was already used this round", rule="BG-PLAN-08")


def _end_of_planning(state: BoardState) -> ev.Event:
    """The Planning phase is over; the Action phase (issue 3) starts from here."""
    return ev.StepBegan(phase="action", step="awaiting_action_phase", round=state.round, deadline=None)


def raven_replacement_options(state: BoardState, house: str) -> dict[str, list[str]]:
    """BG-PLAN-07: for each of the holder's orders, the unused tokens it may be swapped for,
    keeping the special-order limit and this round's restrictions."""
    mine = {a: o.order for a, o in state.orders.items() if o.house == house}
    used = Counter(mine.values())
    unused = owned_tokens(state.settings.expansion) - used
    specials_now = sum(1 for o in mine.values() if is_special(o))
    limit = special_order_limit(state, house)
    options: dict[str, list[str]] = {}
    for area, current in sorted(mine.items()):
        choices = []
        for token in sorted(unused):
            if forbidden(state, token):
                continue
            specials_after = specials_now - is_special(current) + is_special(token)
            if specials_after > limit:
                continue
            choices.append(token)
        if choices:
            options[area] = choices
    return options


def raven_replace_order(state: BoardState, house: str, area: str, new_order: str) -> list[ev.Event]:
    """BG-PLAN-07 (replace an order): the new order is placed face up."""
    _require_raven_holder(state, house, "messenger_raven")
    options = raven_replacement_options(state, house)
    placed = state.orders.get(area)
    if placed is None or placed.house != house:
        raise RuleViolation(f"{house} has no order in '{area}' to replace", rule="BG-PLAN-07")
    if new_order not in options.get(area, []):
        raise RuleViolation(
            f"'{new_order}' is not an unused token that keeps your special-order limit", rule="BG-PLAN-07"
        )
    return [
        ev.RavenOrderReplaced(house=house, area=area, old_order=placed.order, new_order=new_order),
        _end_of_planning(state),
    ]


def raven_peek_wildling(state: BoardState, house: str, deadline: str) -> list[ev.Event]:
    """BG-PLAN-07 (look at the wildling deck): only the holder sees the card."""
    _require_raven_holder(state, house, "messenger_raven")
    if not state.wildling_deck:
        raise RuleViolation("the wildling deck is empty; there is no card to look at", rule="BG-PLAN-07")
    return [
        ev.RavenWildlingPeeked(house=house, card=state.wildling_deck[0]),
        ev.StepBegan(phase="planning", step="raven_wildling_placement", round=state.round, deadline=deadline),
    ]


def raven_place_wildling(state: BoardState, house: str, to_bottom: bool) -> list[ev.Event]:
    """BG-PLAN-07: the peeked card stays on top or goes to the bottom of the wildling deck."""
    _require_raven_holder(state, house, "raven_wildling_placement")
    return [ev.RavenWildlingPlaced(house=house, to_bottom=to_bottom), _end_of_planning(state)]


def raven_pass(state: BoardState, house: str, by_default: bool = False) -> list[ev.Event]:
    _require_raven_holder(state, house, "messenger_raven")
    return [ev.RavenPassed(house=house, by_default=by_default), _end_of_planning(state)]
