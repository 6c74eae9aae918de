"""The lobby every game shares: seats are taken one by one, then the organizer starts the game.

A game's own decider calls these before it writes its own events (its seat-joined event, its
start events); the rules are the same for every game, so they live once, here.
"""

from __future__ import annotations

from .errors import WrongPhase


def next_seat(in_lobby: bool, taken: int, capacity: int) -> str:
    """The id of the next free seat (``seat1``, ``seat2``...), or ``game_started``/``game_full``."""
    if not in_lobby:
        raise WrongPhase("the game has started; no seat is free", code="game_started")
    if taken >= capacity:
        raise WrongPhase("every seat is taken", code="game_full")
    return f"seat{taken + 1}"


def check_can_start(in_lobby: bool, taken: int, capacity: int) -> None:
    """A game starts once, from the lobby, with every seat taken (``game_started``/``seats_missing``)."""
    if not in_lobby:
        raise WrongPhase("the game has already started", code="game_started")
    if taken != capacity:
        raise WrongPhase(
            f"{taken} of {capacity} seats are taken; every seat must be filled to start", code="seats_missing"
        )
