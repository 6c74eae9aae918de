"""What ``decide`` may know about the world outside the game: the time and the game's randomness.

The service builds a :class:`Context` for every command. The domain never reads a clock or a global
random generator; it reads these, and writes what it drew into events.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .rng import SeededRng


def rfc3339(t: datetime) -> str:
    return t.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_rfc3339(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


@dataclass(frozen=True, slots=True)
class Context:
    now: datetime
    seed: str
    game_id: str

    def rng(self, purpose: str) -> SeededRng:
        """The random stream for one purpose of this game (e.g. ``"start/wildling_deck"``)."""
        return SeededRng(self.seed, f"{self.game_id}/{purpose}")

    def deadline(self, seconds: int) -> str:
        return rfc3339(self.now + timedelta(seconds=seconds))
