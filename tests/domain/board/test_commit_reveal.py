"""Commit–reveal for every sealed input (domain/core/commitment.py, domain/board/sealed_inputs.py).

Sealed orders (BG-PLAN-03, revealed by BG-PLAN-06), sealed bids (BG-COK-03, BG-WILD-01) and House
cards chosen face down (BG-COMBAT-09/10): at submission the commitment is public to every seat and
spectator while the content and its salt stay hidden; the reveal publishes each content with its
salt, which opens the commitment; the salt is the seed's; and the offline audit catches a forged
commitment or reveal with its event number, also in a redacted export and with the seed secret.

One complete 3-player game by random legal choices (tests/support/full_games.py, timeouts included)
is sealed as the service seals it, then edited as a forger would (tests/support/forgery.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.audit import audit
from domain.board.redaction import redact_event
from domain.board.sealed_inputs import RevealCheck, check_reveals
from domain.core.commitment import commit, draw_salt, opens, salt_purpose
from domain.core.context import parse_rfc3339
from domain.core.rederive import Recorded
from domain.core.rng import derive_rng
from tests.support.action_positions import NOW, acmd
from tests.support.combat_helpers import fight, north
from tests.support.forgery import as_json, envelopes, forged, index_of, rehash, swap_commitments
from tests.support.full_games import FullGame

_dec = msgspec.json.Decoder(ev.BoardEvent)

SUBMISSIONS = {"orders_submitted": "orders", "bid_submitted": "amount", "house_card_chosen": "card"}
REVEALS = {"orders_revealed": "orders", "bids_revealed": "bids", "house_cards_revealed": "cards"}
KIND = {"orders_submitted": "orders", "bid_submitted": "bid", "house_card_chosen": "house_card"}


@pytest.fixture(scope="module")
def game():
    """A complete game where deadlines pass now and then (one step in 12), so defaults are sealed too."""
    g = FullGame(3, "commit-reveal")
    rng = random.Random(1)
    while not (g.state.phase == "ended" and g.state.step == "game_over"):
        g.step(rng, timeout_rate=1 / 12)
    events = as_json(g.envelopes())
    types = {e["event"]["type"] for e in events}
    assert set(SUBMISSIONS) | set(REVEALS) <= types, "the game must exercise every sealed input"
    return g, events


def _first(events: list[dict[str, Any]], type_: str, pred=lambda e: True) -> int:
    return index_of(events, type_, pred)


def _decoded(events: list[dict[str, Any]], i: int) -> Any:
    return _dec.decode(json.dumps(events[i]["event"]).encode())


@pytest.mark.parametrize("type_", sorted(SUBMISSIONS))
def test_BG_PLAN_03_the_commitment_is_public_at_submission_and_the_content_hidden(game, type_):
    """Orders (BG-PLAN-03), a bid (BG-COK-03) and a House card (BG-COMBAT-09): every other seat and
    a spectator see the commitment and neither the content nor the salt; the owner sees all three."""
    g, events = game
    i = _first(events, type_, lambda e: e[SUBMISSIONS[type_]] is not None)
    event = _decoded(events, i)
    assert len(event.commitment) == 64 and event.salt is not None
    owner = event.house
    assert redact_event(event, owner) == event
    for reader in [h for h in g.state.houses_in_play if h != owner] + [None]:
        seen = redact_event(event, reader)
        assert seen.commitment == event.commitment, reader
        assert getattr(seen, SUBMISSIONS[type_]) is None and seen.salt is None, (reader, seen)
    # once the game is over everything is public
    assert redact_event(event, None, game_over=True) == event


def test_BG_PLAN_06_every_reveal_opens_the_commitments_published_before_it(game):
    """Each content a reveal publishes (orders, bids, House cards) with its salt hashes to the
    commitment of that house's latest submission of that kind; counted per kind."""
    _, events = game
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    opened = dict.fromkeys(REVEALS, 0)
    for e in events:
        body = e["event"]
        t = body["type"]
        if t in SUBMISSIONS:
            latest[(KIND[t], body["house"])] = body
        elif t in REVEALS:
            kind = KIND[
                {"orders_revealed": "orders_submitted", "bids_revealed": "bid_submitted"}.get(t, "house_card_chosen")
            ]
            for house, content in body[REVEALS[t]].items():
                sub = latest[(kind, house)]
                assert body["salts"][house] == sub["salt"]
                assert opens(sub["commitment"], kind, house, body["salts"][house], content), (e["seq"], house)
                opened[t] += 1
    assert all(n > 0 for n in opened.values()), opened
    recorded = [
        Recorded(seq=e["seq"], ts=parse_rfc3339(e["ts"]), event=_decoded(events, k)) for k, e in enumerate(events)
    ]
    assert check_reveals(recorded) == RevealCheck(committed=True, problems=[], opened=sum(opened.values()))
    report = audit(envelopes(events), None)
    assert report.commitments_ok is True and report.reveals_opened == sum(opened.values())
    assert report.commitment_problems == [] and report.rules_ok, report.problems


