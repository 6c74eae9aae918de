"""Fixtures for any position through the API (issue 9): each new start point, the seat houses and
deck orders of a fixture, and the view at a given version (``at_version``).

Three players; default tracks: Iron Throne Baratheon, Lannister, Stark; Fiefdoms Stark first;
King's Court Lannister first. The examples are those of docs/fixtures.md.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from clients.bot import play_game
from tests.support.game_client import Game, decisions, join_all, start, wait_until
from tests.support.verify_cli import public_key_file, run_verify

DECK_I = ["mustering", "supply", "supply", "a_throne_of_blades", "mustering", "last_days_of_summer"]
DECK_I += ["supply", "mustering", "a_throne_of_blades", "winter_is_coming"]
WILDLINGS = ["mammoth_riders", "silence_at_the_wall", "preemptive_raid", "crow_killers", "rattleshirts_raiders"]
WILDLINGS += ["massing_on_the_milkwater", "a_king_beyond_the_wall", "the_horde_descends", "skinchanger_scout"]
SEATS = ["baratheon", "stark", "lannister"]
HOMES = {
    "winterfell": {"house": "stark", "units": {"footman": 2}},
    "lannisport": {"house": "lannister", "units": {"footman": 2}},
    "dragonstone": {"house": "baratheon", "units": {"footman": 2}},
}
COMBAT_AREAS = {
    "moat_cailin": {"house": "stark", "units": {"knight": 1, "footman": 1}, "order": "march_0"},
    "winterfell": {"house": "stark", "units": {"footman": 1}, "order": "defense_plus_1"},
    "the_twins": {"house": "lannister", "units": {"footman": 1}, "order": "defense_plus_1"},
    "lannisport": {"house": "lannister", "units": {"footman": 1}, "order": "consolidate_power"},
    "the_narrow_sea": {"house": "baratheon", "units": {"ship": 1}, "order": "support_0"},
    "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "consolidate_power"},
}
ATTACK = {
    "from_area": "moat_cailin",
    "to_area": "the_twins",
    "units": {"knight": 1, "footman": 1},
    "support": {"baratheon": "defender"},
}


DOC = Path(__file__).resolve().parents[2] / "docs" / "fixtures.md"
#: Where each example of docs/fixtures.md opens once started (phase, step).
OPENS = {
    "westeros": ("planning", "assign_orders"),
    "muster": ("westeros", "muster"),
    "raven": ("planning", "messenger_raven"),
    "combat": ("action", "choose_house_card"),
    "retreat": ("action", "choose_retreat"),
}
#: Where each Mother of Dragons example opens once started (and the worker opened the Action phase).
MOD_OPENS = {
    "planning": ("planning", "choose_commanders"),
    "action": ("action", "resolve_raid"),
    "westeros": ("westeros", "muster"),
    "combat": ("action", "choose_house_card"),
}


def started(api, scenario: dict, players: int = 3, settings: dict | None = None) -> Game:
    r = api.post("/v1/games", json={"player_count": players, "scenario": scenario, "settings": settings or {}})
    assert r.status_code == 201, r.text
    g = Game(id=r.json()["game_id"], organizer=r.json()["organizer_token"])
    join_all(api, g, players)
    g.version = start(api, g)["version"]
    return g


def opened_at(api, g: Game, where: tuple[str, str]) -> dict:
    """The public view once the game stands at ``where`` (phase, step): the worker may open it."""
    return wait_until(lambda: (v := api.get(f"/v1/games/{g.id}").json()) and (v["phase"], v["step"]) == where and v)


def command(api, g: Game, house: str, body: dict) -> dict:
    r = api.post(f"/v1/games/{g.id}/commands", json=body, headers=g.auth(g.houses[house]))
    assert r.status_code == 200, r.text
    return r.json()


def pending(api, g: Game, house: str) -> dict:
    return wait_until(lambda: (x := decisions(api, g, g.houses[house]))["decisions"] and x)["decisions"]


def test_BG_SETUP_02_seat_houses_and_deck_orders_of_a_fixture_are_used_and_hidden(api):
    g = started(api, {"areas": HOMES, "seat_houses": SEATS, "westeros": {"wildling_deck": WILDLINGS}})
    view = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()
    assert [s["house"] for s in sorted(view["seats"], key=lambda s: s["seat_id"])] == SEATS
    for token in (g.houses["stark"], g.organizer):
        export = api.get(f"/v1/games/{g.id}/export", headers=g.auth(token)).json()
        events = export["events"]
        assert not export["complete"] and 2 in export["redacted"]
        by_type = {e["event"]["type"]: e["event"] for e in events}
        assert by_type["scenario_loaded"]["scenario"]["westeros"].get("wildling_deck") is None
        assert by_type["game_started"].get("wildling_deck") is None


def test_BG_WCARD_02_a_muster_fixture_opens_on_the_first_musterer_through_the_api(api):
    g = started(api, {"areas": HOMES, "round": 2, "start_at": "muster", "westeros": {"decks": {"deck_i": DECK_I}}})
    view = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()
    assert (view["phase"], view["step"], view["round"]) == ("westeros", "muster", 2)
    (d,) = pending(api, g, "baratheon")
    assert d["commands"] == ["muster"]
    out = command(
        api, g, "baratheon", {"type": "muster", "recruits": {"dragonstone": [{"unit": "knight", "upgrade": True}]}}
    )
    view = api.get(f"/v1/games/{g.id}", params={"min_version": out["version"]}).json()
    assert view["areas"]["dragonstone"]["units"] == {"footman": 1, "knight": 1}


def test_BG_WEST_01_a_westeros_fixture_at_deck_iii_reveals_the_given_cards(api):
    decks = {"deck_i": DECK_I, "deck_iii": ["feast_for_crows", *["put_to_the_sword"] * 2, *["wildlings_attack"] * 3]}
    decks["deck_iii"] += ["rains_of_autumn", "sea_of_storms", "web_of_lies", "storm_of_swords"]
    scenario = {
        "areas": HOMES,
        "round": 5,
        "start_at": "westeros",
        "westeros": {"decks": decks, "start_deck": "deck_iii"},
    }
    g = started(api, scenario)
    view = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()
    # Feast for Crows (deck III) resolved at once: Planning opens with Consolidate Power forbidden
    assert (view["phase"], view["step"], view["round"]) == ("planning", "assign_orders", 5)
    assert "consolidate_power" in view["forbidden_orders"]


def test_BG_PLAN_07_a_raven_fixture_waits_for_the_raven_holder(api):
    areas = {a: dict(s, order=o) for (a, s), o in zip(HOMES.items(), ["defense_plus_1", "march_0", "support_0"])}
    g = started(api, {"areas": areas, "start_at": "raven"})
    (d,) = pending(api, g, "lannister")
    assert "raven_pass" in d["commands"]
    out = command(api, g, "lannister", {"type": "raven_pass"})
    # the worker then opens the Action phase: Lannister's March is the first decision
    (march,) = pending(api, g, "lannister")
    assert march["commands"] == ["resolve_march"] and out["version"] > g.version


def test_BG_COMBAT_04_a_combat_fixture_waits_for_both_house_cards(api):
    g = started(api, {"areas": COMBAT_AREAS, "start_at": "combat", "combat": ATTACK})
    for house in ("stark", "lannister"):
        (d,) = pending(api, g, house)
        assert d["commands"] == ["choose_house_card"]
    view = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()
    assert view["action"]["combat"]["support"] == {"baratheon": "defender"}
    command(api, g, "stark", {"type": "choose_house_card", "card": "eddard_stark"})
    command(api, g, "lannister", {"type": "choose_house_card", "card": "the_hound"})
    (blade,) = pending(api, g, "stark")
    assert blade["commands"] == ["use_blade"]


def test_BG_COMBAT_19_a_retreat_fixture_waits_for_the_losers_retreat(api):
    combat = dict(ATTACK, cards={"stark": "eddard_stark", "lannister": "the_hound"}, use_blade=False)
    g = started(api, {"areas": COMBAT_AREAS, "start_at": "retreat", "combat": combat})
    (d,) = pending(api, g, "lannister")
    assert d["commands"] == ["choose_retreat"]
    out = command(api, g, "lannister", {"type": "choose_retreat", "area": "seagard"})
    view = api.get(f"/v1/games/{g.id}", params={"min_version": out["version"]}).json()
    assert view["areas"]["seagard"]["house"] == "lannister" and view["areas"]["the_twins"]["house"] == "stark"


def test_every_example_of_docs_fixtures_md_is_accepted_and_opens_where_it_says(api):
    bodies = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)]
    base = [b for b in bodies if "settings" not in b]
    assert sorted(b["scenario"]["start_at"] for b in base) == sorted(OPENS)
    for body in bodies:
        g = started(api, body["scenario"], body["player_count"], body.get("settings"))
        view = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()
        if body in base:
            assert (view["phase"], view["step"]) == OPENS[body["scenario"]["start_at"]], body
        else:  # Mother of Dragons
            where = MOD_OPENS[body["scenario"].get("start_at", "planning")]
            view = opened_at(api, g, where)
            assert (view["phase"], view["step"]) == where, body
    mod = [b["scenario"].get("start_at", "planning") for b in bodies if b not in base]
    assert sorted(mod) == sorted(MOD_OPENS)  # an example per Mother of Dragons start point


def test_MOD_VASSAL_09_a_mother_of_dragons_action_fixture_runs_its_vassal_raid_by_the_commander(api):
    """MOD-VASSAL-03/09, MOD-SEA-02 through the API: the docs' ``action`` example; the sea token on
    land is gone, the vassal's Raid/Support is decided by its commander's seat (Stark)."""
    bodies = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)]
    (body,) = [b for b in bodies if "settings" in b and b["scenario"].get("start_at") == "action"]
    g = started(api, body["scenario"], 3, body["settings"])
    view = opened_at(api, g, ("action", "resolve_raid"))  # the worker opened the Action phase
    (d,) = [x for x in pending(api, g, "stark") if "resolve_raid" in x["commands"]]  # beside optional gifts
    assert d["for_vassal"] == "lannister" and d["house"] == "lannister", d
    assert view["commanders"] == body["scenario"]["commanders"]
    orders = {a: x.get("order") for a, x in view["areas"].items() if x.get("order")}
    assert "winterfell" not in orders and orders.get("the_bite") is not None, orders


@pytest.mark.parametrize(
    "scenario, rule",
    [
        ({"areas": HOMES, "start_at": "westeros"}, "BG-ROUND-02"),
        ({"areas": HOMES, "seat_houses": ["stark", "stark", "lannister"]}, "BG-SETUP-02"),
        ({"areas": HOMES, "westeros": {"decks": {"deck_i": DECK_I[:-1] + ["supply"]}}}, "BG-SETUP-04"),
        (
            {
                "areas": HOMES,
                "round": 2,
                "start_at": "muster",
                "westeros": {"decks": {"deck_i": DECK_I[1:] + DECK_I[:1]}},
            },
            "BG-WCARD-02",
        ),
        ({"areas": COMBAT_AREAS, "start_at": "combat", "combat": dict(ATTACK, support={})}, "BG-COMBAT-04"),
        ({"areas": COMBAT_AREAS, "start_at": "combat", "combat": dict(ATTACK, to_area="riverrun")}, "BG-MARCH-03"),
        ({"areas": COMBAT_AREAS, "start_at": "retreat", "combat": ATTACK}, "BG-COMBAT-09"),
        ({"areas": HOMES, "start_at": "raven", "raven_used": True}, "BG-PLAN-08"),
    ],
)
def test_invalid_fixtures_are_refused_with_the_rule_they_break(api, scenario, rule):
    r = api.post("/v1/games", json={"player_count": 3, "scenario": scenario})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_scenario" and r.json()["rule"] == rule, r.json()


# --- at_version ---------------------------------------------------------------------------------

#: Stark holds six castle/stronghold areas; its March from Riverrun into Harrenhal takes the
#: seventh and ends the game at once (BG-VIC-01).
SEVEN = {
    "start_at": "action",
    "seat_houses": SEATS,
    "houses": {"stark": {"supply": 4}},
    "areas": {
        "winterfell": {"house": "stark", "units": {"footman": 1, "knight": 1}},
        "white_harbor": {"house": "stark", "units": {"footman": 1}},
        "moat_cailin": {"house": "stark", "units": {"footman": 1, "knight": 1}},
        "flints_finger": {"house": "stark", "units": {"footman": 1}},
        "seagard": {"house": "stark", "units": {"footman": 1, "knight": 1}},
        "riverrun": {"house": "stark", "units": {"footman": 1, "knight": 1}, "order": "march_0"},
        "lannisport": {"house": "lannister", "units": {"footman": 1, "knight": 1}, "order": "defense_plus_1"},
        "dragonstone": {"house": "baratheon", "units": {"footman": 1, "knight": 1}, "order": "defense_plus_1"},
    },
}


def test_at_version_organizer_any_time_others_after_the_end(api):
    g = started(api, SEVEN)
    (march,) = pending(api, g, "stark")
    now = api.get(f"/v1/games/{g.id}", params={"min_version": g.version}).json()["version"]
    stark, org = g.auth(g.houses["stark"]), g.auth(g.organizer)
    # while the game runs: the organizer reads any version, seats and spectators get a 403
    lobby = api.get(f"/v1/games/{g.id}", params={"at_version": 2}, headers=org)
    assert lobby.status_code == 200, lobby.text
    assert (lobby.json()["version"], lobby.json()["phase"]) == (2, "lobby")
    assert lobby.json()["areas"]["riverrun"]["units"] == {"footman": 1, "knight": 1}
    assert api.get(f"/v1/games/{g.id}/view", params={"at_version": now}, headers=org).json()["version"] == now
    for url, headers in ((f"/v1/games/{g.id}", {}), (f"/v1/games/{g.id}/view", stark), (f"/v1/games/{g.id}", stark)):
        r = api.get(url, params={"at_version": 2}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "at_version_forbidden", r.text
    r = api.get(f"/v1/games/{g.id}", params={"at_version": now + 50}, headers=org)
    assert r.status_code == 409 and r.json()["code"] == "version_not_reached"
    assert api.get(f"/v1/games/{g.id}", params={"at_version": 0}, headers=org).status_code == 400
    # Stark takes Harrenhal: seven castles, the game ends
    out = command(api, g, "stark", {"type": "resolve_march", "area": "riverrun", "moves": {"harrenhal": {"knight": 1}}})
    end = api.get(f"/v1/games/{g.id}", params={"min_version": out["version"]}).json()
    assert end["phase"] == "ended" and end["winner"] == "stark"
    # after the end: everyone reads any version, redacted as it was then for the reader
    before = api.get(f"/v1/games/{g.id}", params={"at_version": now}).json()
    assert before["phase"] == "action" and before["areas"]["harrenhal"].get("units") is None
    seat = api.get(f"/v1/games/{g.id}/view", params={"at_version": now}, headers=stark).json()
    hands = {h["house"]: h["hand"] for h in seat["houses"]}
    assert hands["stark"] and hands["lannister"] is None  # only your own hand, as then
    assert seat["reader"] == "stark" and seat["version"] == now


def test_a_game_from_a_retreat_fixture_plays_to_a_winner_and_citadel_verify_verifies_it(service, api, tmp_path):
    """Bots play a retreat fixture with given deck orders to the end through the API; the complete
    export after the end is re-derived from the commands, creation and start included."""
    base, _ = service
    combat = dict(ATTACK, cards={"stark": "eddard_stark", "lannister": "the_hound"}, use_blade=False)
    scenario = {
        "areas": COMBAT_AREAS,
        "start_at": "retreat",
        "combat": combat,
        "seat_houses": SEATS,
        "westeros": {"decks": {"deck_i": DECK_I}, "wildling_deck": WILDLINGS},
    }
    played = asyncio.run(
        play_game(base, 3, seed="fixture-verify", settings={"decision_timeout_s": 60}, scenario=scenario)
    )
    assert played.winner is not None
    doc = api.get(f"/v1/games/{played.game_id}/export").json()
    assert doc["complete"] and doc["seed"] is not None
    types = [e["event"]["type"] for e in doc["events"]]
    assert types[:3] == ["game_created", "scenario_loaded", "seat_joined"]
    assert "retreat_pending" in types[: types.index("retreat_chosen")]
    path = tmp_path / "fixture-export.json"
    path.write_text(json.dumps(doc))
    ok = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    assert ok.returncode == 0 and ok.stdout.rstrip().endswith("VERIFIED"), ok.stdout + ok.stderr
    n = len(doc["events"])
    assert f"ok ({n} of {n} events re-derived from the commands" in ok.stdout
