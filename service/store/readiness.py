"""Readiness of the processes that serve no HTTP: the worker and the projector.

The API says whether it can serve at ``GET /readyz``. A worker or a projector has no port, so each
keeps a *ready file* (``CITADEL_READY_FILE``, unset by default: nothing is written): it writes the
file, with the time, whenever a round trip to Redis just succeeded (at most once a second), and
removes it as soon as Redis is unreachable. ``citadel probe FILE`` exits 0 only when the file is
there and fresher than ``--max-age`` seconds (default 15), so a process that hangs goes not-ready
too. Kubernetes runs it as an ``exec`` readiness probe (``deploy/k8s/{worker,projector}.yaml``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

DEFAULT_MAX_AGE_S = 15.0


class ReadyFile:
    """One process's ready file (``None``: readiness is not reported)."""

    def __init__(self, path: str | None, every_s: float = 1.0) -> None:
        self.path = Path(path) if path else None
        self.every_s = every_s
        self._last = 0.0

    @classmethod
    def from_env(cls) -> ReadyFile:
        return cls(os.environ.get("CITADEL_READY_FILE") or None)

    def ready(self) -> None:
        """Redis just answered: (re)write the file, at most every ``every_s`` seconds."""
        if self.path is None or time.monotonic() - self._last < self.every_s:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(f"{time.time():.3f}\n")
        tmp.replace(self.path)  # atomic: a probe never reads half a file
        self._last = time.monotonic()

    def not_ready(self) -> None:
        """Redis is unreachable: remove the file at once."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
            self._last = 0.0


def is_ready(path: str, max_age_s: float = DEFAULT_MAX_AGE_S, now: float | None = None) -> bool:
    """The probe: the file exists and was written less than ``max_age_s`` seconds ago."""
    try:
        written = Path(path).stat().st_mtime
    except FileNotFoundError:
        return False
    return (time.time() if now is None else now) - written < max_age_s
