"""Per-client rate limiting, shared by every API replica: a token bucket per client in the event
store's Redis (``service/store/rate_limits.py``: one atomic script, at most one round trip per request;
requests arriving together share one). Measured with ``bench/http_wrk.py``: no cost above the noise.

The client is who the request verifiably is (:func:`service.http.access.client_of`): the seat or
organizer of the game of the path when its token is valid for that game, else the client's address
(anonymous calls, and tokens that do not verify: a junk or re-spelt token never buys a fresh
bucket). Addresses get ten times the rate (clients behind one proxy share an address).
Answer beyond the limit: 429 ``rate_limited`` with ``Retry-After`` and the IETF draft's
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` headers.
``CITADEL_RATE_LIMIT_PER_S`` (default 100) and ``CITADEL_RATE_LIMIT_BURST`` (default 400);
a rate of 0 turns limiting off (the test suite's shared service and the benchmarks do: they
measure the game, not the limiter, which has its own test).

An ``Authorization`` header longer than :data:`MAX_AUTHORIZATION` bytes (a token is about 40) is a
400 ``invalid_parameter`` before any other work.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from service.store.rate_limits import Client, RateLimits

from .access import client_of
from .errors import ApiError

MAX_AUTHORIZATION = 256
ANONYMOUS_FACTOR = 10
"""Clients known only by their address get ten times the rate (and of open streams)."""


@dataclass(frozen=True)
class RateLimiter:
    limits: RateLimits
    per_second: float
    burst: int

    @classmethod
    def from_env(cls, limits: RateLimits) -> RateLimiter:
        return cls(
            limits,
            float(os.environ.get("CITADEL_RATE_LIMIT_PER_S", "100")),
            int(os.environ.get("CITADEL_RATE_LIMIT_BURST", "400")),
        )

    async def check(self, connection: ASGIConnection[Any, Any, Any, Any]) -> None:
        """Take one token for the caller or raise a 429 problem."""
        if self.per_second <= 0:
            return
        await self.take(*client_of(connection))

    async def take(self, client: Client, identified: bool) -> None:
        """Take one token from ``client``'s bucket (``identified``: a verified seat or organizer, else
        an address) or raise a 429 problem."""
        if self.per_second <= 0:
            return
        factor = 1 if identified else ANONYMOUS_FACTOR
        rate, burst = self.per_second * factor, self.burst * factor
        taken = await self.limits.take(client, rate, burst)
        if not taken.allowed:
            wait = max(1, math.ceil((1 - taken.remaining) / rate))
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests: at most {rate:g}/s (bursts of {burst}); retry in {wait} s",
                retry_after=wait,
                rate_limit=burst,
            )


async def rate_limited(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """The app's first guard (before the handlers' own, so refused tokens are limited too): refuse an
    oversized ``Authorization`` header, then take a token from the caller's bucket."""
    h = connection.headers.get("authorization")
    if h is not None and len(h) > MAX_AUTHORIZATION:
        raise ApiError(400, "invalid_parameter", f"the Authorization header is longer than {MAX_AUTHORIZATION} bytes")
    if connection.scope["path"].startswith("/v1/"):
        limiter: RateLimiter = connection.app.state.limiter
        await limiter.check(connection)
