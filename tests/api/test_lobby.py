"""Streams and lobby (issue 11, item 3), through the live service: the SSE stream ends after the
game does and says so; ``GET /v1/games`` lists public games with filters and cursor paging; one
stream announces "your turn" across several games; private games need an invitation to join and
are never listed. Played with the small test game (``kind: auction``) so that games end in seconds."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from clients.citadel_client import ApiProblem, CitadelClient
from tests.support.game_client import new_started_game
from tests.support.sse import StreamReader, messages
from tests.support.verify_cli import public_key_file, run_verify

SUMMARY_FIELDS = {"game_id", "kind", "status", "seats_taken", "seats_total", "created_at", "version"}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(api: httpx.Client, rounds: int = 1, players: int = 2, **settings: object) -> dict:
    r = api.post(
        "/v1/games",
        json={"kind": "auction", "player_count": players, "settings": {"rounds": rounds, **settings}},
    )
    assert r.status_code == 201, r.text
    return r.json()


def _join(api: httpx.Client, game_id: str, name: str, **body: object) -> httpx.Response:
    return api.post(f"/v1/games/{game_id}/seats", json={"name": name, **body})


def _started(api: httpx.Client, rounds: int = 1) -> tuple[str, dict[str, str]]:
    """A started two-seat auction: its id and seat id -> token."""
    created = _create(api, rounds)
    gid = created["game_id"]
    seats = {}
    for name in ("ada", "bob"):
        j = _join(api, gid, name)
        assert j.status_code == 201, j.text
        seats[j.json()["seat_id"]] = j.json()["token"]
    s = api.post(f"/v1/games/{gid}/start", headers=_auth(created["organizer_token"]))
    assert s.status_code == 200, s.text
    return gid, seats


def _bid(api: httpx.Client, gid: str, token: str, amount: int = 1) -> int:
    r = api.post(f"/v1/games/{gid}/commands", json={"type": "place_bid", "amount": amount}, headers=_auth(token))
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def _version_when(api: httpx.Client, gid: str, pred, what: str, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    view: dict = {}
    while time.monotonic() < end:
        view = api.get(f"/v1/games/{gid}").json()
        if pred(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}: {view}")


def _listed(api: httpx.Client, gid: str, timeout: float = 60, where=None, **params: object) -> dict | None:
    """The game's entry in the list with these filters, once the projector wrote it (and, with
    ``where``, once the entry shows that: the projector may list a game before it projects its
    later events)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for item in _every_page(api, limit=200, **params):
            if item["game_id"] == gid and (where is None or where(item)):
                return item
        time.sleep(0.1)
    return None


def _every_page(api: httpx.Client, **params: object) -> list[dict]:
    out: list[dict] = []
    cursor = None
    while True:
        q = {**params, **({"cursor": cursor} if cursor else {})}
        r = api.get("/v1/games", params=q)
        assert r.status_code == 200, r.text
        page = r.json()
        out += page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            return out


# -- 1. the SSE stream ends with the game -------------------------------------------------------


def test_sse_sends_retry_first_then_ends_after_the_game_with_its_final_version(api, service):
    base, _ = service
    gid, seats = _started(api, rounds=1)
    stream = StreamReader(base, "GET", f"/v1/games/{gid}/events", headers={"Accept": "text/event-stream"})
    assert stream.status == 200
    opening = stream.next()
    assert opening.retry == 3000 and "stream open" in opening.comments, "retry: comes first"
    for token in seats.values():  # the last bid: the worker reveals the only round, and the game ends
        _bid(api, gid, token)
    rest = stream.rest(timeout=60)
    final = _version_when(api, gid, lambda v: v["phase"] == "ended", "the end")["version"]
    ids = [int(m.id) for m in rest if m.id is not None]
    assert rest[-1].event == "end", [m.event for m in rest]
    assert rest[-1].id is None and rest[-1].json() == {"game_id": gid, "version": final, "reason": "game_ended"}
    assert ids[-1] == final and "auction_ended" in [m.event for m in rest], "every event up to the end, then end"

    # a stream opened after the end: the events after `from`, then `end`; asking for nothing new is 204
    with httpx.Client(base_url=base, timeout=10) as c:
        r = c.get(f"/v1/games/{gid}/events", params={"from": final - 1}, headers={"Accept": "text/event-stream"})
        got = list(messages(iter(r.text.split("\n"))))
        assert [m.event for m in got if m.event] == ["auction_ended", "end"], r.text
        again = c.get(f"/v1/games/{gid}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": str(final)})
        assert again.status_code == 204 and again.content == b"", "EventSource stops reconnecting on 204"

        # NDJSON is unchanged: event lines only, and a long-poll at the end answers empty
        nd = c.get(f"/v1/games/{gid}/events", params={"from": final - 2})
        assert nd.headers["content-type"].startswith("application/x-ndjson")
        assert [json.loads(line)["seq"] for line in nd.text.splitlines()] == [final - 1, final]
        waited = c.get(f"/v1/games/{gid}/events", params={"from": final, "wait": 1})
        assert waited.status_code == 200 and waited.text == ""


