"""Reading a game's events as a resumable stream, shared by the async and the sync client.

* :class:`SseParser` turns the lines of a ``text/event-stream`` answer into messages, as the
  WHATWG HTML standard's "event stream interpretation" says: ``id:``, ``event:``, ``data:`` (joined
  by newlines when repeated), ``retry:``; comments (``: keep-alive``) are skipped; a blank line ends a
  message. A message cut off by a dropped connection (no blank line yet) is never delivered.
* :class:`EventCursor` remembers the version of the last event delivered, so that a reconnection
  asks for what follows it (``Last-Event-ID`` for SSE, ``from`` for NDJSON) and an event the server
  sends again is dropped: the events come out contiguous, none lost, none twice. It also knows when
  the game is over: after its ending event (``game_ended``), after an SSE message ``event: end``,
  or when the version it starts from is the ending event.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from .models import EventOut

ENDING_EVENTS = frozenset({"game_ended", "auction_ended"})
"""Event types that end a game: nothing follows them (the board game's, and the test game's)."""
END_MESSAGE = "end"
"""The SSE message type with which a server says the stream is over (after the game's end)."""

RECONNECT_S = 0.5
"""The pause before reopening an event stream the server closed (unless it said ``retry:``)."""

_event_json = msgspec.json.Decoder(dict[str, Any])


class StreamGap(RuntimeError):
    """The server skipped versions: an event after ``expected - 1`` was not the next one. The API
    never does this; a proxy replaying a stale cache might."""


@dataclass(frozen=True)
class SseMessage:
    """One message of an event stream (``event`` is ``message`` when the server names none)."""

    event: str
    data: str
    id: str | None
    """The ``id:`` of this message, or None if it had none."""
    retry_ms: int | None
    """A ``retry:`` field: how long to wait before reconnecting, in milliseconds."""


class SseParser:
    """Feed it the lines of an event stream (without their line ends); it returns each complete
    message at the blank line that ends it. Unlike a browser it also delivers a message without
    ``data:`` when it names its ``event`` type (so ``event: end`` alone ends the stream)."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None
        self._retry: int | None = None

    def feed(self, line: str) -> SseMessage | None:
        if not line:
            out = None
            if self._data or self._event or self._retry is not None:
                out = SseMessage(self._event or "message", "\n".join(self._data), self._id, self._retry)
            self._reset()
            return out
        if line.startswith(":"):
            return None
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        elif name == "retry" and value.isdigit():
            self._retry = int(value)
        return None


class EventCursor:
    """Where a reader of a game's events stands: ``version`` is the ``seq`` of the last event
    delivered (``after`` at first), ``ended`` once nothing more will come."""

    def __init__(self, after: int = 0, ending: frozenset[str] = ENDING_EVENTS):
        self.version = after
        self.ended = False
        self.retry_s: float | None = None
        """The server's ``retry:`` advice, in seconds, once it gave one."""
        self._ending = ending

    def begin(self, prior: Iterable[EventOut]) -> None:
        """``prior``: the event at ``version`` (when the reader starts after some event): if it ended
        the game there is nothing to wait for."""
        for e in prior:
            if e.seq == self.version and e.event.get("type") in self._ending:
                self.ended = True

    def take(self, e: EventOut) -> EventOut | None:
        """``e`` if it is the next event; None if it was already delivered (sent again after a
        reconnection); :class:`StreamGap` if events are missing before it."""
        if self.ended or e.seq <= self.version:
            return None
        if e.seq != self.version + 1:
            raise StreamGap(f"expected the event at version {self.version + 1}, got {e.seq}")
        self.version = e.seq
        if e.event.get("type") in self._ending:
            self.ended = True
        return e

    def message(self, m: SseMessage) -> EventOut | None:
        """The event an SSE message carries (``id:`` = its version, ``data:`` = its JSON), through
        :meth:`take`; None for anything else (and ``event: end`` ends the stream)."""
        if m.retry_ms is not None:
            self.retry_s = m.retry_ms / 1000
        if m.event == END_MESSAGE:
            self.ended = True
            return None
        if m.id is None or not m.id.isdigit() or not m.data:
            return None
        return self.take(EventOut(seq=int(m.id), event=_event_json.decode(m.data)))
