"""A player who leaves a Mother of Dragons game through the real API (MOD-FLEX-01/02): its house turns
vassal in the view, and its token sends no more commands (403 ``seat_left``)."""

from __future__ import annotations

from tests.api.test_mother_of_dragons_api import _choose_all
from tests.support.game_client import create, decisions, join_all, wait_until


def _choose_commanders(api, g) -> None:
    """MOD-VASSAL-03: every set holder commands the first free vassal, until Assign Orders opens."""
    for _ in range(10):
        pending = [
            (t, d)
            for t in g.seats.values()
            for d in decisions(api, g, t)["decisions"]
            if d["commands"] == ["command_vassal"]
        ]
        if not pending:
            return
        token, d = pending[0]
        body = {"type": "command_vassal", "vassal": d["options"]["vassals"][0]}
        r = api.post(f"/v1/games/{g.id}/commands", json=body, headers=g.auth(token))
        assert r.status_code == 200, r.text


def test_MOD_FLEX_01_a_player_leaves_through_the_api(api) -> None:
    g = create(api, 4, expansion="mother_of_dragons")
    join_all(api, g, 4)
    assert api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer)).status_code == 200
    _choose_all(api, g)
    _choose_commanders(api, g)
    token = next(iter(g.seats.values()))
    house = next(d["house"] for d in decisions(api, g, token)["decisions"])
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "leave_game", "reason": "called away"}, headers=g.auth(token)
    )
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    view = wait_until(
        lambda: api.get(f"/v1/games/{g.id}", params={"min_version": version}, headers=g.auth(g.organizer)).json()
    )
    assert house in view["vassals"]
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "gift_power", "to": "stark", "amount": 1}, headers=g.auth(token)
    )
    assert r.status_code == 403 and r.json()["code"] == "seat_left", r.text
    assert decisions(api, g, token)["decisions"] == []
