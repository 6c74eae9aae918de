"""The card game (domain/cards) through the real service: create with a deck per seat (and a clear
422 naming a broken deck rule), join, start, every decision answered over HTTP until a winner, the
worker's reveals of sealed setup and plots, hidden information from the other seat and a
spectator, the log, and an export that ``citadel-verify`` accepts (re-derived batch by batch)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import msgspec

from domain.cards.game import GAME
from tests.support.game_client import wait_until
from tests.support.verify_cli import public_key_file, run_verify


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _new_game(api: httpx.Client, decks: list[dict[str, Any]]) -> httpx.Response:
    return api.post("/v1/games", json={"kind": "cards", "decks": decks, "settings": {"decision_timeout_s": 600}})


def _choose(d: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal answer to one decision, from the options the server lists."""
    kind = d["kind"]
    if kind == "mulligan":
        return {"type": "choose_mulligan", "mulligan": rng.random() < 0.3}
    if kind == "setup":
        return None if d["submitted"] else {"type": "choose_setup", "cards": []}
    if kind == "plot":
        return None if d["submitted"] else {"type": "choose_plot", "plot": rng.choice(d["cards"])}
    if kind == "first_player":
        return {"type": "choose_first_player", "seat_id": rng.choice(d["seats"])}
    if kind == "marshal":
        if not d["cards"] or rng.random() < 0.25:
            return {"type": "end_marshaling"}
        card = rng.choice(d["cards"])
        targets = d["attach_targets"].get(card)
        return {"type": "marshal_card", "card": card, **({"attach_to": rng.choice(targets)} if targets else {})}
    if kind == "challenge":
        if not d["challenge_types"] or rng.random() < 0.15:
            return {"type": "end_challenges"}
        t = rng.choice(sorted(d["challenge_types"]))
        attackers = d["challenge_types"][t][: d.get("max_cards") or None]
        return {"type": "declare_challenge", "challenge_type": t, "attackers": attackers}
    if kind == "defend":
        pool = next(iter(d["challenge_types"].values()))
        most = len(pool) if d.get("max_cards") is None else min(len(pool), d["max_cards"])
        must = d.get("must_defend", [])
        free = [c for c in pool if c not in must]
        extra = rng.sample(free, rng.randint(0, max(0, min(len(free), most - len(must)))))
        return {"type": "declare_defenders", "defenders": must + extra}
    if kind == "action":
        if not d["cards"] or rng.random() < 0.5:
            return {"type": "pass_action"}
        card = rng.choice(d["cards"])
        targets = d["attach_targets"].get(card)
        return {"type": "ambush_card", "card": card, **({"attach_to": rng.choice(targets)} if targets else {})}
    if kind == "intimidate":
        return {"type": "choose_intimidate", "target": rng.choice([None, *d["cards"]])}
    if kind == "reaction":
        if d["events"] and rng.random() < 0.7:
            card = rng.choice(sorted(d["events"]))
            targets = d["events"][card]
            return {"type": "play_event", "card": card, **({"target": rng.choice(targets)} if targets else {})}
        return {"type": "decline"}
    if kind in ("save", "cancel"):
        if d["interrupts"] and rng.random() < 0.7:
            card = rng.choice(sorted(d["interrupts"]))
            return {"type": "use_interrupt", "card": card, "target": rng.choice(d["interrupts"][card])}
        return {"type": "decline"}
    if kind == "ability":
        return {"type": "choose_targets", "cards": rng.sample(d["cards"], min(d["count"], len(d["cards"])))}
    if kind in ("claim", "reserve"):
        key = "characters" if kind == "claim" else "cards"
        return {
            "type": "choose_claim_victims" if kind == "claim" else "discard_to_reserve",
            key: d["cards"][: d["count"]],
        }
    raise AssertionError(kind)


def test_a_deck_breaking_a_rule_is_a_clear_422(api):
    r = _new_game(api, [{"name": "stark_kraken"}, {"name": "intro_lannister_rose"}])
    assert r.status_code == 422 and r.json()["code"] == "illegal_deck", r.text
    deck = {"faction": "stark", "agenda": "01199", "plots": [{"code": "01008", "count": 1}], "draw": []}
    r = _new_game(api, [{"name": "stark_kraken"}, {"deck": deck}])
    body = r.json()
    assert r.status_code == 422 and body["code"] == "illegal_deck" and body["rule"] == "CG-DECK-01", body
    assert "seat2" in body["detail"] and "7 plots" in body["detail"]


