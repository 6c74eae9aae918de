"""Complete games for 3, 4, 5 and 6 players, from setup to a winner, by random legal choices
(tests/support/full_games.py): invariants after every batch, every decision with a deadline
and a default, the log and the redaction for every event, the offline audit (chain, seed, every
shuffle), and a re-fold of all events (through JSON) that reproduces the final state byte for byte."""

from __future__ import annotations

import msgspec
import pytest

from domain.board.audit import audit
from domain.board.narrative import describe
from domain.board.redaction import redact_event, view_for
from domain.board.westeros import events as wev
from tests.support.full_games import play_full_game

_json = msgspec.json.Encoder()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_complete_games_reach_a_winner_and_refold_byte_for_byte(players):
    game = play_full_game(players, seed=f"complete-{players}", rng_seed=players)
    s = game.state
    ended = game.events[-1]
    assert isinstance(ended, wev.GameEnded)
    assert (s.phase, s.step, s.winner) == ("ended", "game_over", ended.winner)
    assert ended.reason in ("seven_castles", "final_round")
    assert sorted(x.house for x in ended.standings) == sorted(s.houses_in_play)
    assert ended.round == s.round and (ended.reason == "seven_castles" or s.round == 10)
    assert sum(isinstance(e, wev.WesterosPhaseBegan) for e in game.events) == s.round - 1
    assert game.same_as_refold()

    readers = [*s.houses_in_play, None]
    for e in game.events:
        for reader in readers:
            public = redact_event(e, reader)
            _json.encode(public)
        describe(redact_event(e, None))
    for reader in readers:
        _json.encode(view_for(s, reader))

    # the offline audit re-derives every batch from its command (timeouts at their recorded time)
    report = audit(game.envelopes(), seed=game.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(game.events) and report.batches == game.batches


NORTH_AT_SIX = b"""{"areas": {
 "winterfell": {"house": "stark", "units": {"footman": 1, "knight": 1}},
 "white_harbor": {"house": "stark", "units": {"footman": 1}},
 "moat_cailin": {"house": "stark", "units": {"footman": 1, "knight": 1}},
 "flints_finger": {"house": "stark", "units": {"footman": 1}},
 "seagard": {"house": "stark", "units": {"footman": 1, "knight": 1}},
 "riverrun": {"house": "stark", "units": {"footman": 1, "knight": 1}},
 "lannisport": {"house": "lannister", "units": {"footman": 1, "knight": 1}},
 "stoney_sept": {"house": "lannister", "units": {"footman": 1}},
 "dragonstone": {"house": "baratheon", "units": {"footman": 1, "knight": 1}},
 "kingswood": {"house": "baratheon", "units": {"footman": 1}}
}, "houses": {"stark": {"supply": 4}}}"""


def test_a_complete_game_from_a_described_position_ends_at_once_with_seven_castles():
    """BG-VIC-01 in a whole game: Stark starts with six castle/stronghold areas (a scenario fixture);
    random play soon gives it a seventh, and the game ends in that very batch."""
    from domain.board.scenario import Scenario

    scenario = msgspec.json.decode(NORTH_AT_SIX, type=Scenario)
    for attempt in range(20):
        game = play_full_game(3, seed=f"seven-{attempt}", rng_seed=attempt, scenario=scenario)
        ended = game.events[-1]
        if ended.reason == "seven_castles":
            break
    else:
        pytest.fail("no game ended with seven castles")
    assert ended.winner == "stark" and ended.standings[0].castles >= 7
    assert game.state.phase == "ended" and game.same_as_refold()
    # the batch that gave the seventh castle is the one that ended the game
    from domain.board.decider import fold
    from domain.board.victory import seven_castles

    last = game.batch_starts[-1]
    assert not seven_castles(fold(game.events[:last]))
    assert seven_castles(fold(game.events[:-1]))
