"""The HTTP layer's own error: a status, a stable ``code`` and a detail, rendered as RFC 9457
problem details (``problems.py``). Games and the engine raise :class:`~domain.core.errors.GameError`
instead, which carries a kind and is mapped to a status in ``problems.py``."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str, *, title: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or code.replace("_", " ").capitalize()
        self.extra = extra
