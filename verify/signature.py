"""Public keys and the Ed25519 check of a replay's signed chain head (``domain/core/head.py``).

``--public-key`` takes what ``GET /v1/signing-key`` gives, in any of its forms: the base64 of the
raw 32-byte key (``public_key``), the PEM (``public_key_pem``), or a file holding either, or the
whole JSON answer saved to a file.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.core.head import ALGORITHM, SignedHead, signed_bytes


class PublicKeyError(ValueError):
    """The given public key cannot be read."""


def key_id_of(public_raw: bytes) -> str:
    """``ed25519:`` and the first 16 hex digits of sha256 over the raw public key (as the service names it)."""
    return "ed25519:" + hashlib.sha256(public_raw).hexdigest()[:16]


def load_public_key(arg: str) -> Ed25519PublicKey:
    """The key in ``arg``: base64, PEM, or a file with either or with the JSON of ``GET /v1/signing-key``."""
    text = arg
    if os.path.isfile(arg):
        try:
            text = Path(arg).read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise PublicKeyError(f"cannot read {arg}: {e}") from None
    text = text.strip()
    if text.startswith("{"):
        try:
            doc = json.loads(text)
            text = str(doc.get("public_key") or doc.get("public_key_pem") or "")
        except (ValueError, AttributeError):
            raise PublicKeyError("the key file is JSON but not the answer of GET /v1/signing-key") from None
    if text.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text.encode())
        except ValueError as e:
            raise PublicKeyError(f"not a PEM public key: {e}") from None
        if not isinstance(key, Ed25519PublicKey):
            raise PublicKeyError("the PEM key is not an Ed25519 key")
        return key
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise PublicKeyError("neither base64, PEM, nor a readable file") from None
    if len(raw) != 32:
        raise PublicKeyError(f"an Ed25519 public key has 32 bytes, not {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def raw_of(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def check(head: SignedHead, key: Ed25519PublicKey) -> str | None:
    """None when ``head`` is signed by ``key``, else why not."""
    if head.algorithm != ALGORITHM:
        return f"the head is signed with {head.algorithm!r}, not {ALGORITHM}"
    key_id = key_id_of(raw_of(key))
    if head.key_id != key_id:
        return f"the head names key {head.key_id}, not the given key {key_id}"
    try:
        sig = base64.b64decode(head.signature, validate=True)
    except (binascii.Error, ValueError):
        return "the signature is not base64"
    try:
        key.verify(sig, signed_bytes(head.head()))
    except InvalidSignature:
        return "the signature does not match the signed head (game, kind, version, head hash): the head was altered"
    return None
