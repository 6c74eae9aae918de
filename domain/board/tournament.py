"""The board game at a tournament (``domain/core/tournament.py``): 3-6 players a table
(BG-SETUP-01; 3-7 with Mother of Dragons, MOD-SETUP-01), the houses of each table size, and each seat's result when a table has ended.

A table's result is its own ranking (``GameEnded.standings``, BG-VIC-03/04): the houses by
castle/stronghold areas (BG-VIC-02), then the tie-breaks of the table's ``tiebreak_ruleset``
(BG-VIC-04), each figure given so that higher is better (the Iron Throne position negated).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.tournament import SeatResult, TableStatus
from . import mother_of_dragons
from .setup import MAX_PLAYERS, MIN_PLAYERS, houses_for
from .state import BoardState
from .victory import standings

TIEBREAKS = {
    "faq_v2": ["land_areas", "supply", "iron_throne"],
    "seed": ["strongholds", "supply", "power", "iron_throne"],
}
"""BG-VIC-04: the tie-break figures of each ruleset, in order (``iron_throne`` counts negated)."""


class BoardTables:
    """The base game's tables (BG-SETUP-01: 3-6 players, the houses of the player count), or with
    Mother of Dragons (``expansion``) 3-7 players dealt from the seven houses, the others vassals
    (MOD-SETUP-01)."""

    def __init__(self, expansion: str | None = None) -> None:
        self.expansion = expansion
        mod = expansion == mother_of_dragons.EXPANSION
        self.min_players = mother_of_dragons.MIN_PLAYERS if mod else MIN_PLAYERS
        self.max_players = mother_of_dragons.MAX_PLAYERS if mod else MAX_PLAYERS
        self.size_rule = "MOD-SETUP-01" if mod else "BG-SETUP-01"

    def for_settings(self, settings: Mapping[str, object]) -> BoardTables:
        """The tables of a tournament whose ``settings`` name an expansion (``expansion``)."""
        return MOD_TABLES if settings.get("expansion") == mother_of_dragons.EXPANSION else TABLES

    def houses(self, player_count: int) -> list[str]:
        """BG-SETUP-01: the houses in play at this player count; with Mother of Dragons the seven houses,
        the seats taking the first ``player_count`` of the draw (MOD-SETUP-01: the rest are vassals)."""
        if self.expansion == mother_of_dragons.EXPANSION:
            return mother_of_dragons.houses()
        return houses_for(player_count)

    def tiebreak_names(self, state: BoardState) -> list[str]:
        return list(TIEBREAKS[state.settings.tiebreak_ruleset])

    def results(self, state: BoardState) -> list[SeatResult] | None:
        """Each seat's place at an ended table (BG-VIC-01..04), best first; None while it runs."""
        if state.phase != "ended":
            return None
        seat_of = {s.house: s.seat_id for s in state.seats if s.house is not None}
        out = []
        for st in standings(state):
            figures = {
                "land_areas": st.land_areas,
                "strongholds": st.strongholds,
                "supply": st.supply,
                "power": st.power,
                "iron_throne": -st.iron_throne,
            }
            out.append(
                SeatResult(
                    seat_id=seat_of.get(st.house, ""),
                    house=st.house,
                    rank=st.rank,
                    points=st.castles,
                    tiebreaks=[figures[n] for n in self.tiebreak_names(state)],
                )
            )
        return out

    def status(self, state: BoardState) -> TableStatus:
        status = "lobby" if state.phase == "lobby" else "ended" if state.phase == "ended" else "running"
        results = self.results(state)
        winner = results[0].house if results else None
        return TableStatus(status=status, phase=state.phase, round=state.round, winner=winner)


TABLES = BoardTables()
MOD_TABLES = BoardTables(mother_of_dragons.EXPANSION)
