"""The stored form of an event: its body plus sequence, time, schema and its link in the hash chain.

``seq`` is the game's version after this event (the first event is 1). ``hash`` covers the
canonical JSON of ``seq``, ``ts``, ``schema``, ``prev_hash`` and the event body, so any edit to a
stored event, or a removed or reordered one, is detected by :func:`verify_chain`.
The body is kept as raw JSON so this module serves every game. *Canonical* means compact JSON with
object keys sorted, so an export that was pretty-printed or re-serialized still verifies.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

import msgspec

from .hashing import GENESIS, chain_hash


class Envelope(msgspec.Struct, frozen=True):
    seq: int
    ts: str
    schema: int
    prev_hash: str
    hash: str
    event: msgspec.Raw


_enc = msgspec.json.Encoder(order="sorted")


def _canonical(seq: int, ts: str, schema: int, prev_hash: str, event_json: bytes) -> bytes:
    body = msgspec.json.decode(event_json)
    return _enc.encode({"seq": seq, "ts": ts, "schema": schema, "prev_hash": prev_hash, "event": body})


def seal(seq: int, ts: str, schema: int, prev_hash: str, event_json: bytes) -> Envelope:
    h = chain_hash(prev_hash, _canonical(seq, ts, schema, prev_hash, event_json))
    return Envelope(seq=seq, ts=ts, schema=schema, prev_hash=prev_hash, hash=h, event=msgspec.Raw(event_json))


class ChainError(ValueError):
    pass


def verify_chain(
    envelopes: Iterable[Envelope],
    prev_hash: str = GENESIS,
    first_seq: int = 1,
    redacted: AbstractSet[int] = frozenset(),
) -> str:
    """Check sequence numbers and every hash link; returns the head hash. Raises ChainError.

    The events numbered in ``redacted`` were partly hidden from the export's reader: their link
    (``prev_hash``) is checked, their own hash cannot be recomputed and is taken as recorded (the
    next event's hash covers it, and the signed head covers the last)."""
    expected_seq = first_seq
    for e in envelopes:
        if e.seq != expected_seq:
            raise ChainError(f"event {expected_seq} is missing (found {e.seq})")
        if e.prev_hash != prev_hash:
            raise ChainError(f"event {e.seq} does not link to the event before it")
        h = (
            e.hash
            if e.seq in redacted
            else chain_hash(prev_hash, _canonical(e.seq, e.ts, e.schema, e.prev_hash, bytes(e.event)))
        )
        if h != e.hash:
            raise ChainError(f"event {e.seq} was altered (hash mismatch)")
        prev_hash = h
        expected_seq += 1
    return prev_hash
