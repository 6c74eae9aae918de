"""The commands every game understands, whatever its rules: who acts, joining, starting, and the
two system commands the workers send (resolve a step whose inputs are all in; apply a deadline's
defaults). A game's own player commands are its :attr:`~domain.core.game.Game.command_type`.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec


class Actor(msgspec.Struct, frozen=True):
    """Who issues a command: a seat, the organizer, the judge (docs/judge.md), or the system (the workers)."""

    kind: Literal["seat", "organizer", "system", "judge"]
    seat_id: str | None = None
    generation: int = 0
    """A seat's token generation: 0 for the seat's first player, one more at each replacement by the
    judge (``seat_replaced``). A seat's command with an older generation is refused (``token_replaced``)."""


class JoinGame(msgspec.Struct, frozen=True):
    """Take the next free seat under ``name``."""

    name: str


class StartGame(msgspec.Struct, frozen=True):
    """The organizer starts the game once every seat is taken."""


class ResolvePending(msgspec.Struct, frozen=True):
    """System: resolve a step whose simultaneous inputs are all in (e.g. reveal sealed orders)."""


class ApplyTimeout(msgspec.Struct, frozen=True):
    """System: the deadline passed; apply the documented defaults to every missing decision.

    ``step_version`` names the step whose deadline this is: if the game has moved to another step
    since, the timeout is void.
    """

    step_version: int


SYSTEM = Actor(kind="system")
ORGANIZER = Actor(kind="organizer")
JUDGE = Actor(kind="judge")


class RequestUndo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``seat_id`` asks to undo its own last command, with its opponents' consent (docs/judge.md;
    ``POST /v1/games/{id}/undo-requests``, the seat taken from the token). Every other seat then
    decides to consent or refuse (``answer_undo``; refused by default at the deadline); when all
    consent, the game rolls back to just before that command as a judge's ``undo_last_command`` would.
    A game prepares it with the stream (``Game.prepare_judge``) before deciding it."""

    seat_id: str
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    """Why (shown to the opponents, kept in the log and the export)."""


class PauseClocks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A judge's action: stop every clock of the game (docs/clocks.md). While paused no deadline
    fires, no time bank runs, and the game accepts no decision; an audited event records who and why."""

    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    """Why (kept in the log and the export)."""


class ResumeClocks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A judge's action: restart the clocks; every deadline and running bank moves by the paused time."""

    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    """Why (kept in the log and the export)."""


CLOCK_KEEPERS: frozenset[str] = frozenset({"organizer", "judge"})
"""The actor kinds that may pause and resume a game's clocks: the judge, and the organizer (who
also holds the judge's token)."""


def may_keep_clocks(actor: Actor) -> bool:
    """Whether ``actor`` may pause and resume the clocks: the one check every game and the API share."""
    return actor.kind in CLOCK_KEEPERS
