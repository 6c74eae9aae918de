"""Order tokens (BG-ORDER-01).

Each house owns 15 order tokens: 10 regular and 5 special (starred). Their ids are those of the
board facts (``march_plus_1_special``...). A token's *type* (march, defense, support, raid,
consolidate_power) is what raids, Westeros restrictions and the action phase look at; its
*bonus* is the number printed on it.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from . import board_data

OrderType = Literal["march", "defense", "support", "raid", "consolidate_power"]


class OrderToken(msgspec.Struct, frozen=True):
    id: str
    type: OrderType
    bonus: int
    special: bool
    copies: int


def _token(id: str) -> OrderToken:
    copies = board_data.setup().order_tokens[id]
    special = id.endswith("_special")
    base = id.removesuffix("_special")
    typ: OrderType
    if base.startswith("march"):
        typ, bonus = "march", {"march_minus_1": -1, "march_0": 0, "march_plus_1": 1}[base]
    elif base.startswith("defense"):
        typ, bonus = "defense", int(base.rsplit("_", 1)[1])
    elif base.startswith("support"):
        typ, bonus = "support", int(base.rsplit("_", 1)[1])
    elif base.startswith("raid"):
        typ, bonus = "raid", 0
    else:
        typ, bonus = "consolidate_power", 0
    return OrderToken(id=id, type=typ, bonus=bonus, special=special, copies=copies)


#: Every token kind a house owns, by id, with the number of copies of it (BG-ORDER-01).
ORDER_TOKENS: dict[str, OrderToken] = {t: _token(t) for t in board_data.setup().order_tokens}

TOKENS_PER_HOUSE = sum(t.copies for t in ORDER_TOKENS.values())
assert TOKENS_PER_HOUSE == 15, "BG-ORDER-01: each house has 15 order tokens"
assert sum(t.copies for t in ORDER_TOKENS.values() if t.special) == 5


def owned_tokens() -> Counter[str]:
    """The full set of tokens a house owns, as a multiset of token ids."""
    return Counter({t.id: t.copies for t in ORDER_TOKENS.values()})


def is_special(order_id: str) -> bool:
    return ORDER_TOKENS[order_id].special


def order_type(order_id: str) -> OrderType:
    return ORDER_TOKENS[order_id].type
