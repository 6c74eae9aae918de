"""A working copy of the state that folds each event as a decision emits it.

The rules chain automatic steps (a reveal, then initiative, then the draw...): each step reads the
state as the events before it left it. :class:`Emitter` copies the state once (the decided state is
never mutated), applies every emitted event with :func:`~.evolve.evolve` and counts the version, so
``step_version`` comes out the same as the real fold's.
"""

from __future__ import annotations

import msgspec

from ..core.context import Context
from . import events as ev
from .evolve import evolve
from .state import AbilityChoice, CardState

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(CardState)


def copy_state(state: CardState) -> CardState:
    return _dec.decode(_enc.encode(state))


class Emitter:
    def __init__(self, state: CardState, ctx: Context) -> None:
        self.state = copy_state(state)
        self.ctx = ctx
        self.events: list[ev.Event] = []
        self.resume: str | None = None
        """Where the game goes on if the ability resolving now must wait for a decision in its
        middle (a save interrupt against its kill, :func:`.abilities.base.kill`): set by the
        engine around an Action, an event or a choice's resolution (``window``, ``marshal``,
        ``reaction``, a choice's own ``resume``); None where the game cannot stop (the effects
        as a phase ends): the decision then takes its documented default at once."""
        self.answered: AbilityChoice | None = None
        """The choice whose answer is resolving now (:func:`.abilities.triggers.resolve_choice`):
        its options, which the state no longer holds (a save's victims)."""

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)
        self.state.version += 1

    @property
    def over(self) -> bool:
        return self.state.phase == "ended"

    def open_step(self, step: str, seats: list[str]) -> None:
        """A decision for ``seats`` with the game's deadline (its default applies then)."""
        self.emit(
            ev.CardsStepOpened(
                step=step, seats=seats, deadline=self.ctx.deadline(self.state.settings.decision_timeout_s)
            )
        )
