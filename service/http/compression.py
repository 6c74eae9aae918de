"""gzip for the clients that take it: who takes it, and answers that come gzipped already.

Litestar's compression middleware gzips an answer of :data:`~service.http.app.GZIP_MIN_BYTES` or
more whole (a stream chunk by chunk). :class:`GzipUnlessEncoded` is that middleware with two
changes: it asks :func:`accepts_gzip` (the RFC's rule, where Litestar looks for the substring
``gzip``), and it passes on untouched an answer that already names its ``Content-Encoding``: a
projected view, stored gzipped, is sent as stored (``service/store/view_gzip.py``) rather than
inflated and compressed again.
"""

from __future__ import annotations

from litestar.datastructures import Headers
from litestar.middleware.compression import CompressionMiddleware
from litestar.types import Message, Receive, Scope, Send


def accepts_gzip(accept_encoding: str | None) -> bool:
    """RFC 9110 §12.5.3: a request takes gzip when its ``Accept-Encoding`` names ``gzip`` (or the
    obsolete alias ``x-gzip``) with a weight above 0, or names ``*`` with a weight above 0 and not
    ``gzip`` at weight 0. No header at all means any coding would do, but the API then answers
    without one, as most servers do (a client without the header is often a plain script)."""
    if not accept_encoding:
        return False
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        weights[name] = q
    for name in ("gzip", "x-gzip"):
        if name in weights:
            return weights[name] > 0
    return weights.get("*", 0.0) > 0


class GzipUnlessEncoded(CompressionMiddleware):
    """Litestar's gzip middleware (``CompressionConfig(backend="gzip")``) deciding with
    :func:`accepts_gzip` and leaving alone an answer that has a ``Content-Encoding`` already."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not accepts_gzip(Headers.from_scope(scope).get("accept-encoding")):
            await self.app(scope, receive, send)
            return
        compress = self.create_compression_send_wrapper(send=send, compression_encoding="gzip", scope=scope)
        encoded = False

        async def send_unless_encoded(message: Message) -> None:
            nonlocal encoded
            if message["type"] == "http.response.start":
                encoded = any(k.lower() == b"content-encoding" for k, _ in message.get("headers", ()))
            await (send if encoded else compress)(message)

        await self.app(scope, receive, send_unless_encoded)
