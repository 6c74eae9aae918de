"""Tides of Battle positions (BG-TIDES-*): a combat whose Tides cards are known in advance.

The Tides deck of a combat is what the game's seed produces (random stream ``tides/round<R>/<N>``).
:func:`seed_drawing` finds a seed whose shuffle puts the wanted cards on top; :func:`tides_north`
gives the game that seed before the combat, so the engine's own shuffle deals them (attacker's draw
first, then the defender's, then the card a Blade redraw takes).
"""

from __future__ import annotations

from domain.board import board_data
from domain.board.action.tides import shuffle_purpose
from domain.board.state import Settings
from domain.core.rng import derive_rng
from tests.support.action_positions import Position, ctx_at
from tests.support.combat_helpers import north

TIDES = Settings(tides_of_battle=True)
GAME_ID = "g-action"
"""The game id of every :class:`Position`."""
STARK_BLADE = {"fiefdoms": ["stark", "greyjoy", "tyrell", "martell", "baratheon", "lannister"]}
"""Fiefdoms with Stark first: Stark (the attacker of :func:`north`) holds the Blade."""


def deck_for(seed: str, number: int = 1, round_: int = 1) -> list[str]:
    """The Tides deck the seed gives the ``number``-th combat of round ``round_`` (BG-TIDES-02)."""
    return derive_rng(seed, f"{GAME_ID}/{shuffle_purpose(round_, number)}").shuffled(board_data.tides_deck())


def seed_drawing(*top: str, number: int = 1) -> str:
    """A seed whose Tides deck for that combat starts with ``top``."""
    for i in range(20_000):
        seed = f"tides-{i}"
        if deck_for(seed, number)[: len(top)] == list(top):
            return seed
    raise AssertionError(f"no seed puts {top} on top")


def tides_north(*top: str, **kw) -> Position:
    """:func:`north` with the variant on and ``top`` the first Tides cards of its combat."""
    sc = north(settings=TIDES, **kw)
    sc.ctx = ctx_at(seed=seed_drawing(*top))
    return sc
