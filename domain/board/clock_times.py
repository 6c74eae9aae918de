"""When decisions default, with time banks and pauses (docs/clocks.md): pure reads of the state.

A house's deadline is the earlier of the step's deadline and the end of its running bank; the
game's (what the workers fire) is the earliest of them. With Mother of Dragons only players have
banks, and a vassal's decisions run its commander's (:func:`bank_owner`). The accounting that moves the banks lives in
:mod:`.clocks`; this module sits below the decisions' listing, which shows each house's deadline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..core.context import parse_rfc3339
from .state import BoardState

MS = timedelta(milliseconds=1)


def bank_owner(state: BoardState, house: str) -> str | None:
    """Whose time bank runs while the game waits on a decision of ``house`` (docs/clocks.md): the
    house's own; with Mother of Dragons a vassal has no bank, its commander decides for it
    (MOD-VASSAL-08/09/13/24), so its decisions run and charge the commander's bank. None when no bank
    runs for it: no time banks, a vassal still without a commander, or a house whose player left."""
    owner = state.commanders.get(house, house)
    return owner if owner in state.clocks and owner not in state.vassals else None


def house_deadline(state: BoardState, house: str) -> datetime | None:
    """When ``house``'s pending decision defaults: the step's deadline, or earlier when the bank that
    runs for it (:func:`bank_owner`) runs out first (None when the step has no deadline)."""
    if state.paused is not None or state.deadline is None:
        return None
    step = parse_rfc3339(state.deadline)
    owner = bank_owner(state, house)
    clock = state.clocks.get(owner) if owner is not None else None
    if clock is None or clock.since is None:
        return step
    return min(step, parse_rfc3339(clock.since) + clock.bank_ms * MS)


def effective_deadline(state: BoardState) -> datetime | None:
    """What the workers fire: the earliest deadline of the houses the game waits on (the step's
    deadline when no bank runs). None while paused or when the step has none."""
    if state.paused is not None or state.deadline is None:
        return None
    times = [house_deadline(state, h) for h, c in state.clocks.items() if c.since is not None]
    return min([parse_rfc3339(state.deadline), *(t for t in times if t is not None)])


def houses_due(state: BoardState, now: datetime) -> list[str] | None:
    """At a timeout: the houses whose decisions default now. None: every pending decision (the
    step's own deadline has passed); a list: only the houses whose banks ran out, and the vassals
    they command (their decisions ran those banks, :func:`bank_owner`)."""
    assert state.deadline is not None, "a timeout is for a step with a deadline"
    if parse_rfc3339(state.deadline) <= now:
        return None
    out = [h for h, c in state.clocks.items() if c.since is not None and (house_deadline(state, h) or now) <= now]
    return out + [v for v, c in state.commanders.items() if c in out and v not in out]
