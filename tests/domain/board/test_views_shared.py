"""Every reader's view built at once (``views_for``: the reader-independent parts, control, orders
still due and victory points, computed once) is exactly the view ``view_for`` gives each reader
alone, at every batch of a complete random game, spectator included (issue 12: a projection
computes the shared parts once)."""

from __future__ import annotations

import msgspec

from domain.board import decider
from domain.board.redaction import shared_parts, view_for, views_for
from tests.support.full_games import play_full_game

_enc = msgspec.json.Encoder()


def test_views_built_together_equal_each_readers_own_view_through_a_whole_game():
    game = play_full_game(4, "shared-views", 7)
    starts = [*game.batch_starts, len(game.events)]
    state = decider.fold(game.events[: starts[1]])
    checked = 0
    for begin, end in zip(starts[1:], starts[2:], strict=False):
        readers = [None, *state.houses_in_play]
        together = views_for(state, readers)
        assert list(together) == readers
        for reader in readers:
            assert _enc.encode(together[reader]) == _enc.encode(view_for(state, reader)), (state.version, reader)
        checked += 1
        decider.fold(game.events[begin:end], state)
    assert checked > 50 and state.phase == "ended"


def test_shared_parts_hold_nothing_a_reader_could_not_see():
    """Control, the houses still to submit and victory points are public facts: the same in every
    reader's view (a house's own sealed orders and hand are added per reader by ``view_for``)."""
    game = play_full_game(3, "shared-parts", 3)
    state = decider.fold(game.events[: game.batch_starts[3]])
    parts = shared_parts(state)
    public = view_for(state, None)
    assert {h.house: h.victory_points for h in public.houses} == parts.victory_points
    assert {aid: a.controller for aid, a in public.areas.items()} == parts.ctrl
