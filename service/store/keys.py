"""Redis key names. Everything one game touches carries its partition's hash tag ``{pNN}``, so a
game (and its partition's feed) lives in one Redis Cluster slot and one Lua script can touch it all.
"""

from __future__ import annotations

import zlib


def partition_of(game_id: str, partitions: int) -> int:
    return zlib.crc32(game_id.encode()) % partitions


def tag(partition: int) -> str:
    return f"{{p{partition:02d}}}"


class Keys:
    """Key names for one game."""

    __slots__ = (
        "game_id",
        "partition",
        "events",
        "feed",
        "idem",
        "games",
        "seed",
        "snapshot",
        "proj",
        "log",
        "pending",
        "deadlines",
        "archive",
        "to_archive",
    )

    def __init__(self, game_id: str, partitions: int):
        p = partition_of(game_id, partitions)
        t = tag(p)
        self.game_id = game_id
        self.partition = p
        self.events = f"{t}:game:{game_id}:events"
        self.feed = feed_key(p)
        self.idem = f"{t}:game:{game_id}:idem"
        self.games = games_key(p)
        self.pending = pending_key(p)
        self.deadlines = deadlines_key(p)
        self.seed = f"{t}:game:{game_id}:seed"
        self.snapshot = f"{t}:game:{game_id}:snap"
        self.proj = f"{t}:game:{game_id}:proj"
        self.log = f"{t}:game:{game_id}:log"
        self.archive = f"{t}:game:{game_id}:archive"
        self.to_archive = to_archive_key(p)

    def view(self, reader: str | None) -> str:
        return f"{tag(self.partition)}:game:{self.game_id}:view:{reader or 'public'}"


def feed_key(partition: int) -> str:
    return f"{tag(partition)}:feed"


def replicated_key(partition: int) -> str:
    """A marker written after an append on the connection that then asks ``WAIT``: replicas apply
    the stream in order, so once they acknowledge the marker they hold the append too."""
    return f"{tag(partition)}:replicated"


def games_key(partition: int) -> str:
    return f"{tag(partition)}:games"


def pending_key(partition: int) -> str:
    """Games of a partition that wait for a worker to resolve a step (see workers/worker.py)."""
    return f"{tag(partition)}:pending"


def deadlines_key(partition: int) -> str:
    """Deadlines of a partition's games, ``game_id@step_version`` scored by epoch seconds: the
    workers' sweep fires the ones past due (see workers/sweep.py)."""
    return f"{tag(partition)}:deadlines"


def to_archive_key(partition: int) -> str:
    """Finished games of a partition waiting to be archived, scored by the epoch second when they
    may be (their end + ``CITADEL_ARCHIVE_AFTER_S``): the workers' sweep archives the due ones
    (``service/store/archive.py``)."""
    return f"{tag(partition)}:to_archive"


SECRET_KEY = "citadel:secret"
SIGNING_KEY = "citadel:signing_key"
"""The deployment's Ed25519 seed (base64) when ``CITADEL_SIGNING_KEY`` is not set (service/engine/signing.py)."""
