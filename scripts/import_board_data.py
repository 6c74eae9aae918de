"""Write the project's own board data files from the shared board facts.

Reads ``../shared/reference/board/*.yaml`` (facts transcribed from public sources) and writes
``domain/board/data/*.json`` in the project's own schema, which is what the engine loads (and what
``GET /v1/reference/...`` serves: ``domain/board/reference.py``). ``layout.json`` holds the base
board's drawing points (``map_layout.yaml``): drawing data, not rules.
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

    out.mkdir(parents=True, exist_ok=True)
    docs = (("board.json", board), ("setup.json", base_setup), ("cards.json", deck), ("layout.json", layout))
    for name, doc in docs:
        (out / name).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        print("wrote", out / name)


if __name__ == "__main__":
    shared = Path(os.environ.get("CITADEL_SHARED", ROOT.parent / "shared"))
    main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else shared / "reference" / "board",
        Path(sys.argv[2]) if len(sys.argv) > 2 else OUT,
    )
