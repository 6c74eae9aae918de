"""The Planning phase's Assign Orders and Reveal Orders steps (BG-PLAN-01..06).

Each function here is one rule; ``decide`` in :mod:`domain.board.decider` calls them.
"""

from __future__ import annotations

from collections import Counter

from ...core.context import Context
from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import events as ev
from ..control import areas_with_units
from ..orders import (
    VASSAL_ORDERS_PER_VASSAL,
    VASSAL_RAID_SUPPORT,
    VASSAL_TOKENS,
    is_special,
    order_type,
    owned_tokens,
)
from ..sealed_inputs import ORDERS, seal
from ..state import BoardState
from ..tracks import tracks_of


def areas_needing_orders(state: BoardState, house: str) -> list[str]:
    """BG-PLAN-02: every area (land, sea or port) holding at least one of the house's units."""
    return areas_with_units(state, house)


def special_order_limit(state: BoardState, house: str) -> int:
    """BG-PLAN-04 / BG-SETUP-07: the stars beside the house's King's Court position. A vassal's set
    has no special order (MOD-VASSAL-11)."""
    if house in state.vassals:
        return 0
    position = tracks_of(state).kings_court.index(house)
    return state.kings_court_stars[position]


def forbidden(state: BoardState, token: str) -> bool:
    """BG-WCARD-10..16: a Westeros card forbids the token's type (or, Rains of Autumn / Put to the
    Sword, the special March +1 token itself) this round. A vassal's Raid/Support token is forbidden
    by "no Raid" and by "no Support" alike (review 2 of the Mother of Dragons digest)."""
    if token == VASSAL_RAID_SUPPORT and "support" in state.forbidden_order_types:
        return True
    return order_type(token) in state.forbidden_order_types or token in state.forbidden_order_types


def eligible_tokens(state: BoardState, house: str) -> Counter[str]:
    """BG-PLAN-05: tokens the house owns and that no Westeros card forbids this round (with Mother of
    Dragons its 3 Sea Order tokens too, MOD-SEA-05); a vassal's are its set of 4 Vassal Order tokens
    (MOD-VASSAL-11)."""
    if house in state.vassals:
        owned = Counter({t: 1 for t in VASSAL_TOKENS})
    else:
        owned = owned_tokens(state.settings.expansion)
    return Counter({t: n for t, n in owned.items() if not forbidden(state, t)})


def eligible_count(state: BoardState, house: str) -> int:
    """How many orders the house can actually place: regular tokens plus specials within its limit."""
    tokens = eligible_tokens(state, house)
    regular = sum(n for t, n in tokens.items() if not is_special(t))
    special = sum(n for t, n in tokens.items() if is_special(t))
    if house in state.vassals:  # MOD-VASSAL-08: up to two per vassal
        return min(regular, VASSAL_ORDERS_PER_VASSAL)
    return regular + min(special, special_order_limit(state, house))


def ordering_houses(state: BoardState) -> list[str]:
    """The houses whose orders are placed, in turn order: every house in the base game. With Mother
    of Dragons the player houses first, then (MOD-VASSAL-08) each commanded vassal with units on the
    board, in turn order, its orders placed by its commander."""
    order = state.turn_order()
    players = [h for h in order if h not in state.vassals]
    vassals = [h for h in order if h in state.commanders and areas_needing_orders(state, h)]
    return players + vassals


def needs_sequential_placement(state: BoardState) -> bool:
    """BG-PLAN-05: if any house has fewer eligible tokens than areas needing one, all houses place
    their orders one at a time in turn order."""
    players = [h for h in state.houses_in_play if h not in state.vassals]
    return any(eligible_count(state, h) < len(areas_needing_orders(state, h)) for h in players)


def current_sequential_house(state: BoardState) -> str | None:
    """In sequential placement, the first house in turn order that has not submitted yet."""
    for house in ordering_houses(state):
        if house not in state.planning.sealed:
            return house
    return None


def houses_still_to_submit(state: BoardState) -> list[str]:
    return [h for h in ordering_houses(state) if h not in state.planning.sealed]


