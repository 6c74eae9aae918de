"""Small helpers to drive a game through the public API in tests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx


@dataclass
class Game:
    id: str
    organizer: str
    seats: dict[str, str] = field(default_factory=dict)  # seat_id -> token
    houses: dict[str, str] = field(default_factory=dict)  # house -> seat token
    version: int = 0  # the last version a helper saw answered (e.g. the start's)
    judge: str = ""  # the judge's token (docs/judge.md)

    def auth(self, token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}


def create(api: httpx.Client, players: int = 3, timeout_s: int = 600, **settings) -> Game:
    r = api.post("/v1/games", json={"player_count": players, "settings": {"decision_timeout_s": timeout_s, **settings}})
    assert r.status_code == 201, r.text
    body = r.json()
    return Game(id=body["game_id"], organizer=body["organizer_token"], judge=body["judge_token"])


def join_all(api: httpx.Client, game: Game, players: int) -> None:
    for i in range(players):
        r = api.post(f"/v1/games/{game.id}/seats", json={"name": f"player {i + 1}"})
        assert r.status_code == 201, r.text
        game.seats[r.json()["seat_id"]] = r.json()["token"]


def start(api: httpx.Client, game: Game) -> dict:
    r = api.post(f"/v1/games/{game.id}/start", headers=game.auth(game.organizer))
    assert r.status_code == 200, r.text
    view = api.get(  # as the organizer: a spectator may read behind a delay (docs/judge.md)
        f"/v1/games/{game.id}", params={"min_version": r.json()["version"]}, headers=game.auth(game.organizer)
    ).json()
    for s in view["seats"]:
        game.houses[s["house"]] = game.seats[s["seat_id"]]
    return r.json()


def new_started_game(api: httpx.Client, players: int = 3, timeout_s: int = 600, **settings) -> Game:
    g = create(api, players, timeout_s, **settings)
    join_all(api, g, players)
    start(api, g)
    return g


def decisions(api: httpx.Client, game: Game, token: str) -> dict:
    r = api.get(f"/v1/games/{game.id}/decisions", headers=game.auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def default_like_orders(options: dict) -> dict[str, str]:
    """A legal assignment built from the decision's options: regular tokens only."""
    regular = [t for t, n in sorted(options["tokens"].items()) if t not in options["special_tokens"] for _ in range(n)]
    return dict(zip(options["areas"], regular))


def submit_all_orders(api: httpx.Client, game: Game) -> int:
    version = 0
    for _house, token in game.houses.items():
        d = decisions(api, game, token)
        (mine,) = d["decisions"]
        r = api.post(
            f"/v1/games/{game.id}/commands",
            json={"type": "assign_orders", "orders": default_like_orders(mine["options"])},
            headers=game.auth(token),
        )
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    return version


def wait_until(pred, timeout: float = 60.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"condition not reached in {timeout}s (last: {last!r})")


def api_ready(api: httpx.Client) -> bool:
    """``GET /readyz`` answers 200 (False while the API is not up or not ready)."""
    try:
        return api.get("/readyz").status_code == 200
    except httpx.HTTPError:
        return False
