"""Commit–reveal for the sealed choices: facedown setup cards and plots (domain/core/commitment.py).

When a seat seals a choice, the event publishes at once ``commitment = sha256(canonical([scheme,
kind, seat, salt, content]))``; the content and its salt are hidden from the other seat and
spectators (:mod:`.redaction`). The reveal publishes every content with its salt, so anyone who only
saw the public stream can check that no sealed choice changed after the other seat's was known
(:func:`check_reveals`). The salt comes from the game's seeded stream ``salt/<seq>/<seat>`` (the
submission event's own number), so the service could not have chosen it either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..core.commitment import commit, draw_salt, opens, salt_purpose
from ..core.rederive import Recorded
from . import events as ev
from .emitter import Emitter
from .state import SetupPick

SETUP = "setup"
PLOT = "plot"


def _content(picks: list[SetupPick]) -> Any:
    return msgspec.to_builtins(picks)


def seal_setup(em: Emitter, seat: str, picks: list[SetupPick], by_default: bool = False) -> None:
    salt = draw_salt(em.ctx.rng(salt_purpose(em.state.version + 1, seat)))
    em.emit(
        ev.CardsSetupChosen(
            seat_id=seat,
            count=len(picks),
            cards=list(picks),
            by_default=by_default,
            salt=salt,
            commitment=commit(SETUP, seat, salt, _content(picks)),
        )
    )


def seal_plot(em: Emitter, seat: str, plot: str, by_default: bool = False) -> None:
    salt = draw_salt(em.ctx.rng(salt_purpose(em.state.version + 1, seat)))
    em.emit(
        ev.CardsPlotChosen(
            seat_id=seat, plot=plot, by_default=by_default, salt=salt, commitment=commit(PLOT, seat, salt, plot)
        )
    )


class RevealCheck(msgspec.Struct):
    problems: list[str]
    opened: int


def check_reveals(recorded: Sequence[Recorded]) -> RevealCheck:
    """Every reveal opens the last commitment each seat published before it."""
    problems: list[str] = []
    opened = 0
    last: dict[tuple[str, str], tuple[int, str]] = {}
    for r in recorded:
        e = r.event
        match e:
            case ev.CardsSetupChosen():
                last[(SETUP, e.seat_id)] = (r.seq, e.commitment)
            case ev.CardsPlotChosen():
                last[(PLOT, e.seat_id)] = (r.seq, e.commitment)
            case ev.CardsSetupRevealed():
                for seat, picks in e.chosen.items():
                    opened += 1
                    seq, c = last.pop((SETUP, seat), (0, ""))
                    if not opens(c, SETUP, seat, e.salts.get(seat, ""), _content(picks)):
                        problems.append(f"event {r.seq}: {seat}'s setup does not open its commitment of event {seq}")
            case ev.CardsPlotsRevealed():
                for seat, plot in e.plots.items():
                    opened += 1
                    seq, c = last.pop((PLOT, seat), (0, ""))
                    if not opens(c, PLOT, seat, e.salts.get(seat, ""), plot):
                        problems.append(f"event {r.seq}: {seat}'s plot does not open its commitment of event {seq}")
    return RevealCheck(problems=problems, opened=opened)
