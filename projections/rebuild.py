"""Rebuild every read model from the game streams alone: ``citadel rebuild``.

Deletes the lobby index (``service/store/lobby.py``), and each game's projection, and writes them
again from the events (an archived game gets its lobby entry back, and no read model:
``service/store/archive.py``). The games are found through
each partition's ``games`` set (written by the append script with a game's first event).
"""

from __future__ import annotations

import asyncio
from typing import Any

from service.store.config import Config
from service.store.keys import Keys, games_key
from service.store.redis_client import event_store_redis

from .projector import Projector


async def rebuild_all(cfg: Config, redis: Any) -> int:
    projector = Projector(cfg, redis, consumer="rebuild")
    await projector.lobby.clear()
    n = 0
    for p in range(cfg.partitions):
        for raw in await redis.smembers(games_key(p)):
            game_id = raw.decode()
            keys = Keys(game_id, cfg.partitions)
            game = await projector.repo.load_fresh(game_id)
            await projector.projections.clear(keys, [None, *game.game.readers(game.state)])
            projector.repo.cache[game_id] = game
            if await projector.store.archived_version(keys):
                await projector.list_game(game, keys)  # archived: no read models, its lobby entry only
            else:
                await projector.project_game(game_id)
            n += 1
    return n


async def main_async() -> int:
    cfg = Config.from_env()
    r = event_store_redis(cfg)
    try:
        return await rebuild_all(cfg, r)
    finally:
        await r.aclose()


def main() -> None:
    n = asyncio.run(main_async())
    print(f"rebuilt the read models of {n} game(s)")


if __name__ == "__main__":
    main()
