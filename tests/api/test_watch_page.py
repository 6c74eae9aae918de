"""The watch page (``GET /watch/{game_id}``, docs/watch-page.md) in a real headless browser.

Debian's ``chromium``, driven by Playwright through its ``executable_path`` (Playwright's own
browser builds are never downloaded), watches a bot game as a spectator, with no token:

* at the start: one marker per board area, each coloured by its controller and showing its units
  as the public view has them; the page says it is live;
* while ``clients.bot.play_seats`` plays the game, the page follows it over SSE alone (it is never
  reloaded) to the final version and shows the winner the API names; the stream's ``event: end``
  turns it into a replay;
* the replay scrubber steps to any version: "next orders reveal" from the first event lands on the
  first ``orders_revealed`` (BG-PLAN-06), where the map shows exactly the revealed orders; one step
  back they are face down (``sealed``, BG-PLAN-03); the range moves the map back to the units of
  the start.

Screenshots at the start, after the first reveal and at the end are written to the test's temporary
folder, and to ``$CITADEL_SCREENSHOTS`` when it is set (``docs/screenshots/`` holds a set made so).
Without a chromium executable (``CITADEL_CHROMIUM``, else ``chromium`` or ``chromium-browser`` on
the PATH) the browser test is skipped, saying why; the routes' own test runs everywhere.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from clients.bot import play_seats
from tests.support.game_client import create, decisions, default_like_orders, join_all, wait_until
from tests.support.game_client import start as start_game

CHROMIUM = os.environ.get("CITADEL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
NO_BROWSER = (
    "no chromium executable: `apt-get install chromium` (or set CITADEL_CHROMIUM to one) to run the browser test"
)
WAIT_MS = 60_000


def test_the_page_and_its_assets_are_served(api: httpx.Client) -> None:
    """The page, its script and its style sheet; nothing else; and none of them in the API document."""
    gid = "g_" + "0" * 32
    page = api.get(f"/watch/{gid}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert 'src="/watch/assets/watch.js"' in page.text and 'href="/watch/assets/watch.css"' in page.text
    types = page.text.split('data-event-types="')[1].split('"')[0].split()
    assert {"game_started", "orders_revealed", "game_ended"} <= set(types), types  # what EventSource listens to
    script = api.get("/watch/assets/watch.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert "new EventSource(" in script.text
    css = api.get("/watch/assets/watch.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    missing = api.get("/watch/assets/watch.html")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert api.get("/watch/not-a-game").json()["code"] == "invalid_parameter"
    assert not [p for p in api.get("/schema/openapi.json").json()["paths"] if p.startswith("/watch")]


def _events(api: httpx.Client, game_id: str) -> list[dict[str, Any]]:
    lines = api.get(f"/v1/games/{game_id}/events", params={"limit": 1000}).text.splitlines()
    out = [json.loads(line) for line in lines]
    while len(lines) == 1000:
        lines = api.get(f"/v1/games/{game_id}/events", params={"from": out[-1]["seq"], "limit": 1000}).text.splitlines()
        out += [json.loads(line) for line in lines]
    return out


def _units(view: dict[str, Any]) -> dict[str, str]:
    """Each area's units as the page labels them (``2F 1K``), areas without units left out."""
    letters = {"footman": "F", "knight": "K", "siege_engine": "S", "ship": "Sh"}
    return {
        aid: " ".join(f"{n}{letters[k]}" for k, n in a["units"].items())
        for aid, a in view["areas"].items()
        if a.get("units")
    }


def _shown_units(page: Any) -> dict[str, str]:
    return page.eval_on_selector_all(
        "g.area",
        "gs => Object.fromEntries(gs.filter(g => g.dataset.units).map(g => [g.dataset.area, g.dataset.units]))",
    )


def _wait_version(page: Any, version: int) -> None:
    try:
        page.wait_for_selector(f"body[data-version='{version}']", state="attached", timeout=WAIT_MS)
    except Exception as e:  # say what the page says
        raise AssertionError(f"version {version} not shown: {page.inner_text('#side')[:3000]}") from e


OVERLAPS = """() => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height, e]; };
  const meets = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
  const labels = [...document.querySelectorAll("text.label")].map(box);
  const markers = [...document.querySelectorAll("g.area > circle:not(.castle), g.area > rect")].map(box);
  const out = [];
  labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => meets(a, b) && out.push([a[4].dataset.area, b[4].dataset.area])));
  labels.forEach((a) => markers.forEach((m) => meets(a, m) && out.push([a[4].dataset.area, m[4].parentNode.dataset.area])));
  markers.forEach((a, i) => markers.slice(i + 1).forEach((b) => meets(a, b) && out.push([a[4].parentNode.dataset.area, b[4].parentNode.dataset.area])));
  return out;
}"""
"""Pairs of things drawn on the map that cover each other: two names, a name and a marker, or two markers."""


