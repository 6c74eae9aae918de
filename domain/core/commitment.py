"""Commit–reveal for sealed inputs: a public promise now, the content it binds later.

A sealed input (a house's orders, a bid of Power, a House card chosen face down) must stay hidden
from the other players until every one is in, and nobody may change theirs after seeing another's.
The hash chain already makes the *stored* events tamper-evident; commit–reveal lets anyone who only
saw the public stream check it as well:

1. **Commit.** When a seat submits, the game draws a fresh ``salt`` (256 bits, hex) and publishes
   ``commitment = sha256(canonical([SCHEME, kind, house, salt, content]))`` in the submission
   event, visible to every reader at once. The content and the salt are hidden by the redaction.
2. **Reveal.** The reveal event publishes every content together with its salt.
3. **Check.** Anyone recomputes :func:`commit` from the revealed content and salt and compares it
   with the commitment published earlier (:func:`opens`). A changed content, a swapped
   commitment or a dropped salt no longer matches.

The salt makes the commitment *hiding*: without it, a bid of 0..20 Power or a House card out of a
hand of seven could be found by hashing every candidate. The domain has no randomness of its own,
so the salt is drawn from the game's seeded stream for one purpose per submission
(:func:`salt_purpose`): unguessable while the seed is secret, re-derivable by the verifier once the
seed is revealed at the end (so the service could not have chosen salts either). sha256 makes the
commitment *binding*: no other content and salt give the same hash.

``canonical`` is compact JSON with object keys sorted (the encoding the hash chain uses); ``kind``
(``orders``, ``bid``, ``house_card``) and ``house`` bind a commitment to its place, so one house's
commitment cannot stand for another's. No card (BG-COMBAT-10) is committed as ``null``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from .rng import SeededRng

SCHEME = "citadel-commit/1"
"""The first element hashed: names this scheme, so a commitment can never be read as another hash."""

SALT_BITS = 256

_enc = msgspec.json.Encoder(order="sorted")


def salt_purpose(seq: int, house: str) -> str:
    """The random stream a submission's salt is drawn from: the submission event's own sequence
    number (unique in the game) and its house, e.g. ``salt/42/stark``."""
    return f"salt/{seq}/{house}"


def draw_salt(rng: SeededRng) -> str:
    """A fresh salt: :data:`SALT_BITS` bits from the stream, as lowercase hex."""
    return rng.token_hex(SALT_BITS // 8)


def canonical(kind: str, house: str, salt: str, content: Any) -> bytes:
    """The bytes a commitment hashes (module docstring)."""
    return _enc.encode([SCHEME, kind, house, salt, content])


def commit(kind: str, house: str, salt: str, content: Any) -> str:
    """The public commitment to ``content`` under ``salt``: sha256 of :func:`canonical`, in hex."""
    return hashlib.sha256(canonical(kind, house, salt, content)).hexdigest()


def opens(commitment: str, kind: str, house: str, salt: str, content: Any) -> bool:
    """Whether the revealed ``content`` and ``salt`` open ``commitment``."""
    return commit(kind, house, salt, content) == commitment
