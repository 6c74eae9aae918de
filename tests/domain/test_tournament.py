"""Tournaments in the domain (domain/core/tournament.py, domain/board/tournament.py): the houses
given at creation (BG-SETUP-02), the draw from a tournament's seed, and standings across tables with
the board game's ranking (BG-VIC-01..04)."""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import create, decide
from domain.board.setup import houses_for
from domain.board.state import Settings
from domain.board.tournament import TABLES
from domain.core.errors import RuleViolation
from domain.core.tournament import SeatResult, TableResult, draw_houses, standings
from tests.support.board_builders import ORGANIZER, Game, make_ctx


def _given(player_count: int, seat_houses: list[str]) -> Game:
    ctx = make_ctx()
    game = Game(ctx=ctx)
    body = cmd.CreateGame(player_count=player_count, settings=Settings(), seat_houses=seat_houses)
    game.apply(create(body, ctx))
    for i in range(player_count):
        game.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
    return game


def test_BG_SETUP_02_houses_given_at_creation_are_dealt_at_the_start():
    houses = ["baratheon", "stark", "greyjoy", "lannister"]
    game = _given(4, houses)
    created = game.events[0]
    assert isinstance(created, ev.GameCreated) and created.seat_houses == houses
    started = decide(game.state, cmd.StartGame(), ORGANIZER, game.ctx)[0]
    assert isinstance(started, ev.GameStarted)
    assert started.houses == {"seat1": "baratheon", "seat2": "stark", "seat3": "greyjoy", "seat4": "lannister"}


@pytest.mark.parametrize(
    "houses",
    [["stark", "lannister"], ["stark", "stark", "lannister"], ["stark", "lannister", "tyrell"]],
)
def test_BG_SETUP_01_02_given_houses_must_be_the_houses_in_play_once_each(houses):
    with pytest.raises(RuleViolation) as e:
        create(cmd.CreateGame(player_count=3, settings=Settings(), seat_houses=houses), make_ctx())
    assert e.value.code == "invalid_seat_houses" and e.value.rule == "BG-SETUP-02"


def test_the_draw_of_a_table_depends_only_on_the_seed_and_the_table():
    houses = houses_for(6)
    first = draw_houses("s" * 64, 1, houses)
    assert sorted(first) == sorted(houses)
    assert draw_houses("s" * 64, 1, houses) == first  # anyone with the revealed seed redoes it
    others = {tuple(draw_houses("s" * 64, t, houses)) for t in range(1, 12)}
    assert len(others) > 1, "each table has its own stream"


def _table(table: int, players: list[str], ranks_points: list[tuple[int, int, list[int]]]) -> TableResult:
    seats = {f"seat{i + 1}": p for i, p in enumerate(players)}
    results = [
        SeatResult(seat_id=f"seat{i + 1}", house=f"h{i}", rank=r, points=pts, tiebreaks=tb)
        for i, (r, pts, tb) in enumerate(ranks_points)
    ]
    return TableResult(table=table, players=seats, results=results)


def test_BG_VIC_03_04_standings_rank_wins_then_castles_then_the_tiebreaks():
    # two tables of three: Ann and Dan win; Ann with more castles (BG-VIC-02/03) ranks first.
    # Bob and Eve are second with 4 castles each: the land-area tie-break (BG-VIC-04, faq_v2) decides.
    t1 = _table(1, ["Ann", "Bob", "Cy"], [(1, 7, [8, 4, -1]), (2, 4, [5, 3, -2]), (3, 2, [3, 2, -3])])
    t2 = _table(2, ["Dan", "Eve", "Fay"], [(1, 6, [9, 5, -2]), (2, 4, [6, 2, -1]), (3, 1, [2, 1, -3])])
    table = standings(["Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus"], [t2, t1])
    assert [s.player for s in table] == ["Ann", "Dan", "Eve", "Bob", "Cy", "Fay", "Gus"]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6, 7]
    assert table[0].wins == 1 and table[0].points == 7 and table[0].results == [1]
    assert table[-1].tables_played == 0  # Gus's table has not ended


def test_BG_VIC_04_a_table_result_uses_its_rulesets_tiebreaks():
    assert TABLES.tiebreak_names(_given(3, houses_for(3)).state) == ["land_areas", "supply", "iron_throne"]
    assert TABLES.results(_given(3, houses_for(3)).state) is None  # not ended