def _readable(page: Any) -> None:
    """Every area is named once, by its printed name, and no name covers another name or a marker, and
    no two markers meet (Pyke inside Ironman's Bay, a port beside its sea)."""
    assert (
        page.eval_on_selector_all("text.label", "ts => ts.filter(t => t.textContent).length")
        == page.locator("g.area:not(.kind-port)").count()
    )
    assert page.evaluate(OVERLAPS) == []


def _screenshot(page: Any, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / name))
    if os.environ.get("CITADEL_SCREENSHOTS"):
        out = Path(os.environ["CITADEL_SCREENSHOTS"])
        out.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out / name))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
def test_a_spectator_watches_a_bot_game_live_then_replays_it(service, api: httpx.Client, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the dev extras) drives the browser")
    base, _ = service
    board = api.get("/v1/reference/board").json()
    game = create(api, 3, 60)
    join_all(api, game, 3)
    started = start_game(api, game)["version"]
    start = api.get(f"/v1/games/{game.id}", params={"min_version": started}).json()
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1080, "height": 1160})
            page.set_default_timeout(WAIT_MS)  # every wait (Playwright's default is 30 s), for a loaded machine
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{base}/watch/{game.id}")

            # The start: an element per area, coloured by its controller, with its units.
            _wait_version(page, start["version"])
            page.wait_for_selector("#status[data-status='live']")
            assert page.locator("g.area").count() == len(board["areas"]) == len(start["areas"])
            controllers = page.eval_on_selector_all(
                "g.area", "gs => Object.fromEntries(gs.map(g => [g.dataset.area, g.dataset.controller]))"
            )
            assert controllers == {a: (v.get("controller") or v.get("house") or "") for a, v in start["areas"].items()}
            assert _shown_units(page) == _units(start) and len(_units(start)) >= 3
            assert page.locator(".area.house-" + start["seats"][0]["house"]).count() > 0  # drawn in its colour
            assert page.locator("#houses tbody tr").count() == 3
            assert page.locator("#tracks dd").count() == 3  # Iron Throne, Fiefdoms, King's Court
            assert page.locator("#winner").is_hidden()
            assert page.get_attribute("body", "data-board") == "board"
            _screenshot(page, tmp_path, "watch-start.png")
            _readable(page)

            # The game, played by bots on another thread while the page follows it over SSE.
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                final = pool.submit(asyncio.run, play_seats(base, game.id, game.organizer, game.seats, "watch")).result(
                    timeout=300
                )
            end = api.get(f"/v1/games/{game.id}", params={"min_version": final}).json()
            _wait_version(page, end["version"])
            page.wait_for_selector("#status[data-status='ended']", timeout=WAIT_MS)
            assert end["winner"] and page.get_attribute("#winner", "data-winner") == end["winner"]
            assert page.inner_text("#winner") == f"{end['winner']} wins"
            assert _shown_units(page) == _units(end)
            assert page.locator("#scrubber").is_visible()
            assert page.locator("#log li:not([hidden])").count() > 10
            _screenshot(page, tmp_path, "watch-end.png")

            # The replay: the first reveal, one step before it, and back to the start.
            events = _events(api, game.id)
            reveal = next(e for e in events if e["event"]["type"] == "orders_revealed")
            page.click("#first")
            _wait_version(page, 1)
            page.click("#next-reveal")
            _wait_version(page, reveal["seq"])
            revealed = {area: order for orders in reveal["event"]["orders"].values() for area, order in orders.items()}
            shown = page.eval_on_selector_all(
                "g.area",
                "gs => Object.fromEntries(gs.filter(g => g.dataset.order).map(g => [g.dataset.area, g.dataset.order]))",
            )
            assert shown == revealed and revealed  # BG-PLAN-06: every order face up
            assert page.inner_text("#event-type") == "orders_revealed"
            assert page.locator("#winner").is_hidden()
            _screenshot(page, tmp_path, "watch-reveal.png")
            page.click("#prev")
            _wait_version(page, reveal["seq"] - 1)
            sealed = page.eval_on_selector_all("g.area", "gs => gs.map(g => g.dataset.order).filter(o => o)")
            assert sealed and set(sealed) == {"sealed"}  # BG-PLAN-03: face down to a spectator before the reveal
            page.eval_on_selector(
                "#scrub",
                "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }",
                start["version"],
            )
            _wait_version(page, start["version"])
            assert _shown_units(page) == _units(start)
            assert page.url.endswith(f"?at={start['version']}")
            page.goto(f"{base}/watch/{game.id}?at={reveal['seq']}")  # a link to one moment of the replay
            _wait_version(page, reveal["seq"])
            page.wait_for_selector("#status[data-status='ended']")
            assert page.input_value("#scrub") == str(reveal["seq"])
        finally:
            browser.close()
    assert errors == []


