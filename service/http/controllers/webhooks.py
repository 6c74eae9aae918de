"""Signed webhooks (docs/webhooks.md): an organizer subscribes a URL to a game's or a tournament's
turn starts, phase ends, combat results and game end, and reads each subscription's delivery log.

The API only stores subscriptions and checks their URL (``service/engine/webhooks.py``); the
workers turn appends into deliveries and deliver them (``workers/webhooks.py``).
"""

from __future__ import annotations

import asyncio
import secrets
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, delete, get, post
from litestar.params import JSONBody, PathParameter, QueryParameter

from domain.core.context import rfc3339
from domain.core.errors import GameError
from domain.core.notify import TOPICS, Topic
from service.engine.webhooks import UrlPolicy, UrlRefused, WebhookSettings
from service.store.webhooks import Delivery, Subscription, WebhookStore

from ..access import organizer_only, runtime
from ..bodies import GameId, IdemKey, decode_strict, json_response
from ..errors import ApiError
from ..problems import problems
from .tournaments import TournamentId, tournament_organizer, tournaments

SUBSCRIPTION_NAMESPACE = uuid.UUID("0d3e4b8a-77c1-4f55-9b0e-2f6c4a1e9d21")
SubscriptionId = Annotated[
    str, PathParameter(description="Subscription id", pattern=r"^wh_[0-9a-f]{32}$", max_length=35)
]
Limit = Annotated[
    int, QueryParameter(name="limit", ge=1, le=1000, required=False, description="How many deliveries, newest first.")
]
_enc = msgspec.json.Encoder()


class WebhookBody(msgspec.Struct, forbid_unknown_fields=True):
    """A subscription: where to POST, and which topics."""

    url: Annotated[str, msgspec.Meta(min_length=8, max_length=2048, pattern=r"^[Hh][Tt][Tt][Pp][Ss]?://")]
    """The receiver: https (http only where the deployment allows it); checked against the
    deployment's rules (docs/webhooks.md: public addresses, an optional host allow-list)."""
    events: Annotated[list[Topic], msgspec.Meta(min_length=1, max_length=4)] = msgspec.field(
        default_factory=lambda: list(TOPICS)
    )
    """The topics to deliver (all four by default): ``turn_start`` (a decision opened), ``phase_end``,
    ``combat_resolved``, ``game_end``."""


class SubscriptionOut(msgspec.Struct):
    """A subscription (its secret is shown only when it is created)."""

    subscription_id: str
    """``wh_`` and 32 hex digits."""
    scope: Literal["game", "tournament"]
    """Whether it follows one game or every table of a tournament."""
    scope_id: str
    """The game or tournament id."""
    url: str
    """Where deliveries are POSTed."""
    events: list[str]
    """Its topics."""
    created: str
    """RFC 3339 UTC."""


class SubscriptionCreatedOut(msgspec.Struct):
    """A new subscription and its signing secret."""

    subscription: SubscriptionOut
    """The subscription."""
    secret: str
    """``whsec_...``: the key of every delivery's ``Citadel-Signature`` (HMAC-SHA256 over
    ``<t>.<body>``). Shown this once (and to a retry with the same ``Idempotency-Key``): keep it."""


class SubscriptionsOut(msgspec.Struct):
    """The subscriptions of a game or tournament."""

    subscriptions: list[SubscriptionOut]
    """Oldest id first."""


class DeliveryOut(msgspec.Struct):
    """One notification to one subscription and how its delivery went."""

    delivery_id: str
    """Also sent as ``Citadel-Delivery`` and as the body's ``id`` (receivers deduplicate on it)."""
    event: str
    """The topic."""
    game_id: str
    """The game whose event it reports."""
    seq: int
    """The number of that event in the game."""
    created: str
    """When the workers created it (RFC 3339 UTC)."""
    status: str
    """``pending`` (not yet delivered, retries left), ``delivered`` (a 2xx answer) or ``failed`` (no attempt left)."""
    attempts: int
    """Attempts made so far."""
    last_error: str | None
    """Why the last attempt failed (the receiver's status, a timeout, a refused URL); null once delivered."""
    last_status: int | None
    """The HTTP status of the last answer, if any."""
    next_attempt_at: str | None
    """When the next attempt is due (pending only)."""
    delivered_at: str | None
    """When a 2xx answer came."""


class DeliveryLogOut(msgspec.Struct):
    """A subscription's newest deliveries."""

    subscription_id: str
    """The subscription."""
    deliveries: list[DeliveryOut]
    """Newest first (kept for a week, at most 1000)."""


