"""The board game's reference documents (domain/board/reference.py): built from the game's own data
files, which are what ``scripts/import_board_data.py`` writes from the shared facts, and consistent
with the rules' own view of the same facts (issue 11, item 4)."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from domain import registry
from domain.board import board_data, reference
from domain.board.orders import ORDER_TOKENS
from tests.conftest import ROOT

SHARED = Path(os.environ.get("CITADEL_SHARED", ROOT.parent / "shared"))
FACTS = SHARED / "reference" / "board"


@pytest.mark.skipif(not (FACTS / "map_layout.yaml").is_file(), reason=f"the shared board facts are not at {FACTS}")
def test_the_data_files_are_what_the_import_script_writes_from_the_shared_facts(tmp_path):
    """The service serves ``domain/board/data/`` and never reads ``../shared``: so the checked-in files must be
    exactly what the import writes from the facts (layout points included)."""
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_board_data.py"), str(FACTS), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "board.json",
        "cards.json",
        "layout.json",
        "layout_mother_of_dragons.json",
        "mother_of_dragons.json",
        "setup.json",
    ]
    _, differ, missing = filecmp.cmpfiles(tmp_path, ROOT / "domain" / "board" / "data", names, shallow=False)
    assert not differ and not missing, f"stale data files {differ + missing}: run scripts/import_board_data.py"


def test_the_board_game_publishes_six_documents_under_unique_path_names():
    docs = registry.GAMES["board"].reference
    assert [d.name for d in docs] == [
        "board",
        "board-mother-of-dragons",
        "house-cards",
        "westeros-cards",
        "wildling-cards",
        "order-tokens",
    ]
    assert registry.GAMES["auction"].reference == ()


def test_every_area_of_the_board_with_its_facts_and_a_point_inside_the_frame():
    """BG-MAP-01: 58 areas (38 land, 12 sea, 8 ports); each drawn inside the board, its centroid inside its box."""
    board = reference.board_reference()
    assert Counter(a.kind for a in board.areas) == {"land": 38, "sea": 12, "port": 8}
    assert [a.id for a in board.areas] == sorted(board_data.areas())
    assert board.frame.width == 1.0 and board.frame.height == pytest.approx(1.8596)
    for a in board.areas:
        x0, y0, x1, y1 = a.point.box
        assert 0 <= x0 < x1 <= board.frame.width and 0 <= y0 < y1 <= board.frame.height, a.id
        assert x0 <= a.point.x <= x1 and y0 <= a.point.y <= y1, a.id
        facts = board_data.areas()[a.id]
        assert (a.name, a.kind, a.castle, a.supply, a.power, a.home_of) == (
            facts.name,
            facts.kind,
            facts.castle,
            facts.supply,
            facts.power,
            facts.home_of,
        )


def test_MOD_SETUP_03_the_mother_of_dragons_board_is_the_overlaid_map_with_its_own_points():
    """MOD-SETUP-03: the 7-house board is the base board with the Eyrie and Bite overlays. Its document
    has exactly the areas a Mother of Dragons game is played on, with their facts and adjacency as the
    rules read them, each drawn where that board draws it (the overlaid areas moved, the others not)."""
    mod = {a.id: a for a in reference.board_reference("mother_of_dragons").areas}
    base = {a.id: a for a in reference.board_reference().areas}
    facts = board_data.mod_areas()
    assert sorted(mod) == sorted(facts) and set(mod) - set(base) == {
        "the_bite",
        "the_vale_of_arryn",
        "port_of_the_eyrie",
    }
    for a in mod.values():
        assert set(a.adjacent) == set(facts[a.id].adjacent), a.id
        assert (a.kind, a.castle, a.supply, a.power) == (
            facts[a.id].kind,
            facts[a.id].castle,
            facts[a.id].supply,
            facts[a.id].power,
        )
        for b in a.adjacent:
            assert a.id in mod[b].adjacent, (a.id, b)
        x0, y0, x1, y1 = a.point.box
        assert x0 <= a.point.x <= x1 and y0 <= a.point.y <= y1, a.id
    assert mod["the_eyrie"].point != base["the_eyrie"].point  # redrawn by the overlay
    assert mod["winterfell"].point == base["winterfell"].point  # not touched by it
    assert "the_bite" in mod["white_harbor"].adjacent and "the_bite" not in base["white_harbor"].adjacent
    assert mod["port_of_the_eyrie"].port_of == reference.PortLink(land="the_eyrie", sea="the_narrow_sea")
    assert mod["the_eyrie"].port == "port_of_the_eyrie" and base["the_eyrie"].port is None
    assert (mod["the_vale_of_arryn"].castle, mod["the_vale_of_arryn"].mustering_points) == ("castle", 1)


def test_adjacency_is_the_rules_own_and_symmetric():
    """BG-MAP-01: the document's adjacency is the map data the rules use (adjacency.py), and borders are shared both ways."""
    areas = {a.id: a for a in reference.board_reference().areas}
    for a in areas.values():
        assert set(a.adjacent) == set(board_data.areas()[a.id].adjacent), a.id
        for b in a.adjacent:
            assert a.id in areas[b].adjacent, (a.id, b)


