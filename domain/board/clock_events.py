"""The clocks' events (docs/clocks.md): time banks charged and started, and a judge's pause/resume.

The domain has no clock. Time enters only through ``decide``'s context (``ctx.now``, the batch's
envelope timestamp), and whatever ``decide`` computes from it is written into these events; the fold
only adds and subtracts what they say. So replaying a stream gives the same banks byte for byte, and
the offline audit re-derives every one of these events from the commands and their timestamps.
"""

from __future__ import annotations

from .event_base import Event


class ClockCharged(Event, frozen=True, tag="clock_charged"):
    """A decision of ``house`` ended (answered, defaulted, or made moot): its clock stops and the
    time it ran is taken from its bank."""

    house: str
    used_ms: int
    """Milliseconds the clock ran for this decision (paused time excluded)."""
    increment_ms: int
    """Added back after the charge: ``settings.increment_s`` for a decision the house made itself
    in time, else 0."""
    bank_ms: int
    """The bank after the charge and the increment (never below 0)."""
    out_of_time: bool = False
    """The bank ran out with this decision (once per house and game): from now on every decision of
    the house gets its documented default as soon as it opens."""


class ClockStarted(Event, frozen=True, tag="clock_started"):
    """The game now waits on a decision of each of ``houses``: their clocks run from ``at``."""

    houses: list[str]
    at: str
    """RFC 3339: the batch's time."""


class ClocksPaused(Event, frozen=True, tag="clocks_paused"):
    """A judge paused the game's clocks: no deadline fires and no bank runs until they resume."""

    by: str
    """The role that paused (``organizer``; a judge's later)."""
    reason: str
    """Why (kept in the log and the export)."""
    at: str
    """RFC 3339: when."""


class ClocksResumed(Event, frozen=True, tag="clocks_resumed"):
    """A judge resumed the clocks: the step's deadline and every running clock moved by the paused time."""

    by: str
    """The role that resumed."""
    reason: str
    """Why (kept in the log and the export)."""
    at: str
    """RFC 3339: when."""
    paused_ms: int
    """How long the clocks stood still."""
    deadline: str | None
    """The step's deadline, moved by ``paused_ms`` (null when the step has none)."""


CLOCK_EVENTS = ClockCharged | ClockStarted | ClocksPaused | ClocksResumed
