"""The offline audit re-derives every event from the players' commands (domain/board/audit.py,
domain/board/replay.py, domain/core/rederive.py): a forged event is caught even when every hash
was recomputed, at its exact event number, with the event the rules produce and the one found.

One complete 3-player game by random legal choices (tests/support/full_games.py, timeouts
included) is sealed as the service seals it, then edited as a forger would (tests/support/forgery.py).
"""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from domain.board.audit import audit
from tests.support.forgery import (
    as_json,
    change_revealed_order,
    change_winner,
    envelopes,
    forged,
    index_of,
    rehash,
    set_power_gain,
    swap_combat_result,
)
from tests.support.full_games import FullGame


@pytest.fixture(scope="module")
def game():
    """A complete game where deadlines pass now and then (one step in 12), so defaults are played."""
    g = FullGame(3, "audit-rederive")
    rng = random.Random(1)
    while not (g.state.phase == "ended" and g.state.step == "game_over"):
        g.step(rng, timeout_rate=1 / 12)
    return g, as_json(g.envelopes())


def _reject(events, seed, at: int, *fragments: str):
    report = audit(envelopes(events), seed)
    assert report.chain_ok, report.problems  # the hashes were recomputed: only the rules can tell
    assert not report.rules_ok and report.divergence is not None, report
    assert report.divergence.startswith(f"event {at}"), report.divergence
    for f in fragments:
        assert f in report.divergence, report.divergence
    return report


