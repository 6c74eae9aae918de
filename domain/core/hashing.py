"""The tamper-evident hash chain over a game's events.

Each stored event carries ``prev_hash`` (the hash of the event before it, or :data:`GENESIS` for the
first) and its own ``hash = sha256(prev_hash || canonical bytes of the event body and metadata)``.
Changing, removing or reordering any event breaks every hash after it, which
:func:`verify_chain` detects offline.
"""

from __future__ import annotations

import hashlib

GENESIS = "0" * 64


def chain_hash(prev_hash: str, canonical: bytes) -> str:
    h = hashlib.sha256(prev_hash.encode())
    h.update(b"\n")
    h.update(canonical)
    return h.hexdigest()
