"""Webhooks in the workers: turn appends into deliveries, and deliver them with retries.

* :class:`WebhookSweep` -- run by each worker between jobs, at most every ``CITADEL_SWEEP_S``
  (``workers/worker.py``). It reads the appends of the partitions some subscription watches from
  their feeds (consumer group ``webhooks``: each append goes to one worker; one a dead worker read
  but never acknowledged is taken over after :data:`RECLAIM_IDLE_MS`), reads the events of watched
  games since their cursor, names each event's topic with the game's notifier
  (``domain/registry.py``), and creates one delivery per matching subscription
  (``service/store/webhooks.py``: idempotent). Then it claims the deliveries that are due (with a
  lease) and enqueues one RQ job each (:data:`service.engine.dispatch.DELIVER_WEBHOOK`).
* :func:`deliver` -- that job hands the attempt to a thread of the worker (never blocking its
  deadline sweep); :func:`attempt` -- check the URL again (``service/engine/webhooks.py``), POST the body
  signed for this attempt, record the outcome. A 2xx is delivered; anything else (another status,
  a refused URL, a timeout, a connection error) is retried after ``backoff_s * 2**(attempts-1)``
  seconds, until ``CITADEL_WEBHOOK_MAX_ATTEMPTS`` attempts, then ``failed``.

Delivery is at least once: a worker that dies after the POST but before recording it, or a
receiver slower than the lease, may see the same ``Citadel-Delivery`` id twice.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
import msgspec

from domain import registry
from domain.core.context import rfc3339
from service.engine import webhooks as policy
from service.engine.dispatch import Scheduler
from service.store.config import Config
from service.store.event_store import decode_entry
from service.store.keys import Keys
from service.store.redis_client import event_store_redis_sync, queue_redis
from service.store.tournaments import GAME_TOURNAMENT
from service.store.webhooks import Delivery, Subscription, WebhookOutbox, delivery_id

log = logging.getLogger("citadel.webhooks")

FEED_BATCH = 500
RECLAIM_IDLE_MS = 30_000
CLAIM_BATCH = 64
LEASE_S = 60.0
"""A claimed delivery is claimed again after this long if its job recorded nothing (longer than any
attempt: ``CITADEL_WEBHOOK_TIMEOUT_S`` is a few seconds)."""

_enc = msgspec.json.Encoder()


class Payload(msgspec.Struct):
    """The JSON body of every delivery (docs/webhooks.md)."""

    id: str
    type: str
    created: str
    game_id: str
    tournament_id: str | None
    seq: int
    ts: str
    event: msgspec.Raw


def _now_text() -> str:
    return rfc3339(datetime.now(UTC))


class WebhookSweep:
    """See the module docstring. ``tick()`` never raises: a failed sweep is logged and retried."""

    def __init__(self, cfg: Config | None = None) -> None:
        self.cfg = cfg or Config.from_env()
        self.consumer = f"{socket.gethostname()}-{os.getpid()}"
        self.last = 0.0
        self._outbox: WebhookOutbox | None = None
        self._scheduler: Scheduler | None = None
        self._kinds: dict[str, str] = {}

    @property
    def outbox(self) -> WebhookOutbox:
        if self._outbox is None:
            self._outbox = WebhookOutbox(event_store_redis_sync(self.cfg))
        return self._outbox

    def tick(self) -> None:
        if time.monotonic() - self.last < self.cfg.sweep_s:
            return
        self.last = time.monotonic()
        try:
            self.scan()
            self.enqueue_due()
        except Exception:  # a Redis hiccup must not stop the worker; the next tick retries
            log.exception("webhook sweep failed; retrying")
            self._outbox = None

    def scan(self) -> int:
        """Turn the appends of watched games into deliveries; how many were created."""
        created = 0
        for p in self.outbox.partitions():
            entries = self.outbox.read_feed(p, self.consumer, FEED_BATCH, RECLAIM_IDLE_MS)
            latest: dict[str, int] = {}
            for _, game_id, version in entries:
                latest[game_id] = max(version, latest.get(game_id, 0))
            for game_id in self.outbox.watched(list(latest)):
                created += self.notify(game_id, latest[game_id])
            self.outbox.ack(p, [entry_id for entry_id, _, _ in entries])
        return created

    def notify(self, game_id: str, version: int) -> int:
        """Deliveries for the events of ``game_id`` after its cursor, up to ``version``."""
        outbox = self.outbox
        cursor = outbox.cursor(game_id)
        if cursor is None or version <= cursor:
            return 0
        keys = Keys(game_id, self.cfg.partitions)
        raw = outbox.redis.xrange(keys.events, min=f"{cursor + 1}-0", max=f"{version}-0")
        envelopes = [decode_entry(fields) for _, fields in raw]
        tournament = outbox.redis.hget(GAME_TOURNAMENT, game_id)
        tournament_id = tournament.decode() if tournament else None
        subs = outbox.subscriptions([game_id, *([tournament_id] if tournament_id else [])])
        created = 0
        if subs and envelopes:
            kind = self._kind(game_id, keys)
            game = registry.get(kind)
            codec = registry.codec(kind)
            notifier = registry.NOTIFIERS.get(kind)
            now = time.time()
            for env in envelopes:
                event = codec.decode(env.event, env.schema)
                topic = notifier(event) if notifier is not None else None
                if topic is None and game.ends_game(event):
                    topic = "game_end"
                if topic is None:
                    continue
                public = game.redact_event(event, None)
                for sub in subs:
                    if topic in sub.events:
                        created += self._add(sub, game_id, tournament_id, env.seq, env.ts, topic, public, now)
        outbox.advance(game_id, version)
        return created

    def _kind(self, game_id: str, keys: Keys) -> str:
        kind = self._kinds.get(game_id)
        if kind is None:
            first = self.outbox.redis.xrange(keys.events, min="1-0", max="1-0")
            kind = registry.kind_of_stream(bytes(decode_entry(first[0][1]).event))
            self._kinds[game_id] = kind
        return kind

    def _add(
        self,
        sub: Subscription,
        game_id: str,
        tournament_id: str | None,
        seq: int,
        ts: str,
        topic: str,
        event: Any,
        now: float,
    ) -> int:
        did = delivery_id(sub.subscription_id, game_id, seq, topic)
        created = _now_text()
        body = _enc.encode(
            Payload(
                id=did,
                type=topic,
                created=created,
                game_id=game_id,
                tournament_id=tournament_id,
                seq=seq,
                ts=ts,
                event=msgspec.Raw(_enc.encode(event)),
            )
        )
        delivery = Delivery(
            delivery_id=did,
            subscription_id=sub.subscription_id,
            event=topic,
            game_id=game_id,
            seq=seq,
            created=created,
            payload=msgspec.Raw(body),
            next_attempt_at=created,
        )
        return 1 if self.outbox.add(delivery, now) else 0

    def enqueue_due(self) -> int:
        """One RQ job per due delivery (claimed for :data:`LEASE_S`)."""
        due = self.outbox.claim_due(time.time(), LEASE_S, CLAIM_BATCH)
        if due:
            if self._scheduler is None:
                self._scheduler = Scheduler(queue_redis(self.cfg), self.cfg.queue_name)
            for did in due:
                self._scheduler.deliver_webhook_sync(did)
        return len(due)


_outbox: WebhookOutbox | None = None
_settings: policy.WebhookSettings | None = None


ATTEMPT_THREADS = 8
"""Attempts in flight at once per worker process (each waits at most ``CITADEL_WEBHOOK_TIMEOUT_S``)."""
_attempts = ThreadPoolExecutor(max_workers=ATTEMPT_THREADS, thread_name_prefix="webhook")


def deliver(delivery_id: str) -> str:
    """The RQ job: hand one attempt of one delivery to the worker's attempt threads and return at
    once. A worker runs its jobs one at a time on its main loop, between its sweeps: an attempt made
    here would hold the deadline sweep for as long as the receiver takes (up to the timeout), so no
    HTTP request is ever made on that loop (docs/webhooks.md). A worker killed mid-attempt loses
    nothing: the delivery's lease expires and it is claimed again."""
    _attempts.submit(_attempt_logged, delivery_id)
    return "started"