def test_a_whole_joust_through_the_real_service_verifies_offline(api, tmp_path):
    key = public_key_file(api, tmp_path)
    r = _new_game(api, [{"name": "stark_kraken"}, {"name": "lannister_rose"}])
    assert r.status_code == 201, r.text
    gid, org = r.json()["game_id"], r.json()["organizer_token"]
    assert r.json()["kind"] == "cards"
    seats = {}
    for name in ("ann", "bob"):
        j = api.post(f"/v1/games/{gid}/seats", json={"name": name})
        assert j.status_code == 201, j.text
        seats[j.json()["seat_id"]] = j.json()["token"]
    started = api.post(f"/v1/games/{gid}/start", headers=_auth(org))
    assert started.status_code == 200
    now = {"min_version": started.json()["version"]}  # the projected views may lag the start

    # hidden information: a hand is its owner's; the deck order is nobody's
    v1 = api.get(f"/v1/games/{gid}/view", params=now, headers=_auth(seats["seat1"])).json()
    v2 = api.get(f"/v1/games/{gid}/view", params=now, headers=_auth(seats["seat2"])).json()
    public = api.get(f"/v1/games/{gid}", params=now).json()
    hand = v1["seats"][0]["hand"]
    assert len(hand) == 7 and v2["seats"][0]["hand"] is None and public["seats"][0]["hand"] is None
    assert not set(hand) & set(v2["cards"]) and not set(hand) & set(public["cards"])
    for reader in (seats["seat2"], None):
        stream = api.get(f"/v1/games/{gid}/events", headers=_auth(reader) if reader else {}).text
        for line in stream.splitlines():
            e = json.loads(line)["event"]
            if e["type"] == "cards_deck_shuffled":
                assert e["order"] is None
            if e["type"] == "cards_drawn" and e["seat_id"] == "seat1":
                assert e["cards"] is None

    # ... nor through the other seat's export, decisions or the public log
    export = api.get(f"/v1/games/{gid}/export", headers=_auth(seats["seat2"])).json()
    assert not export["complete"] and export["redacted"] and export["seed"] is None
    for e in export["events"]:
        body = e["event"]
        assert not (body["type"] == "cards_deck_shuffled" and body["order"] is not None)
        assert not (body["type"] == "cards_drawn" and body["seat_id"] == "seat1" and body["cards"] is not None)
    other = api.get(f"/v1/games/{gid}/decisions", headers=_auth(seats["seat2"])).text
    assert not any(c in other for c in hand)
    log = api.get(f"/v1/games/{gid}/log").text
    assert not any(c in log for c in hand)

    rng = random.Random(11)
    end = time.monotonic() + 240
    commands = 0
    while time.monotonic() < end:
        d1 = api.get(f"/v1/games/{gid}/decisions", headers=_auth(seats["seat1"])).json()
        if d1["phase"] == "ended":
            break
        acted = False
        for seat, token in seats.items():
            ds = d1 if seat == "seat1" else api.get(f"/v1/games/{gid}/decisions", headers=_auth(token)).json()
            for d in ds["decisions"]:
                command = _choose(d, rng)
                if command is None:
                    continue
                a = api.post(f"/v1/games/{gid}/commands", json=command, headers=_auth(token))
                if a.status_code == 409:  # the worker moved the game on first: ask again
                    continue
                assert a.status_code == 200, (command, a.text)
                commands += 1
                acted = True
        if not acted:
            time.sleep(0.05)  # the worker reveals sealed setup and plots
    else:
        raise AssertionError("the joust did not end in time")
    assert commands > 20

    # the projected view shows the end once the projector caught up (10 s was not always enough under load)
    view = wait_until(lambda: (v := api.get(f"/v1/games/{gid}").json())["phase"] == "ended" and v)
    assert view["winner"] in seats and view["end_reason"]
    log = api.get(f"/v1/games/{gid}/log").json()
    assert any("wins" in line["text"] for line in log["lines"])
    export = api.get(f"/v1/games/{gid}/export").json()
    assert export["kind"] == "cards" and export["complete"] and export["seed"]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    ok = run_verify(path, "--public-key", key)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "(cards)" in ok.stdout and "VERIFIED" in ok.stdout
    # the export folds to the views the API serves, for every reader (one redaction for both)
    state = GAME.fold(
        msgspec.json.decode(json.dumps(e["event"]).encode(), type=GAME.event_type) for e in export["events"]
    )
    final = view["version"] if view["version"] == export["version"] else None
    assert final is not None
    for reader, token in (("seat1", seats["seat1"]), ("seat2", seats["seat2"]), (None, None)):
        served = api.get(
            f"/v1/games/{gid}/view" if token else f"/v1/games/{gid}", headers=_auth(token) if token else {}
        ).json()
        assert served == msgspec.to_builtins(GAME.view(state, reader)), reader


def test_deadlines_apply_the_documented_defaults_through_the_worker(api):
    r = api.post(
        "/v1/games",
        json={
            "kind": "cards",
            "decks": [{"name": "watch_stag"}, {"name": "targaryen_sun"}],
            "settings": {"decision_timeout_s": 1},
        },
    )
    assert r.status_code == 201, r.text
    gid, org = r.json()["game_id"], r.json()["organizer_token"]
    for name in ("ann", "bob"):
        assert api.post(f"/v1/games/{gid}/seats", json={"name": name}).status_code == 201
    assert api.post(f"/v1/games/{gid}/start", headers=_auth(org)).status_code == 200
    # nobody plays: mulligans kept, nothing set up, plots and the first player chosen by default
    end = time.monotonic() + 60
    kinds: set[str] = set()
    while time.monotonic() < end:
        events = [json.loads(x)["event"] for x in api.get(f"/v1/games/{gid}/events").text.splitlines()]
        kinds = {e["type"] for e in events if e.get("by_default")}
        if {"cards_mulligan_chosen", "cards_setup_chosen", "cards_plot_chosen", "cards_first_player_chosen"} <= kinds:
            break
        time.sleep(0.3)
    else:
        raise AssertionError(f"the defaults were not applied in time: {kinds}")
    assert any(e["type"] == "cards_plots_revealed" for e in events)
