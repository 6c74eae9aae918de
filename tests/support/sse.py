"""Reading Server-Sent Events in tests: a parser of the wire format, and a reader on its own thread."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Message:
    """One SSE message: its fields as sent (``data`` joined by newlines, as the spec says)."""

    event: str = "message"
    data: str = ""
    id: str | None = None
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def json(self) -> Any:
        return json.loads(self.data)


def messages(lines: Iterator[str]) -> Iterator[Message]:
    """Parse SSE lines into messages; a block of comments or ``retry:`` alone is a message too (event ``""``)."""
    m = Message(event="")
    data: list[str] = []
    for line in lines:
        if line == "":
            if data or m.comments or m.retry is not None or m.id is not None:
                m.data = "\n".join(data)
                yield m
            m, data = Message(event=""), []
            continue
        if line.startswith(":"):
            m.comments.append(line[1:].strip())
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            m.event = value
        elif name == "data":
            data.append(value)
        elif name == "id":
            m.id = value
        elif name == "retry":
            m.retry = int(value)


class StreamReader:
    """Reads an SSE answer on a thread of its own; the test takes messages from :attr:`got` and learns
    whether the server closed the stream (:attr:`closed`)."""

    def __init__(self, base: str, method: str, path: str, **kwargs: Any) -> None:
        self.got: queue.Queue[Message] = queue.Queue()
        self.status: int | None = None
        self.closed = threading.Event()
        self.opened = threading.Event()
        self.error: BaseException | None = None
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._run, args=(base, method, path, kwargs), daemon=True)
        self._thread.start()
        assert self.opened.wait(60), "the stream did not answer"

    def _run(self, base: str, method: str, path: str, kwargs: dict[str, Any]) -> None:
        try:
            with httpx.Client(base_url=base, timeout=60) as c, c.stream(method, path, **kwargs) as r:
                self._response = r
                self.status = r.status_code
                self.opened.set()
                if r.status_code != 200:
                    r.read()
                    self.body = r.text
                    return
                for m in messages(r.iter_lines()):
                    self.got.put(m)
        except BaseException as e:  # reported by the test, not lost in the thread
            self.error = e
        finally:
            self.opened.set()
            self.closed.set()

    def next(self, event: str | None = None, timeout: float = 60) -> Message:
        """The next message (of type ``event``, skipping others), or fail after ``timeout`` s."""
        while True:
            try:
                m = self.got.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {event or 'message'} within {timeout} s (error: {self.error})") from None
            if event is None or m.event == event:
                return m

    def rest(self, timeout: float = 60) -> list[Message]:
        """Every message until the server closes the stream (fail if it does not within ``timeout`` s)."""
        assert self.closed.wait(timeout), "the server did not close the stream"
        out = []
        while not self.got.empty():
            out.append(self.got.get())
        return out

    def close(self) -> None:
        """Hang up (a server shutting down waits for open streams to end)."""
        if self._response is not None:
            self._response.close()
        self.closed.wait(10)
