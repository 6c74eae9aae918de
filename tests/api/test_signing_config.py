"""The deployment's signing key (service/engine/signing.py): ``CITADEL_SIGNING_KEY`` as base64 of
the seed, as a file with that text or a PEM key, or generated once in Redis; the signature it
makes is the one ``citadel-verify`` checks (verify/signature.py)."""

from __future__ import annotations

import asyncio
import base64

import pytest
import redis.asyncio as aioredis
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.engine.signing import Signer, SigningKeyError, SigningKeys, parse_key
from service.store.keys import SIGNING_KEY
from verify import signature


def _seed(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())


def test_the_key_is_read_from_base64_a_seed_file_or_a_pem_file(tmp_path):
    key = Ed25519PrivateKey.generate()
    b64 = base64.b64encode(_seed(key)).decode()
    seed_file = tmp_path / "seed.txt"
    seed_file.write_text(b64 + "\n")
    pem_file = tmp_path / "key.pem"
    pem_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    for configured in (b64, str(seed_file), str(pem_file)):
        assert _seed(parse_key(configured)) == _seed(key), configured


@pytest.mark.parametrize("bad", ["not base64!", base64.b64encode(b"short").decode()])
def test_a_malformed_key_stops_the_process_with_a_reason(bad):
    with pytest.raises(SigningKeyError, match="CITADEL_SIGNING_KEY"):
        parse_key(bad)


def test_without_configuration_one_key_is_kept_in_redis_and_shared(redis_url, sync_redis):
    """Created once (SET NX) and then read by every process: the same key each time. (The key is not
    deleted here: the test service signs with it.)"""

    async def two_processes():
        r = aioredis.from_url(redis_url)
        try:
            return [await SigningKeys(r, None).signer() for _ in range(2)]
        finally:
            await r.aclose()

    first, second = asyncio.run(two_processes())
    stored = base64.b64decode(sync_redis.get(SIGNING_KEY))
    assert first.key_id == second.key_id and _seed(first.private) == stored


def test_a_signed_head_verifies_with_the_public_key_and_not_with_another():
    signer = Signer(parse_key(base64.b64encode(_seed(Ed25519PrivateKey.generate())).decode()))
    head = signer.sign("g_1", "board", 12, "ab" * 32)
    public = signature.load_public_key(base64.b64encode(signer.public_raw).decode())
    assert signature.key_id_of(signer.public_raw) == signer.key_id == head.key_id
    assert signature.check(head, public) is None
    other = signature.load_public_key(_other_pem())
    assert "names key" in (signature.check(head, other) or "")
    forged = head.__class__(**{**{f: getattr(head, f) for f in head.__struct_fields__}, "version": 13})
    assert "does not match" in (signature.check(forged, public) or "")


def _other_pem() -> str:
    return (
        Ed25519PrivateKey.generate()
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
