"""A projection writes only the views whose content changed (issue 12): each view is stored with a
digest beside it and its ``version`` left as a mark, served as the projected version. What is served
must still be exactly the game's own view of each reader at that version, gzipped (stored so:
``service/store/view_gzip.py``) and plain; and a view stored before views were gzipped (its JSON)
is still served."""

from __future__ import annotations

import asyncio
import gzip
import json

import msgspec
import redis.asyncio as aioredis

from domain.board import commands as cmd
from domain.board.game import BoardCreateBody
from domain.board.state import Settings
from domain.board.timeouts import default_orders
from domain.core.commands import ORGANIZER, Actor, JoinGame, StartGame
from projections.projector import Projector
from service.engine.dispatch import NullScheduler
from service.engine.runtime import build_runtime
from service.store import embedded_redis
from service.store.config import Config
from service.store.keys import Keys
from service.store.read_models import MISMATCH, ProjectionStore, view_json

_enc = msgspec.json.Encoder()


def _config(url: str) -> Config:
    return Config(
        redis_url=url, queue_url=url, cluster=False, partitions=4, secret="projection-test",
        snapshot_every=64, queue_name="unused",
    )  # fmt: skip


def test_a_view_said_unchanged_is_not_sent_and_is_served_at_the_new_version(tmp_path):
    proc, port = embedded_redis.start(tmp_path / "redis", persist=False)

    async def scenario() -> None:
        r = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
        store = ProjectionStore(r)
        keys = Keys("g_" + "a" * 32, 4)
        pub, mine = b'{"version":-1,"x":1}', b'{"version":-1,"y":2}'
        try:
            assert await store.write(keys, 1, {None: ("d-pub", pub), "stark": ("d-mine", mine)}, []) == 1
            assert (
                await store.write(keys, 2, {None: ("d-pub2", b'{"version":-1,"x":3}'), "stark": ("d-mine", None)}, [])
                == 2
            )
            mine_served = await store.view_with_version(keys, "stark")
            assert mine_served is not None and mine_served.version == 2
            assert mine_served.json() == b'{"y":2,"version":2}'  # the version member last
            assert gzip.decompress(mine_served.gzipped() or b"") == b'{"y":2,"version":2}'
            pub_served = await store.view_with_version(keys, None)
            assert pub_served is not None and pub_served.json() == b'{"x":3,"version":2}'
            assert gzip.decompress(pub_served.gzipped() or b"") == b'{"x":3,"version":2}'
            assert len(await r.get(keys.view(None))) != len(b'{"version":-1,"x":3}')  # stored packed
            # a digest that is not the stored one: nothing written, the caller must send every body
            assert await store.write(keys, 3, {None: ("d-pub2", None), "stark": ("d-other", None)}, []) == MISMATCH
            assert await store.version(keys) == 2
        finally:
            await r.aclose()

    try:
        asyncio.run(scenario())
    finally:
        embedded_redis.stop(proc)


def test_an_amended_order_rewrites_only_its_house_view_and_every_view_stays_the_games_own(tmp_path):
    """Three seats; the first house submits orders, then amends them: the amendment changes that
    house's view only (the others see that it submitted, not what). Every reader's served view
    equals the game's own view of that reader at the projected version."""
    proc, port = embedded_redis.start(tmp_path / "redis", persist=False)
    url = f"redis://127.0.0.1:{port}/0"

    async def scenario() -> None:
        rt = build_runtime(_config(url), scheduler=NullScheduler())
        projector = Projector(_config(url), rt.redis)
        try:
            _, created = await rt.engine.create_game(
                "board", BoardCreateBody(player_count=3, settings=Settings()), None, ""
            )
            gid = msgspec.json.decode(created)["game_id"]
            for i in range(3):
                await rt.engine.execute(gid, Actor(kind="seat"), JoinGame(name=f"p{i}"))
            await rt.engine.execute(gid, ORGANIZER, StartGame())
            game = await rt.engine.load(gid)
            house = game.state.turn_order()[0]
            seat = next(s.seat_id for s in game.state.seats if s.house == house)
            actor = Actor(kind="seat", seat_id=seat)
            orders = default_orders(game.state, house)
            await projector.project_game(gid)
            await rt.engine.execute(gid, actor, cmd.AssignOrders(orders=orders))
            await projector.project_game(gid)
            written = projector.views_written
            amended = dict(orders)
            area, token = next((a, t) for a, t in orders.items() if t != "support_0")
            amended[area] = "support_0" if token != "support_0" else token
            await rt.engine.execute(gid, actor, cmd.AssignOrders(orders=amended))
            version = await projector.project_game(gid)
            assert projector.views_written - written == 1  # the amending house's own view, nothing else
            game = await rt.engine.load(gid)
            assert game.version == version
            keys = rt.store.keys(gid)
            for reader in [None, *game.game.readers(game.state)]:
                served = await rt.projections.view_with_version(keys, reader)
                assert served is not None and served.version == version
                own = view_json(game.game.view(game.state, reader))  # what a fold serves, byte for byte
                assert json.loads(own) == json.loads(_enc.encode(game.game.view(game.state, reader)))
                assert served.json() == own, reader
                zipped = served.gzipped()
                assert zipped is not None and gzip.decompress(zipped) == own, reader
        finally:
            await rt.close()

    try:
        asyncio.run(scenario())
    finally:
        embedded_redis.stop(proc)


def test_a_view_stored_before_views_were_gzipped_is_still_served_then_rewritten_packed(tmp_path):
    """A deployment upgrades while games are open: a view written by the previous version (its JSON,
    the version as a mark) is served as JSON at the projected version (no gzip form: the app's
    compression gzips it like any answer); the next write of that view stores it packed."""
    proc, port = embedded_redis.start(tmp_path / "redis", persist=False)

    async def scenario() -> None:
        r = aioredis.from_url(f"redis://127.0.0.1:{port}/0")
        store = ProjectionStore(r)
        keys = Keys("g_" + "b" * 32, 4)
        try:
            await r.set(keys.view(None), b'{"game_id":"g","version":-1,"x":1}')  # as the old projector wrote it
            await r.hset(keys.proj, mapping={"version": 7, "h:": "d-old"})
            old = await store.view_with_version(keys, None)
            assert old is not None and old.gzipped() is None
            assert old.json() == b'{"game_id":"g","version":7,"x":1}'
            assert await store.write(keys, 8, {None: ("d-new", b'{"game_id":"g","version":-1,"x":2}')}, []) == 8
            new = await store.view_with_version(keys, None)
            assert new is not None and new.json() == b'{"game_id":"g","x":2,"version":8}'
            assert gzip.decompress(new.gzipped() or b"") == new.json()
        finally:
            await r.aclose()

    try:
        asyncio.run(scenario())
    finally:
        embedded_redis.stop(proc)
