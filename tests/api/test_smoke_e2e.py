"""The Planning phase end to end through the real API, Redis, RQ worker and projector."""

from tests.support.game_client import decisions, new_started_game, submit_all_orders, wait_until


def test_planning_phase_end_to_end_BG_PLAN_01(api):
    """BG-PLAN-01: assign orders, the worker reveals them, the raven holder acts, planning ends."""
    g = new_started_game(api, players=3)
    v = submit_all_orders(api, g)
    # the reveal is done by the RQ worker, not by the last command
    view = wait_until(lambda: (r := api.get(f"/v1/games/{g.id}").json())["step"] == "messenger_raven" and r)
    assert view["version"] > v
    assert all(a.get("order") not in (None, "sealed") for a in view["areas"].values() if a.get("units"))
    holder = view["tracks"]["kings_court"][0]
    d = decisions(api, g, g.houses[holder])
    assert d["decisions"][0]["commands"] == ["raven_replace_order", "raven_peek_wildling", "raven_pass"]
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "raven_pass"}, headers=g.auth(g.houses[holder]))
    assert r.status_code == 200, r.text
    # planning ended with the raven; the worker then opens the Action phase (issue 3)
    after = wait_until(
        lambda: (
            (v := api.get(f"/v1/games/{g.id}").json())["phase"] == "action"
            and v["step"] != "awaiting_action_phase"
            and v
        )
    )
    assert after["round"] == 1
