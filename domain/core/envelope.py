"""The stored form of an event: its body plus sequence, time, schema and its link in the hash chain.

``seq`` is the game's version after this event (the first event is 1). ``hash`` covers the
canonical JSON of ``seq``, ``ts``, ``schema``, ``prev_hash`` and the event body, so any edit to a
stored event, or a removed or reordered one, is detected by :func:`verify_chain`.
The body is kept as raw JSON so this module serves every game.
"""

from __future__ import annotations

from typing import Iterable

import msgspec

from .hashing import GENESIS, chain_hash


class _Signed(msgspec.Struct, frozen=True):
    seq: int
    ts: str
    schema: int
    prev_hash: str
    event: msgspec.Raw


class Envelope(msgspec.Struct, frozen=True):
    seq: int
    ts: str
    schema: int
    prev_hash: str
    hash: str
    event: msgspec.Raw


_enc = msgspec.json.Encoder()


def seal(seq: int, ts: str, schema: int, prev_hash: str, event_json: bytes) -> Envelope:
    raw = msgspec.Raw(event_json)
    h = chain_hash(prev_hash, _enc.encode(_Signed(seq, ts, schema, prev_hash, raw)))
    return Envelope(seq=seq, ts=ts, schema=schema, prev_hash=prev_hash, hash=h, event=raw)


class ChainError(ValueError):
    pass


def verify_chain(envelopes: Iterable[Envelope], prev_hash: str = GENESIS, first_seq: int = 1) -> str:
    """Check sequence numbers and every hash link; returns the head hash. Raises ChainError."""
    expected_seq = first_seq
    for e in envelopes:
        if e.seq != expected_seq:
            raise ChainError(f"event {expected_seq} is missing (found {e.seq})")
        if e.prev_hash != prev_hash:
            raise ChainError(f"event {e.seq} does not link to the event before it")
        h = chain_hash(prev_hash, _enc.encode(_Signed(e.seq, e.ts, e.schema, e.prev_hash, e.event)))
        if h != e.hash:
            raise ChainError(f"event {e.seq} was altered (hash mismatch)")
        prev_hash = h
        expected_seq += 1
    return prev_hash
