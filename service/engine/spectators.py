"""The spectators' delay: how far behind the game a reader without a token may see it.

The organizer chooses it at creation (the board game's ``settings.spectator_delay_rounds`` and
``settings.spectator_delay_s``; ``Game.spectator_delay``). The domain has no clock, so the cut is
made here, from the stream: every event's envelope carries its ``ts``, and the game says which
events open a round (``Game.round_began``). Every endpoint a spectator can read (the public view,
the events as NDJSON and SSE, the log, the export) serves the game as of :func:`visible_version`
and nothing newer (docs/judge.md).

* a delay of ``s`` seconds: the last event appended at least ``s`` seconds before ``now``;
* a delay of ``r`` rounds in round ``R``: the last event before round ``R - r + 1`` opened (with
  ``R - r + 1 <= 1``: the last event before the game's first round opened); once the game has
  ended the delay in rounds lapses (everything is public then), the delay in seconds does not;
* never before the first event (the game's creation, which holds nothing secret).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.core.context import parse_rfc3339
from service.store.event_store import EventStore
from service.store.games import LoadedGame


def delayed(game: LoadedGame) -> bool:
    """True when the organizer set a delay for spectators."""
    d = game.game.spectator_delay(game.state)
    return d.rounds > 0 or d.seconds > 0


async def visible_version(store: EventStore, game: LoadedGame, now: datetime) -> int:
    """The last version a spectator may see now (the game's version when there is no delay)."""
    delay = game.game.spectator_delay(game.state)
    version = game.version
    if not (delay.rounds or delay.seconds) or not version:
        return version
    envs = await store.read(store.keys(game.game_id), 0, count=version)
    visible = len(envs)
    if delay.seconds:
        cutoff = now - timedelta(seconds=delay.seconds)
        visible = max((e.seq for e in envs if parse_rfc3339(e.ts) <= cutoff), default=0)
    if delay.rounds and not game.game.is_over(game.state):
        opened: list[tuple[int, int]] = []  # (round, the seq of the first event that opened it)
        for env in envs:
            r = game.game.round_began(game.decode(env))
            if r is not None and (not opened or r > opened[-1][0]):
                opened.append((r, env.seq))
        if opened:
            first_hidden = opened[-1][0] - delay.rounds + 1
            cut = next((seq for r, seq in opened if r >= first_hidden), None)
            if cut is not None:
                visible = min(visible, cut - 1)
    return max(visible, 1)  # the creation is public at once: a spectator always sees the game exists
