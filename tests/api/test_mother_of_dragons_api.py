"""A Mother of Dragons game through the real API (issue 13 part 1): created with
``settings.expansion``, the seats choose their houses from their ``decisions`` (MOD-SETUP-01), the
views show the vassals, and a wrong choice is a clear problem that changes nothing."""

from __future__ import annotations

import asyncio
import json

from clients.bot import play_game
from tests.api.test_bot_games import SETTINGS, _log_sizes, _new_tracebacks, verify_finished_game
from tests.support.game_client import Game, create, decisions, join_all, wait_until


def _choose_all(api, g) -> None:
    for _ in range(len(g.seats)):
        for token in g.seats.values():
            mine = decisions(api, g, token)["decisions"]
            if mine:
                d = mine[0]
                assert d["commands"] == ["choose_house"] and d["options"]["kind"] == "choose_house"
                r = api.post(
                    f"/v1/games/{g.id}/commands",
                    json={"type": "choose_house", "house": d["options"]["houses"][-1]},
                    headers=g.auth(token),
                )
                assert r.status_code == 200, r.text
                break


def test_MOD_SETUP_01_seats_choose_their_houses_through_the_api(api) -> None:
    g = create(api, 3, expansion="mother_of_dragons")
    join_all(api, g, 3)
    r = api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer))
    assert r.status_code == 200, r.text
    waiting = [t for t in g.seats.values() if decisions(api, g, t)["decisions"]]
    assert len(waiting) == 1  # one seat at a time, the drawn first player first
    other = next(t for t in g.seats.values() if t != waiting[0])
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "choose_house", "house": "stark"}, headers=g.auth(other))
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn", r.text
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "choose_house", "house": "targaryen"}, headers=g.auth(waiting[0])
    )
    assert r.status_code == 422 and r.json()["rule"] == "MOD-SETUP-01", r.text
    _choose_all(api, g)
    version = api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(g.organizer)).json()["version"]
    view = wait_until(
        lambda: (
            (v := api.get(f"/v1/games/{g.id}", params={"min_version": version}, headers=g.auth(g.organizer)).json())
            and v.get("phase") == "planning"
            and v
        )
    )
    assert sorted(view["vassals"]) == ["baratheon", "lannister", "martell", "stark"]
    assert {s["house"] for s in view["seats"]} == {"arryn", "tyrell", "greyjoy"}
    assert "the_vale_of_arryn" in view["areas"]


def test_MOD_VASSAL_bots_play_a_mother_of_dragons_game_to_a_winner(service, api) -> None:
    """Bots (clients/bot.py, HTTP only) play a 4-player Mother of Dragons game from their
    ``decisions`` alone: houses, commanders (MOD-VASSAL-03/04), their vassals' orders, combats and
    choices (``for_vassal``), to a winner; the referee's export passes the audit and citadel-verify."""
    base, procs = service
    logs = _log_sizes(procs.logdir)
    settings = {**SETTINGS, "expansion": "mother_of_dragons"}
    played = asyncio.run(play_game(base, 4, seed="mod-bot-game-4", settings=settings))
    assert played.winner and played.stats.accepted > 100
    verify_finished_game(api, played.game_id, played.organizer_token, played.version, played.seats)
    r = api.get(f"/v1/games/{played.game_id}/export", headers={"Authorization": f"Bearer {played.organizer_token}"})
    events = [e["event"] for e in r.json()["events"]]
    kinds = {e["type"] for e in events}
    assert {"vassal_order_sets_dealt", "vassal_commander_chosen", "vassal_house_cards_drawn"} <= kinds
    assert any(e["type"] == "orders_submitted" and e.get("commander") for e in events)
    assert played.winner not in {e["house"] for e in events if e["type"] == "vassal_house_cards_drawn"}
    assert not _new_tracebacks(procs.logdir, logs)


