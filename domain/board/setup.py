"""Setting up a new game (BG-SETUP-*), straight from the board facts.

:func:`initial_board` lays out everything that does not depend on chance: houses in play by player
count, starting units, home garrisons, neutral forces (or impassable areas with 3 players), the three
influence tracks with the King's Court stars, supply and Power. The random parts (which seat plays
which house, deck order) come from ``GameStarted``.
"""

from __future__ import annotations

from . import board_data, mother_of_dragons
from .state import AreaState, BoardState, HouseState, Tracks
from .supply import supply_value

MIN_PLAYERS, MAX_PLAYERS = 3, 6


def houses_for(player_count: int) -> list[str]:
    """BG-SETUP-01: 3 Stark/Lannister/Baratheon, +Greyjoy at 4, +Tyrell at 5, +Martell at 6."""
    return list(board_data.setup().player_counts[str(player_count)].houses)


def initial_board(state: BoardState) -> None:
    """Lay out the board for ``state.player_count`` houses (mutates a fresh state)."""
    if mother_of_dragons.is_mother_of_dragons(state):
        mother_of_dragons.lay_out_created(state)
        return
    facts = board_data.setup()
    pc = facts.player_counts[str(state.player_count)]
    state.houses_in_play = list(pc.houses)
    state.areas = {a.id: AreaState() for a in board_data.board().areas}

    # BG-SETUP-06: impassable south with 3 players; neutral forces by player count.
    for area in pc.blocked_areas:
        state.areas[area].blocked = True
    for area, strength in pc.neutral_forces.items():
        state.areas[area].neutral = strength

    # BG-SETUP-10: starting units (the 3-player game leaves out the port of Lannisport ship).
    for house in pc.houses:
        for area, units in facts.houses[house].starting_units.items():
            if area in pc.starting_units_not_placed_in:
                continue
            a = state.areas[area]
            a.house = house
            a.units = {u: n for u, n in units.items() if n}

    # BG-SETUP-11 / BG-SETUP-06: garrisons only in the home areas of houses in play.
    for area, strength in pc.home_garrisons.items():
        state.areas[area].garrison = strength

    # BG-SETUP-08/09: tracks with absent houses removed; position 1 holds each Dominance token.
    state.tracks = Tracks(
        iron_throne=list(pc.tracks.iron_throne),
        fiefdoms=list(pc.tracks.fiefdoms),
        kings_court=list(pc.tracks.kings_court),
    )
    state.kings_court_stars = list(pc.kings_court_stars)  # BG-SETUP-07
    state.wildling_threat = facts.wildling_threat_start  # BG-SETUP-03

    # BG-SETUP-12/13/14: supply from barrels controlled, 5 available Power, 7 house cards.
    cards = board_data.cards().house_cards
    for house in pc.houses:
        state.houses[house] = HouseState(
            power=facts.power_tokens_available_at_start,
            supply=supply_value(state, house),
            hand=[c.id for c in cards[house]],
        )
