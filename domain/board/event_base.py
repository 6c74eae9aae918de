"""The base class of every board-game event (re-exported by :mod:`domain.board.events`).

It lives alone so that event modules of each phase (e.g. ``domain/board/action/events.py``) can
subclass it without importing the board's event union, which imports them.
"""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass
