"""Per-client rate limiting: a token bucket per bearer token; requests without a token share one
bucket per client address, with ten times the rate (clients behind one proxy share an address).

Each API process keeps its own buckets (bounded LRU), so with N replicas a client may get up to N
times the rate; the limit protects each process from one noisy client, it is not a quota.
Answer beyond the limit: 429 ``rate_limited`` with ``Retry-After`` and the IETF draft's
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` headers.
``CITADEL_RATE_LIMIT_PER_S`` (default 100) and ``CITADEL_RATE_LIMIT_BURST`` (default 400);
a rate of 0 turns limiting off (the test suite's shared service and the benchmarks do: they
measure the game, not the limiter, which has its own test).
"""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict

from .errors import ApiError


class RateLimiter:
    def __init__(self, per_second: float, burst: int, max_clients: int = 100_000, clock=time.monotonic):
        self.rate = per_second
        self.burst = burst
        self.max_clients = max_clients
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    @classmethod
    def from_env(cls, factor: int = 1) -> RateLimiter:
        return cls(
            factor * float(os.environ.get("CITADEL_RATE_LIMIT_PER_S", "100")),
            factor * int(os.environ.get("CITADEL_RATE_LIMIT_BURST", "400")),
        )

    def check(self, key: str) -> None:
        """Take one token for ``key`` or raise a 429 problem."""
        if self.rate <= 0:
            return
        now = self.clock()
        tokens, last = self.buckets.pop(key, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            wait = math.ceil((1 - tokens) / self.rate)
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests: at most {self.rate:g}/s (bursts of {self.burst}); retry in {wait} s",
                retry_after=wait,
                rate_limit=self.burst,
            )
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > self.max_clients:
            self.buckets.popitem(last=False)
