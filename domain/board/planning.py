"""The Planning phase (BG-PLAN-01..08): assign orders in secret, reveal them together, the Raven.

Each function here is one rule; ``decide`` in :mod:`domain.board.decider` calls them.
"""

from __future__ import annotations

from collections import Counter

from ..core.errors import NotYourTurn, RuleViolation, WrongPhase
from . import events as ev
from .control import areas_with_units
from .orders import ORDER_TOKENS, is_special, order_type, owned_tokens
from .state import BoardState


def areas_needing_orders(state: BoardState, house: str) -> list[str]:
    """BG-PLAN-02: every area (land, sea or port) holding at least one of the house's units."""
    return areas_with_units(state, house)


def special_order_limit(state: BoardState, house: str) -> int:
    """BG-PLAN-04 / BG-SETUP-07: the stars beside the house's King's Court position."""
    position = state.tracks.kings_court.index(house)
    return state.kings_court_stars[position]


def forbidden(state: BoardState, token: str) -> bool:
    """BG-WCARD-10..16: a Westeros card forbids the token's type (or, Rains of Autumn / Put to the
    Sword, the special March +1 token itself) this round."""
    return order_type(token) in state.forbidden_order_types or token in state.forbidden_order_types


def eligible_tokens(state: BoardState, house: str) -> Counter[str]:
    """BG-PLAN-05: tokens the house owns and that no Westeros card forbids this round."""
    return Counter({t: n for t, n in owned_tokens().items() if not forbidden(state, t)})


def eligible_count(state: BoardState, house: str) -> int:
    """How many orders the house can actually place: regular tokens plus specials within its limit."""
    tokens = eligible_tokens(state, house)
    regular = sum(n for t, n in tokens.items() if not is_special(t))
    special = sum(n for t, n in tokens.items() if is_special(t))
    return regular + min(special, special_order_limit(state, house))


def needs_sequential_placement(state: BoardState) -> bool:
    """BG-PLAN-05: if any house has fewer eligible tokens than areas needing one, all houses place
    their orders one at a time in turn order."""
    return any(eligible_count(state, h) < len(areas_needing_orders(state, h)) for h in state.houses_in_play)


def current_sequential_house(state: BoardState) -> str | None:
    """In sequential placement, the first house in turn order that has not submitted yet."""
    for house in state.turn_order():
        if house not in state.planning.sealed:
            return house
    return None


def houses_still_to_submit(state: BoardState) -> list[str]:
    return [h for h in state.turn_order() if h not in state.planning.sealed]


def validate_orders(state: BoardState, house: str, orders: dict[str, str]) -> None:
    """Check one house's assignment against BG-PLAN-02, BG-PLAN-04, BG-PLAN-05 and BG-ORDER-01."""
    needed = set(areas_needing_orders(state, house))
    for area, order in orders.items():
        if order not in ORDER_TOKENS:
            raise RuleViolation(f"'{order}' is not an order token", rule="BG-ORDER-01", code="unknown_order")
        if area not in needed:
            raise RuleViolation(
                f"{house} has no units in '{area}', so it cannot take an order there",
                rule="BG-PLAN-02",
            )
        if forbidden(state, order):
            raise RuleViolation(f"'{order}' orders are forbidden this round (BG-WCARD-16)", rule="BG-PLAN-05")
    used = Counter(orders.values())
    owned = owned_tokens()
    for token, n in used.items():
        if n > owned[token]:
            raise RuleViolation(f"{house} owns {owned[token]} '{token}' token(s) but assigned {n}", rule="BG-ORDER-01")
    specials = sum(n for t, n in used.items() if is_special(t))
    limit = special_order_limit(state, house)
    if specials > limit:
        raise RuleViolation(
            f"{house} may place at most {limit} special order(s) from its King's Court position, not {specials}",
            rule="BG-PLAN-04",
            code="special_order_limit",
        )
    missing = needed - set(orders)
    if missing:
        # BG-PLAN-05: areas may stay empty only when the house cannot fill them all.
        if len(orders) < min(len(needed), eligible_count(state, house)):
            raise RuleViolation(
                f"every area with your units needs an order; missing: {', '.join(sorted(missing))}",
                rule="BG-PLAN-02",
                code="orders_incomplete",
            )


def assign_orders(state: BoardState, house: str, orders: dict[str, str]) -> list[ev.Event]:
    """BG-PLAN-02/03: a house submits (or amends) its sealed orders."""
    if state.phase != "planning" or state.step != "assign_orders":
        raise WrongPhase("orders are assigned only during the Planning phase's Assign Orders step", rule="BG-PLAN-01")
    if not houses_still_to_submit(state):
        raise WrongPhase("every house has submitted; the orders are being revealed", rule="BG-PLAN-06")
    if state.planning.sequential and house != current_sequential_house(state):
        raise NotYourTurn(
            f"orders are placed in turn order this round; waiting for {current_sequential_house(state)}",
            rule="BG-PLAN-05",
        )
    validate_orders(state, house, orders)
    return [ev.OrdersSubmitted(house=house, orders=dict(sorted(orders.items())))]


def reveal_orders(state: BoardState, deadline: str) -> list[ev.Event]:
    """BG-PLAN-06: once every house has submitted, all orders turn face up together.
    The Messenger Raven step follows (BG-PLAN-07)."""
    if state.step != "assign_orders" or houses_still_to_submit(state):
        raise WrongPhase("orders are revealed only once every house has submitted", rule="BG-PLAN-06")
    revealed = {h: dict(state.planning.sealed[h]) for h in state.turn_order()}
    return [
        ev.OrdersRevealed(orders=revealed),
        ev.StepBegan(phase="planning", step="messenger_raven", round=state.round, deadline=deadline),
    ]


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
    unused = owned_tokens() - used
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
