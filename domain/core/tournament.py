"""Tournaments: many tables of one game, the draw of their houses, and standings across tables.

Pure, like the rest of the domain: the service (``service/engine/tournaments.py``) validates a
tournament, draws with these functions from the tournament's secret seed, creates the tables and
stores the records; nothing here does I/O.

* :func:`draw_houses` -- the houses of one table, seat by seat, drawn from the tournament's seed.
  The draw of table ``i`` depends only on ``(seed, i)`` (its own :class:`~.rng.SeededRng` stream,
  purpose ``tournament/table<i>/houses``): the tournament publishes ``sha256(seed)`` at creation and
  reveals the seed once every table has ended, so anyone can redo each draw and compare it with the
  ``seat_houses`` recorded in each table's creation event.
* :class:`TableRules` -- what a game that hosts tournaments tells about its tables: the player counts
  it allows, the houses of a table of each size, and each seat's result once a table has ended.
  Registered by kind in ``domain/registry.py`` (:data:`~domain.registry.TOURNAMENT_RULES`).
* :func:`standings` -- players ranked across every finished table. A game's rules rank the houses of
  one table (the board game: BG-VIC-01..04); they say nothing about several tables, so the
  tournament's order is this project's, documented in docs/tournaments.md: most tables won, then the
  most points summed over the tables (the board game: castle/stronghold areas, BG-VIC-02), then the
  table's own tie-break figures summed in the order of its ruleset (BG-VIC-04), then the best mean
  rank, then the name (so the order is total and repeatable).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from .rng import SeededRng


class SeatResult(msgspec.Struct, frozen=True):
    """One seat's result at one finished table, as its game ranks it."""

    seat_id: str
    """The seat at its table."""
    house: str
    """The house it played."""
    rank: int
    """1 = the table's winner."""
    points: int
    """What the game scores (the board game: castle/stronghold areas controlled, BG-VIC-02)."""
    tiebreaks: list[int]
    """The game's tie-break figures in their order, each *higher is better* (a track position,
    where 1 is best, is given negated)."""


class TableStatus(msgspec.Struct, frozen=True):
    """Where a table stands, for the tournament's listing."""

    status: str
    """``lobby`` (not started), ``running`` or ``ended``."""
    phase: str
    """The game's own phase name (the board game: ``planning``, ``action``, ``westeros``...)."""
    round: int
    """The game's round."""
    winner: str | None = None
    """The winning house once the table has ended."""


class TableRules(Protocol):
    """What a game that hosts tournaments tells the tournament service (see the module docstring)."""

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def size_rule(self) -> str | None:
        """The rule that sets :attr:`min_players`..:attr:`max_players` (named in a refusal), if any."""
        ...

    def for_settings(self, settings: Mapping[str, object]) -> TableRules:
        """The rules of tables created with ``settings`` (an expansion may change the seats and houses)."""
        ...

    def houses(self, player_count: int) -> list[str]:
        """The houses (roles) a table of ``player_count`` seats is dealt from, in the rules' order: the
        draw shuffles them and seats take the first ``player_count`` (all of them when there are as
        many houses as seats)."""
        ...

    def tiebreak_names(self, state: Any) -> list[str]:
        """The names of :attr:`SeatResult.tiebreaks` for a table in this state (its ruleset)."""
        ...

    def results(self, state: Any) -> list[SeatResult] | None:
        """Every seat's result once the table has ended, best first; None while it runs."""
        ...

    def status(self, state: Any) -> TableStatus:
        """Where the table stands (lobby, running, ended; phase and round)."""
        ...


def draw_purpose(table: int) -> str:
    """The random stream of table ``table``'s houses (1-based, the order of the tournament's tables)."""
    return f"tournament/table{table}/houses"


def draw_houses(seed: str, table: int, houses: Sequence[str]) -> list[str]:
    """The houses of table ``table`` seat by seat (``seat1`` first): ``houses`` shuffled with the
    table's own stream of the tournament's seed (Fisher-Yates, :meth:`SeededRng.shuffled`)."""
    return SeededRng(seed, draw_purpose(table)).shuffled(houses)


class TableResult(msgspec.Struct, frozen=True):
    """A finished table, as the standings read it: its players' names by seat, and the results."""

    table: int
    """The table's number."""
    players: dict[str, str]
    """seat id -> player name."""
    results: list[SeatResult]


class PlayerStanding(msgspec.Struct, frozen=True):
    rank: int
    """1-based place in the tournament (see the module docstring for the order)."""
    player: str
    """The player's name."""
    tables_played: int
    """Finished tables this player sat at."""
    wins: int
    """Tables won (rank 1 at the table)."""
    points: int
    """The game's points summed over the player's finished tables (castles and strongholds, BG-VIC-02)."""
    tiebreaks: list[int]
    """The tie-break figures summed over the player's finished tables, in the game's order."""
    mean_rank: float
    """Mean place at the player's finished tables (0 when none finished yet)."""
    results: list[int]
    """The player's place at each finished table, in table order."""


class _Totals:
    """One player's figures summed over the finished tables (see :func:`standings`)."""

    __slots__ = ("wins", "points", "tiebreaks", "ranks")

    def __init__(self) -> None:
        self.wins = 0
        self.points = 0
        self.tiebreaks: list[int] = []
        self.ranks: list[int] = []

    def add(self, result: SeatResult) -> None:
        self.wins += 1 if result.rank == 1 else 0
        self.points += result.points
        for i, figure in enumerate(result.tiebreaks):
            if i < len(self.tiebreaks):
                self.tiebreaks[i] += figure
            else:
                self.tiebreaks.append(figure)
        self.ranks.append(result.rank)

    def mean_rank(self) -> float:
        return sum(self.ranks) / len(self.ranks) if self.ranks else 0.0

    def key(self, name: str) -> tuple[int, int, list[int], float, str]:
        """Best first: wins, points, tie-breaks (each higher is better), mean rank, name."""
        mean = self.mean_rank() if self.ranks else float("inf")
        return (-self.wins, -self.points, [-x for x in self.tiebreaks], mean, name)


def standings(players: Iterable[str], tables: Iterable[TableResult]) -> list[PlayerStanding]:
    """Every player of the tournament ranked across its finished tables (module docstring); players
    whose tables have not ended yet are listed with zeros, after those with the same figures."""
    totals = {p: _Totals() for p in players}
    for t in sorted(tables, key=lambda t: t.table):
        for r in t.results:
            name = t.players.get(r.seat_id)
            if name is not None and name in totals:
                totals[name].add(r)
    ranked = sorted(totals, key=lambda name: totals[name].key(name))
    return [
        PlayerStanding(
            rank=i + 1,
            player=name,
            tables_played=len(totals[name].ranks),
            wins=totals[name].wins,
            points=totals[name].points,
            tiebreaks=list(totals[name].tiebreaks),
            mean_rank=round(totals[name].mean_rank(), 3),
            results=list(totals[name].ranks),
        )
        for i, name in enumerate(ranked)
    ]