def test_MOD_SETUP_01_a_given_deal_through_the_api(api) -> None:
    """MOD-SETUP-01: ``seat_houses`` with Mother of Dragons skips the house choice: the start deals
    the given houses, the others are vassals, Planning opens; a wrong deal is 422 naming the rule."""
    for bad in (["stark", "stark", "arryn"], ["stark", "lannister", "targaryen"], ["stark", "arryn"]):
        r = api.post(
            "/v1/games",
            json={"player_count": 3, "settings": {"expansion": "mother_of_dragons"}, "seat_houses": bad},
        )
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_seat_houses" and r.json()["rule"] == "MOD-SETUP-01", r.text
    deal = ["arryn", "martell", "stark", "greyjoy"]
    r = api.post(
        "/v1/games",
        json={"player_count": 4, "settings": {"expansion": "mother_of_dragons"}, "seat_houses": deal},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    g = Game(id=body["game_id"], organizer=body["organizer_token"], judge=body["judge_token"])
    join_all(api, g, 4)
    r = api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer))
    assert r.status_code == 200, r.text
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}, headers=g.auth(g.organizer)).json()
    assert view["phase"] == "planning" and view["house_choice_order"] == []
    assert {s["seat_id"]: s["house"] for s in view["seats"]} == {f"seat{i}": h for i, h in enumerate(deal, 1)}
    assert sorted(view["vassals"]) == ["baratheon", "lannister", "tyrell"]
    waiting = [d for t in g.seats.values() for d in decisions(api, g, t)["decisions"]]
    assert waiting and all(d["commands"] != ["choose_house"] for d in waiting)


def test_a_commanders_bank_runs_out_through_the_workers(api) -> None:
    """docs/clocks.md with Mother of Dragons (MOD-VASSAL-03): a given deal, 3 s banks; the first
    commander chooser never answers: the workers fire its bank's end, its choice gets the default
    (the free vassal highest on the track), it is charged up to the bank's end and out of time; only
    players have clocks in the view."""
    deal = ["stark", "greyjoy", "arryn"]
    r = api.post(
        "/v1/games",
        json={
            "player_count": 3,
            "settings": {"expansion": "mother_of_dragons", "time_bank_s": 3, "decision_timeout_s": 600},
            "seat_houses": deal,
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    g = Game(id=body["game_id"], organizer=body["organizer_token"], judge=body["judge_token"])
    join_all(api, g, 3)
    r = api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer))
    assert r.status_code == 200, r.text
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}, headers=g.auth(g.organizer))
    assert sorted(c["house"] for c in view.json()["clocks"]) == sorted(deal)

    def events() -> list[dict]:
        text = api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=g.auth(g.organizer)).text
        return [json.loads(line)["event"] for line in text.splitlines()]

    wait_until(lambda: any(e["type"] == "clock_charged" and e["out_of_time"] for e in events()), timeout=60)
    evs = events()
    charged = next(e for e in evs if e["type"] == "clock_charged" and e["out_of_time"])
    assert charged["used_ms"] == 3000 and charged["bank_ms"] == 0
    timed_out = next(e for e in evs if e["type"] == "decision_timed_out")
    assert timed_out["step"] == "choose_commanders" and timed_out["houses"] == [charged["house"]]
    assert any(e["type"] == "vassal_commander_chosen" and e["by_default"] for e in evs)


def test_MOD_SETUP_01_a_scenario_fixture_through_the_api(api) -> None:
    """A Mother of Dragons position (Arryn's areas, the players named, the rest vassals) is created and
    opens on the commanders' choice; a vassal given Power is 422 naming MOD-VASSAL-26."""
    sc = {
        "areas": {
            "the_eyrie": {"house": "arryn", "units": {"footman": 2}},
            "winterfell": {"house": "stark", "units": {"knight": 1}},
            "pyke": {"house": "greyjoy", "units": {"footman": 1}},
        },
        "seat_houses": ["stark", "arryn", "greyjoy"],
        "round": 2,
    }
    settings = {"expansion": "mother_of_dragons"}
    bad = {**sc, "houses": {"tyrell": {"power": 1}}}
    r = api.post("/v1/games", json={"player_count": 3, "settings": settings, "scenario": bad})
    assert r.status_code == 422 and r.json()["rule"] == "MOD-VASSAL-26", r.text
    r = api.post("/v1/games", json={"player_count": 3, "settings": settings, "scenario": sc})
    assert r.status_code == 201, r.text
    body = r.json()
    g = Game(id=body["game_id"], organizer=body["organizer_token"], judge=body["judge_token"])
    join_all(api, g, 3)
    r = api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer))
    assert r.status_code == 200, r.text
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}, headers=g.auth(g.organizer)).json()
    assert (view["phase"], view["step"], view["round"]) == ("planning", "choose_commanders", 2)
    assert sorted(view["vassals"]) == ["baratheon", "lannister", "martell", "tyrell"]
    assert view["areas"]["the_eyrie"]["units"] == {"footman": 2}
