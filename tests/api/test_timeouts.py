"""Every pending decision has a deadline; a scheduled RQ job applies the documented default.

Defaults (domain/board/timeouts.py): missing orders are placed by a fixed rule; the raven is not used.
"""

from datetime import datetime

from domain.core.context import parse_rfc3339
from tests.support.game_client import create, join_all, start, wait_until


def test_deadlines_fire_documented_defaults_through_the_worker(api):
    g = create(api, players=3, timeout_s=1)
    join_all(api, g, 3)
    started = start(api, g)
    view = api.get(f"/v1/games/{g.id}", params={"min_version": started["version"]}).json()
    assert view["deadline"] is not None
    # nobody acts: orders are placed by default, revealed, the raven is skipped, planning ends
    # (the worker then opens the Action phase at once, so wait for the raven's timeout event)
    wait_until(lambda: '"raven_passed"' in api.get(f"/v1/games/{g.id}/events", params={"from": 0}).text, timeout=60)
    events = [line for line in api.get(f"/v1/games/{g.id}/events", params={"from": 0}).text.splitlines()]
    import json

    types = [json.loads(e)["event"]["type"] for e in events]
    timed_out = [json.loads(e)["event"] for e in events if json.loads(e)["event"]["type"] == "decision_timed_out"]
    assert [t["step"] for t in timed_out] == ["assign_orders", "messenger_raven"]
    assert sorted(timed_out[0]["houses"]) == sorted(g.houses)
    assert types.count("orders_submitted") == 3
    assert types.count("orders_revealed") == 1, "the reveal happened exactly once"
    passed = [json.loads(e)["event"] for e in events if json.loads(e)["event"]["type"] == "raven_passed"]
    assert passed and passed[0]["by_default"] is True
    # the default orders are the documented ones: defense first, no special orders
    revealed = next(json.loads(e)["event"] for e in events if json.loads(e)["event"]["type"] == "orders_revealed")
    for _house, orders in revealed["orders"].items():
        placed = [orders[a] for a in sorted(orders)]
        assert placed[:2] == ["defense_plus_1", "defense_plus_1"][: len(placed)]
        assert not any(o.endswith("_special") for o in placed)


def test_a_late_timeout_changes_nothing(api):
    """A timeout whose step is over is void: players who acted in time keep their orders."""
    from tests.support.game_client import decisions, default_like_orders

    # 6 s: the three seats' decisions and orders (six requests) must all land before the deadline,
    # which a loaded machine did not always do within 2 s
    g = create(api, players=3, timeout_s=6)
    join_all(api, g, 3)
    started = start(api, g)
    deadline = api.get(f"/v1/games/{g.id}", params={"min_version": started["version"]}).json()["deadline"]
    sent = {}
    for house, token in g.houses.items():
        orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
        orders = {a: o for a, o in orders.items()}
        sent[house] = orders
        assert (
            api.post(
                f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=g.auth(token)
            ).status_code
            == 200
        )
    wait_until(lambda: api.get(f"/v1/games/{g.id}").json()["step"] == "messenger_raven")
    import time

    left = (parse_rfc3339(deadline) - datetime.now(parse_rfc3339(deadline).tzinfo)).total_seconds()
    time.sleep(max(0.0, left) + 2.5)  # the assign-orders deadline passes; its job must do nothing
    import json

    events = [
        json.loads(line)["event"] for line in api.get(f"/v1/games/{g.id}/events", params={"from": 0}).text.splitlines()
    ]
    assert [e["step"] for e in events if e["type"] == "decision_timed_out"] in ([], ["messenger_raven"])
    revealed = next(e for e in events if e["type"] == "orders_revealed")
    assert revealed["orders"] == sent
