"""The board game at a tournament (``domain/core/tournament.py``): 3-6 players a table
(BG-SETUP-01), the houses of each table size, and each seat's result when a table has ended.

A table's result is its own ranking (``GameEnded.standings``, BG-VIC-03/04): the houses by
castle/stronghold areas (BG-VIC-02), then the tie-breaks of the table's ``tiebreak_ruleset``
(BG-VIC-04), each figure given so that higher is better (the Iron Throne position negated).
"""

from __future__ import annotations

from ..core.tournament import SeatResult, TableStatus
from .setup import MAX_PLAYERS, MIN_PLAYERS, houses_for
from .state import BoardState
from .victory import standings

TIEBREAKS = {
    "faq_v2": ["land_areas", "supply", "iron_throne"],
    "seed": ["strongholds", "supply", "power", "iron_throne"],
}
"""BG-VIC-04: the tie-break figures of each ruleset, in order (``iron_throne`` counts negated)."""


class BoardTables:
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def houses(self, player_count: int) -> list[str]:
        """BG-SETUP-01: the houses in play at this player count."""
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
