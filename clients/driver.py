"""The driving loop of an HTTP bot that plays one seat, shared by every game's bot (the board
game's :class:`clients.bot.RandomBot`, the card game's :class:`clients.card_bot.CardBot`).

A bot reads its pending decisions (``GET /decisions`` with its own token), answers the first one
that needs an answer with a command built from the decision's options alone, and POSTs it with
``If-Match`` (the version the options were read at) and an ``Idempotency-Key``. A refused command
(422, or a 409 that is not the game moving on) is counted and another random choice is tried; the
last attempt is the game's simplest legal answer (its fallback); a refused fallback is a
:class:`BotError`. A 409 saying the game moved on first (a stale version...) re-reads the decisions.
With nothing to decide it waits (by default a long-poll of ``GET /events``). It stops when the
game's phase is ``ended``; after 100 decisions in a row without an accepted command it gives up.

A game's bot says what differs (:class:`SeatDriver`'s hooks): how the decisions are read and what
a decision's kind is, which decisions need an answer, the random and the fallback commands, the
409 codes that mean the game moved on, and anything it does first (a Mother of Dragons gift).
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from clients.citadel_client.client import ApiProblem, CitadelClient

WAIT_S = 10
"""Long-poll seconds when there is nothing to decide."""
PAUSED_POLL_S = 1.0
"""How long a bot waits before looking again when a judge has paused the clocks (docs/clocks.md)."""
STUCK_LIMIT = 100
"""Decisions in a row answered without an accepted command before the bot gives up."""


class BotError(RuntimeError):
    """The bot could not answer a decision: even its fallback was refused (a bug somewhere)."""


@dataclass
class BotStats:
    accepted: int = 0
    refused: int = 0
    """422 answers (and 409s other than a stale version): the rules refused a random choice."""
    stale: int = 0
    """409 ``stale_version`` (or ``not_your_turn``/``wrong_phase``/``decision_closed``): the game moved on before the
    command arrived (another seat acted, a deadline passed); the decisions are read again."""
    fallbacks: int = 0
    requests: int = 0
    waits: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    refusals: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(kind, code) -> count."""

    def add(self, other: BotStats) -> None:
        for f in ("accepted", "refused", "stale", "fallbacks", "requests", "waits"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.by_kind.update(other.by_kind)
        self.refusals.update(other.refusals)


D = TypeVar("D")
"""A game's decision model."""
C = TypeVar("C")
"""A game's command model."""


class SeatDriver(Generic[D, C]):
    """Plays the seat of ``token`` in ``game_id`` until the game's phase is ``ended``; a game's bot
    fills in the hooks below."""

    max_attempts = 6
    """Random choices tried for one decision before the fallback."""
    moved_on: frozenset[str] = frozenset({"stale_version"})
    """409 codes that mean the game moved on before the command arrived: read the decisions again."""
    paused_code: str | None = None
    """A 409 code that means the clocks are paused: wait :data:`PAUSED_POLL_S`, then read again."""
    key_prefix = "bot"
    """The idempotency keys' prefix."""
    max_connections = 1
    """Connections of the bot's own client (when it is given none to share)."""

    def __init__(
        self,
        base_url: str,
        game_id: str,
        token: str,
        seed: int | str = 0,
        *,
        client: CitadelClient | None = None,
        wait_s: int = WAIT_S,
    ):
        """``client``: a client whose connections this bot shares (with its own token); otherwise the
        bot opens its own (:meth:`make_client`)."""
        self.base = base_url.rstrip("/")
        self.game_id = game_id
        self.token = token
        self.rng = random.Random(f"{seed}")
        self.wait_s = wait_s
        self._own_client = client is None
        self.api = (client or self.make_client(self.base, wait_s)).with_token(token, rng=self.rng)
        self.stats = BotStats()
        self.version = 0

    # --- the hooks of a game's bot ------------------------------------------------------------------

    def make_client(self, base_url: str, wait_s: int) -> CitadelClient:
        """The bot's own client, whose timeout outlasts a long-poll of ``wait_s`` seconds."""
        return CitadelClient(base_url, timeout=wait_s + 30, max_connections=self.max_connections)

    async def read_decisions(self) -> Any:
        """``GET /decisions`` as this game's model (its ``version``, ``phase``, ``step`` and ``decisions``)."""
        raise NotImplementedError

    def kind(self, d: D) -> str:
        """The decision's kind (the key of the stats)."""
        raise NotImplementedError

    def actionable(self, d: D) -> bool:
        """Whether the decision needs an answer now (a sealed choice stays listed but needs none)."""
        return True

    def random_command(self, d: D) -> C | None:
        """A random legal command from the decision's options (None: nothing to send)."""
        raise NotImplementedError

    def fallback_command(self, d: D) -> C:
        """The simplest legal answer (what the deadline would do)."""
        raise NotImplementedError

    async def idle(self, version: int) -> None:
        """Nothing to decide at ``version``: wait for the game to move on."""
        await self.wait_for_events(version)

    async def before_answer(self, ds: Any) -> bool:
        """Anything the bot does before answering (True: it did, read the decisions again)."""
        return False

    # --- the loop -------------------------------------------------------------------------------------

    async def decisions(self) -> Any:
        out = await self.read_decisions()
        self.version = max(self.version, out.version)
        return out

    async def wait_for_events(self, after: int) -> None:
        """Long-poll: returns as soon as the game has an event after ``after`` (or ``wait_s`` passed)."""
        self.stats.waits += 1
        await self.api.events(self.game_id, after, wait=self.wait_s, limit=1)

    async def post(self, command: C, version: int) -> int:
        """Send ``command`` decided at ``version``; the game's new version, or :class:`ApiProblem`."""
        out = await self.api.command(
            self.game_id,
            command,  # type: ignore[arg-type]  # a game's command model
            if_match=version,
            idempotency_key=f"{self.key_prefix}-{uuid.uuid4()}",
        )
        return out.version

    async def answer(self, d: D, version: int) -> None:
        """Answer one decision: random choices, then the fallback. Returns after an accepted command
        or when the game moved on (the caller reads the decisions again)."""
        kind = self.kind(d)
        last: C | None = None
        problem: ApiProblem | None = None
        for attempt in range(self.max_attempts + 1):
            fallback = attempt == self.max_attempts
            command = self.fallback_command(d) if fallback else self.random_command(d)
            if command is None:
                return
            if command == last and not fallback:
                continue
            last = command
            try:
                new_version = await self.post(command, version)
            except ApiProblem as e:
                problem = e
                if e.status == 409 and e.code in self.moved_on:
                    self.stats.stale += 1
                    return
                if e.status == 409 and self.paused_code is not None and e.code == self.paused_code:
                    await asyncio.sleep(PAUSED_POLL_S)  # a judge paused the game: wait, then re-read
                    return
                if e.status in (409, 422):
                    self.stats.refused += 1
                    self.stats.refusals[(kind, e.code)] += 1
                    continue
                raise BotError(f"POST {type(command).__name__}: {e.status} {e.body or e}") from e
            self.stats.accepted += 1
            self.stats.by_kind[kind] += 1
            self.stats.fallbacks += fallback
            self.version = max(self.version, new_version)
            return
        raise BotError(f"{kind}: even the fallback {msgspec.json.encode(last).decode()} was refused: {problem}")

    async def run(self) -> BotStats:
        """Play until the game's phase is ``ended``."""
        stuck = 0
        try:
            while True:
                ds = await self.decisions()
                if ds.phase == "ended":
                    return self.stats
                todo = [d for d in ds.decisions if self.actionable(d)]
                if not todo:
                    await self.idle(ds.version)
                    continue
                if await self.before_answer(ds):
                    continue
                before = self.stats.accepted
                await self.answer(todo[0], ds.version)
                stuck = 0 if self.stats.accepted > before else stuck + 1
                if stuck > STUCK_LIMIT:
                    raise BotError(
                        f"no command accepted after {STUCK_LIMIT} tries at {ds.phase}/{ds.step}, version {ds.version}"
                    )
        finally:
            await self.close()

    async def close(self) -> None:
        self.stats.requests = self.api.requests
        if self._own_client:
            await self.api.http.aclose()
