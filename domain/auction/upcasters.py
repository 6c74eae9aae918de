"""The auction's schema history: how to read events written by older code.

This is the test game's own (small, deliberate) schema history, kept to exercise the upcast path of
:mod:`domain.core.upcast` end to end with a real game:

* schema 1 -> 2: ``auction_bid_sealed`` carried the bid under the field name ``value``; schema 2
  calls it ``amount``. :func:`bid_value_renamed_amount` renames the field on the plain JSON dict.

Stored events are never rewritten; :class:`~domain.core.upcast.EventCodec` applies these on read.
"""

from __future__ import annotations

from typing import Any

from ..core.upcast import Upcaster


def bid_value_renamed_amount(event: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2: ``auction_bid_sealed.value`` became ``amount``; other events are unchanged."""
    if event.get("type") != "auction_bid_sealed" or "value" not in event:
        return event
    out = {k: v for k, v in event.items() if k != "value"}
    out["amount"] = event["value"]
    return out


UPCASTERS: dict[int, Upcaster] = {1: bid_value_renamed_amount}
"""``UPCASTERS[n]`` turns a schema-``n`` event into schema ``n + 1``."""
