"""The event store's client packs commands with hiredis (``service/store/redis_client.py``,
``HiredisPacking``): the same bytes on the wire as redis-py's own packer, the same refusals."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.connection import Connection

from service.store.config import Config
from service.store.redis_client import HiredisPacking, event_store_redis, with_hiredis_packing


class _Packer(HiredisPacking, Connection):
    pass


ARGS = [
    ("EVALSHA", "a" * 40, 9, "{p07}:game:g_1:events", 7, "", b"\x00\xff" * 300, 1_000_000, 0.1, 1e20, -3),
    ("SET", "k", "é ü 漢", 1733112345.123, float("inf")),
    ("CONFIG GET", "maxmemory"),
    (b"SCRIPT LOAD", "return 1"),
    ("SET", "k", memoryview(b"view")),
    ("SET", "k", bytearray(b"array")),
    ("SET", "k", "x" * 10_000),
]


@pytest.mark.parametrize("args", ARGS, ids=range(len(ARGS)))
def test_hiredis_packing_sends_the_same_bytes_as_redis_pys_own_packer(args):
    assert b"".join(_Packer().pack_command(*args)) == b"".join(Connection().pack_command(*args))


@pytest.mark.parametrize("bad", [True, None, object()])
def test_hiredis_packing_refuses_what_redis_py_refuses_with_a_data_error(bad):
    with pytest.raises(redis.exceptions.DataError):
        Connection().pack_command("SET", "k", bad)
    with pytest.raises(redis.exceptions.DataError):
        _Packer().pack_command("SET", "k", bad)


def test_the_event_store_client_packs_with_hiredis_and_round_trips(redis_url):
    async def run() -> tuple[type, bytes | None]:
        r = event_store_redis(dataclasses.replace(Config.from_env(), redis_url=redis_url, cluster=False))
        try:
            await r.set("citadel:test:packing", "é" * 3)
            return r.connection_pool.connection_class, await r.get("citadel:test:packing")
        finally:
            await r.delete("citadel:test:packing")
            await r.aclose()

    cls, value = asyncio.run(run())
    assert issubclass(cls, HiredisPacking)
    assert value == ("é" * 3).encode()


def test_a_client_with_another_encoding_keeps_redis_pys_packer():
    client = with_hiredis_packing(aioredis.Redis(encoding="latin-1"))
    assert not issubclass(client.connection_pool.connection_class, HiredisPacking)