# -- 4. private games ---------------------------------------------------------------------------


def test_a_private_game_needs_its_invitation_and_is_never_listed(api):
    created = _create(api, private=True)
    gid, org, code = created["game_id"], created["organizer_token"], created["invitation_code"]
    assert code and code.startswith("inv_")

    no_code = _join(api, gid, "eve")
    assert no_code.status_code == 403 and no_code.json()["code"] == "invitation_required", no_code.text
    other = _create(api, private=True)["invitation_code"]
    wrong = _join(api, gid, "eve", invitation=other)
    assert wrong.status_code == 403 and wrong.json()["code"] == "invalid_invitation", wrong.text
    malformed = _join(api, gid, "eve", invitation="let me in")
    assert malformed.status_code == 422 and malformed.json()["code"] == "validation_error", malformed.text
    view = api.get(f"/v1/games/{gid}", params={"min_version": 1}).json()  # the creation, projected or not
    assert view["seats"] == [], "a refused join changes nothing"

    # the organizer can ask for the code again; nobody else can
    again = api.get(f"/v1/games/{gid}/invitation", headers=_auth(org))
    assert again.status_code == 200 and again.json() == {"game_id": gid, "invitation_code": code}
    assert api.get(f"/v1/games/{gid}/invitation").status_code == 401
    ok = _join(api, gid, "ada", invitation=code)
    assert ok.status_code == 201, ok.text
    seat = api.get(f"/v1/games/{gid}/invitation", headers=_auth(ok.json()["token"]))
    assert seat.status_code == 403 and seat.json()["code"] == "forbidden"

    # a public game: no code, joining needs none, and it has no invitation to ask for
    public = _create(api)
    assert public["invitation_code"] is None
    assert _join(api, public["game_id"], "ada").status_code == 201
    none = api.get(f"/v1/games/{public['game_id']}/invitation", headers=_auth(public["organizer_token"]))
    assert none.status_code == 409 and none.json()["code"] == "not_private"

    # the public game created after it is listed, the private one never (the projector has seen both)
    assert _listed(api, public["game_id"], kind="auction") is not None
    assert all(g["game_id"] != gid for g in _every_page(api, limit=200))
    assert all(g["game_id"] != gid for g in _every_page(api, status="open", open_seats="true", limit=200))


def test_a_private_board_game_takes_the_setting_too(api):
    r = api.post("/v1/games", json={"player_count": 3, "settings": {"private": True}})
    assert r.status_code == 201, r.text
    gid, code = r.json()["game_id"], r.json()["invitation_code"]
    assert _join(api, gid, "ada").json()["code"] == "invitation_required"
    assert _join(api, gid, "ada", invitation=code).status_code == 201


# -- 2. the game list -----------------------------------------------------------------------------


