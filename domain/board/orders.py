"""Order tokens (BG-ORDER-01, MOD-SEA-01/04/05).

Each house owns 15 order tokens: 10 regular and 5 special (starred). Their ids are those of the
board facts (``march_plus_1_special``...). A token's *type* (march, defense, support, raid,
consolidate_power) is what raids, Westeros restrictions and the action phase look at; its
*bonus* is the number printed on it.

With Mother of Dragons each house also owns 3 **Sea Order tokens** (MOD-SEA-01/04): Sea March -1,
Sea Support +0 and Iron Bank, none of them special, so a house has 18 tokens (MOD-SEA-05). They are
placed like any order; the Action phase resolves them only at sea or in a port with a Ship (a sea
order on land is removed before the first order resolves, MOD-SEA-02: :mod:`.sea_orders`).
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from . import board_data

OrderType = Literal["march", "defense", "support", "raid", "consolidate_power", "iron_bank"]
"""``iron_bank``: the Iron Bank sea order (MOD-SEA-03); without Targaryen there is no Iron Bank, so
no step resolves it (Review 2 "MOD-SEA-05 without Targaryen")."""


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


SEA_ORDER_TOKENS: dict[str, OrderToken] = {
    "sea_march_minus_1": OrderToken(id="sea_march_minus_1", type="march", bonus=-1, special=False, copies=1),
    "sea_support": OrderToken(id="sea_support", type="support", bonus=0, special=False, copies=1),
    "iron_bank": OrderToken(id="iron_bank", type="iron_bank", bonus=0, special=False, copies=1),
}
"""MOD-SEA-04: the three Sea Order tokens of each house (Mother of Dragons), none special."""
assert tuple(SEA_ORDER_TOKENS) == board_data.mother_of_dragons().sea_orders, "MOD-SEA-04: the facts' sea tokens"

MOTHER_OF_DRAGONS = "mother_of_dragons"


def owned_tokens(expansion: str | None = None) -> Counter[str]:
    """The full set of tokens a house owns, as a multiset of token ids: the 15 of BG-ORDER-01, and
    with Mother of Dragons the 3 Sea Order tokens too, 18 in all (MOD-SEA-05)."""
    owned = Counter({t.id: t.copies for t in ORDER_TOKENS.values()})
    if expansion == MOTHER_OF_DRAGONS:
        owned.update({t.id: t.copies for t in SEA_ORDER_TOKENS.values()})
    return owned


def is_sea_order(order_id: str) -> bool:
    """MOD-SEA-01: one of the Sea Order tokens."""
    return order_id in SEA_ORDER_TOKENS


VASSAL_MARCH = "vassal_march_0"
VASSAL_RAID_SUPPORT = "vassal_raid_or_support_plus_1"
VASSAL_SUPPORT = "vassal_support_plus_1"
"""The Raid/Support token once its commander chose not to raid with it: a Support +1 (MOD-VASSAL-11)."""
VASSAL_DEFENSE_MUSTER = "vassal_defense_plus_1_with_muster"
VASSAL_DEFENSE_1 = "vassal_defense_plus_1"
"""The Defense/Muster token once the Consolidate Power step has passed it: a Defense +1 (MOD-VASSAL-11/12)."""
VASSAL_DEFENSE_3 = "vassal_defense_plus_3"

#: MOD-VASSAL-11: a vassal's set of 4 tokens, one of each (ids: ``vassal_`` + the board facts' ids),
#: and the two faces a dual token shows once its first use has passed.
VASSAL_TOKENS: dict[str, OrderToken] = {
    VASSAL_MARCH: OrderToken(id=VASSAL_MARCH, type="march", bonus=0, special=False, copies=1),
    VASSAL_RAID_SUPPORT: OrderToken(id=VASSAL_RAID_SUPPORT, type="raid", bonus=1, special=False, copies=1),
    VASSAL_DEFENSE_MUSTER: OrderToken(id=VASSAL_DEFENSE_MUSTER, type="defense", bonus=1, special=False, copies=1),
    VASSAL_DEFENSE_3: OrderToken(id=VASSAL_DEFENSE_3, type="defense", bonus=3, special=False, copies=1),
}
VASSAL_FACES: dict[str, OrderToken] = {
    VASSAL_SUPPORT: OrderToken(id=VASSAL_SUPPORT, type="support", bonus=1, special=False, copies=0),
    VASSAL_DEFENSE_1: OrderToken(id=VASSAL_DEFENSE_1, type="defense", bonus=1, special=False, copies=0),
}
assert sorted(f"vassal_{t}" for t in board_data.mother_of_dragons().vassal_orders) == sorted(VASSAL_TOKENS)
VASSAL_ORDERS_PER_VASSAL = 2
"""MOD-VASSAL-08: up to two of the set's four tokens per vassal each round."""

ALL_TOKENS: dict[str, OrderToken] = {**ORDER_TOKENS, **SEA_ORDER_TOKENS, **VASSAL_TOKENS, **VASSAL_FACES}
"""Every token kind of any game, by id: what the lookups below read."""


def token(order_id: str) -> OrderToken:
    """Any order token on the board: a house's (BG-ORDER-01), a Sea Order token (MOD-SEA-04) or a
    vassal's (MOD-VASSAL-11)."""
    return ALL_TOKENS[order_id]


def is_support(order_id: str) -> bool:
    """A Support order, or a vassal's Raid/Support token, which supports until it raids (MOD-VASSAL-11)."""
    return order_id == VASSAL_RAID_SUPPORT or order_type(order_id) == "support"


def is_special(order_id: str) -> bool:
    return ALL_TOKENS[order_id].special


def order_type(order_id: str) -> OrderType:
    return ALL_TOKENS[order_id].type
