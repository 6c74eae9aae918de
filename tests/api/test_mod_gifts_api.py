"""Gifts of Power through the real API (MOD-GIFT-01..03): a seat reads its optional ``gift_power``
decision, posts ``gift_power``, and the view, the log and the answers show it; a bad gift is a clear
problem that changes nothing."""

from __future__ import annotations

from tests.api.test_mother_of_dragons_api import _choose_all
from tests.support.game_client import create, decisions, join_all, wait_until


def test_MOD_GIFT_01_a_gift_through_the_api(api) -> None:
    g = create(api, 3, expansion="mother_of_dragons")
    join_all(api, g, 3)
    assert api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer)).status_code == 200
    _choose_all(api, g)
    token = next(iter(g.seats.values()))
    out = decisions(api, g, token)
    offer = next(d for d in out["decisions"] if d["commands"] == ["gift_power"])
    assert offer["deadline"] is None and offer["options"]["kind"] == "gift_power"
    assert all(w["kind"] != "gift_power" for w in out["waiting_for"])
    giver = offer["house"]
    to = sorted(offer["options"]["receivers"])[0]
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "gift_power", "to": to, "amount": 2}, headers=g.auth(token)
    )
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    view = wait_until(
        lambda: api.get(f"/v1/games/{g.id}", params={"min_version": version}, headers=g.auth(g.organizer)).json()
    )
    power = {h["house"]: h["power"] for h in view["houses"]}
    assert power[giver] == 5 and power[to] == 9
    vassal = view["vassals"][0]
    for body, status, code in (
        ({"type": "gift_power", "to": vassal, "amount": 1}, 422, "gift_to_vassal"),
        ({"type": "gift_power", "to": giver, "amount": 1}, 422, "gift_to_self"),
        ({"type": "gift_power", "to": to, "amount": 6}, 422, "not_enough_power"),
    ):
        r = api.post(f"/v1/games/{g.id}/commands", json=body, headers=g.auth(token))
        assert r.status_code == status and r.json()["code"] == code, r.text
        assert r.json()["rule"].startswith("MOD-GIFT"), r.text
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "gift_power", "to": to, "amount": 0}, headers=g.auth(token)
    )
    assert 400 <= r.status_code < 500, r.text
    after = api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(token)).json()["version"]
    assert after == version  # the refusals changed nothing
