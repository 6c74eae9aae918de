"""Scenario fixtures through the API: games created from a described position (issue 3).

The organizer creates the game with a ``scenario``; it is validated like any input, and with
``start_at: action`` the worker opens the Action phase right after the start.
"""

import pytest

from tests.support.game_client import Game, decisions, join_all, start, wait_until

SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]


def create_scenario(api, players: int, scenario: dict, **settings) -> Game:
    r = api.post("/v1/games", json={"player_count": players, "settings": settings, "scenario": scenario})
    assert r.status_code == 201, r.text
    body = r.json()
    return Game(id=body["game_id"], organizer=body["organizer_token"])


def started_scenario(api, players: int, scenario: dict) -> Game:
    g = create_scenario(api, players, scenario)
    join_all(api, g, players)
    g.version = start(api, g)["version"]
    return g


@pytest.mark.parametrize(
    "areas, rule",
    [
        ({"winterfell": {"house": "stark", "units": {"ship": 1}}}, "BG-COMP-05"),
        ({"the_shivering_sea": {"house": "stark", "units": {"knight": 1}}}, "BG-COMP-05"),
        ({"winterfell": {"house": "martell", "units": {"knight": 1}}}, "BG-SETUP-01"),
        ({"winterfell": {"house": "stark", "units": {"knight": 6}}}, "BG-COMP-03"),
        ({"winterfell": {"house": "stark", "units": {"footman": 1}, "order": "march_0"}}, "BG-PLAN-06"),
        (
            {
                "winterfell": {"house": "stark", "units": {"footman": 4}},
                "karhold": {"house": "stark", "units": {"footman": 3}},
            },
            "BG-SUPPLY-05",
        ),
        ({"narnia": {"house": "stark", "units": {"footman": 1}}}, "BG-MAP-01"),
    ],
)
def test_invalid_positions_are_refused_with_the_rule_they_break(api, areas, rule):
    r = api.post("/v1/games", json={"player_count": 3, "scenario": {"areas": areas}})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_scenario" and r.json()["rule"] == rule


def test_BG_PLAN_04_scenario_orders_respect_the_special_limit(api):
    # in a 3-player game King's Court position 3 (Baratheon by default) has 1 star
    areas = {
        "dragonstone": {"house": "baratheon", "units": {"knight": 1}, "order": "march_plus_1_special"},
        "kingswood": {"house": "baratheon", "units": {"footman": 1}, "order": "defense_plus_2_special"},
    }
    r = api.post("/v1/games", json={"player_count": 3, "scenario": {"areas": areas, "start_at": "action"}})
    assert r.status_code == 422 and r.json()["rule"] == "BG-PLAN-04"


def test_BG_MARCH_09_ship_transport_rulebook_example_through_the_api(api):
    """The rulebook example: Tyrell marches from Highgarden to Sunspear over Redwyne Straits,
    West Summer Sea and East Summer Sea, all holding Tyrell ships."""
    scenario = {
        "start_at": "action",
        "areas": {
            "highgarden": {"house": "tyrell", "units": {"knight": 1, "footman": 1}, "order": "march_0"},
            "redwyne_straits": {"house": "tyrell", "units": {"ship": 1}, "order": "defense_plus_1"},
            "west_summer_sea": {"house": "tyrell", "units": {"ship": 1}, "order": "defense_plus_1"},
            "east_summer_sea": {"house": "tyrell", "units": {"ship": 1}, "order": "support_0"},
            "winterfell": {"house": "stark", "units": {"footman": 1}, "order": "defense_plus_1"},
            "sunspear": {"garrison": 0},  # an empty Sunspear, as in the example (its printed garrison removed)
        },
    }
    g = started_scenario(api, 6, scenario)
    # the worker opens the Action phase; no raids, so Tyrell's March is the first decision
    d = wait_until(lambda: (x := decisions(api, g, g.houses["tyrell"]))["decisions"] and x)
    (march,) = d["decisions"]
    assert march["commands"] == ["resolve_march"]
    options = march["options"]["orders"]["highgarden"]
    assert "sunspear" in options["land_destinations"]
    r = api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "resolve_march", "area": "highgarden", "moves": {"sunspear": {"knight": 1, "footman": 1}}},
        headers=g.auth(g.houses["tyrell"]),
    )
    assert r.status_code == 200, r.text
    view = api.get(f"/v1/games/{g.id}", params={"min_version": r.json()["version"]}).json()
    assert view["areas"]["sunspear"]["units"] == {"knight": 1, "footman": 1}
    assert view["areas"]["sunspear"]["house"] == "tyrell"
    assert not view["areas"]["highgarden"].get("units")


def test_a_scenario_can_start_in_planning_from_a_later_round(api):
    scenario = {
        "round": 4,
        "wildling_threat": 8,
        "tracks": {
            "iron_throne": ["stark", "lannister", "baratheon"],
            "fiefdoms": ["lannister", "stark", "baratheon"],
            "kings_court": ["baratheon", "stark", "lannister"],
        },
        "houses": {"stark": {"power": 9, "hand": ["eddard_stark", "robb_stark"], "discards": ["roose_bolton"]}},
        "areas": {
            "winterfell": {"house": "stark", "units": {"knight": 2}, "garrison": 2},
            "lannisport": {"house": "lannister", "units": {"footman": 1}},
            "dragonstone": {"house": "baratheon", "units": {"footman": 1}},
            "kings_landing": {"neutral": 5},
        },
    }
    g = started_scenario(api, 3, scenario)
    view = api.get(
        f"/v1/games/{g.id}/view", params={"min_version": g.version}, headers=g.auth(g.houses["stark"])
    ).json()
    assert (view["phase"], view["step"], view["round"], view["wildling_threat"]) == ("planning", "assign_orders", 4, 8)
    stark = next(h for h in view["houses"] if h["house"] == "stark")
    assert (
        stark["power"] == 9
        and stark["hand"] == ["eddard_stark", "robb_stark"]
        and stark["discards"] == ["roose_bolton"]
    )
    assert view["tracks"]["kings_court"][0] == "baratheon"
    (d,) = decisions(api, g, g.houses["baratheon"])["decisions"]
    assert d["options"]["special_limit"] == 3  # BG-SETUP-07: King's Court position 1 in a 3-player game


def test_BG_COMBAT_23_routed_units_from_a_scenario_cannot_march(api):
    """A fixture can describe routed units; they stay behind when their area's March resolves."""
    scenario = {
        "start_at": "action",
        "areas": {
            "winterfell": {
                "house": "stark",
                "units": {"knight": 1, "footman": 1},
                "routed": {"knight": 1},
                "order": "march_0",
            },
            "lannisport": {"house": "lannister", "units": {"footman": 1}, "order": "defense_plus_1"},
            "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "defense_plus_1"},
        },
    }
    g = started_scenario(api, 3, scenario)
    d = wait_until(lambda: (x := decisions(api, g, g.houses["stark"]))["decisions"] and x)
    (march,) = d["decisions"]
    assert march["options"]["orders"]["winterfell"]["units"] == {"footman": 1}
    r = api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "resolve_march", "area": "winterfell", "moves": {"castle_black": {"knight": 1}}},
        headers=g.auth(g.houses["stark"]),
    )
    assert r.status_code == 422, r.text


def test_routed_units_must_be_among_the_units(api):
    areas = {"winterfell": {"house": "stark", "units": {"footman": 1}, "routed": {"knight": 1}, "order": "march_0"}}
    r = api.post("/v1/games", json={"player_count": 3, "scenario": {"areas": areas, "start_at": "action"}})
    assert r.status_code == 422 and r.json()["rule"] == "BG-COMBAT-22"
