"""Deterministic randomness derived from a game's secret seed.

The domain never calls :mod:`random`. Every random outcome is drawn from a :class:`SeededRng` that
the service builds from the game's seed and passes in the command context, and the outcome (a
shuffled deck, a house assignment) is written into an event. A replay therefore never re-rolls: it
reads the outcome from the event. Anyone who learns the seed once the game is over can re-derive
every outcome with :func:`derive_rng` and check that the events match (see ``scripts/verify_replay.py``).

The stream of numbers for one purpose depends only on ``(seed, purpose)``, so outcomes do not shift
when unrelated draws are added or reordered. SHA-256 in counter mode gives uniform 64-bit words;
:meth:`SeededRng.below` rejects the biased tail so shuffles are exactly uniform (Fisher-Yates).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def commit_seed(seed: str) -> str:
    """The public commitment to a seed, written into ``GameCreated``: ``sha256(seed)`` in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


class SeededRng:
    """A stream of uniform integers for one named purpose of one game."""

    __slots__ = ("_key", "_counter", "_buffer")

    def __init__(self, seed: str, purpose: str):
        self._key = hashlib.sha256(f"{seed}\x00{purpose}".encode()).digest()
        self._counter = 0
        self._buffer: list[int] = []

    def _word(self) -> int:
        if not self._buffer:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer = [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def token_hex(self, nbytes: int) -> str:
        """``nbytes`` uniform bytes from the stream, as hex (a commitment's salt,
        :mod:`domain.core.commitment`)."""
        # ``below(1 << 64)`` is the word itself (every 64-bit word is under the limit, and its own
        # remainder): read the words directly, the same stream and the same bytes.
        words = [self._word() for _ in range((nbytes + 7) // 8)]
        return b"".join(w.to_bytes(8, "big") for w in words)[:nbytes].hex()

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def derive_rng(seed: str, purpose: str) -> SeededRng:
    return SeededRng(seed, purpose)
