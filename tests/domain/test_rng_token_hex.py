"""``SeededRng.token_hex`` (a commitment's salt) reads the stream's words directly: the same bytes
as drawing each word with ``below(1 << 64)``, so every recorded salt stays what it was."""

from __future__ import annotations

import pytest

from domain.core.rng import SeededRng


def _by_below(rng: SeededRng, nbytes: int) -> str:
    """The definition: ``nbytes`` bytes of uniform 64-bit draws, big-endian, as hex."""
    words = [rng.below(1 << 64) for _ in range((nbytes + 7) // 8)]
    return b"".join(w.to_bytes(8, "big") for w in words)[:nbytes].hex()


@pytest.mark.parametrize("nbytes", [1, 8, 13, 16, 32, 40, 64])
@pytest.mark.parametrize("drawn_before", [0, 1, 3, 5])
def test_token_hex_is_the_stream_of_below_draws(nbytes: int, drawn_before: int) -> None:
    for seed in ("s1", "another seed", "x" * 64):
        fast, slow = SeededRng(seed, "salt/7/stark"), SeededRng(seed, "salt/7/stark")
        for _ in range(drawn_before):  # a partly used block: the words left are read first
            assert fast.below(6) == slow.below(6)
        salt = fast.token_hex(nbytes)
        assert salt == _by_below(slow, nbytes)
        assert len(salt) == 2 * nbytes
        assert fast.below(1000) == slow.below(1000)  # the streams are still at the same word
