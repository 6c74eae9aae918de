"""Signed webhooks (issue 10, item 8; docs/webhooks.md) through the real API, RQ worker and Redis,
delivered to a receiver on the loopback (a ``http.server`` thread of the test; the test session
allows the loopback with ``CITADEL_WEBHOOK_ALLOW_LOOPBACK=1``, tests/conftest.py).

* a tournament's subscription gets each table's first turn (``turn_start``) signed with its secret
  (HMAC-SHA256 over ``<t>.<body>``), retried after the receiver answered 500 first, and the delivery
  log says so (attempts, last error, then delivered);
* a game's subscription gets its phase ends, combats (BG-COMBAT-12/13) and its end (BG-VIC-01/03)
  when bots play it to a winner;
* URLs the deployment must not call are refused (SSRF): other schemes, credentials, private and
  link-local addresses, loopback unless configured, hosts outside the allow-list.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clients.bot import play_seats
from service.engine.webhooks import UrlPolicy, UrlRefused, WebhookSettings


class Receiver:
    """An HTTP receiver on the loopback that records every request; it answers 500 to the first
    attempt of each delivery when ``fail_first`` is set, 200 otherwise."""

    def __init__(self, fail_first: bool) -> None:
        self.fail_first = fail_first
        self.requests: list[tuple[dict[str, str], bytes, int]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with receiver.lock:
                    seen = any(
                        h.get("citadel-delivery") == headers.get("citadel-delivery") for h, _, _ in receiver.requests
                    )
                    status = 500 if receiver.fail_first and not seen else 200
                    receiver.requests.append((headers, body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def delivered(self) -> list[dict]:
        """The bodies answered 200, once per delivery."""
        with self.lock:
            return [json.loads(b) for _, b, status in self.requests if status == 200]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def flaky() -> Iterator[Receiver]:
    r = Receiver(fail_first=True)
    yield r
    r.close()


@pytest.fixture()
def steady() -> Iterator[Receiver]:
    r = Receiver(fail_first=False)
    yield r
    r.close()


def _wait(predicate, timeout: float = 90.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _verify_signature(secret: str, headers: dict[str, str], body: bytes) -> int:
    """The receiver's check of docs/webhooks.md: returns the signed timestamp."""
    parts = dict(p.split("=", 1) for p in headers["citadel-signature"].split(","))
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, parts["v1"])
    return int(parts["t"])