def subscription_out(sub: Subscription) -> SubscriptionOut:
    return SubscriptionOut(
        subscription_id=sub.subscription_id,
        scope=sub.scope,
        scope_id=sub.scope_id,
        url=sub.url,
        events=sub.events,
        created=sub.created,
    )


def delivery_out(d: Delivery) -> DeliveryOut:
    return DeliveryOut(
        delivery_id=d.delivery_id,
        event=d.event,
        game_id=d.game_id,
        seq=d.seq,
        created=d.created,
        status=d.status,
        attempts=d.attempts,
        last_error=d.last_error,
        last_status=d.last_status,
        next_attempt_at=d.next_attempt_at,
        delivered_at=d.delivered_at,
    )


def _store(request: Request[Any, Any, Any]) -> WebhookStore:
    return WebhookStore(runtime(request).redis)


async def _check_url(url: str) -> None:
    try:
        await asyncio.to_thread(UrlPolicy(WebhookSettings.from_env()).check, url)
    except UrlRefused as e:
        raise ApiError(422, "webhook_url_refused", f"url: {e}") from None


async def _subscribe(
    request: Request[Any, Any, Any],
    scope: Literal["game", "tournament"],
    scope_id: str,
    games: list[str],
    idempotency_key: str,
) -> Response[SubscriptionCreatedOut]:
    body = decode_strict(await request.body(), WebhookBody)
    events = sorted(set(body.events), key=TOPICS.index)
    store = _store(request)
    sid = (
        "wh_"
        + (uuid.uuid5(SUBSCRIPTION_NAMESPACE, f"{scope_id}:{idempotency_key}") if idempotency_key else uuid.uuid4()).hex
    )
    existing = await store.subscription(sid) if idempotency_key else None
    if existing is not None:
        if (existing.url, existing.events) != (body.url, events):
            raise ApiError(422, "idempotency_key_reused", "this Idempotency-Key was used with a different request")
        sub = existing
    else:
        await _check_url(body.url)
        rt = runtime(request)
        watched = {}
        for game_id in games:
            game = await rt.engine.load(game_id)
            watched[game_id] = (rt.store.keys(game_id).partition, game.version)
        sub = Subscription(
            subscription_id=sid,
            scope=scope,
            scope_id=scope_id,
            url=body.url,
            events=events,
            created=rfc3339(datetime.now(UTC)),
            secret="whsec_" + secrets.token_urlsafe(32),
        )
        await store.subscribe(sub, watched)
    out = SubscriptionCreatedOut(subscription=subscription_out(sub), secret=sub.secret)
    return json_response(201, _enc.encode(out))


async def _owned(request: Request[Any, Any, Any], scope_id: str, subscription_id: str) -> Subscription:
    sub = await _store(request).subscription(subscription_id)
    if sub is None or sub.scope_id != scope_id:
        raise GameError("no such subscription", kind="not_found", code="not_found")
    return sub


async def _log(request: Request[Any, Any, Any], scope_id: str, subscription_id: str, limit: int) -> Response[Any]:
    sub = await _owned(request, scope_id, subscription_id)
    deliveries = await _store(request).deliveries(sub.subscription_id, limit or 100)
    out = DeliveryLogOut(subscription_id=sub.subscription_id, deliveries=[delivery_out(d) for d in deliveries])
    return json_response(200, _enc.encode(out))


SUBSCRIBE_DOC = (
    "Subscribes `url` to {what}: `turn_start` (a decision opened: a step with a deadline began), `phase_end`, "
    "`combat_resolved`, `game_end` (`events`, all by default). The workers POST each event as JSON "
    "(`id`, `type`, `game_id`, `tournament_id`, `seq`, `ts`, `event` redacted for spectators) with "
    "`Citadel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>' keyed with the secret>`, "
    "`Citadel-Event` and `Citadel-Delivery`, and retry a failed attempt with exponential backoff "
    "(docs/webhooks.md). The answer holds the secret, shown only now. The URL must be https (http where the "
    "deployment allows it) to a public address, and in `CITADEL_WEBHOOK_ALLOWED_HOSTS` when that is set "
    "(422 `webhook_url_refused`)."
)