def test_an_honest_export_rederives_from_the_first_to_the_last_event(game):
    g, events = game
    report = audit(envelopes(events), g.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(events) and report.batches == g.batches
    assert report.divergence is None and report.unverified == []
    # the audit's state is the fold of the export, byte for byte the game's (dict orders included)
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(g.state)
    kinds = {e["event"]["type"] for e in events}
    # what was re-derived includes every kind of system event the issue names
    assert {"orders_revealed", "combat_decided", "bids_revealed", "decision_timed_out", "game_ended"} <= kinds


def test_without_the_seed_everything_but_the_draws_is_rederived(game):
    g, events = game
    report = audit(envelopes(events), None)
    assert report.rules_ok and report.rederived_through == len(events), report.problems
    assert report.seed_ok is None and report.shuffles_ok is None
    assert any("seed is not revealed" in u for u in report.unverified)


def test_BG_VIC_03_a_changed_winner_is_caught(game):
    g, events = game
    truth = {}
    bad = forged(events, lambda ev: truth.setdefault("winner", change_winner(ev)))
    at = index_of(bad, "game_ended") + 1
    _reject(bad, g.ctx.seed, at, f'expected {{"type":"game_ended","winner":"{truth["winner"]}"}}')


def test_BG_CP_01_a_power_gain_set_to_15_is_caught(game):
    """A Consolidate Power's gain (1 + crowns) recorded as 15."""
    g, events = game
    bad = forged(events, lambda ev: set_power_gain(ev, 15, reason="BG-CP-01"))
    at = index_of(bad, "power_gained", lambda e: e["reason"] == "BG-CP-01") + 1
    _reject(bad, g.ctx.seed, at, '"type":"power_gained"', 'found {"amount":15')


def test_BG_COMBAT_13_a_swapped_combat_result_is_caught(game):
    """The higher final strength wins: the recorded winner and loser swapped."""
    g, events = game
    bad = forged(events, swap_combat_result)
    i = index_of(bad, "combat_decided")
    true = events[i]["event"]
    _reject(bad, g.ctx.seed, i + 1, f'"winner":"{true["winner"]}"', f'found {{"loser":"{true["winner"]}"')


def test_BG_PLAN_06_a_changed_revealed_order_is_caught(game):
    g, events = game
    bad = forged(events, change_revealed_order)
    at = index_of(bad, "orders_revealed") + 1
    _reject(bad, g.ctx.seed, at, '"type":"orders_revealed"')


def test_a_changed_timeout_default_is_caught(game):
    """A deadline's documented default (domain/board/timeouts.py) is re-derived like any event."""
    g, events = game
    i = index_of(events, "decision_timed_out")

    def edit(ev):
        ev[i]["event"]["houses"] = ev[i]["event"]["houses"][:-1] or ["nobody"]

    _reject(forged(events, edit), g.ctx.seed, i + 1, '"type":"decision_timed_out"')


def test_an_early_timeout_is_caught(game):
    """A timeout batch sealed before its deadline: the rules refuse ApplyTimeout at that time."""
    g, events = game
    i = index_of(events, "decision_timed_out")
    ts = events[i]["ts"]
    start = min(j for j in range(i, -1, -1) if events[j]["ts"] == ts)

    def edit(ev):
        for e in ev[start:]:
            if e["ts"] != ts:
                break
            e["ts"] = ev[start - 1]["ts"]

    report = _reject(forged(events, edit), g.ctx.seed, start + 1)
    assert "deadline has not passed" in report.divergence


def test_a_dropped_event_is_caught_even_renumbered(game):
    g, events = game
    i = index_of(events, "power_gained")

    def edit(ev):
        del ev[i]
        for n, e in enumerate(ev, 1):
            e["seq"] = n

    _reject(forged(events, edit), g.ctx.seed, i + 1, 'expected {"amount"')


def test_an_invented_event_is_caught(game):
    g, events = game
    i = index_of(events, "power_gained")

    def edit(ev):
        ev.insert(i, json.loads(json.dumps(ev[i])))
        for n, e in enumerate(ev, 1):
            e["seq"] = n

    _reject(forged(events, edit), g.ctx.seed, i + 2)


def test_a_redacted_export_is_rederived_up_to_its_first_redacted_event(game):
    """Honest but redacted: no violation; the report says from where nothing could be re-derived."""
    g, events = game
    started = index_of(events, "game_started")
    hidden = json.loads(json.dumps(events))
    hidden[started]["event"]["wildling_deck"] = None  # as the redaction hides it; its hash is kept
    report = audit(envelopes(hidden), None, redacted=frozenset({started + 1}))
    assert report.chain_ok and report.rules_ok and report.divergence is None, report.problems
    assert report.rederived_through == started
    assert any(f"event {started + 1} is redacted" in u for u in report.unverified), report.unverified


def test_an_unknown_field_is_reported_not_fatal(game):
    g, events = game
    bad = forged(events, lambda ev: ev[1]["event"].update(extra="?"))
    report = audit(envelopes(bad), g.ctx.seed)
    assert any("event 2 carries a field this verifier does not know" in u for u in report.unverified)


def test_random_edits_give_a_verdict_never_an_exception(game):
    """Fields set to values of the wrong type or out of range, events removed, fields dropped,
    all re-hashed: the audit always answers (a divergence or an unreadable event), never raises."""
    g, events = game
    rng = random.Random(7)
    values = [None, -1, 0, 10**9, "x", "", [], {}, {"x": 1}, ["stark"], True, 1.5]
    rejected = 0
    for _ in range(40):
        bad = json.loads(json.dumps(events))
        i = rng.randrange(1, len(bad))
        body = bad[i]["event"]
        keys = [k for k in body if k != "type"]
        action = rng.random()
        if action < 0.1 or not keys:
            del bad[i]
        elif action < 0.2:
            del body[rng.choice(keys)]
        else:
            body[rng.choice(keys)] = rng.choice(values)
        report = audit(envelopes(rehash(bad)), g.ctx.seed)
        assert isinstance(report.problems, list)
        rejected += not report.rules_ok or not report.chain_ok
    assert rejected >= 34, rejected  # a few edits change nothing the rules decide (e.g. a value set to itself)


def test_BG_WCARD_04_a_changed_reshuffle_is_caught(game):
    """Winter Is Coming: the deck's new order is the seed's; swapping two cards of it is a divergence."""
    g, events = game
    i = index_of(events, "westeros_deck_shuffled", lambda e: len(set(e["cards"])) > 1)

    def edit(ev):
        cards = ev[i]["event"]["cards"]
        j = next(k for k in range(1, len(cards)) if cards[k] != cards[0])
        cards[0], cards[j] = cards[j], cards[0]

    report = _reject(forged(events, edit), g.ctx.seed, i + 1, '"type":"westeros_deck_shuffled"')
    assert report.shuffles_ok is False