def test_every_salt_is_the_seeds_and_every_commitment_its_contents(game):
    """The salt of each submission is drawn from the seed's stream ``salt/<seq>/<house>`` (so the
    verifier re-derives it once the seed is out, and nobody chose it); the commitment is the hash
    of its own content and salt."""
    g, events = game
    n = 0
    for e in events:
        body = e["event"]
        if body["type"] not in SUBMISSIONS:
            continue
        house = body["house"]
        rng = derive_rng(g.ctx.seed, f"{g.ctx.game_id}/{salt_purpose(e['seq'], house)}")
        assert body["salt"] == draw_salt(rng)
        assert body["commitment"] == commit(KIND[body["type"]], house, body["salt"], body[SUBMISSIONS[body["type"]]])
        n += 1
    assert n > 10


def test_a_commitment_binds_content_house_and_kind():
    salt = "ab" * 32
    c = commit("bid", "stark", salt, 3)
    assert opens(c, "bid", "stark", salt, 3)
    assert not opens(c, "bid", "stark", salt, 4)
    assert not opens(c, "bid", "lannister", salt, 3)
    assert not opens(c, "house_card", "stark", salt, 3)
    assert not opens(c, "bid", "stark", "cd" * 32, 3)
    # dict order does not matter (canonical: sorted keys)
    a = commit("orders", "stark", salt, {"winterfell": "march_0", "white_harbor": "raid_0"})
    assert a == commit("orders", "stark", salt, {"white_harbor": "raid_0", "winterfell": "march_0"})


def _problems(events, seed):
    report = audit(envelopes(events), seed)
    assert report.chain_ok, report.problems  # every hash recomputed: only the commitments can tell
    return report


@pytest.mark.parametrize("seed_known", [True, False])
def test_BG_PLAN_06_swapped_order_commitments_are_caught_with_their_event_numbers(game, seed_known):
    g, events = game
    where: dict[str, tuple[int, int]] = {}
    bad = forged(events, lambda ev: where.setdefault("ij", swap_commitments(ev, "orders_submitted")))
    i, j = where["ij"]
    rev = _first(bad, "orders_revealed") + 1
    report = _problems(bad, g.ctx.seed if seed_known else None)
    house = bad[i]["event"]["house"]
    assert any(
        p.startswith(f"event {i + 1}: {house}'s sealed orders does not open its own commitment")
        for p in report.problems
    ), report.problems
    assert any(
        p.startswith(f"event {rev}: {house}'s revealed orders ")
        and p.endswith(f"does not open the commitment of event {i + 1}")
        for p in report.problems
    ), report.problems
    assert not report.rules_ok  # the re-derivation disagrees too, at the first swapped submission
    assert report.divergence is not None and report.divergence.startswith(f"event {i + 1}"), report.divergence


def test_BG_COK_06_a_changed_revealed_bid_is_caught(game):
    """The bid in ``bids_revealed`` changed (and its Power spent left alone): its salt no longer
    opens the commitment published with the sealed bid."""
    g, events = game
    r = _first(events, "bids_revealed")

    def edit(ev):
        bids = ev[r]["event"]["bids"]
        house = sorted(bids)[0]
        bids[house] += 1

    bad = forged(events, edit)
    house = sorted(events[r]["event"]["bids"])[0]
    sub = max(
        k for k in range(r) if events[k]["event"]["type"] == "bid_submitted" and events[k]["event"]["house"] == house
    )
    report = _problems(bad, g.ctx.seed)
    assert (
        f"event {r + 1}: {house}'s revealed bid {events[r]['event']['bids'][house] + 1} does not open the commitment of event {sub + 1}"
        in report.problems
    ), report.problems


def test_BG_COMBAT_09_a_dropped_house_card_reveal_is_caught(game):
    """The salt of one House card removed from ``house_cards_revealed``: the reveal no longer opens
    the commitment published when the card was chosen face down."""
    g, events = game
    r = _first(events, "house_cards_revealed")
    house = sorted(events[r]["event"]["salts"])[0]
    bad = forged(events, lambda ev: ev[r]["event"]["salts"].pop(house))
    sub = max(
        k
        for k in range(r)
        if events[k]["event"]["type"] == "house_card_chosen" and events[k]["event"]["house"] == house
    )
    report = _problems(bad, g.ctx.seed)
    expected = (
        f"event {r + 1}: the reveal of {house}'s house_card carries no salt to open the commitment of event {sub + 1}"
    )
    assert expected in report.problems, report.problems


def test_a_sealed_input_without_commitment_is_caught(game):
    """A submission whose commitment was blanked (as if it had never been published)."""
    g, events = game
    i = _first(events, "bid_submitted")
    bad = forged(events, lambda ev: ev[i]["event"].update(commitment=""))
    report = _problems(bad, g.ctx.seed)
    assert report.commitments_ok is False
    house = events[i]["event"]["house"]
    assert f"event {i + 1}: {house}'s sealed bid carries no commitment" in report.problems, report.problems