def _attempt_logged(delivery_id: str) -> None:
    try:
        log.debug("webhook delivery %s: %s", delivery_id, attempt(delivery_id))
    except Exception:  # an attempt thread must not die silently: the lease retries the delivery
        log.exception("webhook delivery %s failed unexpectedly", delivery_id)


def attempt(delivery_id: str) -> str:
    """One attempt of one delivery (module docstring), in an attempt thread. Says what happened."""
    global _outbox, _settings
    if _outbox is None:
        _outbox = WebhookOutbox(event_store_redis_sync(Config.from_env()))
    if _settings is None:
        _settings = policy.WebhookSettings.from_env()
    outbox, settings = _outbox, _settings
    delivery = outbox.delivery(delivery_id)
    if delivery is None or delivery.status != "pending":
        return "nothing to do"
    sub = outbox.subscription(delivery.subscription_id)
    if sub is None:
        delivery.status, delivery.last_error, delivery.next_attempt_at = "failed", "the subscription was removed", None
        outbox.record(delivery, None)
        return "failed"
    body = bytes(delivery.payload)
    delivery.attempts += 1
    error: str | None = None
    status_code: int | None = None
    try:
        policy.UrlPolicy(settings).check(sub.url)
        ts = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": policy.USER_AGENT,
            policy.SIGNATURE_HEADER: policy.signature_header(sub.secret, ts, body),
            policy.EVENT_HEADER: delivery.event,
            policy.DELIVERY_HEADER: delivery.delivery_id,
        }
        response = httpx.post(
            sub.url, content=body, headers=headers, timeout=settings.timeout_s, follow_redirects=False
        )
        status_code = response.status_code
        if not 200 <= status_code < 300:
            error = f"the receiver answered {status_code}"
    except policy.UrlRefused as e:
        error = f"URL refused: {e}"
    except httpx.HTTPError as e:
        error = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
    delivery.last_status = status_code
    if error is None:
        delivery.status, delivery.last_error = "delivered", None
        delivery.delivered_at, delivery.next_attempt_at = _now_text(), None
        outbox.record(delivery, None)
        return "delivered"
    delivery.last_error = error[:500]
    if delivery.attempts >= settings.max_attempts:
        delivery.status, delivery.next_attempt_at = "failed", None
        outbox.record(delivery, None)
        return "failed"
    next_at = time.time() + settings.retry_delay(delivery.attempts)
    delivery.next_attempt_at = rfc3339(datetime.fromtimestamp(next_at, UTC))
    outbox.record(delivery, next_at)
    return "retry"
