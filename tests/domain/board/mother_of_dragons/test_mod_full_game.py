"""A complete 7-player Mother of Dragons game (no vassal: every house a player's), from the house
choice to a winner, by random legal choices (tests/support/full_games.py): sea orders among the
tokens (MOD-SEA-*), random gifts of Power now and then (MOD-GIFT-*), House Arryn's cards in its
combats (MOD-DATA-01). Invariants after every batch, the log and the redaction for every event, the
offline audit re-deriving every batch, and a re-fold reproducing the final state byte for byte."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.action import events as aev
from domain.board.audit import audit
from domain.board.gifts import gift_options
from domain.board.house_choice import chooser, free_houses
from domain.board.narrative import describe
from domain.board.orders import is_sea_order
from domain.board.redaction import redact_event, view_for
from domain.board.state import Settings
from domain.board.westeros import events as wev
from tests.support.full_games import FullGame

MOD = Settings(expansion="mother_of_dragons")
_json = msgspec.json.Encoder()


class ModFullGame(FullGame):
    """:class:`FullGame` with the seats choosing their houses first and a random gift now and then."""

    def step(self, rng: random.Random, timeout_rate: float = 0.03) -> None:
        s = self.state
        if s.step == "choose_house":
            seat = chooser(s)
            assert seat is not None
            self.run(cmd.ChooseHouse(house=rng.choice(free_houses(s))), cmd.Actor(kind="seat", seat_id=seat))
            return
        if s.phase != "ended" and rng.random() < 0.02:
            giver = rng.choice([h for h in s.houses_in_play if h not in s.vassals])
            offer = gift_options(s, giver)
            if offer is not None:
                to = rng.choice(sorted(offer.receivers))
                self.run(cmd.GiftPower(to=to, amount=rng.randint(1, offer.receivers[to])), self.actor(giver))
                return
        super().step(rng, timeout_rate)


@pytest.mark.parametrize(("rng_seed", "arryn_fights"), [(7, True), (11, False)])
def test_a_complete_mother_of_dragons_game_reaches_a_winner_and_audits_clean(rng_seed: int, arryn_fights: bool) -> None:
    """``arryn_fights``: in that seeded game House Arryn plays House cards in a combat."""
    game = ModFullGame(7, f"mod-complete-{rng_seed}", MOD)
    game.play(random.Random(rng_seed))
    s = game.state
    ended = game.events[-1]
    assert isinstance(ended, wev.GameEnded) and s.winner == ended.winner
    assert "arryn" in s.houses_in_play and not s.vassals
    # what this part built was played: sea tokens, gifts, and Arryn's cards in combat
    placed = [o for e in game.events if isinstance(e, aev.OrderRemoved) for o in [e.order]]
    assert any(is_sea_order(o) for o in placed)
    assert any(isinstance(e, mev.PowerGifted) for e in game.events)
    cards = [e for e in game.events if isinstance(e, aev.HouseCardChosen)]
    assert cards and bool([e for e in cards if e.house == "arryn" and e.card]) == arryn_fights
    assert game.same_as_refold()
    readers = [*s.houses_in_play, None]
    for e in game.events:
        for reader in readers:
            _json.encode(redact_event(e, reader))
        describe(redact_event(e, None))
    for reader in readers:
        _json.encode(view_for(s, reader))
    report = audit(game.envelopes(), seed=game.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(game.events) and report.batches == game.batches
