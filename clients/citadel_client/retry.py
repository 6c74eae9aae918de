"""When to send a request again, shared by the async and the sync client.

* **429** (``rate_limited``, ``too_many_streams``) and **503** (``contention``, ``too_many_streams``,
  a restarting server behind a proxy): sent again after ``Retry-After`` (seconds or an HTTP date,
  RFC 9110 §10.2.3), never sooner, plus up to a quarter more of random jitter so that clients told
  the same time do not come back together; 1 s when the answer names no time. At most
  ``retries`` times in a row, then the answer is returned (and raised as an ``ApiProblem``).
* **Connection errors** (refused, reset, a read that times out): sent again after 0.2 s, 0.4 s,
  0.6 s... at most ``transport_retries`` times in a row. Every POST of the clients carries an
  ``Idempotency-Key`` created once per call, so a command whose answer was lost is sent again with
  the same key and is applied once: the server answers the retry with the first answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

RETRY_STATUSES = frozenset({429, 503})
"""Answers worth sending again unchanged: the server asks the client to come back later."""
DEFAULT_RETRY_AFTER_S = 1.0
"""The pause after a 429 or 503 without a (readable) ``Retry-After``."""


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """``Retry-After`` in seconds from now: delay-seconds (``"3"``) or an HTTP date; None when absent
    or unreadable. A date in the past is 0."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass
class RetryPolicy:
    """How often and after which pause a request is sent again (see the module's docstring)."""

    retries: int = 20
    """429 and 503 answers in a row that are retried."""
    transport_retries: int = 5
    """Connection errors in a row that are retried."""
    max_delay_s: float = 120.0
    """No pause is longer, whatever ``Retry-After`` says."""
    rng: random.Random = field(default_factory=random.Random)
    """Draws the jitter."""

    def after_answer(self, attempt: int, status: int, retry_after: str | None) -> float | None:
        """The pause before sending again a request whose answer had ``status`` (``attempt``: the
        retries already made), or None to keep the answer."""
        if status not in RETRY_STATUSES or attempt >= self.retries:
            return None
        wait = retry_after_seconds(retry_after)
        wait = DEFAULT_RETRY_AFTER_S if wait is None else wait
        return min(self.max_delay_s, wait * self.rng.uniform(1.0, 1.25))

    def after_error(self, attempt: int) -> float | None:
        """The pause before sending again a request that got no answer, or None to raise the error."""
        if attempt >= self.transport_retries:
            return None
        return min(self.max_delay_s, 0.2 * (attempt + 1))
