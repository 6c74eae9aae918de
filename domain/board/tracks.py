"""The three Influence tracks of a started game (BG-SETUP-09, BG-COK-*): reading them typed.

``BoardState.tracks`` is laid out by ``initial_board`` when the game is created (``GameCreated``), so
it is None only on a state built by hand; these raise rather than let a rule read a missing track.
"""

from __future__ import annotations

from .state import BoardState, Tracks


def tracks_of(state: BoardState) -> Tracks:
    """The Influence tracks; raises if the board has none yet."""
    tracks = state.tracks
    if tracks is None:
        raise ValueError(f"game {state.game_id} has no Influence tracks yet (phase {state.phase!r})")
    return tracks


def track_order(state: BoardState, track: str) -> list[str]:
    """The houses on ``track`` (``iron_throne``, ``fiefdoms`` or ``kings_court``), position 1 first.

    The list itself, not a copy: copy it before changing it.
    """
    order: list[str] = getattr(tracks_of(state), track)
    return order
