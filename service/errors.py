"""One error type for the whole service, rendered as RFC 9457 problem details with a stable ``code``."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str, *, title: str | None = None, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or code.replace("_", " ").capitalize()
        self.extra = extra


def not_found(what: str = "game") -> ApiError:
    return ApiError(404, "not_found", f"no such {what}, or you may not see it")


def stale(current: int, expected: int) -> ApiError:
    named = f"not {expected}" if expected >= 0 else "and If-Match does not name a version"
    return ApiError(
        409,
        "stale_version",
        f"the game is at version {current}, {named}; reload and retry",
        current_version=current,
    )
