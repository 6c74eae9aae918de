"""Undo with the opponents' consent (issue 10, item 5; docs/judge.md).

A player who misclicked asks to take back its last command; the table agrees or not. The judge's
``undo_last_command`` does the same by ruling; this is the same undo by agreement:

1. the seat sends ``POST /v1/games/{id}/undo-requests`` (:class:`~domain.core.commands.RequestUndo`).
   The service finds the seat's last command in the stream (``Game.prepare_judge``, as for the
   judge's undo) and hands the game :class:`UndoRequestAt`, which names the rollback's target:
   one public ``undo_requested`` event, with a deadline (the game's ``decision_timeout_s``);
2. every other seat now has a decision ``undo_consent``: it answers :class:`AnswerUndo`
   (``consent`` true or false) through ``POST /commands``: one ``undo_answered`` event each;
3. a refusal ends the request at once, and nothing is undone; so does the deadline: the workers'
   timeout records ``undo_expired`` (the default is to refuse). The request does not stop the
   game: other decisions go on meanwhile (everything after the undone command is undone with it);
4. the last consent's batch carries, after its ``undo_answered``, a ``judge_rolled_back`` with
   ``author`` ``"consent"`` and ``undone_seat``: the judge's compensating event, folded by
   :mod:`domain.core.rollback` like the judge's, so the rollback, its audit and its log are the
   judge's machinery.

The offline audit re-derives each of these batches from its first event (:mod:`.replay`): the
request's target is checked against the stream again, the consenting batch is re-decided.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..core.context import Context, parse_rfc3339, rfc3339
from ..core.errors import RuleViolation, WrongPhase
from .command_base import Command
from .event_base import Event
from .judge import roll_back
from .judge_events import CONSENT_AUTHOR, UndoAnswered, UndoExpired, UndoRequested
from .state import BoardState, UndoRequest

DEFAULT_TEXT = "the undo is refused: nothing is undone"


class UndoRequestAt(Command, frozen=True, tag="undo_request"):
    """A seat's undo request as the service prepared it: ``version`` is just before the first event
    of the seat's last command (found in the stream). Not a body of any endpoint."""

    version: Annotated[int, msgspec.Meta(ge=1)]
    reason: str


class AnswerUndo(Command, frozen=True, tag="answer_undo"):
    """Consent to a pending undo request of an opponent (``consent: true``), or refuse it (``false``,
    which ends the request: nothing is undone). ``GET /decisions`` lists it as ``undo_consent``."""

    consent: bool


class UndoConsentOptions(msgspec.Struct, tag_field="kind", tag="undo_consent"):
    """Send ``{"type": "answer_undo", "consent": true}`` to consent, ``false`` to refuse."""

    seat_id: str
    """The seat that asks to undo its last command."""
    house: str
    version: int
    """The version the game returns to when every opponent consents."""
    reason: str


def request_undo(state: BoardState, seat_id: str, house: str, command: UndoRequestAt, ctx: Context) -> list[Event]:
    """``undo_requested``, or a refusal: one request at a time, and the target between the start and now."""
    if state.undo_request is not None:
        raise WrongPhase(
            f"{state.undo_request.seat_id}'s undo request is still waiting for answers", code="undo_pending"
        )
    if not max(1, state.started_version) <= command.version < state.version:
        raise RuleViolation(
            f"an undo goes to a version from the start ({state.started_version}) to before now ({state.version})",
            code="rollback_out_of_range",
        )
    return [
        UndoRequested(
            seat_id=seat_id,
            house=house,
            version=command.version,
            reason=command.reason,
            deadline=ctx.deadline(state.settings.decision_timeout_s),
        )
    ]


def answer_undo(state: BoardState, seat_id: str, house: str, command: AnswerUndo, ctx: Context) -> list[Event]:
    """``undo_answered``; with the last consent, the rollback too (the judge's event, by consent)."""
    req = state.undo_request
    if req is None:
        raise WrongPhase("no undo request is waiting for an answer", code="no_undo_request")
    if req.seat_id == seat_id:
        raise RuleViolation("the seat that asked to undo does not answer its own request", code="own_undo_request")
    if seat_id in req.consents:
        raise WrongPhase("this seat has already consented", code="already_answered")
    if expired(req, ctx):
        raise WrongPhase("the undo request has expired: it is refused", code="undo_expired")
    answered = UndoAnswered(seat_id=seat_id, house=house, consent=command.consent)
    if not command.consent or waiting_on(state, req, also=seat_id):
        return [answered]
    rolled = roll_back(state, req.version, req.reason, ctx, undone_seat=req.seat_id)
    return [answered, msgspec.structs.replace(rolled, author=CONSENT_AUTHOR)]


def waiting_on(state: BoardState, req: UndoRequest, also: str | None = None) -> list[str]:
    """The seats (with a house) whose consent is still missing, ``also`` counted as given."""
    given = {*req.consents, req.seat_id, also}
    return [s.seat_id for s in state.seats if s.house is not None and s.seat_id not in given]


def expired(req: UndoRequest, ctx: Context) -> bool:
    # the batch's time to the millisecond, as its envelopes record it (the audit decides at that time)
    return req.deadline is not None and parse_rfc3339(req.deadline) <= parse_rfc3339(rfc3339(ctx.now))


def expire(state: BoardState, ctx: Context) -> list[Event]:
    """At a timeout: ``undo_expired`` when the pending request's deadline has passed (else nothing)."""
    req = state.undo_request
    return [UndoExpired(seat_id=req.seat_id)] if req is not None and expired(req, ctx) else []
