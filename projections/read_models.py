"""What a projection writes for one game, computed purely from its state and new events.

Readers: every reader the game names (the board game: each house in play) plus the public
(spectator) view. Each view is the game's redaction of the state for that reader
(:meth:`~domain.core.game.Game.view`); log lines are the game's narrative of the public version of
each event (:func:`service.store.read_models.log_lines`).
"""

from __future__ import annotations

import msgspec

from domain.core.envelope import Envelope
from service.store.games import LoadedGame
from service.store.read_models import LogLine
from service.store.read_models import log_lines as narrate

_enc = msgspec.json.Encoder()


def views(loaded: LoadedGame) -> dict[str | None, bytes]:
    """Every reader's view of the game, as the JSON the API serves."""
    game, state = loaded.game, loaded.state
    readers: list[str | None] = [None, *game.readers(state)]
    return {r: _enc.encode(game.view(state, r)) for r in readers}


def log_lines(loaded: LoadedGame, envs: list[Envelope]) -> list[LogLine]:
    """The public log lines of new events."""
    over = loaded.game.is_over(loaded.state)
    return narrate(loaded.game, ((env, loaded.decode(env)) for env in envs), over)
