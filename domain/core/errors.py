"""Errors the domain raises when a command breaks a rule.

Each carries a stable machine ``code`` that the API turns into an RFC 9457 problem; the ``detail`` is
for humans. The domain never returns partial results: a rejected command produces no events.
"""

from __future__ import annotations


class RuleViolation(Exception):
    """A command that the rules do not allow (HTTP 422 ``illegal_move`` unless a code says otherwise)."""

    code = "illegal_move"
    status = 422

    def __init__(self, detail: str, *, rule: str | None = None, code: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        if code is not None:
            self.code = code


class NotYourTurn(RuleViolation):
    """The seat has no pending decision of this kind right now (HTTP 409 ``not_your_turn``)."""

    code = "not_your_turn"
    status = 409


class WrongPhase(RuleViolation):
    """The game is not in a phase where this command means anything (HTTP 409 ``wrong_phase``)."""

    code = "wrong_phase"
    status = 409


class Forbidden(RuleViolation):
    """The actor may not issue this command at all (HTTP 403 ``forbidden``)."""

    code = "forbidden"
    status = 403
