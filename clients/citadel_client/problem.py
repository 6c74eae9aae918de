""":class:`ApiProblem`: an error answer of the API, raised by every client method."""

from __future__ import annotations

import msgspec

from .models import Problem


class ApiProblem(Exception):
    """An error answer of the API: ``status``, the problem's ``code`` and ``detail`` (and the whole
    :class:`~.models.Problem` as ``problem``, with ``rule``, ``current_version``, ``errors``...).

    Branch on ``code`` (stable, machine-readable); ``detail`` is for humans and may change."""

    def __init__(self, status: int, code: str, detail: str, problem: Problem | None = None, body: str = ""):
        self.status = status
        self.code = code
        self.detail = detail
        self.problem = problem if problem is not None else Problem(status=status, code=code, detail=detail)
        self.body = body
        super().__init__(f"{status} {code}: {detail}" if code else f"{status}: {detail or body}")

    @classmethod
    def from_answer(cls, status: int, content_type: str, content: bytes) -> ApiProblem:
        """The problem of an error answer: its ``application/problem+json`` body, or (from a proxy,
        say) the start of whatever text it carries."""
        text = content.decode("utf-8", "replace")
        if "json" in content_type:
            try:
                p = msgspec.json.decode(content, type=Problem)
            except msgspec.DecodeError:
                pass
            else:
                return cls(status, p.code, p.detail, p, text)
        return cls(status, "", text[:500], None, text)