def _choose_houses(api: httpx.Client, game: Any) -> None:
    """Mother of Dragons (MOD-SETUP-01): each seat in turn takes the first house still free."""
    for _ in range(len(game.seats)):
        for token in game.seats.values():
            mine = decisions(api, game, token)["decisions"]
            if mine:
                house = mine[0]["options"]["houses"][0]
                r = api.post(
                    f"/v1/games/{game.id}/commands",
                    json={"type": "choose_house", "house": house},
                    headers=game.auth(token),
                )
                assert r.status_code == 200, r.text
                game.houses[house] = token
                break


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
def _command_vassals(api: httpx.Client, game) -> None:
    """MOD-VASSAL-03/04: each holder of a set of Vassal Order tokens commands the first free vassal
    offered, until no such decision is left (then Assign Orders is open)."""
    for _ in range(20):
        asked = False
        for token in game.houses.values():
            for d in decisions(api, game, token)["decisions"]:
                if d["options"].get("kind") == "choose_commanders":
                    r = api.post(
                        f"/v1/games/{game.id}/commands",
                        json={"type": "command_vassal", "vassal": d["options"]["vassals"][0]},
                        headers=game.auth(token),
                    )
                    assert r.status_code == 200, r.text
                    asked = True
        if not asked:
            return


def test_a_mother_of_dragons_game_is_drawn_on_its_own_board(service, api: httpx.Client, tmp_path: Path) -> None:
    """A Mother of Dragons game (``settings.expansion``) is drawn on the board with the Eyrie and Bite
    overlays (``GET /v1/reference/board-mother-of-dragons``): The Vale of Arryn, The Bite and the Port
    of the Eyrie have markers where that board draws them, the vassals' units are shown, the names stay
    readable, and the page follows the game live as the houses seal their orders. (The reveal is not
    awaited: the vassals' orders, placed by their commanders, are still due.)"""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the dev extras) drives the browser")
    base, _ = service
    board = api.get("/v1/reference/board-mother-of-dragons").json()
    game = create(api, 3, 60, expansion="mother_of_dragons")
    join_all(api, game, 3)
    r = api.post(f"/v1/games/{game.id}/start", headers=game.auth(game.organizer))
    assert r.status_code == 200, r.text
    _choose_houses(api, game)
    _command_vassals(api, game)
    version = decisions(api, game, game.organizer)["version"]
    view = wait_until(
        lambda: (
            (v := api.get(f"/v1/games/{game.id}", params={"min_version": version}).json())
            and v["step"] == "assign_orders"
            and v
        )
    )
    assert (
        {"the_bite", "the_vale_of_arryn", "port_of_the_eyrie"}
        <= set(view["areas"])
        == {a["id"] for a in board["areas"]}
    )
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1080, "height": 1160})
            page.set_default_timeout(WAIT_MS)  # every wait (Playwright's default is 30 s), for a loaded machine
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{base}/watch/{game.id}")
            _wait_version(page, view["version"])
            page.wait_for_selector("#status[data-status='live']")
            assert page.get_attribute("body", "data-board") == "board-mother-of-dragons"
            assert page.locator("g.area").count() == len(board["areas"])
            for area in ("the_bite", "the_vale_of_arryn", "the_eyrie", "port_of_the_eyrie"):
                assert page.locator(f"g.area[data-area='{area}']").count() == 1, area
            assert page.text_content("text.label[data-area='the_bite']") == "The Bite"
            assert _shown_units(page) == _units(view)
            assert view["vassals"] and page.locator("#houses tbody tr").count() == len(view["houses"])
            _screenshot(page, tmp_path, "watch-mother-of-dragons-start.png")
            _readable(page)

            # Every player house seals its orders; the page, still live, shows them face down (BG-PLAN-03).
            sealed: dict[str, str] = {}
            for house, token in game.houses.items():
                (mine,) = [
                    d
                    for d in decisions(api, game, token)["decisions"]
                    if not d.get("for_vassal") and "assign_orders" in d.get("commands", [d["options"].get("kind")])
                ]
                orders = default_like_orders(mine["options"])
                r = api.post(
                    f"/v1/games/{game.id}/commands",
                    json={"type": "assign_orders", "orders": orders},
                    headers=game.auth(token),
                )
                assert r.status_code == 200, (house, r.text)
                sealed |= orders
            _wait_version(page, r.json()["version"])
            shown = page.eval_on_selector_all(
                "g.area",
                "gs => Object.fromEntries(gs.filter(g => g.dataset.order).map(g => [g.dataset.area, g.dataset.order]))",
            )
            assert shown == dict.fromkeys(sealed, "sealed") and sealed
            _screenshot(page, tmp_path, "watch-mother-of-dragons.png")
            _readable(page)
        finally:
            browser.close()
    assert errors == []
