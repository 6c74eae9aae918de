"""Forging replay exports the way an attacker would: edit events, then recompute every hash.

Shared by the domain tests of the audit (tests/domain/board/test_audit_rederive.py) and the API
tests of ``citadel-verify`` (tests/api/test_verify_cli.py). An export is handled as plain JSON
(``dict``), as a file on disk would be.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import msgspec

from domain.core.envelope import Envelope, seal
from domain.core.hashing import GENESIS


def rehash(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute ``prev_hash`` and ``hash`` of every event in place (the chain then verifies)."""
    prev = GENESIS
    for e in events:
        env = seal(e["seq"], e["ts"], e["schema"], prev, json.dumps(e["event"]).encode())
        e["prev_hash"], e["hash"] = prev, env.hash
        prev = env.hash
    return events


def envelopes(events: list[dict[str, Any]]) -> list[Envelope]:
    return msgspec.json.decode(json.dumps(events).encode(), type=list[Envelope])


def as_json(envs: list[Envelope]) -> list[dict[str, Any]]:
    return json.loads(msgspec.json.encode(envs))


def index_of(events: list[dict[str, Any]], type_: str, pred: Callable[[dict[str, Any]], bool] = lambda e: True) -> int:
    """The index of the first event of this type (and predicate)."""
    return next(i for i, e in enumerate(events) if e["event"]["type"] == type_ and pred(e["event"]))


def forged(events: list[dict[str, Any]], edit: Callable[[list[dict[str, Any]]], object]) -> list[dict[str, Any]]:
    """A copy of ``events`` edited by ``edit`` (in place) and re-hashed."""
    out = copy.deepcopy(events)
    edit(out)
    return rehash(out)


def change_winner(events: list[dict[str, Any]]) -> str:
    """``game_ended.winner`` set to another house; returns the true winner."""
    ended = events[index_of(events, "game_ended")]["event"]
    true = ended["winner"]
    ended["winner"] = next(s["house"] for s in ended["standings"] if s["house"] != true)
    return true


def set_power_gain(events: list[dict[str, Any]], amount: int = 15, reason: str | None = None) -> int:
    """The first ``power_gained`` (for ``reason``, if given) set to ``amount``; returns its index."""
    i = index_of(events, "power_gained", lambda e: reason is None or e["reason"] == reason)
    events[i]["event"]["amount"] = amount
    return i


def swap_combat_result(events: list[dict[str, Any]]) -> int:
    """The first ``combat_decided``'s winner and loser swapped; returns its index."""
    i = index_of(events, "combat_decided")
    e = events[i]["event"]
    e["winner"], e["loser"] = e["loser"], e["winner"]
    return i


def change_revealed_order(events: list[dict[str, Any]]) -> int:
    """In the first ``orders_revealed``, a house's orders in two areas swapped; returns its index."""
    i = index_of(
        events, "orders_revealed", lambda e: any(len(o) >= 2 and len(set(o.values())) > 1 for o in e["orders"].values())
    )
    orders = events[i]["event"]["orders"]
    house = next(h for h in sorted(orders) if len(set(orders[h].values())) > 1)
    a, b = sorted(orders[house])[:2]
    if orders[house][a] == orders[house][b]:
        b = next(x for x in sorted(orders[house]) if orders[house][x] != orders[house][a])
    orders[house][a], orders[house][b] = orders[house][b], orders[house][a]
    return i


def swap_commitments(events: list[dict[str, Any]], type_: str = "orders_submitted") -> tuple[int, int]:
    """The commitments of the first two submissions of ``type_`` by different houses swapped (the
    sealed inputs of one round); returns both indexes."""
    i = index_of(events, type_)
    j = next(
        k
        for k in range(i + 1, len(events))
        if events[k]["event"]["type"] == type_ and events[k]["event"]["house"] != events[i]["event"]["house"]
    )
    a, b = events[i]["event"], events[j]["event"]
    a["commitment"], b["commitment"] = b["commitment"], a["commitment"]
    return i, j


def drop_reveal_salt(events: list[dict[str, Any]], type_: str = "orders_revealed") -> tuple[int, str]:
    """The salt of one house (the first by name) removed from the first reveal of ``type_``: the
    reveal no longer opens that house's commitment. Returns the index and the house."""
    i = index_of(events, type_, lambda e: bool(e.get("salts")))
    house = sorted(events[i]["event"]["salts"])[0]
    del events[i]["event"]["salts"][house]
    return i, house


def last_submission(events: list[dict[str, Any]], before: int, type_: str, house: str) -> int:
    """The index of ``house``'s last submission of ``type_`` before index ``before``."""
    return max(k for k in range(before) if events[k]["event"]["type"] == type_ and events[k]["event"]["house"] == house)


FORGERIES: dict[str, Callable[[list[dict[str, Any]]], object]] = {
    "winner": change_winner,
    "combat_result": swap_combat_result,
    "power_gain_15": set_power_gain,
    "revealed_order": change_revealed_order,
}
"""The edits a forger with the deployment's key would make, by name."""
WHERE = {
    "winner": "game_ended",
    "combat_result": "combat_decided",
    "power_gain_15": "power_gained",
    "revealed_order": "orders_revealed",
}
"""The event type each of :data:`FORGERIES` edits (where the verifier must find the divergence)."""
