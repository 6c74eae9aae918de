"""Write the project's own board data files from the shared board facts.

Reads ``../shared/reference/board/*.yaml`` (facts transcribed from public sources) and writes
``domain/board/data/*.json`` in the project's own schema, which is what the engine loads (and what
``GET /v1/reference/...`` serves: ``domain/board/reference.py``). ``layout.json`` holds the base
board's drawing points (``map_layout.yaml``), ``layout_mother_of_dragons.json`` those of the Mother of
Dragons 7-house board (its ``seven_houses`` points over the base ones): drawing data, not rules.
Run it again when the facts change; the output is deterministic (sorted keys), so a diff shows
exactly what moved.

    .venv/bin/python scripts/import_board_data.py [path/to/shared/reference/board [out/dir]]

Without a path it reads ``$CITADEL_SHARED/reference/board`` (``CITADEL_SHARED`` defaults to the
``shared`` folder beside the project). ``tests/domain/board/test_reference_data.py`` runs it into a
temporary folder and fails when the checked-in files differ from what it writes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "domain" / "board" / "data"

TIDES_OF_BATTLE = [
    # BG-TIDES-01 (rule digest section 20; the shared board facts leave the variant out): the 24 cards.
    {"id": "blank", "name": "Blank", "strength": 0, "swords": 0, "fortifications": 0, "skulls": 0, "count": 8},
    {"id": "sword", "name": "Sword", "strength": 1, "swords": 1, "fortifications": 0, "skulls": 0, "count": 4},
    {
        "id": "fortification",
        "name": "Fortification",
        "strength": 1,
        "swords": 0,
        "fortifications": 1,
        "skulls": 0,
        "count": 4,
    },
    {"id": "two", "name": "Two", "strength": 2, "swords": 0, "fortifications": 0, "skulls": 0, "count": 4},
    {"id": "three", "name": "Three", "strength": 3, "swords": 0, "fortifications": 0, "skulls": 0, "count": 2},
    {"id": "skull", "name": "Skull", "strength": 0, "swords": 0, "fortifications": 0, "skulls": 1, "count": 2},
]
"""Not in ``../shared/reference/board``: transcribed from the rule digest's BG-TIDES-01 table."""


def main(src: Path, out: Path = OUT) -> None:
    map_ = yaml.safe_load((src / "map.yaml").read_text())
    setup = yaml.safe_load((src / "setup.yaml").read_text())
    cards = yaml.safe_load((src / "cards.yaml").read_text())
    drawing = yaml.safe_load((src / "map_layout.yaml").read_text())

    areas = []
    for a in map_["areas"]:
        areas.append(
            {
                "id": a["id"],
                "name": a["name"],
                "kind": a["kind"],
                "castle": a["castle"],
                "supply": a["supply"],
                "power": a["power"],
                "home_of": a.get("home_of"),
                "port_of": a.get("port_of"),
                "adjacent": sorted(a["adjacent"]),
            }
        )
    board = {"schema_version": 1, "areas": sorted(areas, key=lambda a: a["id"])}

    base = setup["base_game"]
    houses = {}
    for hid, h in setup["houses"].items():
        if h["expansion"] != "base":
            continue
        houses[hid] = {
            "name": h["name"],
            "home_area": h["home_area"],
            "unit_limits": h["unit_limits"],
            "starting_units": h["starting_units"],
        }
    player_counts = {}
    for n, pc in base["player_counts"].items():
        player_counts[str(n)] = {
            "houses": pc["houses"],
            "tracks": pc["tracks"],
            "kings_court_stars": pc["kings_court_stars"],
            "home_garrisons": pc["home_garrisons"],
            "neutral_forces": pc["neutral_forces"],
            "blocked_areas": pc["blocked_areas"],
            "starting_units_not_placed_in": pc["starting_units_not_placed_in"],
        }
    base_setup = {
        "schema_version": 1,
        "power_tokens_per_house": setup["general"]["power_tokens"]["max_per_house"],
        "power_tokens_available_at_start": setup["general"]["power_tokens"]["available_at_start"],
        "wildling_threat_start": setup["general"]["wildling_track"]["start"],
        "wildling_threat_max": setup["general"]["wildling_track"]["max"],
        "max_rounds": setup["general"]["max_rounds"],
        "supply_table": {str(k): v for k, v in setup["supply_table"].items()},
        "order_tokens": setup["order_tokens"]["per_player_house"],
        "houses": houses,
        "player_counts": player_counts,
    }

    base_houses = [h for h in houses]
    deck = {
        "schema_version": 1,
        "house_cards": {
            h: [
                {k: c[k] for k in ("id", "name", "strength", "swords", "fortifications", "ability")}
                for c in cards["house_cards"][h]["cards"]
            ]
            for h in base_houses
        },
        "westeros_decks": {
            d: [
                {
                    "id": c["id"],
                    "name": c["name"],
                    "count": c["count"],
                    "wildling_icon": c["wildling_icon"],
                    "effect": c["effect"],
                }
                for c in cards["westeros_decks"][d]["cards"]
            ]
            for d in ("deck_i", "deck_ii", "deck_iii")
        },
        "wildling_cards": [
            {
                "id": c["id"],
                "name": c["name"],
                "nights_watch_victory_highest_bidder": c["nights_watch_victory_highest_bidder"],
                "wildling_victory_lowest_bidder": c["wildling_victory_lowest_bidder"],
                "wildling_victory_everyone_else": c["wildling_victory_everyone_else"],
            }
            for c in cards["wildling_cards"]["cards"]
        ],
        "tides_of_battle": TIDES_OF_BATTLE,
    }

    base_layout = drawing["boards"]["base"]
    points = base_layout["areas"]
    missing = sorted({a["id"] for a in areas} ^ set(points))
    assert not missing, f"map_layout.yaml's base board and map.yaml differ in areas: {missing}"
    layout = {
        "schema_version": 1,
        "width": base_layout["width"],
        "height": base_layout["height"],
        "units": drawing["units"],
        "areas": {a: {"x": p["x"], "y": p["y"], "box": p["box"]} for a, p in sorted(points.items())},
    }

    mod = mother_of_dragons(src, areas, setup, cards)
    mod_layout = seven_houses_layout(drawing, [a["id"] for a in mod["areas"]])

    out.mkdir(parents=True, exist_ok=True)
    docs = (
        ("board.json", board),
        ("setup.json", base_setup),
        ("cards.json", deck),
        ("layout.json", layout),
        ("mother_of_dragons.json", mod),
        ("layout_mother_of_dragons.json", mod_layout),
    )
    for name, doc in docs:
        (out / name).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        print("wrote", out / name)