def test_a_tournament_subscription_is_signed_retried_after_a_500_and_logged(api, flaky):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"players": ["a1", "a2", "a3", "b1", "b2", "b3"], "table_sizes": [3, 3], "start": False}
    t = api.post("/v1/tournaments", json=body, headers=key).json()
    tid = t["tournament_id"]
    org = {"Authorization": f"Bearer {t['organizer_token']}"}
    r = api.post(f"/v1/tournaments/{tid}/webhooks", json={"url": flaky.url, "events": ["turn_start"]}, headers=org)
    assert r.status_code == 201, r.text
    sub, secret = r.json()["subscription"], r.json()["secret"]
    assert secret.startswith("whsec_") and sub["scope"] == "tournament" and sub["events"] == ["turn_start"]
    listed = api.get(f"/v1/tournaments/{tid}/webhooks", headers=org).json()["subscriptions"]
    assert listed == [sub] and "secret" not in listed[0]
    assert api.post(f"/v1/tournaments/{tid}/start", headers=org).json()["not_started"] == []

    # each table's first decision (Planning, BG-ROUND-02) opens a turn: one delivery per table
    _wait(lambda: len(flaky.delivered()) == 2, what="two deliveries answered 200")
    with flaky.lock:
        requests = list(flaky.requests)
    assert [s for _, _, s in requests].count(500) == 2  # each delivery was refused once, then retried
    for headers, raw, _ in requests:
        signed_at = _verify_signature(secret, headers, raw)
        assert abs(signed_at - time.time()) < 60
        assert headers["citadel-event"] == "turn_start" and headers["content-type"] == "application/json"
    forged = requests[0][0] | {"citadel-signature": requests[0][0]["citadel-signature"][:-1] + "0"}
    with pytest.raises(AssertionError):
        _verify_signature(secret, forged, requests[0][1])
    bodies = flaky.delivered()
    assert {b["game_id"] for b in bodies} == {x["game_id"] for x in t["tables"]}
    for b in bodies:
        assert b["type"] == "turn_start" and b["tournament_id"] == tid
        assert b["event"]["type"] == "step_began" and b["event"]["step"] == "assign_orders" and b["event"]["deadline"]
    # the first attempt and its retry carry the same body, each signed at its own time
    first, retry = [(h, raw) for h, raw, _ in requests if h["citadel-delivery"] == bodies[0]["id"]]
    assert first[1] == retry[1]

    # the log: delivered on the second attempt, the 500 recorded while it was pending
    def log() -> list[dict]:
        return api.get(f"/v1/tournaments/{tid}/webhooks/{sub['subscription_id']}/deliveries", headers=org).json()[
            "deliveries"
        ]

    _wait(lambda: {d["status"] for d in log()} == {"delivered"}, what="the log to say delivered")
    entries = log()
    assert len(entries) == 2 and entries[0]["created"] >= entries[1]["created"]  # newest first
    for d in entries:
        assert d["attempts"] == 2 and d["last_status"] == 200 and d["last_error"] is None and d["delivered_at"]
        assert d["event"] == "turn_start"
    # a later round's tables join the tournament's subscription: their first turns arrive too
    r2 = api.post(
        f"/v1/tournaments/{tid}/rounds",
        json={"round": 2, "players": ["b1", "a1", "b2", "a2", "b3", "a3"], "table_sizes": [3, 3]},
        headers=org,
    )
    assert r2.status_code == 201, r2.text
    _wait(lambda: len(flaky.delivered()) == 4, what="the second round's deliveries")
    assert {b["game_id"] for b in flaky.delivered()[2:]} == {x["game_id"] for x in r2.json()["tables"]}
    _wait(lambda: len(log()) == 4 and {d["status"] for d in log()} == {"delivered"}, what="the log of four")

    # the organizer of one table may not read the tournament's log
    table_org = {"Authorization": f"Bearer {t['tables'][0]['organizer_token']}"}
    denied = api.get(f"/v1/tournaments/{tid}/webhooks/{sub['subscription_id']}/deliveries", headers=table_org)
    assert denied.status_code == 401


