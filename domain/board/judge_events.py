"""The judge's events: every correction a judge makes, in the stream like any other fact.

Each carries its ``author`` (who acted: ``judge``) and the ``reason`` the judge gave, so the log
and the export show who changed what and why (docs/judge.md). None of them hides anything: they
are public to every reader at once. A judge never rewrites the stream: a rollback is one more
event, :class:`JudgeRolledBack`, after which the state is re-derived as of the version it names
(:mod:`domain.core.rollback`).
"""

from __future__ import annotations

import msgspec

from .event_base import Event


class SeatHolder(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who holds a seat now: the player's name and the seat's token generation."""

    name: str
    generation: int


class JudgePowerSet(Event, frozen=True, tag="judge_power_set"):
    """The judge set a house's available Power tokens (BG-POWER-01: at most 20 outside the Pool)."""

    house: str
    power: int
    previous: int
    author: str
    reason: str


class JudgeUnitRestored(Event, frozen=True, tag="judge_unit_restored"):
    """The judge put one unit of ``house`` back on the board in ``area`` (within its unit limits,
    BG-COMP-03, and its supply, BG-SUPPLY-05)."""

    house: str
    area: str
    unit: str
    author: str
    reason: str


class JudgeRolledBack(Event, frozen=True, tag="judge_rolled_back"):
    """The judge rolled the game back to ``version``: from this event on the state is the fold of
    the first ``version`` events (domain/core/rollback.py), with two things kept from before the
    rollback: who holds each seat (``holders``, so a replaced player's token stays void) and a
    fresh ``deadline`` for the step that reopens (when that step has one)."""

    version: int
    author: str
    reason: str
    holders: dict[str, SeatHolder]
    """seat id -> its player and token generation at the time of the rollback."""
    deadline: str | None = None
    """The reopened step's new deadline (RFC 3339), applied only if that step has a deadline."""
    undone_seat: str | None = None
    """Set when the rollback undoes that seat's last command (``undo_last_command``)."""


class SeatReplaced(Event, frozen=True, tag="seat_replaced"):
    """The judge gave a seat to a new player (a vanished player's replacement): the seat's token
    generation is now ``generation``, and every token of an older generation is refused."""

    seat_id: str
    name: str
    generation: int
    author: str
    reason: str


JUDGE_EVENTS = JudgePowerSet | JudgeUnitRestored | JudgeRolledBack | SeatReplaced


# Undo with the opponents' consent (docs/judge.md): a seat's request, the others' answers, and the
# request's expiry. When the last opponent consents, the same batch carries a ``judge_rolled_back``
# with ``author`` ``"consent"`` and ``undone_seat``: the judge's rollback machinery, by agreement.


class UndoRequested(Event, frozen=True, tag="undo_requested"):
    """``seat_id`` asks to undo its last command: a rollback to ``version`` (just before the first
    event of that command), if every other seat consents before ``deadline``."""

    seat_id: str
    house: str
    version: int
    reason: str
    deadline: str | None = None


class UndoAnswered(Event, frozen=True, tag="undo_answered"):
    """``seat_id`` consented to the pending undo request, or refused it (which ends the request)."""

    seat_id: str
    house: str
    consent: bool


class UndoExpired(Event, frozen=True, tag="undo_expired"):
    """The pending undo request of ``seat_id`` reached its deadline unanswered by some seat: refused
    by default, nothing is undone."""

    seat_id: str


UNDO_EVENTS = UndoRequested | UndoAnswered | UndoExpired
CONSENT_AUTHOR = "consent"
"""The ``author`` of a rollback that the opponents agreed to (a judge's is ``judge``)."""
