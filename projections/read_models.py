"""What a projection writes for one game, computed purely from its state and new events.

Readers: every reader the game names (the board game: each house in play) plus the public
(spectator) view. Each view is the game's redaction of the state for that reader
(:meth:`~domain.core.game.Game.view`); log lines are the game's narrative of the public version of
each event (:func:`service.store.read_models.log_lines`).
"""

from __future__ import annotations

from domain.core.envelope import Envelope
from service.store.games import LoadedGame
from service.store.read_models import LogLine, stored_view, view_digest
from service.store.read_models import log_lines as narrate


def views(loaded: LoadedGame) -> dict[str | None, bytes]:
    """Every reader's view of the game, rendered for the store (``service.store.read_models.stored_view``:
    its JSON with the version as a mark; the store digests that and keeps it gzipped)."""
    game, state = loaded.game, loaded.state
    readers: list[str | None] = [None, *game.readers(state)]
    return {r: stored_view(v) for r, v in game.views(state, readers).items()}


def changed_views(
    loaded: LoadedGame, stored: dict[str | None, str]
) -> tuple[dict[str | None, tuple[str, bytes | None]], dict[str | None, str]]:
    """Every reader's view with its digest, the body left out (``None``) where ``stored`` (reader ->
    digest last written) says it is already there; and the new digests."""
    out: dict[str | None, tuple[str, bytes | None]] = {}
    digests: dict[str | None, str] = {}
    for reader, body in views(loaded).items():
        digest = digests[reader] = view_digest(body)
        out[reader] = (digest, None if stored.get(reader) == digest else body)
    return out, digests


def log_lines(loaded: LoadedGame, envs: list[Envelope]) -> list[LogLine]:
    """The public log lines of new events."""
    over = loaded.game.is_over(loaded.state)
    return narrate(loaded.game, ((env, loaded.decode(env)) for env in envs), over)
