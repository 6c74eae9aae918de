"""The event store: one Redis stream per game, appended to by one atomic Lua script.

``append(keys, expected_version, envelopes, idempotency_key, answer)`` either appends every event
(and one entry to the partition's feed) or nothing:

* wrong ``expected_version`` -> nothing appended, the current version is reported (``Stale``);
* an ``idempotency_key`` seen before -> nothing appended, the first answer is returned (``Duplicate``).

In the same script the game is marked for the workers: added to its partition's ``pending`` set when
a step waits for a worker's resolution, and its new deadline added to the partition's ``deadlines``
sorted set. The workers' sweep (``workers/sweep.py``) reads both, so work that an API process
appended but died before enqueueing is never lost.

Durability: Redis replicates asynchronously, so an append acknowledged by a master that dies the
next instant may never reach the replica that takes over. With ``wait_replicas`` set
(``CITADEL_WAIT_REPLICAS``), each append waits until that many replicas acknowledged it (``WAIT``,
at most ``wait_timeout_ms``) before the command is answered: :class:`Replication` counts the appends
answered with fewer (they are kept and answered; the replicas catch up unless the master dies in
that window). ``WAIT`` counts the writes of its own connection, and a pooled client may send it on
another one, so a marker is written on the ``WAIT``'s connection first: replicas apply the
replication stream in order, so acknowledging the marker means they hold the append too.

Stream entry ids are ``<seq>-0``: the id *is* the game's version, so reading "from version N" is an
``XRANGE`` from ``N+1``. Each entry holds one field ``e`` with the :class:`Envelope` JSON (event body,
sequence, timestamp, schema, hash chain). Game streams are never trimmed: they are the source of truth,
until a finished game is archived whole, exact envelopes and all (``service/store/archive.py``);
:meth:`EventStore.read` then serves its events from the archive.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from domain.core.envelope import Envelope

from .archive import unpack
from .keys import Keys, replicated_key

log = logging.getLogger("citadel.store")

FEED_MAXLEN = 1_000_000
IDEMPOTENCY_TTL_S = 24 * 3600
"""Idempotency answers are kept for a day after a game's last keyed command (then a retry runs anew)."""

APPEND_LUA = """
local cur = redis.call('XLEN', KEYS[1])
if ARGV[2] ~= '' then
  local prev = redis.call('HGET', KEYS[3], ARGV[2])
  if prev then return {'dup', prev} end
end
if cur == 0 then
  local archived = redis.call('HGET', KEYS[8], 'v')
  if archived then return {'archived', archived} end
end
if tonumber(ARGV[1]) ~= cur then return {'stale', tostring(cur)} end
local n = #ARGV - 12
for i = 1, n do
  redis.call('XADD', KEYS[1], tostring(cur + i) .. '-0', 'e', ARGV[12 + i])
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'g', ARGV[4], 'v', tostring(cur + n))
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[3], IDEMPOTENCY_TTL)
end
if cur == 0 then
  redis.call('SADD', KEYS[4], ARGV[4])
  if ARGV[6] ~= '' then redis.call('SET', KEYS[5], ARGV[6]) end
end
if ARGV[7] == '1' then redis.call('SADD', KEYS[6], ARGV[4]) end
if ARGV[10] ~= '' then redis.call('ZREM', KEYS[7], ARGV[10]) end
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[7], ARGV[8], ARGV[9]) end
if ARGV[11] ~= '' then
  redis.call('ZADD', KEYS[9], ARGV[11], ARGV[4])
  redis.call('EXPIRE', KEYS[3], ARGV[12])
end
return {'ok', tostring(cur + n)}
"""

READ_LUA = """
local r
if ARGV[2] == '' then
  r = redis.call('XRANGE', KEYS[1], ARGV[1], '+')
else
  r = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
end
if #r == 0 and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
return r
"""


@dataclass(frozen=True, slots=True)
class DueTimeout:
    """A deadline to enforce: the step that set it (``step_version``) and when, in epoch seconds."""

    step_version: int
    at_epoch_s: float

    def member(self, game_id: str) -> str:
        return f"{game_id}@{self.step_version}"

    @staticmethod
    def parse_member(member: bytes | str) -> tuple[str, int]:
        text = member.decode() if isinstance(member, bytes) else member
        game_id, _, step_version = text.rpartition("@")
        return game_id, int(step_version)


