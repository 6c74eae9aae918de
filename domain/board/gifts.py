"""Mother of Dragons: gifting Power tokens (MOD-GIFT-01..03).

MOD-GIFT-01 -- a player may give Power tokens to another player at any time: the giver puts N of its
available tokens into the Power Pool, and the receiver takes N of its own from the Pool.
MOD-GIFT-02 -- during a combat, only in the "Call for Support" step (our ``declare_support``).
MOD-GIFT-03 -- a gift is capped by the receiver's tokens left in the Pool (BG-POWER-01): only what the
receiver can take leaves the giver. A gift of which the receiver can take nothing is refused.

Derived points (docs/mother-of-dragons.md):

* only player houses give and receive: a vassal can never receive or spend Power (MOD-VASSAL-26);
* "at any time" is while the game runs: from the Planning phase of round 1 (once houses are chosen)
  to the end;
* Power sealed in a bid that is not revealed yet (BG-COK-03, BG-WILD-01) cannot be given away, so a
  sealed bid never exceeds the bidder's Power at the reveal.

A gift is never a pending decision: nobody waits for it and it has no deadline. The decisions a seat
reads (``GET /decisions``) list it as an always-available option (:func:`gift_options`) while the
seat could give something.
"""

from __future__ import annotations

import msgspec

from ..core.errors import RuleViolation, WrongPhase
from . import mod_events as mev
from . import power
from .commands import GiftPower
from .mother_of_dragons import is_mother_of_dragons
from .state import BoardState
from .westeros.evolve import open_bidding

RUNNING = ("planning", "action", "westeros")
CALL_FOR_SUPPORT = "declare_support"
DEFAULT_TEXT = "nothing: a gift is optional and never awaited"


class GiftPowerOptions(msgspec.Struct, tag_field="kind", tag="gift_power"):
    """Optional, at any time (MOD-GIFT-01): send ``{"type": "gift_power", "to": house, "amount": n}``
    with ``1 <= n <=`` the listed maximum for that house."""

    receivers: dict[str, int]
    """player house -> the most it can take now: your giftable Power, capped by its tokens left in
    the Power Pool (MOD-GIFT-03)."""


def gift_window(state: BoardState) -> str | None:
    """Why no gift can be made now (MOD-GIFT-01/02), or None when one can."""
    if not is_mother_of_dragons(state):
        return "gifts of Power belong to Mother of Dragons (MOD-GIFT-01)"
    if state.phase not in RUNNING:
        return "Power is given only while the game runs"
    combat = state.action.combat if state.action is not None else None
    if combat is not None and state.step != CALL_FOR_SUPPORT:
        return "during a combat Power is given only in the Call for Support step (MOD-GIFT-02)"
    return None


def sealed_bid(state: BoardState, house: str) -> int:
    """The Power ``house`` has sealed in a bid not revealed yet (0 when none)."""
    bidding = open_bidding(state.westeros)
    return bidding.sealed.get(house, 0) if bidding is not None else 0


def giftable(state: BoardState, house: str) -> int:
    """The available Power ``house`` may give: all of it but what a sealed bid holds."""
    return max(0, state.houses[house].power - sealed_bid(state, house))


def receivers(state: BoardState, house: str) -> list[str]:
    """The player houses ``house`` may give to (MOD-GIFT-01, MOD-VASSAL-26), in turn order."""
    return [h for h in state.turn_order() if h != house and h not in state.vassals and h in state.houses]


def gift_power(state: BoardState, house: str, command: GiftPower) -> list[mev.PowerGifted]:
    """MOD-GIFT-01..03: ``house`` gives up to ``command.amount`` Power to ``command.to``."""
    why = gift_window(state)
    if why is not None:
        if not is_mother_of_dragons(state):
            raise RuleViolation(why, rule="MOD-GIFT-01", code="gifts_not_offered")
        raise WrongPhase(why, rule="MOD-GIFT-02", code="gift_not_now")
    to = command.to
    if to == house:
        raise RuleViolation("a house cannot give Power to itself", rule="MOD-GIFT-01", code="gift_to_self")
    if to in state.vassals:
        raise RuleViolation(
            f"{to} is a vassal: vassals never receive Power (MOD-VASSAL-26)", rule="MOD-GIFT-01", code="gift_to_vassal"
        )
    if to not in receivers(state, house):
        raise RuleViolation(f"'{to}' is not a player house in this game", rule="MOD-GIFT-01", code="unknown_house")
    can_give = giftable(state, house)
    if command.amount > can_give:
        held = sealed_bid(state, house)
        extra = f" ({held} are sealed in your bid)" if held else ""
        raise RuleViolation(
            f"{house} has {can_give} Power it may give{extra}, not {command.amount}",
            rule="MOD-GIFT-01",
            code="not_enough_power",
        )
    amount = min(command.amount, power.pool(state, to))
    if amount <= 0:
        raise RuleViolation(
            f"{to} has no Power token left in the Power Pool to take (MOD-GIFT-03)",
            rule="MOD-GIFT-03",
            code="receiver_pool_empty",
        )
    return [mev.PowerGifted(house=house, to=to, amount=amount, requested=command.amount)]


def gift_options(state: BoardState, house: str) -> GiftPowerOptions | None:
    """The gifts ``house`` could make now, or None when it can make none."""
    if gift_window(state) is not None or house not in state.houses or house in state.vassals:
        return None
    mine = giftable(state, house)
    out = {h: n for h in receivers(state, house) if (n := min(mine, power.pool(state, h))) > 0}
    return GiftPowerOptions(receivers=out) if out else None
