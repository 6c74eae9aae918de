"""Reads served from the projections, falling back to the stream when a projection lags."""

from __future__ import annotations

import msgspec

from projections.read_models import log_lines
from projections.store import ProjectionStore

from .api_models import LogLine
from .games import LoadedGame
from .keys import Keys


class _Versioned(msgspec.Struct):
    version: int


async def read_view(redis, keys: Keys, reader: str | None) -> tuple[int, bytes] | None:
    raw = await redis.get(keys.view(reader))
    if raw is None:
        return None
    return msgspec.json.decode(raw, type=_Versioned).version, raw


async def read_log(rt, game: LoadedGame, after: int, limit: int) -> list[LogLine]:
    keys = rt.store.keys(game.state.game_id)
    projections = ProjectionStore(rt.redis)
    if await projections.version(keys) >= game.version:
        return await projections.log(keys, after, limit)
    envs = await rt.store.read(keys, after)
    return log_lines(envs, game.state.phase == "ended")[:limit]