def test_ports_name_their_land_and_sea_and_the_land_names_its_port():
    """BG-MAP-07: a port belongs to one land area and touches exactly one sea area."""
    areas = {a.id: a for a in reference.board_reference().areas}
    ports = [a for a in areas.values() if a.kind == "port"]
    assert len(ports) == 8
    for p in ports:
        assert p.port_of is not None
        assert areas[p.port_of.land].kind == "land" and areas[p.port_of.sea].kind == "sea"
        assert set(p.adjacent) == {p.port_of.land, p.port_of.sea}
        assert areas[p.port_of.land].port == p.id
    assert sum(1 for a in areas.values() if a.port is not None) == 8
    assert all(a.port_of is None for a in areas.values() if a.kind != "port")


def test_printed_icons_and_home_areas():
    """BG-MAP-02 (castle 1 mustering point, stronghold 2), BG-MAP-05 (home areas), BG-MAP-09 rows."""
    areas = {a.id: a for a in reference.board_reference().areas}
    w = areas["winterfell"]
    assert (w.castle, w.mustering_points, w.supply, w.power, w.home_of) == ("stronghold", 2, 1, 1, "stark")
    assert (areas["white_harbor"].castle, areas["white_harbor"].mustering_points) == ("castle", 1)
    assert (areas["castle_black"].castle, areas["castle_black"].power) == ("none", 1)
    assert {a.home_of: a.id for a in areas.values() if a.home_of} == {
        "stark": "winterfell",
        "lannister": "lannisport",
        "baratheon": "dragonstone",
        "greyjoy": "pyke",
        "tyrell": "highgarden",
        "martell": "sunspear",
    }
    for a in areas.values():
        assert a.mustering_points == {"none": 0, "castle": 1, "stronghold": 2}[a.castle]


def test_house_cards_seven_per_house():
    doc = reference.house_cards_reference()
    assert sorted(doc.houses) == sorted(board_data.setup().houses)
    assert all(len(cards) == 7 for cards in doc.houses.values())
    for cards in doc.houses.values():  # strongest first, as the document says
        assert [c.strength for c in cards] == sorted((c.strength for c in cards), reverse=True)
    assert {c.id for cards in doc.houses.values() for c in cards} == set(board_data.all_house_cards())
    eddard = doc.houses["stark"][0]
    assert (eddard.id, eddard.strength, eddard.swords, eddard.fortifications) == ("eddard_stark", 4, 2, 0)


def test_westeros_decks_hold_ten_cards_each_with_their_effect():
    doc = reference.westeros_cards_reference()
    assert list(doc.decks) == ["deck_i", "deck_ii", "deck_iii"]
    for deck, cards in doc.decks.items():
        assert sum(c.count for c in cards) == 10, deck
        assert all(c.effect for c in cards), deck
    assert "winter_is_coming" in {c.id for c in doc.decks["deck_i"]} & {c.id for c in doc.decks["deck_ii"]}


def test_nine_wildling_cards_and_the_threat_track():
    doc = reference.wildling_cards_reference()
    assert len(doc.cards) == 9 and len({c.id for c in doc.cards}) == 9
    assert (doc.threat_start, doc.threat_max, doc.threat_step) == (2, 12, 2)
    assert all(c.nights_watch_victory_highest_bidder and c.wildling_victory_lowest_bidder for c in doc.cards)


def test_order_tokens_fifteen_per_house_five_of_them_special():
    """BG-ORDER-01: 10 regular and 5 special tokens per house."""
    doc = reference.order_tokens_reference()
    assert doc.per_house == 15 == sum(t.copies for t in doc.tokens)
    assert sum(t.copies for t in doc.tokens if t.special) == 5
    assert [t.id for t in doc.tokens] == list(ORDER_TOKENS)
    names = {t.id: t.name for t in doc.tokens}
    assert names["march_minus_1"] == "March -1" and names["march_0"] == "March +0"
    assert names["march_plus_1_special"] == "March +1 (special)" and names["raid"] == "Raid"
    assert names["consolidate_power_special"] == "Consolidate Power (special)"
