"""Signed webhooks: the settings, which URLs may be called (SSRF), and the signature scheme.

Organizers subscribe a URL to a game's or a tournament's notable events (docs/webhooks.md); the
workers deliver them (``workers/webhooks.py``), so neither the API nor the projector ever waits on a
receiver. This module holds what the API (checking a URL at subscription) and the workers (checking
it again before each attempt, signing each attempt) share.

**Signature** (Stripe's scheme): each attempt carries ``Citadel-Signature: t=<unix seconds>,v1=<hex>``
where ``v1`` is HMAC-SHA256 over ``<t>.<body>`` (the timestamp, a dot, the raw body bytes) keyed
with the subscription's secret (``whsec_...``, shown once, when subscribing). A receiver recomputes
it, compares in constant time and refuses a ``t`` too far from its clock (replays).

**Which URLs** (:class:`UrlPolicy`): ``https`` (``http`` only with ``CITADEL_WEBHOOK_ALLOW_HTTP=1``,
or to the loopback when it is allowed); no user info; the host, when ``CITADEL_WEBHOOK_ALLOWED_HOSTS``
is set, one of its entries (``hooks.example.com``, or ``*.example.com`` for any subdomain); and every
address the host resolves to public: private, link-local (cloud metadata at 169.254.169.254),
multicast, reserved and unspecified addresses are refused always, loopback unless
``CITADEL_WEBHOOK_ALLOW_LOOPBACK=1`` (development and the tests). Checked at subscription and again
before every attempt (a DNS answer may change); redirects are not followed.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

SIGNATURE_HEADER = "Citadel-Signature"
EVENT_HEADER = "Citadel-Event"
DELIVERY_HEADER = "Citadel-Delivery"
USER_AGENT = "Citadel-Webhooks/1"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """``v1``: hex HMAC-SHA256 of ``<timestamp>.<body>`` keyed with the subscription's secret."""
    return hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


@dataclass(frozen=True)
class WebhookSettings:
    """``CITADEL_WEBHOOK_*`` (docs/webhooks.md)."""

    allowed_hosts: tuple[str, ...] = ()
    """Empty: any host whose addresses are public."""
    allow_loopback: bool = False
    allow_http: bool = False
    timeout_s: float = 5.0
    max_attempts: int = 8
    backoff_s: float = 2.0
    """The wait before the first retry; doubled after each failed attempt, at most :data:`MAX_BACKOFF_S`."""

    @classmethod
    def from_env(cls) -> WebhookSettings:
        hosts = os.environ.get("CITADEL_WEBHOOK_ALLOWED_HOSTS", "")
        return cls(
            allowed_hosts=tuple(h.strip().lower() for h in hosts.split(",") if h.strip()),
            allow_loopback=os.environ.get("CITADEL_WEBHOOK_ALLOW_LOOPBACK", "0") == "1",
            allow_http=os.environ.get("CITADEL_WEBHOOK_ALLOW_HTTP", "0") == "1",
            timeout_s=float(os.environ.get("CITADEL_WEBHOOK_TIMEOUT_S", "5")),
            max_attempts=int(os.environ.get("CITADEL_WEBHOOK_MAX_ATTEMPTS", "8")),
            backoff_s=float(os.environ.get("CITADEL_WEBHOOK_BACKOFF_S", "2")),
        )

    def retry_delay(self, attempts: int) -> float:
        """The wait after the ``attempts``-th failed attempt: ``backoff_s * 2**(attempts-1)``, capped."""
        return min(MAX_BACKOFF_S, self.backoff_s * 2 ** max(0, attempts - 1))


MAX_BACKOFF_S = 3600.0


class UrlRefused(ValueError):
    """The URL may not be called (the reason is the message)."""


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise UrlRefused(f"the host {host!r} does not resolve: {e}") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]


@dataclass(frozen=True)
class UrlPolicy:
    settings: WebhookSettings

    def check(self, url: str) -> None:
        """Raise :class:`UrlRefused` unless ``url`` may be called now (module docstring). Resolves the
        host (blocking: call it from a thread in async code)."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            raise UrlRefused("the URL must be https (or http where allowed)")
        if parts.username is not None or parts.password is not None:
            raise UrlRefused("the URL may not carry a user or password")
        host = (parts.hostname or "").lower()
        if not host:
            raise UrlRefused("the URL has no host")
        try:
            port = parts.port or (443 if scheme == "https" else 80)
        except ValueError:
            raise UrlRefused("the URL's port is not a number from 0 to 65535") from None
        if self.settings.allowed_hosts and not any(_matches(host, h) for h in self.settings.allowed_hosts):
            raise UrlRefused(f"the host {host!r} is not in CITADEL_WEBHOOK_ALLOWED_HOSTS")
        addresses = _addresses(host, port)
        loopback = all(a.is_loopback for a in addresses)
        for a in addresses:
            if a.is_loopback:
                if not self.settings.allow_loopback:
                    raise UrlRefused(
                        f"{host} is a loopback address (allowed only with CITADEL_WEBHOOK_ALLOW_LOOPBACK=1)"
                    )
            elif not a.is_global or a.is_multicast:
                raise UrlRefused(f"{host} resolves to {a}, which is not a public address")
        if scheme == "http" and not self.settings.allow_http and not loopback:
            raise UrlRefused("the URL must be https (http only with CITADEL_WEBHOOK_ALLOW_HTTP=1)")


def _matches(host: str, pattern: str) -> bool:
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and host != pattern[2:]
    return host == pattern
