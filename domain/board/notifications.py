"""The board game's notable events for webhooks (``domain/core/notify.py``, docs/webhooks.md).

* ``turn_start`` -- ``step_began`` with a deadline: a step opened decisions (orders, a house's
  order turn, a combat's declarations, a Westeros choice...). Every deadline of the game is set by
  this event (``domain/board/evolve.py``), so it is exactly "a decision opened"; and by
  ``player_left`` with a deadline (Mother of Dragons: the commanders chosen again at once, MOD-FLEX-02),
  also a ``turn_start``.
* ``phase_end`` -- the Planning phase ends when the Action phase is about to begin
  (``step_began`` ``action``/``awaiting_action_phase``, BG-ROUND-01), the Action phase with
  ``action_phase_ended`` (BG-ACT-05), the Westeros phase with ``westeros_phase_ended``.
* ``combat_resolved`` -- ``combat_decided`` (BG-COMBAT-12/13: the final strengths, winner and loser).
* ``game_end`` -- ``game_ended`` (BG-VIC-01/03).
"""

from __future__ import annotations

from ..core.notify import Topic
from . import events as ev
from . import mod_events as mev
from .action import events as aev
from .westeros import events as wev


def topic_of(event: object) -> Topic | None:
    match event:
        case ev.StepBegan(phase="action", step="awaiting_action_phase"):
            return "phase_end"
        case ev.StepBegan(deadline=str()) | mev.PlayerLeft(deadline=str()):
            return "turn_start"
        case aev.ActionPhaseEnded() | wev.WesterosPhaseEnded():
            return "phase_end"
        case aev.CombatDecided():
            return "combat_resolved"
        case wev.GameEnded():
            return "game_end"
    return None
