"""Configuration from the environment, read once per process.

| variable | default | meaning |
|---|---|---|
| ``REDIS_URL`` | embedded Redis (``citadel run``) | the event store's Redis (may be a Cluster) |
| ``CITADEL_QUEUE_URL`` | ``REDIS_URL`` | RQ's Redis (RQ does not run on Redis Cluster) |
| ``CITADEL_CLUSTER`` | ``0`` | ``1`` to talk to ``REDIS_URL`` as a Redis Cluster |
| ``CITADEL_CLUSTER_NODES`` | empty | more Cluster nodes to start from besides the one ``REDIS_URL`` names (``host:port,host:port``): a process that starts while that node is down still finds the Cluster (service/store/redis_client.py) |
| ``CITADEL_PARTITIONS`` | ``16`` | number of partitions (hash tags and feeds) |
| ``CITADEL_SECRET`` | generated once, kept in Redis | key that signs bearer tokens |
| ``CITADEL_SIGNING_KEY`` | generated once, kept in Redis | Ed25519 key that signs exported chain heads: base64 of its 32-byte seed, or a file with that or a PEM key (service/engine/signing.py) |
| ``CITADEL_SNAPSHOT_EVERY`` | ``64`` | write a state snapshot every N events |
| ``CITADEL_QUEUE`` | ``citadel`` | RQ queue name |
| ``CITADEL_MAX_STREAMS`` | ``512`` | open SSE streams and long-polls per API process (503 beyond) |
| ``CITADEL_MAX_STREAMS_PER_CLIENT`` | ``8`` | open SSE streams and long-polls per client, across replicas (429 beyond; 0 = off) |
| ``CITADEL_RATE_LIMIT_PER_S`` / ``_BURST`` | ``100`` / ``400`` | requests per client (a game's seat or organizer, else an address), across replicas (429 beyond; 0 = off) |
| ``CITADEL_GAMES`` | ``board`` | the kinds of game this deployment hosts (comma-separated; see domain/registry.py) |
| ``CITADEL_SWEEP_S`` | ``1`` | how often each worker sweeps for due deadlines and resolutions nobody finished |
| ``CITADEL_FEED_TRIM_S`` | ``30`` | how often a worker trims the partition feeds by what every consumer group acknowledged (service/store/feeds.py) |
| ``CITADEL_ARCHIVE_AFTER_S`` | ``600`` | how long after its end a finished game is compacted into one compressed archive key (its idempotency answers end then too; docs/memory.md; negative: never) |
| ``CITADEL_WAIT_REPLICAS`` | ``0`` | replicas that must acknowledge each append before a command is answered (``WAIT``; service/store/event_store.py) |
| ``CITADEL_WAIT_TIMEOUT_MS`` | ``200`` | the longest an append waits for them (then it is answered and counted on ``/metrics``) |
| ``CITADEL_PROJECTOR_COALESCE_MS`` | ``200`` | the projector's pause after a batch, so busy games fold several appends into one write |
| ``CITADEL_CORS_ORIGINS`` | empty: CORS off | origins whose browser pages may call the API (comma-separated, e.g. ``https://a.example,http://localhost:5173``; ``*``: any); service/http/manners.py |
| ``CITADEL_WEBHOOK_*`` | see docs/webhooks.md | allowed hosts, loopback, http, timeout, attempts, backoff of webhooks (read by ``service/engine/webhooks.py``) |
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    redis_url: str
    queue_url: str
    cluster: bool
    partitions: int
    secret: str | None
    snapshot_every: int
    queue_name: str
    max_streams: int = 512
    max_streams_per_client: int = 8
    games: tuple[str, ...] = ("board",)
    sweep_s: float = 1.0
    signing_key: str | None = None
    wait_replicas: int = 0
    wait_timeout_ms: int = 200
    cors_origins: tuple[str, ...] = ()
    archive_after_s: float = 600.0
    feed_trim_s: float = 30.0
    cluster_nodes: tuple[tuple[str, int], ...] = ()
    """``CITADEL_CLUSTER_NODES``: Cluster nodes to start from besides ``REDIS_URL``'s."""
    append_pipeline: bool = True
    """``CITADEL_APPEND_PIPELINE`` (default 1): send the appends of one event-loop turn in one
    round trip (``service.store.event_store.AppendPipeline``); 0 sends each on its own."""

    @classmethod
    def from_env(cls) -> Config:
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            queue_url=os.environ.get("CITADEL_QUEUE_URL", redis_url),
            cluster=os.environ.get("CITADEL_CLUSTER", "0") == "1",
            cluster_nodes=cluster_nodes(os.environ.get("CITADEL_CLUSTER_NODES", "")),
            partitions=int(os.environ.get("CITADEL_PARTITIONS", "16")),
            secret=os.environ.get("CITADEL_SECRET") or None,
            snapshot_every=int(os.environ.get("CITADEL_SNAPSHOT_EVERY", "64")),
            queue_name=os.environ.get("CITADEL_QUEUE", "citadel"),
            max_streams=int(os.environ.get("CITADEL_MAX_STREAMS", "512")),
            max_streams_per_client=int(os.environ.get("CITADEL_MAX_STREAMS_PER_CLIENT", "8")),
            games=tuple(g.strip() for g in os.environ.get("CITADEL_GAMES", "board").split(",") if g.strip()),
            sweep_s=float(os.environ.get("CITADEL_SWEEP_S", "1")),
            archive_after_s=float(os.environ.get("CITADEL_ARCHIVE_AFTER_S", "600")),
            feed_trim_s=float(os.environ.get("CITADEL_FEED_TRIM_S", "30")),
            signing_key=os.environ.get("CITADEL_SIGNING_KEY") or None,
            wait_replicas=int(os.environ.get("CITADEL_WAIT_REPLICAS", "0")),
            wait_timeout_ms=int(os.environ.get("CITADEL_WAIT_TIMEOUT_MS", "200")),
            cors_origins=cors_origins(os.environ.get("CITADEL_CORS_ORIGINS", "")),
            append_pipeline=os.environ.get("CITADEL_APPEND_PIPELINE", "1") != "0",
        )


def cors_origins(value: str) -> tuple[str, ...]:
    """``CITADEL_CORS_ORIGINS``: comma-separated origins (``scheme://host[:port]``, no path), or ``*``."""
    origins = tuple(o.strip().rstrip("/") for o in value.split(",") if o.strip())
    for o in origins:
        if o != "*" and ("://" not in o or "/" in o.split("://", 1)[1]):
            raise ValueError(f"CITADEL_CORS_ORIGINS: {o!r} is not an origin (scheme://host[:port], or *)")
    return origins


def cluster_nodes(value: str) -> tuple[tuple[str, int], ...]:
    """``CITADEL_CLUSTER_NODES``: comma-separated ``host:port`` pairs."""
    nodes = []
    for item in (i.strip() for i in value.split(",")):
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"CITADEL_CLUSTER_NODES: {item!r} is not host:port")
        nodes.append((host, int(port)))
    return tuple(nodes)
