"""A TCP proxy that drops connections: the network failing under a client, for real.

:class:`FlakyProxy` listens on a free loopback port and forwards each connection to the service;
``cut(n)`` says after how many bytes *from the server* the ``n``-th connection (0, 1, 2...) is cut
(the bytes before the cut are delivered, then the client's side is closed and the server's
aborted, as when a load balancer dies), or None to leave it whole. Cut at 0:
the request reached the server, which acted on it, and its answer is lost. It runs its own event
loop in a thread, so sync and async clients can use it alike.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from service.store import embedded_redis


class FlakyProxy:
    def __init__(self, target: str, cut: Callable[[int], int | None]):
        host, _, port = target.removeprefix("http://").partition(":")
        self.target = (host, int(port))
        self.cut = cut
        self.port = embedded_redis.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.connections = 0
        self.cuts = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None

    def __enter__(self) -> FlakyProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=5)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in asyncio.all_tasks():
            if task is not asyncio.current_task():
                task.cancel()

    async def _handle(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        n = self.connections
        self.connections += 1
        limit = self.cut(n)
        server_r, server_w = await asyncio.open_connection(*self.target)

        async def up() -> None:
            while data := await client_r.read(65536):
                server_w.write(data)
                await server_w.drain()

        async def down() -> None:
            passed = 0
            while data := await server_r.read(65536):
                if limit is not None and passed + len(data) > limit:
                    client_w.write(data[: limit - passed])  # the start of a message, then the end
                    await client_w.drain()
                    self.cuts += 1
                    client_w.close()
                    return
                client_w.write(data)
                passed += len(data)
                await client_w.drain()

        tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except (ConnectionError, OSError):
            pass
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            client_w.transport.abort()
            server_w.transport.abort()