class WebhooksController(Controller):
    path = "/v1"
    tags = ["webhooks"]

    # -- one game ------------------------------------------------------------------------------

    @post(
        "/games/{game_id:str}/webhooks",
        summary="Subscribe a URL to a game's events (organizer)",
        description=SUBSCRIBE_DOC.format(what="this game's events"),
        status_code=201,
        responses=problems(400, 401, 403, 404, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def subscribe_game(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: JSONBody[WebhookBody],
        idempotency_key: IdemKey = "",
    ) -> Response[SubscriptionCreatedOut]:
        return await _subscribe(request, "game", game_id, [game_id], idempotency_key)

    @get(
        "/games/{game_id:str}/webhooks",
        summary="A game's webhook subscriptions (organizer)",
        description="Every subscription of this game (without their secrets).",
        responses=problems(400, 401, 403, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def list_game(self, request: Request[Any, Any, Any], game_id: GameId) -> Response[SubscriptionsOut]:
        subs = await _store(request).subscriptions(game_id)
        return json_response(200, _enc.encode(SubscriptionsOut(subscriptions=[subscription_out(s) for s in subs])))

    @delete(
        "/games/{game_id:str}/webhooks/{subscription_id:str}",
        summary="Unsubscribe (organizer)",
        description="No new deliveries for this subscription; its log stays readable until its deliveries expire.",
        status_code=204,
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
    )
    async def delete_game(
        self, request: Request[Any, Any, Any], game_id: GameId, subscription_id: SubscriptionId
    ) -> None:
        await _store(request).unsubscribe(await _owned(request, game_id, subscription_id))

    @get(
        "/games/{game_id:str}/webhooks/{subscription_id:str}/deliveries",
        summary="A subscription's delivery log (organizer)",
        description="The newest deliveries first: status (`pending`, `delivered`, `failed`), attempts, the last "
        "error and HTTP status, when the next attempt is due.",
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[organizer_only],
        opt={"query": {"limit"}},
    )
    async def game_deliveries(
        self, request: Request[Any, Any, Any], game_id: GameId, subscription_id: SubscriptionId, limit: Limit = 100
    ) -> Response[DeliveryLogOut]:
        return await _log(request, game_id, subscription_id, limit)

    # -- every table of a tournament -------------------------------------------------------------

    @post(
        "/tournaments/{tournament_id:str}/webhooks",
        summary="Subscribe a URL to every table of a tournament (tournament organizer)",
        description=SUBSCRIBE_DOC.format(what="the events of every table of this tournament"),
        status_code=201,
        responses=problems(400, 401, 403, 404, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
    )
    async def subscribe_tournament(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        data: JSONBody[WebhookBody],
        idempotency_key: IdemKey = "",
    ) -> Response[SubscriptionCreatedOut]:
        record = await tournaments(request).get(tournament_id)
        games = [t.game_id for t in record.tables]
        return await _subscribe(request, "tournament", tournament_id, games, idempotency_key)

    @get(
        "/tournaments/{tournament_id:str}/webhooks",
        summary="A tournament's webhook subscriptions (tournament organizer)",
        description="Every subscription of this tournament (without their secrets).",
        responses=problems(400, 401, 403, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
    )
    async def list_tournament(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId
    ) -> Response[SubscriptionsOut]:
        subs = await _store(request).subscriptions(tournament_id)
        return json_response(200, _enc.encode(SubscriptionsOut(subscriptions=[subscription_out(s) for s in subs])))

    @delete(
        "/tournaments/{tournament_id:str}/webhooks/{subscription_id:str}",
        summary="Unsubscribe (tournament organizer)",
        description="No new deliveries for this subscription; its log stays readable until its deliveries expire.",
        status_code=204,
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
    )
    async def delete_tournament(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId, subscription_id: SubscriptionId
    ) -> None:
        await _store(request).unsubscribe(await _owned(request, tournament_id, subscription_id))

    @get(
        "/tournaments/{tournament_id:str}/webhooks/{subscription_id:str}/deliveries",
        summary="A tournament subscription's delivery log (tournament organizer)",
        description="The newest deliveries first: status (`pending`, `delivered`, `failed`), attempts, the last "
        "error and HTTP status, when the next attempt is due.",
        responses=problems(400, 401, 403, 404, 429, 503),
        security=[{"bearer": []}],
        guards=[tournament_organizer],
        opt={"query": {"limit"}},
    )
    async def tournament_deliveries(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        subscription_id: SubscriptionId,
        limit: Limit = 100,
    ) -> Response[DeliveryLogOut]:
        return await _log(request, tournament_id, subscription_id, limit)
