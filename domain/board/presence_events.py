"""Mother of Dragons: the events of a seat's presence (docs/mother-of-dragons.md, MOD-FLEX-01/02).

Part of :data:`domain.board.events.BoardEvent`. Public: everyone at the table sees when a seat's
run of missed deadlines ends (the timeout policy ``settings.vassal_after_missed_deadlines``).
"""

from __future__ import annotations

from .event_base import Event


class MissedDeadlinesCleared(Event, frozen=True, tag="missed_deadlines_cleared"):
    """The seat of ``house`` sent a command of its own after missing ``missed`` deadlines in a row:
    its count starts again from 0 (``settings.vassal_after_missed_deadlines``)."""

    house: str
    missed: int
    """The deadlines it had missed in a row until then."""


PRESENCE_EVENTS = MissedDeadlinesCleared