def test_the_list_filters_by_status_seats_and_kind_newest_first(api):
    full = _create(api)  # open, every seat taken
    for name in ("ada", "bob"):
        assert _join(api, full["game_id"], name).status_code == 201
    free = _create(api)  # open, a seat free
    assert _join(api, free["game_id"], "ada").status_code == 201
    running, _ = _started(api, rounds=2)
    board = api.post("/v1/games", json={"player_count": 3}).json()["game_id"]

    # the entry once the join is projected (version 2): the creation alone lists it too, seat-less
    entry = _listed(api, free["game_id"], status="open", open_seats="true", where=lambda e: e["version"] >= 2)
    assert entry is not None, "an open game with a free seat is listed under open_seats=true"
    assert set(entry) == SUMMARY_FIELDS, "public facts only"
    assert entry["kind"] == "auction" and entry["seats_taken"] == 1 and entry["seats_total"] == 2
    assert entry["status"] == "open" and entry["version"] == 2 and entry["created_at"].endswith("Z")

    assert (e := _listed(api, full["game_id"], status="open", open_seats="false")) is not None
    assert e["seats_taken"] == e["seats_total"] == 2
    assert (e := _listed(api, running, status="running")) is not None
    assert e["status"] == "running" and e["version"] >= 5
    assert _listed(api, board, kind="board", status="open") is not None

    free_list = {g["game_id"] for g in _every_page(api, status="open", open_seats="true", limit=200)}
    assert free["game_id"] in free_list and full["game_id"] not in free_list and running not in free_list
    running_list = {g["game_id"] for g in _every_page(api, status="running", limit=200)}
    assert running in running_list and free["game_id"] not in running_list
    auctions = _every_page(api, kind="auction", limit=200)
    assert board not in {g["game_id"] for g in auctions} and {g["kind"] for g in auctions} == {"auction"}
    free_items = _every_page(api, open_seats="true", limit=200)
    assert all(g["status"] == "open" and g["seats_taken"] < g["seats_total"] for g in free_items)
    assert _every_page(api, status="running", open_seats="true") == [], "a running game has no free seat"


def test_the_list_pages_with_a_cursor_without_gaps_or_repeats(api):
    mine = [_create(api)["game_id"] for _ in range(5)]
    for gid in mine:
        assert _listed(api, gid, kind="auction", status="open") is not None
    whole = _every_page(api, kind="auction", limit=200)
    paged = _every_page(api, kind="auction", limit=2)
    assert [g["game_id"] for g in paged] == [g["game_id"] for g in whole], "pages of 2 = one page of 200"
    ids = [g["game_id"] for g in paged]
    assert len(ids) == len(set(ids)), "no game twice"
    times = [g["created_at"] for g in paged]
    assert times == sorted(times, reverse=True), "newest first"
    assert [g for g in ids if g in mine] == list(reversed(mine))
    first = api.get("/v1/games", params={"kind": "auction", "limit": 2}).json()
    assert len(first["games"]) == 2 and first["next_cursor"]


def test_the_list_refuses_bad_parameters_clearly(api):
    for params, code in (
        ({"status": "paused"}, "invalid_parameter"),
        ({"limit": 0}, "invalid_parameter"),
        ({"limit": 201}, "invalid_parameter"),
        ({"cursor": "not-a-cursor"}, "invalid_parameter"),
        ({"open_seats": "maybe"}, "invalid_parameter"),
        ({"sort": "name"}, "unknown_parameter"),
    ):
        r = api.get("/v1/games", params=params)
        assert r.status_code == 400 and r.json()["code"] == code, (params, r.text)


# -- 3. your turn, across games -------------------------------------------------------------------


def test_one_stream_announces_turns_in_two_games_until_both_end(api, service):
    base, _ = service
    a, seats_a = _started(api, rounds=2)
    b, seats_b = _started(api, rounds=1)
    (mine_a, other_a), (mine_b, other_b) = sorted(seats_a.items()), sorted(seats_b.items())
    body = {"seats": [{"game_id": a, "token": mine_a[1]}, {"game_id": b, "token": mine_b[1]}]}
    stream = StreamReader(base, "POST", "/v1/turns", json=body)
    assert stream.status == 200
    assert stream.next().retry == 3000

    # both bids are open at once: one turn per game
    first = [stream.next("turn").json(), stream.next("turn").json()]
    assert {(t["game_id"], t["seat_id"]) for t in first} == {(a, mine_a[0]), (b, mine_b[0])}
    assert all(t["deadline"] for t in first)

    # game a, round 1 revealed: round 2 opens, a new turn in a (and nothing for b, which did not move)
    _bid(api, a, mine_a[1])
    _bid(api, a, other_a[1])
    turn = stream.next("turn").json()
    assert (turn["game_id"], turn["seat_id"]) == (a, mine_a[0])
    assert turn["version"] > first[0]["version"]
    decisions = api.get(f"/v1/games/{a}/decisions", params={"min_version": turn["version"]}, headers=_auth(mine_a[1]))
    assert [d["kind"] for d in decisions.json()["decisions"]] == ["place_bid"], "the turn is a real decision"

    # game b ends, then a: each says so, then the stream ends and closes
    _bid(api, b, mine_b[1])
    _bid(api, b, other_b[1])
    ended_b = stream.next("game_ended").json()
    assert ended_b["game_id"] == b and ended_b["seat_id"] == mine_b[0]
    _bid(api, a, mine_a[1])
    _bid(api, a, other_a[1])
    rest = stream.rest(timeout=60)
    assert [m.event for m in rest if m.event] == ["game_ended", "end"], [m.event for m in rest]
    assert rest[0].json()["game_id"] == a


