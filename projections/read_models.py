"""What a projection writes for one game, computed purely from its state and new events.

Readers: every house in play plus the public (spectator) view. Each view is the redaction of the
state for that reader (:func:`domain.board.redaction.view_for`); log lines are the narrative of the
public version of each event (:func:`domain.board.narrative.describe`).
"""

from __future__ import annotations

import msgspec

from domain.board.narrative import describe
from domain.board.redaction import redact_event, view_for
from domain.board.state import BoardState
from domain.core.envelope import Envelope
from service.api_models import LogLine
from service.games import event_decoder

_enc = msgspec.json.Encoder()


def views(state: BoardState) -> dict[str | None, bytes]:
    readers: list[str | None] = [None, *state.houses_in_play]
    return {r: _enc.encode(view_for(state, r)) for r in readers}


def log_lines(envs: list[Envelope], game_over: bool = False) -> list[LogLine]:
    out = []
    for env in envs:
        text = describe(redact_event(event_decoder.decode(env.event), None, game_over=game_over))
        if text:
            out.append(LogLine(seq=env.seq, ts=env.ts, text=text))
    return out
