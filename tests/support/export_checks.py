"""Checks on a finished game's replay export, shared by tests/api/test_bot_games.py and bench/full_games.py.

:func:`check_export` audits the export (hash chain, the revealed seed against its commitment, every
shuffle, every player's command re-decided: ``domain.board.audit.audit``) and folds it again event
by event, checking the invariants of tests/support/invariants.py (:func:`check_invariants`)
at the end of every batch. A batch is the events of one accepted command: they were sealed together
and share one timestamp, so a change of ``ts`` marks a batch end (two batches sealed in the same
millisecond are checked together, at the end of the second, which is still a batch end).
"""

from __future__ import annotations

import msgspec

from domain.board import decider
from domain.board import events as ev
from domain.board.audit import AuditReport, audit
from domain.board.state import BoardState
from service.http.models import ExportOut
from tests.support.invariants import check_invariants

_event_dec = msgspec.json.Decoder(ev.BoardEvent)
export_decoder = msgspec.json.Decoder(ExportOut)


class ExportCheck(msgspec.Struct):
    report: AuditReport
    final_state: BoardState
    events: int
    batches: int
    """Batch ends at which the invariants were checked."""


def check_export(export: ExportOut | bytes) -> ExportCheck:
    """Audit and re-fold a complete export; raises AssertionError on any problem."""
    if isinstance(export, bytes):
        export = export_decoder.decode(export)
    assert export.complete, "the export is redacted"
    assert export.seed, "the seed is not revealed"
    report = audit(export.events, seed=export.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert not report.problems, report.problems
    state: BoardState | None = None
    envs = export.events
    batches = 0
    for i, env in enumerate(envs):
        state = decider.fold([_event_dec.decode(env.event)], state)
        last_of_batch = i + 1 == len(envs) or envs[i + 1].ts != env.ts
        if last_of_batch and state.tracks is not None and state.phase != "lobby":
            try:
                check_invariants(state)
            except AssertionError as e:
                raise AssertionError(
                    f"invariant broken after event {env.seq} ({state.phase}/{state.step}): {e}"
                ) from None
            batches += 1
    assert state is not None and state.version == export.version == report.version
    # the audit's fold and this one agree byte for byte
    assert msgspec.msgpack.encode(state) == msgspec.msgpack.encode(report.final_state)
    return ExportCheck(report=report, final_state=state, events=len(envs), batches=batches)