def _redacted_for(events: list[dict[str, Any]], reader: str) -> tuple[list[dict[str, Any]], frozenset[int]]:
    """The export as ``reader`` sees it while the game runs: hidden fields removed, hashes kept."""
    out, hidden = json.loads(json.dumps(events)), set()
    for e in out:
        event = _dec.decode(json.dumps(e["event"]).encode())
        seen = redact_event(event, reader)
        if seen != event:
            e["event"] = json.loads(msgspec.json.encode(seen))
            hidden.add(e["seq"])
    return out, frozenset(hidden)


def test_a_redacted_export_checks_every_reveal_against_the_public_commitments(game):
    """A player's export hides the others' content and salts, but not their commitments: every
    reveal is still checked, and a forged reveal caught."""
    g, events = game
    reader = g.state.houses_in_play[0]
    hidden, redacted = _redacted_for(events, reader)
    other = next(h for h in g.state.houses_in_play if h != reader)
    i = _first(hidden, "orders_submitted", lambda e: e["house"] == other)
    assert hidden[i]["event"]["orders"] is None and hidden[i]["event"]["salt"] is None
    assert hidden[i]["event"]["commitment"] == events[i]["event"]["commitment"]
    report = audit(envelopes(hidden), None, redacted=redacted)
    assert report.chain_ok and not any("commit" in p or "salt" in p for p in report.problems), report.problems

    r = _first(hidden, "orders_revealed")
    salts = hidden[r]["event"]["salts"]
    salts[other] = "0" * 64  # a forged salt; the reveal event is public so its hash is recomputed
    bad = rehash(hidden)
    report = audit(envelopes(bad), None, redacted=redacted)
    sub = max(
        k for k in range(r) if hidden[k]["event"]["type"] == "orders_submitted" and hidden[k]["event"]["house"] == other
    )
    assert any(
        p.startswith(f"event {r + 1}: {other}'s revealed orders ") and p.endswith(f"of event {sub + 1}")
        for p in report.problems
    ), report.problems


def test_a_game_stored_before_commit_reveal_still_decodes_and_rederives(game):
    """Events written before commit–reveal (no ``salt``, ``commitment``, ``salts``, nor
    ``sealed_commitments``) decode with the defaults, re-derive without commitments, and the report
    says the sealed inputs carry none."""
    g, events = game
    old_fields = {"salt", "commitment", "salts", "sealed_commitments"}

    def strip(ev):
        for e in ev:
            for f in old_fields & set(e["event"]):
                del e["event"][f]

    old = forged(events, strip)
    assert all(not (old_fields & set(e["event"])) for e in old)
    report = audit(envelopes(old), g.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(old)
    assert "the game was created before commit–reveal: its sealed inputs carry no commitments" in report.unverified
    assert report.commitments_ok is None and report.reveals_opened == 0


def _recorded(events: list[Any]) -> list[Recorded]:
    return [Recorded(seq=n, ts=NOW, event=e) for n, e in enumerate(events, 1)]


def test_BG_COMBAT_09_a_card_chosen_again_after_tyrion_is_committed_anew_and_its_reveal_checked():
    """Tyrion Lannister cancels Eddard Stark: Stark chooses Catelyn face down with a fresh salt and
    commitment; the second reveal opens Catelyn's commitment (and Lannister's first one again), and
    a second reveal that replays the cancelled card's salt is caught."""
    sc = north()
    fight(sc, "eddard_stark", "tyrion_lannister")
    sc.run("lannister", acmd.ChooseAbility(choice="cancel"))
    sc.run("stark", acmd.ChooseHouseCard(card="catelyn_stark"))
    chosen = [(n, e) for n, e in enumerate(sc.events, 1) if isinstance(e, aev.HouseCardChosen) and e.house == "stark"]
    assert [e.card for _, e in chosen][-2:] == ["eddard_stark", "catelyn_stark"]
    (_, first), (_, again) = chosen[-2:]
    assert first.salt != again.salt and first.commitment != again.commitment
    reveals = [(n, e) for n, e in enumerate(sc.events, 1) if isinstance(e, aev.HouseCardsRevealed)]
    n_last, last = reveals[-1]
    assert last.cards["stark"] == "catelyn_stark" and last.salts["stark"] == again.salt
    assert opens(again.commitment, "house_card", "stark", last.salts["stark"], "catelyn_stark")
    honest = check_reveals(_recorded(sc.events))
    assert honest.committed and honest.problems == [] and honest.opened >= 4

    stale = msgspec.structs.replace(
        last, cards={**last.cards, "stark": "eddard_stark"}, salts={**last.salts, "stark": first.salt}
    )
    forged_events = [stale if n == n_last else e for n, e in enumerate(sc.events, 1)]
    n_again = chosen[-1][0]
    assert check_reveals(_recorded(forged_events)).problems == [
        f'event {n_last}: stark\'s revealed house_card "eddard_stark" does not open the commitment of event {n_again}'
    ]
