"""GET /decisions: your options, and who the game is still waiting for."""

from service.store.keys import Keys
from tests.support.game_client import decisions, default_like_orders, new_started_game


def test_waiting_for_drops_houses_whose_orders_are_in_but_they_may_still_amend(api):
    g = new_started_game(api, players=3)
    house, token = next(iter(g.houses.items()))
    options = decisions(api, g, token)["decisions"][0]["options"]
    r = api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "assign_orders", "orders": default_like_orders(options)},
        headers=g.auth(token),
    )
    assert r.status_code == 200
    d = decisions(api, g, token)
    assert house not in [w["house"] for w in d["waiting_for"]]
    assert sorted(w["house"] for w in d["waiting_for"]) == sorted(h for h in g.houses if h != house)
    (mine,) = d["decisions"]  # still listed for the house itself: it may amend until all are in
    assert mine["options"]["submitted"] == default_like_orders(options)


def test_idempotency_answers_expire(api, sync_redis):
    g = new_started_game(api, players=3)
    token = next(iter(g.houses.values()))
    api.post(
        f"/v1/games/{g.id}/commands",
        json={"type": "raven_pass"},
        headers={**g.auth(token), "Idempotency-Key": "k-expire-0123456789"},
    )
    api.post(
        f"/v1/games/{g.id}/commands",
        json={
            "type": "assign_orders",
            "orders": default_like_orders(decisions(api, g, token)["decisions"][0]["options"]),
        },
        headers={**g.auth(token), "Idempotency-Key": "k-expire-abcdef0123"},
    )
    ttl = sync_redis.ttl(Keys(g.id, 16).idem)
    assert 0 < ttl <= 24 * 3600