@dataclass(frozen=True, slots=True)
class Appended:
    version: int
    replicas: int | None = None
    """Replicas that acknowledged the append (``None``: not asked, ``wait_replicas`` is 0)."""


@dataclass
class Replication:
    """How appends fared against ``wait_replicas`` (served on ``/metrics``)."""

    wanted: int = 0
    timeout_ms: int = 200
    waited: int = 0
    under_replicated: int = 0

    def render(self) -> list[str]:
        name = "citadel_appends_under_replicated_total"
        return [
            f"# HELP {name} Appends answered before {self.wanted} replica(s) acknowledged them.",
            f"# TYPE {name} counter",
            f"{name} {self.under_replicated}",
        ]


@dataclass(frozen=True, slots=True)
class Stale:
    current_version: int


@dataclass(frozen=True, slots=True)
class Duplicate:
    answer: bytes


@dataclass(frozen=True, slots=True)
class Archived:
    """The game ended and was archived (``service/store/archive.py``): it takes no more events."""

    version: int


_env_dec = msgspec.json.Decoder(Envelope)
_enc = msgspec.json.Encoder()


def decode_entry(fields: dict) -> Envelope:
    return _env_dec.decode(fields[b"e"])


class AppendPipeline:
    """Sends the append-script calls made in one event-loop turn in one Redis pipeline.

    Under load an API process has many commands of different games in flight; each used to pay its
    own round trip to Redis (the client's share of it, a socket write and a read, costs about twice
    the script's time in the server). Here each :meth:`call` queues its script call and the first one
    of a turn schedules a flush for the next turn: every call queued by then leaves in one pipeline
    (``transaction=False``: no ``MULTI``), one write and one read for all of them.

    Each call is still its own ``EVALSHA``, atomic on its own, with its own answer: the pipeline is
    read with ``raise_on_error=False``, so an error in one call (a stale version is an answer, not an
    error; a script error, a wrong key type) is raised to that call's caller only and the others get
    their answers. Only a failure of the whole round trip (the connection) fails every call in it.
    A ``NOSCRIPT`` answer (the server lost its script cache) loads the script and resends just those
    calls. Calls to the same game are serialised by the engine's per-game lock, and a game's calls
    from other processes race as before (the script's version check decides).

    :attr:`round_trips` and :attr:`calls` count what was sent (tests and benchmarks read them)."""

    def __init__(self, redis: Any, script: Any) -> None:
        self.redis = redis
        self.script = script
        self._queue: list[tuple[list[str], list[Any], asyncio.Future[Any]]] = []
        self._flushing: set[asyncio.Task[None]] = set()
        self.round_trips = 0
        self.calls = 0

    def call(self, keys: list[str], args: list[Any]) -> asyncio.Future[Any]:
        """Queue one script call; the future holds its answer (or its own error)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._queue.append((keys, args, fut))
        if len(self._queue) == 1:
            loop.call_soon(self._flush)
        return fut

    def _flush(self) -> None:
        batch, self._queue = self._queue, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _send(self, batch: list[tuple[list[str], list[Any], asyncio.Future[Any]]]) -> None:
        try:
            results = await self._round_trip(batch)
            missing = [i for i, r in enumerate(results) if isinstance(r, NoScriptError)]
            if missing:
                await self.redis.script_load(self.script.script)
                again = await self._round_trip([batch[i] for i in missing])
                for i, r in zip(missing, again, strict=True):
                    results[i] = r
        except asyncio.CancelledError:  # the loop is shutting down
            for _, _, fut in batch:
                fut.cancel()
            raise
        except Exception as e:  # the round trip itself failed: every call in it failed
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return
        for (_, _, fut), r in zip(batch, results, strict=True):
            if fut.done():  # its caller was cancelled; the append itself stands or not, as the script said
                continue
            if isinstance(r, Exception):
                fut.set_exception(r)
            else:
                fut.set_result(r)

    async def _round_trip(self, batch: list[tuple[list[str], list[Any], asyncio.Future[Any]]]) -> list[Any]:
        self.round_trips += 1
        self.calls += len(batch)
        if len(batch) == 1:  # no pipeline object for a lone call
            keys, args, _ = batch[0]
            try:
                return [await self.redis.evalsha(self.script.sha, len(keys), *keys, *args)]
            except NoScriptError as e:
                return [e]
        pipe = self.redis.pipeline(transaction=False)
        for keys, args, _ in batch:
            pipe.evalsha(self.script.sha, len(keys), *keys, *args)
        return list(await pipe.execute(raise_on_error=False))


KEYS_CACHED = 10_000
"""Games whose key names each process keeps (:meth:`EventStore.keys`); all are dropped when full."""

ARCHIVES_CACHED = 16
"""Archived games whose decompressed events each process keeps (an LRU): paging through one reads
its archive once."""


class EventStore:
    def __init__(
        self,
        redis: Any,
        partitions: int,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 200,
        archive_after_s: float = 600.0,
        pipeline: bool = True,
    ):
        self.redis = redis
        self.partitions = partitions
        self.archive_after_s = archive_after_s
        """Seconds after its end when a finished game is archived (``service/store/archive.py``);
        its idempotency answers expire then too. Negative: never archived."""
        self._append = redis.register_script(APPEND_LUA.replace("IDEMPOTENCY_TTL", str(IDEMPOTENCY_TTL_S)))
        self.pipeline: AppendPipeline | None = None
        """Batches concurrent appends into one round trip; ``None`` on a Redis Cluster (a pipeline
        there splits by node anyway) or when turned off (``pipeline=False``), where each append is
        sent on its own."""
        if pipeline and not hasattr(redis, "get_node_from_key"):
            self.pipeline = AppendPipeline(redis, self._append)
        self._read = redis.register_script(READ_LUA)
        self._archives: OrderedDict[str, list[bytes]] = OrderedDict()
        self.replication = Replication(wanted=wait_replicas, timeout_ms=wait_timeout_ms)
        self._node_clients: dict[str, Any] = {}
        self._keys: dict[str, Keys] = {}

    def keys(self, game_id: str) -> Keys:
        """The game's key names, made once per game while it is among the :data:`KEYS_CACHED` most
        recently used (a command needs them twice; building them is a dozen strings and a CRC)."""
        keys = self._keys.get(game_id)
        if keys is None:
            if len(self._keys) >= KEYS_CACHED:
                self._keys.clear()
            keys = self._keys[game_id] = Keys(game_id, self.partitions)
        return keys

    async def append(
        self,
        keys: Keys,
        expected_version: int,
        envelopes: list[Envelope],
        idempotency_key: str | None = None,
        answer: bytes = b"",
        seed: str | None = None,
        pending: bool = False,
        deadline: DueTimeout | None = None,
        void_deadline: int | None = None,
        ends: float | None = None,
    ) -> Appended | Stale | Duplicate | Archived:
        """Append atomically; see the module docstring. ``seed`` is stored only with the first event;
        ``pending`` marks the game as waiting for a worker's resolution; ``deadline`` records the
        timeout a worker must fire; ``void_deadline``: the step whose deadline this batch ended (its
        mark is removed, so no mark waits for a deadline that can no longer fire); ``ends``: the
        batch ends the game at this epoch second: its idempotency answers then expire
        :attr:`archive_after_s` later, when the game is marked to be archived."""
        archive = ends is not None and self.archive_after_s >= 0
        args = [
            expected_version,
            idempotency_key or "",
            answer,
            keys.game_id,
            FEED_MAXLEN,
            seed or "",
            "1" if pending else "0",
            repr(deadline.at_epoch_s) if deadline else "",
            deadline.member(keys.game_id) if deadline else "",
            DueTimeout(void_deadline, 0).member(keys.game_id) if void_deadline is not None else "",
            repr(ends + self.archive_after_s) if archive and ends is not None else "",
            max(1, int(self.archive_after_s) + 60),
            *(_enc.encode(e) for e in envelopes),
        ]
        script_keys = [
            keys.events,
            keys.feed,
            keys.idem,
            keys.games,
            keys.seed,
            keys.pending,
            keys.deadlines,
            keys.archive,
            keys.to_archive,
        ]
        if self.pipeline is not None:
            status, value = await self.pipeline.call(script_keys, args)
        else:
            status, value = await self._append(keys=script_keys, args=args)
        if status == b"ok":
            if self.replication.wanted:
                return Appended(int(value), await self._await_replicas(keys))
            return Appended(int(value))
        if status == b"stale":
            return Stale(int(value))
        if status == b"archived":
            return Archived(int(value))
        return Duplicate(value)

    async def _await_replicas(self, keys: Keys) -> int:
        """``WAIT`` for :attr:`Replication.wanted` replicas of the master holding ``keys``, after a
        marker written on the same connection (see the module docstring). The append is done
        whatever happens here: a failure counts as no replica, it never fails the command."""
        rep = self.replication
        rep.waited += 1
        try:
            pipe = self._client_of(keys.events).pipeline(transaction=False)
            pipe.set(replicated_key(keys.partition), keys.game_id)
            pipe.execute_command("WAIT", rep.wanted, rep.timeout_ms)
            acked = int((await pipe.execute())[1])
        except Exception as e:  # the append stands; say so and count it
            log.warning("WAIT after appending to %s failed: %s", keys.game_id, e)
            acked = 0
        if acked < rep.wanted:
            rep.under_replicated += 1
            log.warning("append to %s acknowledged by %d of %d replica(s)", keys.game_id, acked, rep.wanted)
        return acked

    def _client_of(self, key: str) -> Any:
        """A plain client of the master holding ``key`` (on a Cluster, a pipeline there is one
        connection; the Cluster client may send ``WAIT`` to any node)."""
        get_node = getattr(self.redis, "get_node_from_key", None)
        if get_node is None:
            return self.redis
        node = get_node(key)
        client = self._node_clients.get(node.name)
        if client is None:
            client = self._node_clients[node.name] = aioredis.Redis(host=node.host, port=node.port)
        return client

    async def close(self) -> None:
        """Close the per-master clients of :meth:`_client_of` (the shared client is its owner's)."""
        clients, self._node_clients = list(self._node_clients.values()), {}
        for c in clients:
            await c.aclose()

    async def read(self, keys: Keys, after_version: int = 0, count: int | None = None) -> list[Envelope]:
        """Events with ``seq > after_version``, oldest first (at most ``count``): from the stream,
        or from the game's archive once it was archived (``service/store/archive.py``), in one
        round trip either way."""
        res = await self._read(
            keys=[keys.events, keys.archive], args=[f"{after_version + 1}-0", "" if count is None else count]
        )
        if res == 0:
            raws = await self._archived(keys)
            end = len(raws) if count is None else after_version + count
            return [_env_dec.decode(raw) for raw in raws[after_version:end]]
        return [_env_dec.decode(fields[1]) for _, fields in res]

    async def _archived(self, keys: Keys) -> list[bytes]:
        raws = self._archives.get(keys.game_id)
        if raws is None:
            blob = await self.redis.hget(keys.archive, "z")
            raws = unpack(blob) if blob else []
            self._archives[keys.game_id] = raws
            if len(self._archives) > ARCHIVES_CACHED:
                self._archives.popitem(last=False)
        else:
            self._archives.move_to_end(keys.game_id)
        return raws

    async def version(self, keys: Keys) -> int:
        n = int(await self.redis.xlen(keys.events))
        return n or await self.archived_version(keys)

    async def archived_version(self, keys: Keys) -> int:
        """The version the game was archived at (0: not archived)."""
        v = await self.redis.hget(keys.archive, "v")
        return int(v) if v else 0

    async def idempotent_answer(self, keys: Keys, idempotency_key: str) -> bytes | None:
        return await self.redis.hget(keys.idem, idempotency_key)

    async def resolved(self, keys: Keys) -> None:
        """The game no longer waits for a worker's resolution."""
        await self.redis.srem(keys.pending, keys.game_id)

    async def timeout_due_at(self, keys: Keys, step_version: int, at_epoch_s: float) -> None:
        """Move a deadline's mark back to its time (a timeout job ran early: the next sweep fires it)."""
        await self.redis.zadd(keys.deadlines, {DueTimeout(step_version, 0).member(keys.game_id): at_epoch_s}, xx=True)

    async def timeout_done(self, keys: Keys, step_version: int) -> None:
        """The deadline of ``step_version`` needs no more enforcing (fired, or the step moved on)."""
        await self.redis.zrem(keys.deadlines, DueTimeout(step_version, 0).member(keys.game_id))

    async def seed(self, keys: Keys) -> str | None:
        s = await self.redis.get(keys.seed)
        return s.decode() if s else None
