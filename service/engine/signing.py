"""The deployment's signing key: Ed25519 signatures over chain heads (``domain/core/head.py``).

Every replay export carries its game's chain head (version, hash of the last event) signed with
this key, so an export cannot be truncated or re-hashed without the verifier noticing
(``citadel-verify``). The public key is served at ``GET /v1/signing-key``; organizers keep it.

Where the key comes from (read once per process, by :class:`SigningKeys`):

* ``CITADEL_SIGNING_KEY`` set: the key itself as base64 of its 32-byte Ed25519 seed, or the path of
  a file holding either that base64 text or a PEM private key (PKCS#8, ``openssl genpkey -algorithm
  ed25519``). A malformed value stops the process at start. This is the production setting: the key
  stays with the deployment's secrets, not in the data store.
* unset (development, tests): a key is generated once and kept in Redis under ``citadel:signing_key``
  (``SET NX``, so every process of the deployment shares it). Anyone who can read that Redis could
  sign, which is why production configures the key.

The library is ``cryptography`` (pyca): maintained, audited, wheels for every platform, and its
Ed25519 is OpenSSL's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.core.head import ALGORITHM, ChainHead, SignedHead, signed_bytes
from service.store.keys import SIGNING_KEY


class SigningKeyError(ValueError):
    pass


def key_id_of(public_raw: bytes) -> str:
    """``ed25519:`` and the first 16 hex digits of sha256 over the raw 32-byte public key."""
    return "ed25519:" + hashlib.sha256(public_raw).hexdigest()[:16]


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey

    @property
    def public_raw(self) -> bytes:
        return self.private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @property
    def public_pem(self) -> str:
        return (
            self.private.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    @property
    def key_id(self) -> str:
        return key_id_of(self.public_raw)

    def sign(self, game_id: str, kind: str, version: int, head_hash: str) -> SignedHead:
        head = ChainHead(game_id=game_id, kind=kind, version=version, head_hash=head_hash, key_id=self.key_id)
        sig = self.private.sign(signed_bytes(head))
        return SignedHead(**_fields(head), algorithm=ALGORITHM, signature=base64.b64encode(sig).decode())


def _fields(head: ChainHead) -> dict[str, Any]:
    return {f: getattr(head, f) for f in head.__struct_fields__}


def _from_seed_b64(text: str) -> Ed25519PrivateKey:
    try:
        seed = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SigningKeyError("CITADEL_SIGNING_KEY: not base64 and not a file") from None
    if len(seed) != 32:
        raise SigningKeyError(f"CITADEL_SIGNING_KEY: an Ed25519 seed has 32 bytes, not {len(seed)}")
    return Ed25519PrivateKey.from_private_bytes(seed)


def parse_key(configured: str) -> Ed25519PrivateKey:
    """``CITADEL_SIGNING_KEY``: base64 of the 32-byte seed, or a file with that text or a PEM key."""
    if os.path.isfile(configured):
        data = Path(configured).read_bytes()
        if data.lstrip().startswith(b"-----BEGIN"):
            key = serialization.load_pem_private_key(data, password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise SigningKeyError(f"CITADEL_SIGNING_KEY: {configured} holds a key that is not Ed25519")
            return key
        return _from_seed_b64(data.decode(errors="replace"))
    return _from_seed_b64(configured)


class SigningKeys:
    """The deployment's signer. A configured key is read when the process starts (a malformed one
    stops it); otherwise the key kept in Redis is read (or created, once for the whole deployment)
    the first time a signature is needed, so a process starts even while Redis does not answer."""

    def __init__(self, redis: Any, configured: str | None) -> None:
        self._redis = redis
        self._signer = Signer(parse_key(configured)) if configured else None

    async def signer(self) -> Signer:
        if self._signer is None:
            fresh = base64.b64encode(os.urandom(32)).decode()
            await self._redis.set(SIGNING_KEY, fresh, nx=True)
            stored = await self._redis.get(SIGNING_KEY)
            self._signer = Signer(_from_seed_b64(stored.decode() if isinstance(stored, bytes) else str(stored)))
        return self._signer