def test_the_turns_stream_checks_every_token_before_it_opens(api, service):
    a, seats_a = _started(api, rounds=1)
    created = _create(api)
    (seat, token), *_ = sorted(seats_a.items())
    cases = (
        ({"seats": [{"game_id": a, "token": token}, {"game_id": created["game_id"], "token": token}]}, 401),
        ({"seats": [{"game_id": created["game_id"], "token": created["organizer_token"]}]}, 403),
        ({"seats": []}, 422),
        ({"seats": [{"game_id": a, "token": token, "house": "stark"}]}, 422),
    )
    for body, status in cases:
        r = api.post("/v1/turns", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    assert api.post("/v1/turns", json=cases[0][0]).json()["code"] == "invalid_token"


def test_a_quiet_turns_stream_stays_open(api, service):
    """A seat that is not awaited gets no turn; the stream stays open (it ends only with the games)."""
    base, _ = service
    gid, seats = _started(api, rounds=1)
    (seat, token), (other, other_token) = sorted(seats.items())
    _bid(api, gid, token)  # my bid is in: I am not awaited, the other seat is
    stream = StreamReader(base, "POST", "/v1/turns", json={"seats": [{"game_id": gid, "token": token}]})
    stream.next()  # retry
    time.sleep(2.5)
    assert stream.got.empty() and not stream.closed.is_set(), "no turn while the other seat decides"
    _bid(api, gid, other_token)
    rest = stream.rest(timeout=60)
    assert [m.event for m in rest if m.event] == ["game_ended", "end"]


def test_a_private_game_exports_and_audits_clean(api, tmp_path):
    """``settings.private`` is part of the creation event: the verifier re-derives it like any setting."""
    key = public_key_file(api, tmp_path)
    created = _create(api, private=True)
    gid, code = created["game_id"], created["invitation_code"]
    tokens = [_join(api, gid, name, invitation=code).json()["token"] for name in ("ada", "bob")]
    assert api.post(f"/v1/games/{gid}/start", headers=_auth(created["organizer_token"])).status_code == 200
    for token in tokens:
        _bid(api, gid, token)
    _version_when(api, gid, lambda v: v["phase"] == "ended", "the end")
    export = api.get(f"/v1/games/{gid}/export").json()
    assert export["events"][0]["event"]["settings"]["private"] is True
    path = tmp_path / "private.json"
    path.write_text(json.dumps(export))
    ok = run_verify(path, "--public-key", key)
    assert ok.returncode == 0 and "VERIFIED" in ok.stdout, ok.stdout + ok.stderr


def test_the_python_client_lists_games_and_joins_a_private_one(service):
    base, _ = service

    async def scenario() -> None:
        async with CitadelClient(base) as c:
            private = await c.create_game(3, settings={"private": True})
            assert private.invitation_code
            org = c.with_token(private.organizer_token)
            assert (await org.invitation(private.game_id)).invitation_code == private.invitation_code
            try:
                await c.join(private.game_id, "eve")
                raise AssertionError("joined a private game without its invitation")
            except ApiProblem as e:
                assert (e.status, e.code) == (403, "invitation_required")
            seat = await c.join(private.game_id, "ada", invitation=private.invitation_code)
            assert seat.seat_id == "seat1"
            public = await c.create_game(3)
            for _ in range(600):  # the projector lists it (a minute at most, on a loaded machine)
                page = await c.list_games(status="open", open_seats=True, kind="board", limit=200)
                if any(g.game_id == public.game_id for g in page.games):
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the public game was never listed")
            assert all(g.game_id != private.game_id for g in page.games)
            assert all(g.status == "open" and g.seats_taken < g.seats_total for g in page.games)

    asyncio.run(scenario())


def test_a_token_that_is_not_ascii_is_refused_not_a_server_error(api, service):
    """A schemathesis run once got a 500 from ``POST /v1/turns``: a generated token like ``seat1.é``
    reached ``hmac.compare_digest``, which raises on non-ASCII text. Such a token is simply not valid:
    401 ``invalid_token``, in a body and in an ``Authorization`` header (a header is Latin-1)."""
    gid, seats = _started(api, rounds=1)
    for token in ("seat1.é", "seat1.\u00ff\u00ff", "é.é", "seat1.abc\u4e2d"):
        r = api.post("/v1/turns", json={"seats": [{"game_id": gid, "token": token}]})
        assert r.status_code == 401 and r.json()["code"] == "invalid_token", (token, r.status_code, r.text)
    for path in (f"/v1/games/{gid}/view", f"/v1/games/{gid}/decisions"):
        r = api.get(path, headers={"Authorization": "Bearer seat1.\xe9t\xe9".encode("latin-1")})
        assert r.status_code == 401 and r.json()["code"] == "invalid_token", (path, r.status_code, r.text)
    assert api.get(f"/v1/games/{gid}/view", headers=_auth(seats["seat1"])).status_code == 200


def test_the_turns_stream_refuses_the_judge_and_a_replaced_seat_and_serves_its_new_player(api, service):
    """The judge has no turns (403, as the organizer); after the judge's ``replace_player`` the seat's
    old token is void (403 ``token_replaced``) and its new token (``seat1~1.…``) gets the seat's turns."""
    base, _ = service
    g = new_started_game(api, players=3)
    r = api.post("/v1/turns", json={"seats": [{"game_id": g.id, "token": g.judge}]})
    assert r.status_code == 403 and r.json()["code"] == "forbidden", r.text
    replaced = api.post(
        f"/v1/games/{g.id}/judge",
        json={"type": "replace_player", "seat_id": "seat1", "name": "stand-in", "reason": "left"},
        headers=_auth(g.judge),
    )
    assert replaced.status_code == 200, replaced.text
    new = replaced.json()["tokens"]["seat1"]
    r = api.post("/v1/turns", json={"seats": [{"game_id": g.id, "token": g.seats["seat1"]}]})
    assert r.status_code == 403 and r.json()["code"] == "token_replaced", r.text
    stream = StreamReader(base, "POST", "/v1/turns", json={"seats": [{"game_id": g.id, "token": new}]})
    assert stream.status == 200
    assert stream.next().retry == 3000
    turn = stream.next("turn").json()  # the Planning phase awaits every seat's orders
    assert (turn["game_id"], turn["seat_id"]) == (g.id, "seat1")
    stream.close()


def test_the_turns_stream_refuses_too_many_seats_and_a_huge_body_clearly(api, service):
    """Limits of ``POST /v1/turns``: 33 seats is 422, a body over the service's limit 413, a token not
    valid for its game (a game that does not exist, a long token beside a good one) 401; each a
    problem, none a server error."""
    gid, seats = _started(api, rounds=1)
    seat = {"game_id": gid, "token": seats["seat1"]}
    cases = (
        ({"seats": [seat] * 33}, 422),
        ({"seats": [{"game_id": "g_" + "0" * 32, "token": "seat1.x"}]}, 401),
        ({"seats": [seat, {"game_id": gid, "token": "x" * 256}]}, 401),
    )
    for body, status in cases:
        r = api.post("/v1/turns", json=body)
        assert r.status_code == status and r.headers["content-type"].startswith("application/problem+json"), r.text
    huge = b'{"seats": [' + b'{"game_id": "g_00000000000000000000000000000000", "token": "t"},' * 40_000 + b"]}"
    r = api.post("/v1/turns", content=huge, headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
