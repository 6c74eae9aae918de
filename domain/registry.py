"""Every game Citadel knows, by kind: the one place that names the game packages.

The service, workers, projector, exports and verifier find a game here and use it only through the
:class:`~domain.core.game.Game` protocol. Adding a game is adding a package under ``domain/`` and
one line to :data:`GAMES`. Which kinds a deployment lets clients create is configuration
(``CITADEL_GAMES``, default ``board``).
"""

from __future__ import annotations

from functools import cache

import msgspec

from .auction.game import GAME as AUCTION
from .board.game import GAME as BOARD
from .board.notifications import topic_of as board_topic_of
from .board.tournament import TABLES as BOARD_TABLES
from .cards.game import GAME as CARDS
from .core.errors import GameError
from .core.game import Game
from .core.notify import Notifier
from .core.tournament import TableRules
from .core.upcast import EventCodec

GAMES: dict[str, Game] = {
    BOARD.kind: BOARD,
    AUCTION.kind: AUCTION,  # the smallest complete game: the tests play it to prove the engine game-agnostic
    CARDS.kind: CARDS,  # A Game of Thrones: The Card Game (2nd ed.), joust (docs/card-game.md)
}
TOURNAMENT_RULES: dict[str, TableRules] = {BOARD.kind: BOARD_TABLES}
"""The kinds whose tables a tournament can hold (``POST /v1/tournaments``, domain/core/tournament.py)."""
NOTIFIERS: dict[str, Notifier] = {BOARD.kind: board_topic_of}
"""How each game names the webhook topic of its events (domain/core/notify.py); other games notify their end only."""
DEFAULT_KIND = BOARD.kind
"""A create request without ``kind`` means the board game (as before kinds existed)."""


class UnknownGameKind(GameError):
    code = "unknown_game_kind"


def get(kind: str) -> Game:
    """The game of this kind, or :class:`UnknownGameKind`."""
    game = GAMES.get(kind)
    if game is None:
        raise UnknownGameKind(f"no game of kind {kind!r}; known kinds: {', '.join(sorted(GAMES))}")
    return game


class _Tagged(msgspec.Struct):
    type: str = ""


_tag_dec = msgspec.json.Decoder(_Tagged)


def kind_of_stream(first_event: bytes) -> str:
    """The kind of a game, read from the first event of its stream (each game's creation event has
    its own tag): the stream alone says what it is."""
    tag = _tag_dec.decode(first_event).type
    for game in GAMES.values():
        if game.creation_event == tag:
            return game.kind
    raise UnknownGameKind(f"no game starts with an event {tag!r}")


@cache
def codec(kind: str) -> EventCodec:
    """The decoder of a kind's stored events, of any schema (``domain/core/upcast.py``)."""
    game = get(kind)
    return EventCodec(game.event_type, game.schema_version, game.upcasters)
