"""Mother of Dragons games played to a winner by random legal commands (tests/support/full_games.py):
house choice, commanders (MOD-VASSAL-02..07), vassal orders placed and resolved by commanders
(MOD-VASSAL-08..12), vassal combats with the shared deck (MOD-VASSAL-13..17), vassals in the
Westeros phase (MOD-VASSAL-19..25); the invariants hold after every batch, nobody but a player
wins (MOD-VASSAL-28), and the export audits clean with the seed.
"""

from __future__ import annotations

import random

import pytest

from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.state import Settings
from tests.support.full_games import FullGame


@pytest.mark.parametrize("players", [3, 4, 5])
def test_MOD_VASSAL_a_random_game_with_vassals_reaches_a_winner_and_audits_clean(players: int) -> None:
    game = FullGame(players, f"mod-full-{players}", Settings(expansion="mother_of_dragons"))
    game.play(random.Random(players))
    s = game.state
    assert s is not None and s.phase == "ended" and s.winner is not None
    assert s.winner not in s.vassals  # MOD-VASSAL-28
    kinds = {type(e) for e in game.events}
    assert {mev.VassalOrderSetsDealt, mev.VassalCommanderChosen, mev.VassalHouseCardsDrawn} <= kinds
    assert any(e.commander is not None for e in game.events if type(e).__name__ == "OrdersSubmitted")
    report = audit(game.envelopes(), game.ctx.seed)
    assert report.rules_ok, (report.problems, report.divergence)
    assert game.same_as_refold()
