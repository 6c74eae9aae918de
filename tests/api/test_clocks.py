"""Time banks and the judge's pause through the real API, worker and projector (docs/clocks.md).

* a seat that never answers loses its bank and gets the documented defaults (only that seat: the
  others answered in time and keep theirs), and from then on its decisions default at once;
* a pause holds a deadline past its time (no timeout fires, no bank runs, decisions are refused);
  the resume moves the deadline by the paused time, and the worker fires it then;
* each pause/resume is an event with its author and reason, in the log and the export, and a
  referee's export of such a game re-derives clean with ``citadel-verify``.
Banks and deadlines are a few seconds long, so the workers' sweep (1 s) really fires them.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime

import msgspec
import pytest

from clients.bot import fallback_command
from clients.citadel_client import ApiProblem, CitadelClient
from clients.citadel_client import models as m
from domain.board.audit import audit
from tests.support.export_checks import export_decoder
from tests.support.game_client import create, decisions, default_like_orders, join_all, start, wait_until
from tests.support.verify_cli import public_key_file, run_verify


def _events(api, g) -> list[dict]:
    text = api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=g.auth(g.organizer)).text
    return [json.loads(line) for line in text.splitlines()]


def _types(api, g) -> list[str]:
    return [e["event"]["type"] for e in _events(api, g)]


def _at(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def _submit(api, g, house: str) -> None:
    token = g.houses[house]
    orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=g.auth(token))
    assert r.status_code == 200, r.text


def _pause(api, g, reason: str, token: str | None = None):
    return api.post(f"/v1/games/{g.id}/pause", json={"reason": reason}, headers=g.auth(token or g.organizer))


def _resume(api, g, reason: str):
    return api.post(f"/v1/games/{g.id}/resume", json={"reason": reason}, headers=g.auth(g.organizer))


def test_a_seat_that_never_answers_loses_its_bank_and_gets_the_defaults(api, tmp_path):
    g = create(api, players=3, timeout_s=600, time_bank_s=4, organizer_is_referee=True)
    join_all(api, g, 3)
    started = start(api, g)
    view = api.get(f"/v1/games/{g.id}", params={"min_version": started["version"]}).json()
    order = view["tracks"]["iron_throne"]
    late = order[-1]
    # every bank runs from the start; each seat's decision shows its own deadline: the bank's end
    assert {c["house"]: c["bank_ms"] for c in view["clocks"]} == {h: 4000 for h in order}
    assert all(c["running_since"] and c["runs_out_at"] for c in view["clocks"])
    mine = decisions(api, g, g.houses[late])["decisions"][0]
    assert _at(mine["deadline"]) < _at(view["deadline"])  # 4 s bank, 600 s step deadline
    for house in order[:-1]:
        _submit(api, g, house)
    # ``late`` never answers: its bank runs out, its orders are the defaults, the orders are revealed
    wait_until(lambda: "orders_revealed" in _types(api, g), timeout=60)
    events = [e["event"] for e in _events(api, g)]
    timed_out = [e for e in events if e["type"] == "decision_timed_out"]
    assert timed_out[0] == {"type": "decision_timed_out", "step": "assign_orders", "houses": [late], "left": False}
    defaults = [e for e in events if e["type"] == "orders_submitted" and e["by_default"]]
    assert [e["house"] for e in defaults] == [late]
    charged = {e["house"]: e for e in events if e["type"] == "clock_charged"}
    assert charged[late]["out_of_time"] and charged[late]["bank_ms"] == 0
    assert charged[late]["used_ms"] == 4000  # charged to its bank's end, however late the worker ran
    assert all(not charged[h]["out_of_time"] and charged[h]["bank_ms"] > 0 for h in order[:-1])
    # the projection shows it; the log says it in words
    wait_until(lambda: any(c["out_of_time"] for c in api.get(f"/v1/games/{g.id}").json()["clocks"]))
    clocks = {c["house"]: c for c in api.get(f"/v1/games/{g.id}").json()["clocks"]}
    assert clocks[late]["out_of_time"] and clocks[late]["bank_ms"] == 0
    log = api.get(f"/v1/games/{g.id}/log").text
    assert f"{late.capitalize()}'s time bank ran out" in log
    # the game goes on without the late seat: the raven step ends too (its holder answers nothing,
    # and every bank is short), and a referee's export re-derives from the first to the last event
    wait_until(lambda: "raven_passed" in _types(api, g) or "raven_order_replaced" in _types(api, g), timeout=60)
    doc = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json()
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(doc))
    out = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    n = len(doc["events"])
    assert f"ok ({n} of {n} events re-derived" in out.stdout, out.stdout


def test_pause_holds_a_deadline_past_its_time_and_resume_moves_it(api, tmp_path):
    # 6 s: the pause must come before the deadline, two requests after the start (3 s is little under load)
    g = create(api, players=3, timeout_s=6, organizer_is_referee=True)
    join_all(api, g, 3)
    started = start(api, g)
    deadline = api.get(f"/v1/games/{g.id}", params={"min_version": started["version"]}).json()["deadline"]
    r = _pause(api, g, "a player's connection dropped")
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["event"]["type"] == "clocks_paused"
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}).json()
    assert view["paused"]["reason"] == "a player's connection dropped" and view["paused"]["by"] == "organizer"
    assert all(d["deadline"] is None for d in decisions(api, g, g.organizer)["waiting_for"])
    # decisions are refused while paused; a second pause too
    house, token = next(iter(g.houses.items()))
    opts = decisions(api, g, token)["decisions"][0]["options"]
    refused = api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "assign_orders", "orders": default_like_orders(opts)},
        headers=g.auth(token),
    )
    assert refused.status_code == 409 and refused.json()["code"] == "clocks_paused", refused.text
    again = _pause(api, g, "twice")
    assert again.status_code == 409 and again.json()["code"] == "clocks_paused"
    time.sleep(max(0.0, (_at(deadline) - datetime.now(_at(deadline).tzinfo)).total_seconds()) + 2.5)
    assert "decision_timed_out" not in _types(api, g), "a deadline fired while the clocks were paused"
    r = _resume(api, g, "reconnected")
    assert r.status_code == 200, r.text
    resumed = r.json()["events"][0]["event"]
    assert resumed["type"] == "clocks_resumed" and resumed["reason"] == "reconnected"
    moved = _at(resumed["deadline"]) - _at(deadline)
    assert abs(moved.total_seconds() * 1000 - resumed["paused_ms"]) < 2, (moved, resumed)
    assert resumed["paused_ms"] >= 3000
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}).json()
    assert view["deadline"] == resumed["deadline"] and view["paused"] is None
    # the moved deadline fires, after its new time
    wait_until(lambda: "decision_timed_out" in _types(api, g), timeout=60)
    timed_out = next(e for e in _events(api, g) if e["event"]["type"] == "decision_timed_out")
    assert _at(timed_out["ts"]) >= _at(resumed["deadline"])
    # author and reason in the log and the export; the export re-derives clean
    # the log is projected (it has no min_version): wait for it to show the pause and the resume
    log = wait_until(
        lambda: (
            (x := api.get(f"/v1/games/{g.id}/log").text)
            and "paused by the organizer: a player's connection dropped" in x
            and "reconnected" in x
            and x
        )
    )
    assert "paused by the organizer: a player's connection dropped" in log and "reconnected" in log
    doc = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json()
    kinds = [e["event"]["type"] for e in doc["events"]]
    assert "clocks_paused" in kinds and "clocks_resumed" in kinds
    path = tmp_path / "paused.json"
    path.write_text(json.dumps(doc))
    out = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    n = len(doc["events"])
    assert f"ok ({n} of {n} events re-derived" in out.stdout, out.stdout


def test_only_a_judge_pauses_and_bad_requests_change_nothing(api):
    g = create(api, players=3)
    join_all(api, g, 3)
    lobby = _pause(api, g, "too early")
    assert lobby.status_code == 409 and lobby.json()["code"] == "clocks_not_running"
    start(api, g)
    seat = next(iter(g.houses.values()))
    r = _pause(api, g, "mine", token=seat)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    assert api.post(f"/v1/games/{g.id}/pause", json={"reason": "x"}).status_code == 401
    for body, code in (
        ({}, "validation_error"),
        ({"reason": ""}, "validation_error"),
        ({"reason": "x", "y": 1}, "unknown_field"),
    ):
        r = api.post(f"/v1/games/{g.id}/pause", json=body, headers=g.auth(g.organizer))
        assert r.status_code == 422 and r.json()["code"] == code, r.text
    r = _resume(api, g, "not paused")
    assert r.status_code == 409 and r.json()["code"] == "clocks_running"
    assert "clocks_paused" not in _types(api, g)


def test_the_judge_token_pauses_and_resumes_and_the_event_names_the_judge(api):
    """The judge's clock actions (docs/judge.md, docs/clocks.md): the judge's own token pauses and
    resumes; the event records the judge as its author, and the export re-derives it as the judge's."""
    g = create(api, players=3)
    join_all(api, g, 3)
    start(api, g)
    paused = _pause(api, g, "a ruling", token=g.judge)
    assert paused.status_code == 200, paused.text
    view = api.get(  # at the pause's version at least (the projection may lag the append)
        f"/v1/games/{g.id}/view", params={"min_version": paused.json()["version"]}, headers=g.auth(g.organizer)
    ).json()
    assert view["paused"]["by"] == "judge"
    r = api.post(f"/v1/games/{g.id}/resume", json={"reason": "ruled"}, headers=g.auth(g.judge))
    assert r.status_code == 200, r.text
    assert {"clocks_paused", "clocks_resumed"} <= set(_types(api, g))
    export = export_decoder.decode(api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.judge)).content)
    report = audit(export.events, seed=None)  # a running game: its seed is not revealed yet
    assert report.chain_ok and report.rules_ok and not report.problems, report.problems