def test_a_game_subscription_gets_phase_ends_combats_and_the_end(api, service, steady):
    base, _ = service
    t = api.post(
        "/v1/tournaments",
        json={"players": ["x", "y", "z"], "table_sizes": [3], "start": False},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    ).json()
    table = t["tables"][0]
    game_id, org = table["game_id"], {"Authorization": f"Bearer {table['organizer_token']}"}
    events = ["phase_end", "combat_resolved", "game_end"]
    r = api.post(f"/v1/games/{game_id}/webhooks", json={"url": steady.url, "events": events}, headers=org)
    assert r.status_code == 201, r.text
    sub, secret = r.json()["subscription"], r.json()["secret"]
    # a retried subscription (same key) is the same subscription, with the same secret
    key = {"Idempotency-Key": str(uuid.uuid4())}
    once = api.post(
        f"/v1/games/{game_id}/webhooks", json={"url": steady.url, "events": ["game_end"]}, headers=org | key
    )
    twice = api.post(
        f"/v1/games/{game_id}/webhooks", json={"url": steady.url, "events": ["game_end"]}, headers=org | key
    )
    assert once.json() == twice.json()
    assert (
        api.delete(
            f"/v1/games/{game_id}/webhooks/{once.json()['subscription']['subscription_id']}", headers=org
        ).status_code
        == 204
    )
    assert [
        s["subscription_id"] for s in api.get(f"/v1/games/{game_id}/webhooks", headers=org).json()["subscriptions"]
    ] == [sub["subscription_id"]]

    assert api.post(f"/v1/games/{game_id}/start", headers=org).status_code == 200
    seats = {s["seat_id"]: s["token"] for p in t["players"] for s in p["seats"]}
    asyncio.run(play_seats(base, game_id, table["organizer_token"], seats, seed="webhooks"))
    # deliveries to one subscription go one after another, in order: on a loaded machine the last
    # (game_end) of a whole game's may come well after the bots stopped (seen: over 30 s in a full run)
    _wait(lambda: any(b["type"] == "game_end" for b in steady.delivered()), timeout=120, what="game_end")
    export = api.get(f"/v1/games/{game_id}/export").json()["events"]
    combats = [e["seq"] for e in export if e["event"]["type"] == "combat_decided"]  # BG-COMBAT-12/13
    ended = next(e for e in export if e["event"]["type"] == "game_ended")  # BG-VIC-01/03
    phase_ends = [
        e["seq"]
        for e in export
        if e["event"]["type"] in ("action_phase_ended", "westeros_phase_ended")
        or (e["event"]["type"] == "step_began" and e["event"]["step"] == "awaiting_action_phase")
    ]
    expected = len(combats) + len(phase_ends) + 1
    _wait(lambda: len(steady.delivered()) >= expected, timeout=120, what=f"{expected} deliveries")
    got = steady.delivered()
    assert sorted(b["seq"] for b in got if b["type"] == "combat_resolved") == combats
    assert sorted(b["seq"] for b in got if b["type"] == "phase_end") == phase_ends
    end = next(b for b in got if b["type"] == "game_end")
    assert end["seq"] == ended["seq"] and end["event"]["winner"] == ended["event"]["winner"]
    assert len({b["id"] for b in got}) == len(got) == expected  # each once
    with steady.lock:
        for headers, raw, _ in steady.requests:
            _verify_signature(secret, headers, raw)


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("ftp://example.com/hook", "https"),
        ("https://user:pw@example.com/hook", "user"),
        ("http://10.0.0.7/hook", "not a public address"),
        ("http://169.254.169.254/latest/meta-data", "not a public address"),  # cloud metadata
        ("http://[::1]:9/hook", "loopback"),
        ("http://127.0.0.1:9/hook", "loopback"),
        ("http://localhost:9/hook", "loopback"),
    ],
)
def test_urls_the_deployment_must_not_call_are_refused(url, fragment):
    with pytest.raises(UrlRefused, match=fragment):
        UrlPolicy(WebhookSettings()).check(url)  # the defaults: no loopback, https only


def test_the_allow_list_and_http_settings():
    allow = UrlPolicy(WebhookSettings(allowed_hosts=("*.example.org", "localhost"), allow_loopback=True))
    allow.check("http://localhost:9/hook")  # loopback allowed, and http to it
    with pytest.raises(UrlRefused, match="ALLOWED_HOSTS"):
        allow.check("https://127.0.0.1/hook")
    with pytest.raises(UrlRefused, match="ALLOWED_HOSTS"):
        allow.check("https://example.org/hook")  # the bare domain is not a subdomain
    assert WebhookSettings(backoff_s=2).retry_delay(1) == 2 and WebhookSettings(backoff_s=2).retry_delay(4) == 16


def test_the_api_refuses_a_private_url(api):
    t = api.post(
        "/v1/tournaments",
        json={"players": ["q", "r", "s"], "table_sizes": [3], "start": False},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    ).json()
    org = {"Authorization": f"Bearer {t['organizer_token']}"}
    r = api.post(f"/v1/tournaments/{t['tournament_id']}/webhooks", json={"url": "http://192.168.1.10/x"}, headers=org)
    assert r.status_code == 422 and r.json()["code"] == "webhook_url_refused"
    seat = t["players"][0]["seats"][0]
    r = api.post(
        f"/v1/games/{seat['game_id']}/webhooks",
        json={"url": "https://example.com/x"},
        headers={"Authorization": f"Bearer {seat['token']}"},
    )
    assert r.status_code == 403 and r.json()["code"] == "forbidden"


def test_options_lists_every_method_of_a_path(api):
    """Litestar's own OPTIONS answer named only the first method of a path with two (GET and POST)."""
    gid = "g_" + "0" * 32
    assert (
        api.options(f"/v1/games/{gid}/webhooks").headers["allow"] == "GET, HEAD, OPTIONS, POST"
    )  # HEAD wherever GET (service/http/manners.py)
    assert api.options(f"/v1/games/{gid}/commands").headers["allow"] == "OPTIONS, POST"
