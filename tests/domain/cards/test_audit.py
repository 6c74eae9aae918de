"""The offline audit re-derives a whole exported joust (domain/core/rederive.py) and catches a change."""

from __future__ import annotations

import random

import msgspec

from domain.cards import commands as cmd
from domain.cards.game import GAME
from domain.core.envelope import seal
from domain.core.hashing import GENESIS

from .play import Table, envelopes, play_random, to_plot_step


def test_a_complete_game_with_timeouts_audits_clean_with_the_seed():
    t = Table(seed="audit")
    play_random(t, random.Random(7), timeouts=0.1)
    envs = envelopes(t)
    report = GAME.audit(envs, "audit")
    assert report.problems == [] and report.rules_ok and report.chain_ok and report.seed_ok and report.shuffles_ok
    assert report.game_over and report.rederived_through == len(envs)
    assert report.commitments_ok and report.reveals_opened > 4  # both setups and every round's plots


def test_a_reveal_that_does_not_open_its_commitment_is_caught():
    t = Table(seed="audit")
    play_random(t, random.Random(2))
    out, prev = [], GENESIS
    for env in envelopes(t):
        body = msgspec.json.decode(env.event)
        if body["type"] == "cards_plots_revealed" and out and "salts" in body:
            body["salts"]["seat1"] = "00" * 32
        new = seal(env.seq, env.ts, env.schema, prev, msgspec.json.encode(body))
        out.append(new)
        prev = new.hash
    report = GAME.audit(out, "audit")
    assert report.commitments_ok is False and report.commitment_problems and not report.rules_ok


def test_without_the_seed_the_audit_says_what_it_could_not_check():
    t = Table(seed="audit")
    play_random(t, random.Random(3))
    report = GAME.audit(envelopes(t), None)
    assert report.chain_ok and report.seed_ok is None and report.unverified


def test_a_changed_event_resealed_in_a_valid_chain_is_a_divergence():
    t = Table(seed="audit")
    play_random(t, random.Random(5))
    envs = envelopes(t)
    out, prev = [], GENESIS
    changed = False
    for env in envs:
        body = msgspec.json.decode(env.event)
        if not changed and body["type"] == "cards_dominance_determined" and body["winner"] is not None:
            body["winner"] = "seat1" if body["winner"] == "seat2" else "seat2"
            changed = True
        new = seal(env.seq, env.ts, env.schema, prev, msgspec.json.encode(body))
        out.append(new)
        prev = new.hash
    assert changed
    report = GAME.audit(out, "audit")
    assert report.chain_ok and not report.rules_ok and report.divergence is not None


def test_a_wrong_seed_is_caught():
    t = Table(seed="audit")
    play_random(t, random.Random(1))
    report = GAME.audit(envelopes(t), "not the seed")
    assert report.seed_ok is False


def test_a_conceded_game_audits_clean():
    t = Table(seed="audit")
    to_plot_step(t)
    t.seat("seat2", cmd.Concede())
    report = GAME.audit(envelopes(t), "audit")
    assert report.problems == [] and report.rules_ok and report.game_over
