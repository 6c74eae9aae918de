"""Live updates: Server-Sent Events stay open across quiet periods and resume with Last-Event-ID."""

import threading
import time

import httpx

from tests.support.game_client import decisions, default_like_orders, new_started_game


def test_sse_stays_open_while_idle_and_delivers_new_events(api, service):
    base, _ = service
    g = new_started_game(api, players=3)
    house, token = next(iter(g.houses.items()))
    orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
    current = api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(g.organizer)).json()["version"]

    def submit_later():
        time.sleep(7)  # longer than redis-py's default socket timeout (5 s)
        api.post(f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=g.auth(token))

    submitter = threading.Thread(target=submit_later, daemon=True)
    submitter.start()
    seen = []
    with httpx.Client(base_url=base, timeout=30) as c:
        with c.stream(
            "GET", f"/v1/games/{g.id}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": str(current)}
        ) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("id: "):
                    seen.append(int(line[4:]))
                if line.startswith("event: orders_submitted"):
                    break
    submitter.join(timeout=10)  # the shared client is not for two threads at once: the next test must not race it
    assert seen == [current + 1], "resumed after Last-Event-ID and got exactly the new event"
