"""Bad input always gets a clear problem (status, stable code, message) and changes nothing."""

import pytest

from tests.support.game_client import create, decisions, default_like_orders, join_all, new_started_game

PROBLEM = "application/problem+json"


def _version(api, g):
    """The game's current version, read from the stream (decisions), not a possibly lagging projection."""
    return api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(g.organizer)).json()["version"]


def _assert_problem(r, status, code):
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["code"] == code, body
    assert body["status"] == status
    assert body["title"] and body["detail"] and body["type"]
    return body


@pytest.fixture()
def game(api):
    return new_started_game(api, players=3)


def test_bad_json_is_400_and_changes_nothing(api, game):
    token = next(iter(game.houses.values()))
    before = _version(api, game)
    r = api.post(
        f"/v1/games/{game.id}/commands",
        content=b'{"type": "assign_orders", ',
        headers={**game.auth(token), "content-type": "application/json"},
    )
    _assert_problem(r, 400, "bad_json")
    assert _version(api, game) == before


def test_unknown_field_is_422_unknown_field(api, game):
    token = next(iter(game.houses.values()))
    before = _version(api, game)
    r = api.post(f"/v1/games/{game.id}/commands", json={"type": "raven_pass", "please": True}, headers=game.auth(token))
    body = _assert_problem(r, 422, "unknown_field")
    assert body["errors"], "validation problems list each failing field"
    r = api.post("/v1/games", json={"player_count": 3, "colour": "red"})
    _assert_problem(r, 422, "unknown_field")
    assert _version(api, game) == before


def test_invalid_field_values_are_422(api):
    _assert_problem(api.post("/v1/games", json={"player_count": 9}), 422, "validation_error")
    _assert_problem(api.post("/v1/games", json={"player_count": "three"}), 422, "validation_error")


def test_illegal_move_is_422_with_rule_and_changes_nothing(api, game):
    house, token = next(iter(game.houses.items()))
    mine = decisions(api, game, token)["decisions"][0]["options"]
    orders = default_like_orders(mine)
    orders[next(iter(orders))] = "march_plus_1_special"
    orders[list(orders)[1]] = "defense_plus_2_special"
    orders[list(orders)[2]] = "support_plus_1_special"
    orders[list(orders)[0]] = "raid_special"
    before = _version(api, game)
    # four specials is more than any King's Court position allows (BG-PLAN-04)
    extra = {**orders, "kings_landing": "raid"}
    r = api.post(
        f"/v1/games/{game.id}/commands", json={"type": "assign_orders", "orders": extra}, headers=game.auth(token)
    )
    body = _assert_problem(r, 422, "illegal_move")
    assert body["rule"] == "BG-PLAN-02"
    assert _version(api, game) == before


def test_acting_out_of_turn_is_409_not_your_turn(api, game):
    view = api.get(f"/v1/games/{game.id}").json()
    holder = view["tracks"]["kings_court"][0]
    other = next(h for h in game.houses if h != holder)
    r = api.post(f"/v1/games/{game.id}/commands", json={"type": "raven_pass"}, headers=game.auth(game.houses[other]))
    # the raven step has not begun: wrong phase for everyone
    _assert_problem(r, 409, "wrong_phase")


def test_missing_and_wrong_tokens_are_401(api, game):
    r = api.post(f"/v1/games/{game.id}/commands", json={"type": "raven_pass"})
    _assert_problem(r, 401, "unauthorized")
    r = api.post(
        f"/v1/games/{game.id}/commands",
        json={"type": "raven_pass"},
        headers={"Authorization": "Bearer seat1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
    )
    _assert_problem(r, 401, "invalid_token")
    other = new_started_game(api, players=3)
    token_elsewhere = next(iter(other.houses.values()))
    r = api.get(f"/v1/games/{game.id}/view", headers=game.auth(token_elsewhere))
    _assert_problem(r, 401, "invalid_token")
    r = api.get(f"/v1/games/{game.id}/decisions", headers={"Authorization": "Basic abc"})
    _assert_problem(r, 401, "unauthorized")


def test_roles_are_enforced_with_403(api):
    g = create(api, players=3)
    join_all(api, g, 3)
    seat_token = next(iter(g.seats.values()))
    _assert_problem(api.post(f"/v1/games/{g.id}/start", headers=g.auth(seat_token)), 403, "forbidden")
    api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer))
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "raven_pass"}, headers=g.auth(g.organizer))
    _assert_problem(r, 403, "forbidden")


