"""Undo with the opponents' consent through the real API (issue 10, item 5; docs/judge.md).

A seat asks (``POST /undo-requests``) to take back its last command; every other seat gets an
``undo_consent`` decision. All consent: the game rolls back as the judge's undo does (one
``judge_rolled_back`` with ``author: "consent"``). One refusal, or the deadline (the worker's
timeout, refused by default): nothing is undone. Every export verifies with ``citadel-verify``.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support.game_client import Game, create, decisions, default_like_orders, join_all, start, wait_until
from tests.support.verify_cli import public_key_file, run_verify


def orders(api: httpx.Client, g: Game, token: str) -> int:
    """Submit default-like orders for ``token``'s house; the version after them."""
    mine = next(d for d in decisions(api, g, token)["decisions"] if d["options"]["kind"] == "assign_orders")
    r = api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "assign_orders", "orders": default_like_orders(mine["options"])},
        headers=g.auth(token),
    )
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def ask(api: httpx.Client, g: Game, token: str, reason: str = "misclicked") -> httpx.Response:
    return api.post(f"/v1/games/{g.id}/undo-requests", json={"reason": reason}, headers=g.auth(token))


def answer(api: httpx.Client, g: Game, token: str, consent: bool) -> httpx.Response:
    body = {"type": "answer_undo", "consent": consent}
    return api.post(f"/v1/games/{g.id}/commands", json=body, headers=g.auth(token))


def consents_pending(api: httpx.Client, g: Game) -> set[str]:
    return {w["seat_id"] for w in decisions(api, g, g.organizer)["waiting_for"] if w["kind"] == "undo_consent"}


def events(api: httpx.Client, g: Game) -> list[dict]:
    r = api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=g.auth(g.judge))
    return [json.loads(line) for line in r.text.splitlines()]


def verifies(api: httpx.Client, g: Game, tmp_path) -> None:
    """The judge's (complete) export re-derives clean with ``citadel-verify``."""
    doc = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.judge)).json()
    path = tmp_path / f"{g.id}.json"
    path.write_text(json.dumps(doc))
    out = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    n = len(doc["events"])
    assert out.returncode == 0 and f"ok ({n} of {n} events re-derived" in out.stdout, out.stdout


@pytest.fixture()
def game(api):
    g = create(api, 3)
    join_all(api, g, 3)
    start(api, g)
    return g


def seat_of(g: Game, token: str) -> str:
    return next(s for s, t in g.seats.items() if t == token)


def test_all_consent_the_last_command_is_undone_as_the_judge_would(api, game, tmp_path):
    g = game
    asker, b, c = g.houses.values()
    before = orders(api, g, asker) - 1  # the version just before the asker's orders
    r = ask(api, g, asker)
    assert r.status_code == 200, r.text
    (requested,) = r.json()["events"]
    assert requested["event"]["type"] == "undo_requested" and requested["event"]["version"] == before
    assert requested["event"]["deadline"] is not None
    # every other seat now decides; the asker does not
    assert consents_pending(api, g) == {seat_of(g, b), seat_of(g, c)}
    (d,) = [d for d in decisions(api, g, b)["decisions"] if d["options"]["kind"] == "undo_consent"]
    assert d["commands"] == ["answer_undo"] and d["options"]["version"] == before and "refused" in d["default"]
    # refusals that change nothing
    version = decisions(api, g, g.organizer)["version"]
    assert answer(api, g, asker, True).json()["code"] == "own_undo_request"
    again = ask(api, g, asker)
    assert again.status_code == 409 and again.json()["code"] == "undo_pending"
    r = api.post(f"/v1/games/{g.id}/undo-requests", json={"reason": "r"}, headers=g.auth(g.judge))
    assert r.status_code == 403
    assert api.post(f"/v1/games/{g.id}/undo-requests", json={"reason": ""}, headers=g.auth(b)).status_code == 422
    assert decisions(api, g, g.organizer)["version"] == version
    # the first consent waits for the second
    r = answer(api, g, b, True)
    assert r.status_code == 200, r.text
    assert [e["event"]["type"] for e in r.json()["events"]] == ["undo_answered"]
    assert answer(api, g, b, True).json()["code"] == "already_answered"
    assert seat_of(g, asker) not in {w["seat_id"] for w in decisions(api, g, g.organizer)["waiting_for"]}
    # the last consent rolls back: the judge's compensating event, by consent
    r = answer(api, g, c, True)
    assert r.status_code == 200, r.text
    answered, rolled = (e["event"] for e in r.json()["events"])
    assert answered["type"] == "undo_answered" and answered["consent"] is True
    assert rolled["type"] == "judge_rolled_back" and rolled["author"] == "consent"
    assert rolled["version"] == before and rolled["undone_seat"] == seat_of(g, asker)
    waiting = {w["seat_id"]: w["kind"] for w in decisions(api, g, g.organizer)["waiting_for"]}
    assert waiting == {s: "assign_orders" for s in g.seats}  # the asker's orders are undone; no request left
    # the log is projected (no min_version): it may lag the rollback a moment
    wait_until(
        lambda: any(
            "With every opponent's consent" in line["text"]
            for line in api.get(f"/v1/games/{g.id}/log", headers=g.auth(g.organizer)).json()["lines"]
        )
    )
    verifies(api, g, tmp_path)


def test_one_refusal_ends_the_request_and_nothing_is_undone(api, game, tmp_path):
    g = game
    asker, b, c = g.houses.values()
    orders(api, g, asker)
    assert ask(api, g, b).json()["code"] == "nothing_to_undo"  # b sent no command since the start
    assert ask(api, g, asker).status_code == 200
    assert answer(api, g, c, True).status_code == 200
    r = answer(api, g, b, False)
    assert r.status_code == 200, r.text
    assert [e["event"]["type"] for e in r.json()["events"]] == ["undo_answered"]
    assert consents_pending(api, g) == set()
    assert seat_of(g, asker) not in {w["seat_id"] for w in decisions(api, g, g.organizer)["waiting_for"]}
    assert answer(api, g, c, True).json()["code"] == "no_undo_request"
    assert "judge_rolled_back" not in {e["event"]["type"] for e in events(api, g)}
    # a new request may follow, and the game goes on to the reveal
    assert ask(api, g, asker).status_code == 200
    orders(api, g, b)
    verifies(api, g, tmp_path)


def test_an_unanswered_request_is_refused_at_its_deadline_by_the_worker(api, tmp_path):
    g2 = create(api, 3, timeout_s=2)  # the request's deadline is the game's decision timeout
    join_all(api, g2, 3)
    start(api, g2)
    a2, b2, _ = g2.houses.values()
    orders(api, g2, a2)
    assert ask(api, g2, a2).status_code == 200
    assert answer(api, g2, b2, True).status_code == 200
    wait_until(lambda: "undo_expired" in {e["event"]["type"] for e in events(api, g2)}, timeout=60)
    kinds = [e["event"]["type"] for e in events(api, g2)]
    assert "judge_rolled_back" not in kinds
    assert consents_pending(api, g2) == set()
    verifies(api, g2, tmp_path)
