"""The offline audit (domain/auction/audit.py): an honest game passes; tampering is caught."""

from __future__ import annotations

import msgspec

from domain.auction.game import GAME
from domain.core.envelope import seal
from domain.core.hashing import GENESIS

from .table import Table, ev


def tied_game() -> Table:
    t = Table(3, rounds=2).start()
    t.play_round(4, 4, 1)
    t.play_round(0, 0, 0)
    return t


def test_an_honest_game_passes():
    t = tied_game()
    report = GAME.audit(t.envelopes(), "s")
    assert report.problems == []
    assert (report.chain_ok, report.seed_ok, report.shuffles_ok, report.rules_ok) == (True, True, True, True)
    assert report.version == len(t.events)


def test_without_the_seed_the_draws_are_not_judged():
    report = GAME.audit(tied_game().envelopes(), None)
    assert report.seed_ok is None and report.shuffles_ok is None and report.chain_ok and report.rules_ok


def test_a_wrong_seed_fails():
    report = GAME.audit(tied_game().envelopes(), "not-the-seed")
    assert report.seed_ok is False


def _tamper_first_tie(events: list) -> list:
    out = list(events)
    for i, e in enumerate(out):
        if isinstance(e, ev.AuctionBidsRevealed) and e.tie_break is not None:
            draw = 1 - e.tie_break.draw
            tie = msgspec.structs.replace(e.tie_break, draw=draw)
            out[i] = msgspec.structs.replace(e, tie_break=tie, winner=tie.candidates[draw])
            return out
    raise AssertionError("no tie to tamper with")


def test_a_tampered_tie_break_resealed_in_a_valid_chain_fails_the_draw_check():
    t = tied_game()
    report = GAME.audit(t.envelopes(_tamper_first_tie(t.events)), "s")
    assert report.chain_ok and report.seed_ok
    assert report.shuffles_ok is False
    assert any("tie-break draw of round 1" in p for p in report.problems)


def test_a_tampered_stored_event_breaks_the_chain():
    t = tied_game()
    honest = t.envelopes()
    forged = t.envelopes(_tamper_first_tie(t.events))
    # the forged bodies under the honest hashes: an edit of the stored events in place
    edited = [msgspec.structs.replace(h, event=f.event) for h, f in zip(honest, forged)]
    assert edited != honest
    report = GAME.audit(edited, "s")
    assert report.chain_ok is False
    assert any("altered" in p for p in report.problems)


def test_a_bid_above_the_coins_fails_the_rules():
    t = Table(2, rounds=2).start()
    t.play_round(8, 0)
    t.play_round(1, 0)
    events = [
        msgspec.structs.replace(e, amount=5) if isinstance(e, ev.AuctionBidSealed) and e.amount == 1 else e
        for e in t.events
    ]
    report = GAME.audit(t.envelopes(events), "s")
    assert report.chain_ok and report.rules_ok is False


def test_a_schema_1_export_is_upcast_and_passes():
    t = tied_game()
    envs = []
    prev = GENESIS
    for seq, e in enumerate(t.events, start=1):
        body = msgspec.to_builtins(e)
        if body["type"] == "auction_bid_sealed":
            body["value"] = body.pop("amount")
        env = seal(seq, "2026-01-01T12:00:00.000Z", 1, prev, msgspec.json.encode(body))
        envs.append(env)
        prev = env.hash
    report = GAME.audit(envs, "s")
    assert report.problems == [] and report.rules_ok and report.shuffles_ok
