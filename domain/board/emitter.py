"""How ``decide`` builds a batch of events in the Action and Westeros phases.

``decide`` never mutates the state it is given. It copies it once into an :class:`Emitter`; every
event the rules produce is appended to the batch **and** applied to the copy at once (with
:func:`domain.board.evolve.evolve`), so the next rule reads the board as it now stands (e.g. a
combat sees the units that just moved). The batch is what ``decide`` returns; folding it onto the
original state gives exactly the copy.
"""

from __future__ import annotations

import msgspec

from ..core.context import Context
from .events import Event
from .evolve import evolve
from .state import BoardState

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(BoardState)


def copy_state(state: BoardState) -> BoardState:
    """A deep copy of ``state`` (through msgpack: every field, nothing shared)."""
    return _dec.decode(_enc.encode(state))


class Emitter:
    __slots__ = ("state", "events", "ctx")

    def __init__(self, state: BoardState, ctx: Context) -> None:
        self.state = copy_state(state)
        self.events: list[Event] = []
        self.ctx = ctx

    def emit(self, *events: Event) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)

    def deadline(self) -> str:
        return self.ctx.deadline(self.state.settings.decision_timeout_s)
