"""Mother of Dragons without Targaryen: its setup (MOD-SETUP-*), on the base game's engine.

A Mother of Dragons game is a board game created with ``settings.expansion = "mother_of_dragons"``
(docs/mother-of-dragons.md). Its facts are the project's ``mother_of_dragons.json``
(:func:`domain.board.board_data.mother_of_dragons`); this module only applies the setup rules:

* at creation (:func:`lay_out_created`): the 7-house board with the Eyrie and The Bite overlays
  (MOD-SETUP-03), the seven houses on the fixed Influence track orders (MOD-SETUP-09), the
  King's Court stars of seven positions, every house's Garrison in its home area and the King's
  Landing neutral force, the only one that remains (MOD-GEN-03, MOD-SETUP-13);
* at the start, once the players' houses are known (:func:`lay_out_started`): every unchosen house
  is a vassal (MOD-SETUP-01, MOD-VASSAL-01); the vassal re-ordering of the tracks (MOD-SETUP-09);
  player houses take their screen's units, vassals their Vassal Setup card's (MOD-SETUP-12); each
  player takes 7 Power, vassals none (MOD-SETUP-15); players' Supply from their barrels, every
  vassal's at 4 (MOD-SETUP-08); the Vassal Order sets to the highest players (MOD-SETUP-11).

Targaryen is not part of this (issue 13 part 2): with 3-7 players it is simply not in the game.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from . import board_data
from .state import AreaState, BoardState, HouseState, Tracks
from .supply import supply_value

EXPANSION = "mother_of_dragons"
MIN_PLAYERS, MAX_PLAYERS = 3, 7
"""MOD-SETUP-01: without Targaryen, 3 to 7 players choose among the seven Westeros houses."""
TOP_SPACES = 3
"""MOD-SETUP-09: no vassal may start in the first three spaces of a track."""


def is_mother_of_dragons(state: BoardState) -> bool:
    return state.settings.expansion == EXPANSION


def houses() -> list[str]:
    """MOD-SETUP-01: the seven houses a player may choose (Targaryen belongs to part 2)."""
    return list(board_data.mother_of_dragons().houses)


def check_given_deal(player_count: int, seat_houses: list[str], code: str = "invalid_seat_houses") -> None:
    """MOD-SETUP-01, a given deal: one house per seat (``seat1`` first), each one of the seven houses a
    player may choose with Mother of Dragons (Arryn included, Targaryen not), none twice. The houses
    not named become vassals at the start. Otherwise 422 ``code`` (``invalid_seat_houses``; a scenario
    fixture's deal: ``invalid_scenario``), nothing created."""
    everyone = houses()
    unknown = [h for h in seat_houses if h not in everyone]
    if len(seat_houses) != player_count or unknown or len(set(seat_houses)) != len(seat_houses):
        why = (
            f"'{unknown[0]}' is not a house a player may take"
            if unknown
            else f"it names {len(seat_houses)} house(s) for {player_count} seats"
            if len(seat_houses) != player_count
            else "a house is named twice"
        )
        raise RuleViolation(
            f"seat_houses must name a different house for each of the {player_count} seats, seat1 first, "
            f"among {', '.join(everyone)}: {why}",
            rule="MOD-SETUP-01",
            code=code,
        )


def reorder_for_vassals(order: list[str], vassals: set[str]) -> list[str]:
    """MOD-SETUP-09: if any vassal is in the first three spaces of a track, every vassal leaves the
    track, the player houses close the gaps, and the vassals refill the last spaces in their original
    relative order. A track without a vassal at the top stays as it is."""
    if not any(h in vassals for h in order[:TOP_SPACES]):
        return list(order)
    return [h for h in order if h not in vassals] + [h for h in order if h in vassals]


def vassal_order_sets(iron_throne: list[str], vassals: list[str]) -> dict[str, int]:
    """MOD-SETUP-11 / MOD-VASSAL-02: one set of 4 Vassal Order tokens per vassal, each to the highest
    player on the Iron Throne track without one yet; once every player holds one, the next set goes
    to the top player again (with 3 players and 4 vassals the top player starts with two)."""
    players = [h for h in iron_throne if h not in vassals]
    sets: dict[str, int] = {h: 0 for h in players}
    for i in range(len(vassals)):
        sets[players[i % len(players)]] += 1
    return {h: n for h, n in sets.items() if n}


def lay_out_created(state: BoardState) -> None:
    """The part of the setup that does not depend on who plays what (mutates a fresh state)."""
    facts = board_data.mother_of_dragons()
    state.houses_in_play = houses()
    state.areas = {a.id: AreaState() for a in facts.areas}
    for area, strength in facts.neutral_forces.items():  # MOD-GEN-03: King's Landing only
        state.areas[area].neutral = strength
    for area, strength in facts.home_garrisons.items():  # MOD-SETUP-13: players' and vassals'
        state.areas[area].garrison = strength
    state.tracks = Tracks(
        iron_throne=list(facts.tracks.iron_throne),
        fiefdoms=list(facts.tracks.fiefdoms),
        kings_court=list(facts.tracks.kings_court),
    )
    state.kings_court_stars = list(facts.kings_court_stars)
    state.wildling_threat = board_data.setup().wildling_threat_start  # MOD-SETUP-05


def lay_out_started(state: BoardState, players: set[str]) -> None:
    """The setup once the players' houses are known (``GameStarted``); mutates ``state``."""
    facts = board_data.mother_of_dragons()
    everyone = houses()
    state.vassals = [h for h in everyone if h not in players]  # MOD-SETUP-01 / MOD-VASSAL-01
    vassals = set(state.vassals)
    assert state.tracks is not None, "lay_out_created set the tracks"
    state.tracks = Tracks(
        iron_throne=reorder_for_vassals(state.tracks.iron_throne, vassals),
        fiefdoms=reorder_for_vassals(state.tracks.fiefdoms, vassals),
        kings_court=reorder_for_vassals(state.tracks.kings_court, vassals),
    )
    for house in everyone:  # MOD-SETUP-12: the screen's units, or the Vassal Setup card's
        h = facts.houses[house]
        start = h.vassal_starting_units if house in vassals else h.starting_units
        for area, units in start.items():
            a = state.areas[area]
            a.house = house
            a.units = {u: n for u, n in units.items() if n}
    base_cards = board_data.cards().house_cards
    for house in everyone:
        if house in vassals:
            # MOD-SETUP-15: no Power; MOD-SETUP-08: Supply 4; MOD-VASSAL-14: no House cards of its own
            state.houses[house] = HouseState(power=0, supply=facts.vassal_starting_supply, hand=[])
            continue
        hand = [c.id for c in (facts.arryn_house_cards if house == "arryn" else base_cards[house])]
        state.houses[house] = HouseState(
            power=facts.power_tokens_available_at_start,  # MOD-SETUP-15: 7
            supply=supply_value(state, house),  # MOD-SETUP-08: as its screen shows
            hand=hand,
        )
    state.vassal_order_sets = vassal_order_sets(state.tracks.iron_throne, state.vassals)
    state.vassal_house_deck = vassal_deck()  # MOD-VASSAL-14


def vassal_deck() -> list[str]:
    """MOD-VASSAL-14/29: the seven cards of the shared Vassal House deck, in the facts' order."""
    return [c.id for c in board_data.mother_of_dragons().vassal_house_cards]
