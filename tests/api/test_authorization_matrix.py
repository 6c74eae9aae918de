"""Every endpoint × every kind of caller (issue 8: the authorization matrix).

Callers: nobody (no token), the organizer of the game, a seat of the game, the organizer and a
seat of ANOTHER game (valid tokens, wrong game), a forged token (right shape, wrong MAC) and a
malformed ``Authorization`` header. The table is the contract: 401 without a needed token or with
a token that is not valid for this game; 403 for a valid token whose role may not do this; public
reads answer anyone who sends no token or a valid one.
"""

from __future__ import annotations

import httpx
import pytest

from tests.support.authorization import CALLERS, MATRIX, headers_for, request_as
from tests.support.game_client import create, join_all, new_started_game


@pytest.fixture(scope="module")
def games(service):
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as api:
        game = new_started_game(api, players=3)
        other = create(api, 3)
        join_all(api, other, 3)
        yield game, other


@pytest.mark.parametrize("endpoint", list(MATRIX))
@pytest.mark.parametrize("caller", CALLERS)
def test_authorization_matrix(api, games, endpoint, caller):
    game, other = games
    expected = MATRIX[endpoint][CALLERS.index(caller)]
    r = request_as(api, endpoint, game, headers_for(caller, game, other))
    assert r.status_code == expected, f"{endpoint} as {caller}: {r.status_code} {r.text[:200]}"
    if r.status_code >= 400:
        problem = r.json()
        assert problem["status"] == r.status_code and problem["code"]
        if r.status_code == 401:
            assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_spectator_export_hides_what_a_seat_export_shows(api, games):
    """The same endpoint answers every role, each with only what it may see."""
    game, other = games
    seat = next(iter(game.houses.values()))
    anon = api.get(f"/v1/games/{game.id}/export").json()
    mine = api.get(f"/v1/games/{game.id}/export", headers={"Authorization": f"Bearer {seat}"}).json()
    assert anon["complete"] is False and mine["complete"] is False
    started = [e for e in anon["events"] if e["event"]["type"] == "game_started"][0]
    assert started["event"]["wildling_deck"] is None  # hidden from everyone while the game runs