def test_the_python_client_pauses_and_resumes_and_reads_the_clocks(service):
    base, _ = service

    async def walk() -> None:
        async with CitadelClient(base, timeout=20) as api:
            game = await api.create_game(3, settings={"decision_timeout_s": 60, "time_bank_s": 300})
            for i in range(3):
                await api.join(game.game_id, f"p{i}")
            org = api.with_token(game.organizer_token)
            started = await org.start(game.game_id)
            view = await org.view(game.game_id, min_version=started.version)
            assert len(view.clocks) == 3 and all(c.bank_ms == 300_000 and c.runs_out_at for c in view.clocks)
            paused = await org.pause(game.game_id, "lunch")
            view = await org.view(game.game_id, min_version=paused.version)
            assert view.paused is not None and view.paused.reason == "lunch" and view.deadline is not None
            assert all(c.runs_out_at is None for c in view.clocks)
            with pytest.raises(ApiProblem) as e:
                await org.pause(game.game_id, "again")
            assert (e.value.status, e.value.code) == (409, "clocks_paused")
            resumed = await org.resume(game.game_id, "back")
            view = await org.view(game.game_id, min_version=resumed.version)
            assert view.paused is None and all(c.runs_out_at for c in view.clocks)

    asyncio.run(walk())


def test_a_seat_out_of_time_is_defaulted_at_once_while_the_others_still_decide(service):
    """Round 1: two seats answer everything at once (with the bot's fallback answers), the third
    never answers, so its 3 s bank runs out and it is out of time. Round 2's orders are a simultaneous
    step: the out-of-time seat is defaulted about a second after it opens, alone, and the step goes on
    for the two others until the step's own deadline, which the worker must fire too (it re-marks the
    step's next deadline after the first timeout, workers/jobs.py)."""
    base, _ = service

    async def play() -> tuple[str, list[str], list[dict]]:
        async with CitadelClient(base, timeout=20) as api:
            game = await api.create_game(
                # the step's deadline (12 s) well after the out-of-time seat's default (about 1 s), so a
                # loaded machine's late sweep does not fire both at once
                3,
                settings={"decision_timeout_s": 12, "time_bank_s": 3, "increment_s": 30, "organizer_is_referee": True},
            )
            seats = [await api.join(game.game_id, f"p{i}") for i in range(3)]
            org = api.with_token(game.organizer_token)
            started = await org.start(game.game_id)
            view = await org.view_json(game.game_id, min_version=started.version)
            house_of = {s["seat_id"]: s["house"] for s in view["seats"]}
            late = house_of[seats[2].seat_id]
            players = [api.with_token(s.token) for s in seats[:2]]
            ordered: set[int] = set()
            deadline = time.monotonic() + 150
            while time.monotonic() < deadline:
                now = await org.view_json(game.game_id)
                if now["round"] >= 2 and now["phase"] == "planning":
                    break
                for i, p in enumerate(players):
                    ds = await p.decisions(game.game_id)
                    for d in ds.decisions:
                        if m.kind_of(d.options) == "assign_orders":
                            if i in ordered:
                                continue  # round 1's orders only: round 2's are left to the deadlines
                            ordered.add(i)
                        try:
                            await p.command(game.game_id, fallback_command(d))
                        except ApiProblem as e:
                            assert e.status in (409, 422), e
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("round 2's Planning phase never came")

            # nobody answers round 2's orders: the late seat at once, the others at the step's deadline
            events: list[dict] = []
            until = time.monotonic() + 120
            while time.monotonic() < until:
                events = [msgspec.to_builtins(e) for e in await org.events(game.game_id)]
                opened = [
                    e for e in events if e["event"]["type"] == "step_began" and e["event"]["step"] == "assign_orders"
                ][-1]
                later = [e for e in events if e["seq"] > opened["seq"]]
                if sum(e["event"]["type"] == "decision_timed_out" for e in later) >= 2:
                    break
                await asyncio.sleep(0.1)
            others = sorted(h for h in house_of.values() if h != late)
            return late, others, [e for e in events if e["seq"] >= opened["seq"]]

    late, others, round2 = asyncio.run(play())
    opened = round2[0]
    assert opened["event"]["round"] == 2
    timeouts = [e for e in round2 if e["event"]["type"] == "decision_timed_out"]
    assert len(timeouts) >= 2, [e["event"]["type"] for e in round2]
    first, second = timeouts[:2]
    assert first["event"]["houses"] == [late]
    # defaulted alone, before the step's own deadline (an ordering, not a latency: a loaded machine's
    # sweep may run seconds late)
    assert _at(first["ts"]) < _at(opened["event"]["deadline"]), "the out-of-time seat waited for the deadline"
    assert sorted(second["event"]["houses"]) == others
    assert _at(second["ts"]) >= _at(opened["event"]["deadline"])