def test_stale_version_is_409_with_current_version(api, game):
    house, token = next(iter(game.houses.items()))
    mine = decisions(api, game, token)["decisions"][0]["options"]
    current = _version(api, game)
    body = {"type": "assign_orders", "orders": default_like_orders(mine)}
    r = api.post(
        f"/v1/games/{game.id}/commands", json=body, headers={**game.auth(token), "If-Match": f'"{current - 1}"'}
    )
    problem = _assert_problem(r, 409, "stale_version")
    assert problem["current_version"] == current
    assert r.headers["etag"] == f'"{current}"'
    assert _version(api, game) == current
    r = api.post(f"/v1/games/{game.id}/commands", json=body, headers={**game.auth(token), "If-Match": f'"{current}"'})
    assert r.status_code == 200 and r.json()["version"] == current + 1


def test_unknown_game_is_404(api):
    _assert_problem(api.get("/v1/games/g_" + "0" * 32), 404, "not_found")
    _assert_problem(api.post("/v1/games/g_" + "0" * 32 + "/seats", json={"name": "x"}), 404, "not_found")


def test_lobby_rules(api):
    g = create(api, players=3)
    join_all(api, g, 3)
    _assert_problem(api.post(f"/v1/games/{g.id}/seats", json={"name": "late"}), 409, "game_full")
    g2 = create(api, players=4)
    join_all(api, g2, 2)
    _assert_problem(api.post(f"/v1/games/{g2.id}/start", headers=g2.auth(g2.organizer)), 409, "seats_missing")


def test_body_too_large_is_413(api, game):
    token = next(iter(game.houses.values()))
    r = api.post(
        f"/v1/games/{game.id}/commands",
        content=b'{"type":"raven_pass","x":"' + b"a" * 70000 + b'"}',
        headers={**game.auth(token), "content-type": "application/json"},
    )
    _assert_problem(r, 413, "payload_too_large")


def test_settings_are_bounded(api):
    for bad in (0, -5, 10**13):
        r = api.post("/v1/games", json={"player_count": 3, "settings": {"decision_timeout_s": bad}})
        _assert_problem(r, 422, "validation_error")


def test_unknown_field_is_named(api):
    body = _assert_problem(api.post("/v1/games", json={"player_count": 3, "colour": "red"}), 422, "unknown_field")
    assert body["errors"][0]["field"] == "colour"


def test_create_needs_a_long_idempotency_key_and_answers_with_location(api):
    _assert_problem(
        api.post("/v1/games", json={"player_count": 3}, headers={"Idempotency-Key": "create-1"}),
        400,
        "invalid_parameter",
    )
    r = api.post("/v1/games", json={"player_count": 3})
    assert r.status_code == 201 and r.headers["location"] == f"/v1/games/{r.json()['game_id']}"


def test_401_carries_www_authenticate(api, game):
    r = api.get(f"/v1/games/{game.id}/view")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")


def test_json_bodies_only_415(api):
    r = api.post("/v1/games", content=b'{"player_count": 3}', headers={"content-type": "text/plain"})
    _assert_problem(r, 415, "unsupported_media_type")


def test_empty_body_is_bad_json(api):
    r = api.post("/v1/games", content=b"", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"


def test_join_needs_a_long_idempotency_key(api):
    g = create(api, players=3)
    r = api.post(f"/v1/games/{g.id}/seats", json={"name": "x"}, headers={"Idempotency-Key": "join-1"})
    _assert_problem(r, 400, "invalid_parameter")
