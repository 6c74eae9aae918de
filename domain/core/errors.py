"""Errors a game raises when a command cannot be accepted.

Each carries a :data:`ErrorKind` (what sort of refusal it is), a stable machine ``code`` and a
``detail`` for humans, never a transport status: the HTTP layer maps kinds to statuses
(``service/http/problems.py``). A rejected command produces no events: the domain never returns
partial results.
"""

from __future__ import annotations

from typing import Any, Literal

ErrorKind = Literal["invalid", "conflict", "forbidden", "not_found", "unavailable"]
"""``invalid``: the request breaks a rule or is malformed; ``conflict``: it does not fit the game's
current state (not your turn, wrong phase, stale version); ``forbidden``: this actor may never do
it; ``not_found``: no such game; ``unavailable``: try again later."""


class GameError(Exception):
    """A refused command or request, with its kind, machine code and human detail."""

    kind: ErrorKind = "invalid"
    code = "illegal_move"

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        code: str | None = None,
        kind: ErrorKind | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        if code is not None:
            self.code = code
        if kind is not None:
            self.kind = kind
        self.extra: dict[str, Any] = extra
        """Machine-readable context (e.g. ``current_version``, ``retry_after``)."""


class RuleViolation(GameError):
    """A command that the rules do not allow (kind ``invalid``, code ``illegal_move`` unless a code says otherwise)."""


class NotYourTurn(RuleViolation):
    """The seat has no pending decision of this kind right now (kind ``conflict``, code ``not_your_turn``)."""

    kind: ErrorKind = "conflict"
    code = "not_your_turn"


class WrongPhase(RuleViolation):
    """The game is not in a phase where this command means anything (kind ``conflict``, code ``wrong_phase``)."""

    kind: ErrorKind = "conflict"
    code = "wrong_phase"


class Forbidden(RuleViolation):
    """The actor may not issue this command at all (kind ``forbidden``, code ``forbidden``)."""

    kind: ErrorKind = "forbidden"
    code = "forbidden"