def seven_houses_layout(drawing: dict, area_ids: list[str]) -> dict:
    """The Mother of Dragons 7-house board's drawing points: ``map_layout.yaml``'s ``seven_houses``
    board lists the areas the Eyrie and Bite overlays add or reshape, and inherits the others from
    ``base``. Every area of the 7-house map (``area_ids``) gets a point; nothing else does."""
    board = drawing["boards"]["seven_houses"]
    assert board["inherits"] == "base", board["inherits"]
    points = {**drawing["boards"]["base"]["areas"], **board["areas"]}
    missing = sorted(set(area_ids) - set(points))
    assert not missing, f"map_layout.yaml has no seven_houses point for {missing}"
    return {
        "schema_version": 1,
        "width": board["width"],
        "height": board["height"],
        "units": drawing["units"],
        "areas": {a: {"x": points[a]["x"], "y": points[a]["y"], "box": points[a]["box"]} for a in sorted(area_ids)},
    }


MOD_STARTING_POWER = 7
"""MOD-SETUP-15: each player takes 7 Power (seed 004; the digest's Review 2 keeps 7 without the Iron Bank)."""


def mother_of_dragons(src: Path, base_areas: list[dict], setup: dict, cards: dict) -> dict:
    """The Mother of Dragons facts without Targaryen (issue 13, part 1): the 7-house board (the base
    board with the Eyrie and The Bite overlays applied, MOD-SETUP-03), the seven houses with their
    player and vassal starting units (MOD-SETUP-12, MOD-DATA-02), the fixed track orders
    (MOD-SETUP-09), King's Court stars, garrisons, neutral forces, the Arryn and vassal House cards."""
    overlay = yaml.safe_load((src / "map_essos.yaml").read_text())["westeros_overlays"]
    by_id = {a["id"]: dict(a, adjacent=set(a["adjacent"])) for a in base_areas}
    for change in overlay["changed_areas"]:
        for field, values in change.items():
            if field != "id":
                by_id[change["id"]][field] = values["mod"]
    for added in overlay["added_areas"]:
        by_id[added["id"]] = {
            "id": added["id"],
            "name": added["name"],
            "kind": added["kind"],
            "castle": added["castle"],
            "supply": added["supply"],
            "power": added["power"],
            "home_of": added.get("home_of"),
            "port_of": added.get("port_of"),
            "adjacent": set(),
        }
    for a, b in overlay["removed_edges"]:
        by_id[a]["adjacent"].discard(b)
        by_id[b]["adjacent"].discard(a)
    for a, b in overlay["added_edges"]:
        by_id[a]["adjacent"].add(b)
        by_id[b]["adjacent"].add(a)
    areas = [dict(a, adjacent=sorted(a["adjacent"])) for _, a in sorted(by_id.items())]

    seven = setup["mother_of_dragons"]["house_counts"][7]
    houses = {
        h: {
            "name": setup["houses"][h]["name"],
            "home_area": setup["houses"][h]["home_area"],
            "starting_supply": setup["houses"][h]["starting_supply"],
            "unit_limits": setup["houses"][h]["unit_limits"],
            "starting_units": setup["houses"][h]["starting_units"],
            "vassal_starting_units": setup["houses"][h]["vassal_starting_units"],
        }
        for h in seven["houses"]
    }
    card_fields = ("id", "name", "strength", "swords", "fortifications", "ability")
    return {
        "schema_version": 1,
        "areas": areas,
        "houses": houses,
        "tracks": seven["tracks"],
        "kings_court_stars": seven["kings_court_stars"],
        "home_garrisons": seven["home_garrisons"],
        "neutral_forces": seven["neutral_forces"],
        "vassal_starting_supply": setup["mother_of_dragons"]["vassal_starting_supply"],
        "power_tokens_available_at_start": MOD_STARTING_POWER,
        "arryn_house_cards": [{k: c[k] for k in card_fields} for c in cards["house_cards"]["arryn"]["cards"]],
        "vassal_house_cards": [{k: c[k] for k in card_fields} for c in cards["vassal_house_cards"]["cards"]],
        "sea_orders": setup["order_tokens"]["mod_sea_orders"],
        "vassal_orders": setup["order_tokens"]["mod_vassal_orders"],
    }


if __name__ == "__main__":
    shared = Path(os.environ.get("CITADEL_SHARED", ROOT.parent / "shared"))
    main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else shared / "reference" / "board",
        Path(sys.argv[2]) if len(sys.argv) > 2 else OUT,
    )
