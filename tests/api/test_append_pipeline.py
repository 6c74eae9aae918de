"""Appends of concurrent commands of different games share one Redis round trip
(``service.store.event_store.AppendPipeline``), each still its own atomic script call with its own
answer: a conflict or an error in one never touches another (issue 12, pipelined appends).

These tests write bogus events and delete partition feeds, so they run on a Redis server of their
own: on the session's database they would break the running projector's consumer groups."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from domain.board.game import BoardCreateBody
from domain.board.state import Settings
from domain.core.commands import Actor, JoinGame
from domain.core.envelope import GENESIS, seal
from domain.core.errors import GameError
from service.engine.dispatch import NullScheduler
from service.engine.runtime import build_runtime
from service.store import embedded_redis
from service.store.config import Config
from service.store.event_store import Appended, EventStore, Stale


@pytest.fixture(scope="module")
def own_redis_url() -> Iterator[str]:
    """A private redis-server for this module (not the session's database)."""
    tmp = Path(tempfile.mkdtemp(prefix="citadel-pipeline-redis-"))
    proc, port = embedded_redis.start(tmp, persist=False)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        embedded_redis.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def _config(redis_url: str) -> Config:
    return Config(
        redis_url=redis_url, queue_url=redis_url, cluster=False, partitions=16, secret="pipeline-test",
        snapshot_every=64, queue_name="citadel-pipeline-test",
    )  # fmt: skip


def _one_event() -> list:
    return [seal(1, "2026-01-01T00:00:00.000Z", 1, GENESIS, b'{"type":"pipeline_test"}')]


def test_appends_of_one_turn_share_a_round_trip_and_each_gets_its_own_answer(own_redis_url):
    """Three appends in one turn: one accepted, one stale (another writer got there first), one
    failing in the server (its stream key holds a string). One round trip; each caller gets its own
    outcome, and the accepted one is in its stream."""

    async def scenario() -> None:
        client = aioredis.from_url(own_redis_url)
        store = EventStore(client, 16)
        ok, stale, broken = (store.keys(f"g_pipeline{i}") for i in range(3))
        await client.delete(ok.events, stale.events, broken.events)
        try:
            assert store.pipeline is not None
            assert await store.append(stale, 0, _one_event()) == Appended(1)  # another writer went first
            await client.set(broken.events, "not a stream")
            trips, calls = store.pipeline.round_trips, store.pipeline.calls
            got = await asyncio.gather(
                store.append(ok, 0, _one_event()),
                store.append(stale, 0, _one_event()),
                store.append(broken, 0, _one_event()),
                return_exceptions=True,
            )
            assert (store.pipeline.round_trips - trips, store.pipeline.calls - calls) == (1, 3)
            assert got[0] == Appended(1)
            assert got[1] == Stale(1)
            assert isinstance(got[2], ResponseError) and "WRONGTYPE" in str(got[2])
            assert [e.seq for e in await store.read(ok)] == [1]
            assert await client.xlen(stale.events) == 1  # nothing appended by the stale call
            # and a lone append afterwards is one round trip of its own
            assert await store.append(ok, 0, _one_event()) == Stale(1)
            assert store.pipeline.round_trips - trips == 2
        finally:
            await client.delete(ok.events, stale.events, broken.events, ok.games, ok.feed, stale.feed)
            await client.aclose()

    asyncio.run(scenario())


@pytest.mark.parametrize("players", [3])
def test_two_concurrent_commands_to_different_games_share_one_round_trip(own_redis_url, players):
    """Two seats join two games at once through one engine: their appends leave together. Then the
    same again while another process has moved the second game on behind this engine's back and the
    command names the version it expects (``If-Match``): the second is refused 409
    ``stale_version`` and the first is accepted, from one shared round trip."""

    async def scenario() -> None:
        rt = build_runtime(_config(own_redis_url), scheduler=NullScheduler())
        other = build_runtime(_config(own_redis_url), scheduler=NullScheduler())
        try:
            ids = []
            for _ in range(2):
                create = BoardCreateBody(player_count=players, settings=Settings())
                _, created = await rt.engine.create_game("board", create, None, "")
                ids.append(msgspec.json.decode(created)["game_id"])
                await rt.engine.execute(ids[-1], Actor(kind="seat"), JoinGame(name="first"))  # cached and seeded
            pipe = rt.store.pipeline
            assert pipe is not None
            trips, calls = pipe.round_trips, pipe.calls
            answers = await asyncio.gather(*(rt.engine.execute(g, Actor(kind="seat"), JoinGame(name="a")) for g in ids))
            assert [status for status, _ in answers] == [200, 200]
            assert (pipe.round_trips - trips, pipe.calls - calls) == (1, 2)

            await other.engine.execute(ids[1], Actor(kind="seat"), JoinGame(name="b"))  # rt's cache is now behind
            cached = rt.engine.repo.peek(ids[1])
            assert cached is not None and cached.version == 3
            trips, calls = pipe.round_trips, pipe.calls
            first, second = await asyncio.gather(
                rt.engine.execute(ids[0], Actor(kind="seat"), JoinGame(name="b"), expected_version=3),
                rt.engine.execute(ids[1], Actor(kind="seat"), JoinGame(name="c"), expected_version=3),
                return_exceptions=True,
            )
            assert (pipe.round_trips - trips, pipe.calls - calls) == (1, 2)
            assert not isinstance(first, BaseException) and first[0] == 200
            assert msgspec.json.decode(first[1])["version"] == 4
            assert isinstance(second, GameError) and second.code == "stale_version"
            assert await rt.store.version(rt.store.keys(ids[1])) == 4  # only the other process's join
        finally:
            await other.close()
            await rt.close()

    asyncio.run(scenario())
