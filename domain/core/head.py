"""The signed chain head: what the service vouches for in a replay export.

The hash chain (:mod:`.envelope`) makes any edit of an event visible, but only relative to a head
one trusts: a forger who recomputes every hash, or drops the last events, has a chain that still
verifies. So the service signs the head of each game it exports: the game, its kind, the version
(how many events) and the hash of the last event, with the deployment's Ed25519 key
(``service/engine/signing.py``). The verifier (``citadel-verify``, :mod:`verify`) checks the
signature against the public key the organizer fetched from ``GET /v1/signing-key`` and then that
the export's events end exactly at that head.

This module holds only the data and the exact bytes that are signed (no cryptography: the domain
stays pure). The signed bytes are :data:`DOMAIN` followed by the canonical JSON (sorted keys, compact)
of :class:`ChainHead`.
"""

from __future__ import annotations

import msgspec

DOMAIN = b"citadel/chain-head/v1\n"
"""Prefix of the signed bytes: a signature over a head can never be mistaken for another message."""

ALGORITHM = "Ed25519"

_enc = msgspec.json.Encoder(order="sorted")


class ChainHead(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's chain at one version: ``head_hash`` is the ``hash`` of its event number ``version``."""

    game_id: str
    kind: str
    version: int
    head_hash: str
    key_id: str
    """Which of the deployment's keys signed it (``GET /v1/signing-key``)."""


class SignedHead(ChainHead, frozen=True, forbid_unknown_fields=True):
    """A :class:`ChainHead` with its signature (base64 of the 64-byte Ed25519 signature)."""

    signature: str
    algorithm: str = ALGORITHM

    def head(self) -> ChainHead:
        return ChainHead(
            game_id=self.game_id, kind=self.kind, version=self.version, head_hash=self.head_hash, key_id=self.key_id
        )


def signed_bytes(head: ChainHead) -> bytes:
    """The exact bytes the service signs for ``head``."""
    return DOMAIN + _enc.encode(head)