def validate_vassal_orders(state: BoardState, vassal: str, orders: dict[str, str]) -> None:
    """MOD-VASSAL-08/11: up to two tokens of the vassal's set, each once, only in areas holding the
    vassal's units; any area may stay without an order. Westeros restrictions apply (review 2)."""
    needed = set(areas_needing_orders(state, vassal))
    for area, order in orders.items():
        if order not in VASSAL_TOKENS:
            raise RuleViolation(
                f"'{order}' is not a Vassal Order token: use {', '.join(VASSAL_TOKENS)}",
                rule="MOD-VASSAL-11",
                code="unknown_order",
            )
        if area not in needed:
            raise RuleViolation(f"{vassal} has no units in '{area}'", rule="MOD-VASSAL-08")
        if forbidden(state, order):
            raise RuleViolation(f"'{order}' is forbidden this round by a Westeros card", rule="MOD-VASSAL-11")
    if len(set(orders.values())) != len(orders):
        raise RuleViolation("a vassal's set holds one token of each kind", rule="MOD-VASSAL-11")
    if len(orders) > VASSAL_ORDERS_PER_VASSAL:
        raise RuleViolation(
            f"a vassal takes at most {VASSAL_ORDERS_PER_VASSAL} orders a round, not {len(orders)}",
            rule="MOD-VASSAL-08",
            code="too_many_orders",
        )


def validate_orders(state: BoardState, house: str, orders: dict[str, str]) -> None:
    """Check one house's assignment against BG-PLAN-02, BG-PLAN-04, BG-PLAN-05 and BG-ORDER-01 (with
    Mother of Dragons over all 18 tokens, sea tokens included, MOD-SEA-05; a vassal's against
    MOD-VASSAL-08/11)."""
    if house in state.vassals:
        validate_vassal_orders(state, house, orders)
        return
    needed = set(areas_needing_orders(state, house))
    owned = owned_tokens(state.settings.expansion)
    for area, order in orders.items():
        if order not in owned:
            raise RuleViolation(
                f"'{order}' is not an order token of this game", rule="BG-ORDER-01", code="unknown_order"
            )
        if area not in needed:
            raise RuleViolation(
                f"{house} has no units in '{area}', so it cannot take an order there",
                rule="BG-PLAN-02",
            )
        if forbidden(state, order):
            raise RuleViolation(f"'{order}' orders are forbidden this round (BG-WCARD-16)", rule="BG-PLAN-05")
    used = Counter(orders.values())
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


def assign_orders(state: BoardState, ctx: Context, house: str, orders: dict[str, str]) -> list[ev.Event]:
    """BG-PLAN-02/03: a house submits (or amends) its sealed orders, committed in public
    (:mod:`..sealed_inputs`)."""
    if state.phase != "planning" or state.step != "assign_orders":
        raise WrongPhase("orders are assigned only during the Planning phase's Assign Orders step", rule="BG-PLAN-01")
    if not houses_still_to_submit(state):
        raise WrongPhase("every house has submitted; the orders are being revealed", rule="BG-PLAN-06")
    if state.planning.sequential and house != (waiting_for := current_sequential_house(state)):
        raise NotYourTurn(f"orders are placed in turn order this round; waiting for {waiting_for}", rule="BG-PLAN-05")
    validate_orders(state, house, orders)
    return [submitted(state, ctx, state.version + 1, house, dict(sorted(orders.items())))]


def submitted(
    state: BoardState, ctx: Context, seq: int, house: str, orders: dict[str, str], by_default: bool = False
) -> ev.OrdersSubmitted:
    """The submission event (number ``seq``) of ``house``'s sealed ``orders``, with its commitment."""
    salt, commitment = seal(state, ctx, seq, ORDERS, house, orders)
    return ev.OrdersSubmitted(
        house=house,
        orders=orders,
        by_default=by_default,
        salt=salt,
        commitment=commitment,
        commander=state.commanders.get(house),
    )


def reveal_orders(state: BoardState, deadline: str) -> list[ev.Event]:
    """BG-PLAN-06: once every house has submitted, all orders turn face up together.
    The Messenger Raven step follows (BG-PLAN-07)."""
    if state.step != "assign_orders" or houses_still_to_submit(state):
        raise WrongPhase("orders are revealed only once every house has submitted", rule="BG-PLAN-06")
    revealed = {h: dict(state.planning.sealed[h]) for h in state.turn_order() if h in state.planning.sealed}
    salts = {h: state.planning.salts[h] for h in revealed if h in state.planning.salts}
    return [
        ev.OrdersRevealed(orders=revealed, salts=salts),
        ev.StepBegan(phase="planning", step="messenger_raven", round=state.round, deadline=deadline),
    ]


def assign_orders_step(state: BoardState, ctx: Context, sequential: bool = False) -> ev.StepBegan:
    """BG-PLAN-02/05: the Assign Orders step opens (again, for the next house in sequential
    placement) with a fresh deadline."""
    return ev.StepBegan(
        phase="planning",
        step="assign_orders",
        round=state.round,
        deadline=ctx.deadline(state.settings.decision_timeout_s),
        sequential=sequential,
    )
