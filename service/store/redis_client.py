"""Redis connections for the event store (plain or Cluster) and for RQ (always plain)."""

from __future__ import annotations

import contextlib
from typing import Any

import hiredis
import redis
import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.cluster import ClusterNode as SyncClusterNode
from redis.cluster import RedisCluster

from .config import Config

_seen_cluster_nodes: dict[tuple[str, int], None] = {}
"""Every Cluster node a client of this process has discovered, oldest first (process-wide)."""


def remember_cluster_nodes(client: Any) -> None:
    """Note the nodes ``client`` (a Cluster client that has reached its Cluster) knows, so that
    clients created later in this process can start from them (:func:`cluster_seeds`). A plain
    client, or one that never connected, adds nothing."""
    get_nodes = getattr(client, "get_nodes", None)
    if get_nodes is None:
        return
    with contextlib.suppress(Exception):
        for node in get_nodes():
            _seen_cluster_nodes[(node.host, node.port)] = None


def cluster_seeds(cfg: Config) -> list[tuple[str, int]]:
    """The nodes a new Cluster client starts from besides the one ``REDIS_URL`` names:
    ``CITADEL_CLUSTER_NODES`` and every node a client of this process has seen. A process that
    replaces its clients after a failover (the worker's sweep and jobs, the API's stream reads)
    must not depend on ``REDIS_URL``'s node alone: when that node is the master that died, a client
    seeded from it alone cannot start at all (seen in CI: a worker whose sweep could no longer
    reach Redis left a game waiting for its resolution until the test gave up)."""
    seeds = dict.fromkeys(cfg.cluster_nodes)
    seeds.update(_seen_cluster_nodes)
    return list(seeds)


_BUFFERS = (bytearray, memoryview)
"""Arguments redis-py sends as their bytes, which hiredis's packer takes only as ``bytes``."""


class HiredisPacking:
    """Packs commands with hiredis's C packer (``hiredis.pack_command``), the way redis-py's sync
    client does when hiredis is installed (``redis.connection.HiredisRespSerializer``); its asyncio
    connections always pack in Python, one ``Encoder.encode`` and a few joins per argument: about 5 %
    of the API's CPU under a command load (an append is an ``EVALSHA`` of about 25 arguments;
    docs/benchmarks.md). The bytes on the wire are the same (ints and floats as ``repr``, text as
    UTF-8, the client's default encoding); an argument of another type raises ``DataError`` as before."""

    def pack_command(self, *args: Any) -> list[bytes]:
        if isinstance(args[0], str):  # a command name with a space ("CONFIG GET") is two arguments
            args = tuple(args[0].encode().split()) + args[1:]
        elif b" " in args[0]:
            args = tuple(args[0].split()) + args[1:]
        try:
            return [hiredis.pack_command(args)]
        except TypeError:  # a bytearray (taken as bytes), or a bool, None...: what redis-py refuses
            pass
        args = tuple(bytes(a) if isinstance(a, _BUFFERS) else a for a in args)
        try:
            return [hiredis.pack_command(args)]
        except TypeError as e:
            raise redis.exceptions.DataError(str(e)) from e


def with_hiredis_packing(client: Any) -> Any:
    """``client`` (a plain asyncio client) with :class:`HiredisPacking` mixed into its pool's
    connection class (plain TCP, TLS or Unix socket alike). A client whose connections pack
    otherwise, or that pins its encoding to something other than UTF-8, is left as it is."""
    pool = client.connection_pool
    cls = pool.connection_class
    kwargs = pool.connection_kwargs
    if (
        issubclass(cls, AbstractConnection)
        and not issubclass(cls, HiredisPacking)
        and kwargs.get("encoding", "utf-8").lower().replace("_", "-") in ("utf-8", "utf8")
        and kwargs.get("encoding_errors", "strict") == "strict"
    ):
        pool.connection_class = type(f"Hiredis{cls.__name__}", (HiredisPacking, cls), {})
    return client


def event_store_redis(cfg: Config) -> Any:
    """Async client for the event store; a RedisCluster client when ``CITADEL_CLUSTER=1``."""
    if cfg.cluster:
        return AsyncRedisCluster.from_url(
            cfg.redis_url, startup_nodes=[ClusterNode(host, port) for host, port in cluster_seeds(cfg)]
        )
    return with_hiredis_packing(aioredis.from_url(cfg.redis_url, max_connections=256))


STORE_UNREACHABLE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.RedisClusterException,  # e.g. no reachable startup node, slot not covered
    redis.exceptions.ClusterError,  # CLUSTERDOWN, MASTERDOWN, "TTL exhausted" while slots move
    redis.exceptions.TryAgainError,
)
"""What a store that is down or failing over raises: the API answers 503 ``store_unavailable``
with ``Retry-After`` for each of them, never 500; workers and the projector reconnect."""


def blocking_reads_redis(cfg: Config) -> Any:
    """A separate pool for blocking reads (SSE, long-polls): a crowd of open streams can never take
    the connections that commands need. On a Cluster it starts from :func:`cluster_seeds` too."""
    if cfg.cluster:
        return AsyncRedisCluster.from_url(
            cfg.redis_url, startup_nodes=[ClusterNode(host, port) for host, port in cluster_seeds(cfg)]
        )
    return aioredis.from_url(cfg.redis_url, max_connections=cfg.max_streams + 8)


class BlockingReads:
    """``XREAD BLOCK`` on the blocking-reads client, replaced when its store is unreachable.

    A Cluster client that lost a master kept routing to the dead node (seen: 80 s of 503s on the
    event streams after a failover), while a new one reads the slot map afresh. The new one is
    seeded from every node the long-lived command client has discovered (:func:`cluster_seeds`),
    not from ``REDIS_URL`` alone: when the node that URL names is the master that died, a client
    seeded from it alone cannot start at all (seen in CI: a 500 on a long-poll after the failover)."""

    def __init__(self, cfg: Config, commands: Any) -> None:
        self.cfg = cfg
        self.commands = commands
        self.client: Any = blocking_reads_redis(cfg)

    async def xread(self, streams: dict[str, str], count: int, block: int) -> Any:
        """Read; on a store error replace the client, then let the error go on (the caller
        answers 503 and the client's retry reaches the new one)."""
        try:
            return await self.client.xread(streams, count=count, block=block)
        except STORE_UNREACHABLE:
            remember_cluster_nodes(self.commands)
            remember_cluster_nodes(self.client)
            old, self.client = self.client, blocking_reads_redis(self.cfg)
            with contextlib.suppress(Exception):
                await old.aclose()
            raise

    async def aclose(self) -> None:
        await self.client.aclose()


def event_store_redis_sync(cfg: Config) -> Any:
    """Sync client for the event store (the worker's sweep, the webhook outbox, start-up reads).
    A Cluster client connects as it is made: the nodes it found are remembered at once."""
    if cfg.cluster:
        client = RedisCluster.from_url(
            cfg.redis_url, startup_nodes=[SyncClusterNode(host, port) for host, port in cluster_seeds(cfg)]
        )
        remember_cluster_nodes(client)
        return client
    return redis.Redis.from_url(cfg.redis_url)


def queue_redis(cfg: Config) -> redis.Redis:
    return redis.Redis.from_url(cfg.queue_url)
