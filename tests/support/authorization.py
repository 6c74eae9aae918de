"""The authorization contract: every endpoint x every kind of caller (issue 8).

Callers: nobody (no token), the organizer of the game, a seat of the game, the organizer and a
seat of ANOTHER game (valid tokens, wrong game), a forged token (right shape, wrong MAC) and a
malformed ``Authorization`` header. :data:`MATRIX` is the contract: 401 without a needed token or
with a token that is not valid for this game; 403 for a valid token whose role may not do this;
public reads answer anyone who sends no token or a valid one. Checked by
``tests/api/test_authorization_matrix.py`` and counted by ``bench/reliability.py`` (its row 9).
"""

from __future__ import annotations

import httpx

CALLERS = ["nobody", "organizer", "seat", "other_organizer", "other_seat", "forged", "malformed", "judge"]

# endpoint -> expected status per caller (same order as CALLERS)
MATRIX: dict[str, list[int]] = {
    "start": [401, 409, 403, 401, 401, 401, 401, 403],  # 409: already started (the organizer may)
    "command": [401, 403, 200, 401, 401, 401, 401, 403],
    "public_view": [200, 200, 200, 200, 200, 200, 200, 200],  # public: a token is not needed (nor read)
    "seat_view": [401, 200, 200, 401, 401, 401, 401, 200],
    "decisions": [401, 200, 200, 401, 401, 401, 401, 200],
    "events": [200, 200, 200, 401, 401, 401, 401, 200],
    "log": [200, 200, 200, 200, 200, 200, 200, 200],  # public: a token is not needed (nor read)
    "export": [200, 200, 200, 401, 401, 401, 401, 200],
    "judge": [401, 403, 403, 401, 401, 401, 401, 200],  # docs/judge.md: the judge's token only
    "judge_token": [401, 200, 403, 401, 401, 401, 401, 403],  # the organizer hands it over
}


def headers_for(caller: str, game, other) -> dict[str, str]:
    seat = next(iter(game.houses.values()))
    tokens = {
        "nobody": None,
        "organizer": game.organizer,
        "seat": seat,
        "other_organizer": other.organizer,
        "other_seat": next(iter(other.seats.values())),
        "forged": seat.split(".")[0] + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "judge": game.judge,
    }
    if caller == "malformed":
        return {"Authorization": "Basic dXNlcjpwYXNz"}
    token = tokens[caller]
    return {"Authorization": f"Bearer {token}"} if token else {}


def request_as(api: httpx.Client, endpoint: str, game, headers: dict[str, str]) -> httpx.Response:
    g = game.id
    if endpoint == "start":
        return api.post(f"/v1/games/{g}/start", headers=headers)
    if endpoint == "command":
        # a command every seat may send at any time in Planning: amending its own orders is not
        # needed here; passing the Raven is refused by the rules (not a raven holder / wrong step),
        # so send orders built from the seat's own decision when the caller is that seat
        d = api.get(f"/v1/games/{g}/decisions", headers=headers)
        if d.status_code == 200 and d.json()["decisions"]:
            opts = d.json()["decisions"][0]["options"]
            regular = [
                t for t, n in sorted(opts["tokens"].items()) if t not in opts["special_tokens"] for _ in range(n)
            ]
            body = {"type": "assign_orders", "orders": dict(zip(opts["areas"], regular))}
        else:
            body = {"type": "raven_pass"}
        return api.post(f"/v1/games/{g}/commands", json=body, headers=headers)
    if endpoint == "judge":
        view = api.get(f"/v1/games/{g}").json()
        house = view["houses"][0]
        body = {"type": "set_power", "house": house["house"], "power": house["power"], "reason": "recount"}
        return api.post(f"/v1/games/{g}/judge", json=body, headers=headers)
    path = {
        "public_view": f"/v1/games/{g}",
        "seat_view": f"/v1/games/{g}/view",
        "decisions": f"/v1/games/{g}/decisions",
        "events": f"/v1/games/{g}/events",
        "log": f"/v1/games/{g}/log",
        "export": f"/v1/games/{g}/export",
        "judge_token": f"/v1/games/{g}/judge-token",
    }[endpoint]
    return api.get(path, headers=headers)


def check_matrix(api: httpx.Client, game, other) -> list[str]:
    """Every cell of :data:`MATRIX` against the live API: the cells that answered otherwise."""
    wrong = []
    for endpoint, expected in MATRIX.items():
        for caller, status in zip(CALLERS, expected):
            r = request_as(api, endpoint, game, headers_for(caller, game, other))
            if r.status_code != status:
                wrong.append(f"{endpoint} as {caller}: {r.status_code}, expected {status}")
    return wrong
