"""Retries with an Idempotency-Key return the first answer byte for byte and append nothing."""

from tests.support.game_client import decisions, default_like_orders, new_started_game


def _stream_len(sync_redis, game_id):
    from service.store.keys import Keys

    return sync_redis.xlen(Keys(game_id, 16).events)


def test_retried_command_returns_first_answer_and_appends_nothing(api, sync_redis):
    g = new_started_game(api, players=3)
    house, token = next(iter(g.houses.items()))
    orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
    body = {"type": "assign_orders", "orders": orders}
    headers = {**g.auth(token), "Idempotency-Key": "k-orders-1"}
    first = api.post(f"/v1/games/{g.id}/commands", json=body, headers=headers)
    assert first.status_code == 200
    n = _stream_len(sync_redis, g.id)
    again = api.post(f"/v1/games/{g.id}/commands", json=body, headers=headers)
    assert again.status_code == 200
    assert again.content == first.content
    assert _stream_len(sync_redis, g.id) == n


def test_same_key_with_another_body_is_422(api):
    g = new_started_game(api, players=3)
    house, token = next(iter(g.houses.items()))
    orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
    headers = {**g.auth(token), "Idempotency-Key": "k-2"}
    assert (
        api.post(
            f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=headers
        ).status_code
        == 200
    )
    changed = dict(orders)
    changed[next(iter(changed))] = "march_0"
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": changed}, headers=headers)
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"


def test_retried_create_and_join_return_the_same_game_seat_and_token(api, sync_redis):
    key = "create-7f1c9e0a-2b44-4c7e-9a0e-5d1f3c2b1a00"
    a = api.post("/v1/games", json={"player_count": 4}, headers={"Idempotency-Key": key})
    b = api.post("/v1/games", json={"player_count": 4}, headers={"Idempotency-Key": key})
    assert a.status_code == b.status_code == 201
    assert a.content == b.content
    game_id = a.json()["game_id"]
    j1 = api.post(
        f"/v1/games/{game_id}/seats", json={"name": "ann"}, headers={"Idempotency-Key": "join-ann-5b8e2c4f9d1a"}
    )
    j2 = api.post(
        f"/v1/games/{game_id}/seats", json={"name": "ann"}, headers={"Idempotency-Key": "join-ann-5b8e2c4f9d1a"}
    )
    assert a.headers["location"] == b.headers["location"] == f"/v1/games/{game_id}"
    assert j1.status_code == j2.status_code == 201
    assert j1.content == j2.content
    assert _stream_len(sync_redis, game_id) == 2  # GameCreated + one SeatJoined
