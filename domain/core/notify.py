"""What an organizer can be notified of (signed webhooks, docs/webhooks.md): the topics, and how a
game names the topic of one of its events.

Each game says which of its events are notable (``domain/registry.py``: :data:`~domain.registry.NOTIFIERS`);
the workers send the event itself, redacted for spectators, to every subscription of its topic. A
game without a notifier still reports its end (:meth:`~domain.core.game.Game.ends_game`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

Topic = Literal["turn_start", "phase_end", "combat_resolved", "game_end"]
TOPICS: tuple[Topic, ...] = ("turn_start", "phase_end", "combat_resolved", "game_end")
"""* ``turn_start``: a decision opened (a step with a deadline began);
* ``phase_end``: a phase of a round ended;
* ``combat_resolved``: a combat was decided (its winner and loser known);
* ``game_end``: the game ended (its winner)."""

Notifier = Callable[[Any], Topic | None]
"""A game's event -> the topic it belongs to, or None when it is not notable."""
