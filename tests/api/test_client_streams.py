"""The client's event iterators, retries and idempotency keys (issue 11, item 2), against the live
service, with the network failing under the client for real (:class:`FlakyProxy` cuts connections
mid-answer).

* ``iter_sse`` (Server-Sent Events, resumed with ``Last-Event-ID``) and ``iter_events`` (NDJSON
  long-polls, resumed with ``from``), async and sync, deliver every event of a game exactly once, in
  order, although connections are cut in the middle of messages, and stop by themselves after the
  game's end (``game_ended``, BG-VIC-01/02), as they would on an ``event: end``;
* a command whose answer is lost is sent again with the same ``Idempotency-Key`` and applied once;
* 429 answers are retried no sooner than their ``Retry-After`` says;
* the sync and async clients have the same operations, with the same parameters.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from clients.bot import RandomBot, fallback_command
from clients.citadel_client import (
    CitadelClient,
    Endpoints,
    EventCursor,
    EventOut,
    SseParser,
    StreamGap,
    SyncCitadelClient,
)
from clients.citadel_client.endpoints import endpoint
from clients.citadel_client.retry import RetryPolicy, retry_after_seconds
from service.processes import api_command
from service.store import embedded_redis
from tests.conftest import Procs
from tests.support.flaky_proxy import FlakyProxy
from tests.support.game_client import api_ready, wait_until

LAST_ROUND = {
    "round": 10,
    "areas": {
        "winterfell": {"house": "stark", "units": {"footman": 2}},
        "lannisport": {"house": "lannister", "units": {"footman": 2}},
        "dragonstone": {"house": "baratheon", "units": {"footman": 2}},
    },
}
"""A 3-player game in its last round: played by bots it ends within seconds (BG-VIC-02)."""


def _random_cuts(seed: int):
    rng = random.Random(seed)
    return lambda n: rng.randint(150, 2500)


@dataclass
class FollowedGame:
    game_id: str
    final: int
    """The version of ``game_ended``."""
    sse: list[EventOut]
    polled: list[EventOut]
    connections: int
    cuts: int


async def _collect(events) -> list[EventOut]:
    return [e async for e in events]


async def _follow_while_bots_play(base: str) -> FollowedGame:
    async with CitadelClient(base, timeout=20) as api:
        game = await api.create_game(3, {"decision_timeout_s": 60}, LAST_ROUND)
        seats = [await api.join(game.game_id, f"bot {i}") for i in range(3)]
        with FlakyProxy(base, _random_cuts(1)) as proxy:
            async with CitadelClient(proxy.base, timeout=20, transport_retries=50) as watcher:
                sse = asyncio.create_task(_collect(watcher.iter_sse(game.game_id)))
                polled = asyncio.create_task(_collect(watcher.iter_events(game.game_id, wait=5, limit=4)))
                await api.with_token(game.organizer_token).start(game.game_id)
                bots = [RandomBot(base, game.game_id, s.token, seed=i, wait_s=5) for i, s in enumerate(seats)]
                await asyncio.gather(*(b.run() for b in bots))
                # the followers end by themselves after game_ended: no cancellation here
                sse_events, polled_events = await asyncio.wait_for(asyncio.gather(sse, polled), timeout=120)
            connections, cuts = proxy.connections, proxy.cuts
        # the stream's last version, from the export: the projected view may lag the game's end a moment
        final = (await api.export(game.game_id)).version
    return FollowedGame(game.game_id, final, sse_events, polled_events, connections, cuts)


@pytest.fixture(scope="module")
def followed(service) -> FollowedGame:
    base, _ = service
    return asyncio.run(_follow_while_bots_play(base))


def _contiguous(events: list[EventOut], first: int, last: int) -> None:
    assert [e.seq for e in events] == list(range(first, last + 1))
    assert events[-1].event["type"] == "game_ended"


def test_async_iterators_follow_a_live_game_through_dropped_connections(followed):
    """Followed from version 0 while bots play, through connections cut at random byte counts:
    every event once, in order, to ``game_ended``, where both iterators stop by themselves."""
    assert followed.cuts >= 4 and followed.connections > followed.cuts
    _contiguous(followed.sse, 1, followed.final)
    _contiguous(followed.polled, 1, followed.final)
    assert [e.event["type"] for e in followed.sse] == [e.event["type"] for e in followed.polled]
    assert all(e.ts for e in followed.polled)  # NDJSON lines carry their time; SSE messages do not


def test_sync_iterators_replay_a_finished_game_through_dropped_connections(service, followed):
    base, _ = service
    for seed, read in [
        (2, lambda api: api.iter_sse(followed.game_id)),
        (3, lambda api: api.iter_events(followed.game_id, limit=3)),
    ]:
        with FlakyProxy(base, _random_cuts(seed)) as proxy, SyncCitadelClient(proxy.base, transport_retries=50) as api:
            events = list(read(api))
            assert proxy.cuts >= 3
        _contiguous(events, 1, followed.final)
        with SyncCitadelClient(base) as direct:
            assert [e.event for e in events] == [
                e.event for e in direct.events(followed.game_id)
            ]  # after the end everything is public: both transports send the same events


def test_iterators_resume_from_a_version_and_end_at_once_after_the_end(service, followed):
    base, _ = service

    async def run() -> None:
        async with CitadelClient(base) as api:
            tail = await _collect(api.iter_sse(followed.game_id, after=followed.final - 3))
            assert [e.seq for e in tail] == [followed.final - 2, followed.final - 1, followed.final]
            t0 = time.monotonic()
            assert await _collect(api.iter_sse(followed.game_id, after=followed.final)) == []
            assert await _collect(api.iter_events(followed.game_id, after=followed.final)) == []
            # no waiting for events that will never come: one long-poll would hold 30 s (iter_events'
            # wait); 20 s leaves a loaded machine room for the two requests
            assert time.monotonic() - t0 < 20

    asyncio.run(run())
    with SyncCitadelClient(base) as api:
        assert list(api.iter_sse(followed.game_id, after=followed.final)) == []
        assert [e.seq for e in api.iter_events(followed.game_id, after=followed.final - 1)] == [followed.final]


def test_a_command_whose_answer_is_lost_is_sent_again_and_applied_once(service):
    """The proxy lets the command reach the server, then cuts the connection before the answer:
    the client sends it again on a new connection with the same ``Idempotency-Key`` and receives
    the first answer (API conventions, Retries); the stream holds one ``orders_submitted``."""
    base, _ = service
    with SyncCitadelClient(base) as api:
        game = api.create_game(3, {"decision_timeout_s": 600})
        seats = [api.join(game.game_id, f"p{i}") for i in range(3)]
        api.with_token(game.organizer_token).start(game.game_id)
        player = api.with_token(seats[0].token)
        ds = player.decisions(game.game_id)
        (d,) = ds.decisions
    with FlakyProxy(base, lambda n: 0 if n == 0 else None) as proxy:
        with SyncCitadelClient(proxy.base, seats[0].token) as flaky:
            accepted = flaky.command(game.game_id, fallback_command(d), if_match=ds.version)
            assert (proxy.cuts, flaky.requests) == (1, 2)
    assert accepted.version == ds.version + 1
    assert [e.event["type"] for e in accepted.events] == ["orders_submitted"]
    with SyncCitadelClient(base) as api:
        after = api.events(game.game_id, ds.version)
        assert [e.event["type"] for e in after] == ["orders_submitted"] and after[0].seq == accepted.version
        assert after[0].event["house"] == d.house


def test_rate_limited_requests_wait_for_retry_after(redis_url, tmp_path):
    """An API limited to 1 request/s per seat (bursts of 2): six reads in a row all succeed, and
    each retry leaves no sooner than the ``Retry-After`` of the 429 before it."""
    procs = Procs(redis_url, tmp_path)
    try:
        procs.env.update({"CITADEL_RATE_LIMIT_PER_S": "1", "CITADEL_RATE_LIMIT_BURST": "2"})
        port = embedded_redis.free_port()
        procs.start("api", api_command("127.0.0.1", port))
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=1) as probe:
            wait_until(lambda: api_ready(probe), timeout=60)
        limited: list[tuple[float, float]] = []  # (when the 429 came, its Retry-After)
        sent: list[float] = []

        def on_request(request: httpx.Request) -> None:
            sent.append(time.monotonic())

        def on_response(response: httpx.Response) -> None:
            if response.status_code == 429:
                limited.append((time.monotonic(), float(response.headers["retry-after"])))

        http = httpx.Client(
            base_url=base,
            timeout=60,
            transport=httpx.HTTPTransport(local_address="127.0.0.31"),
            event_hooks={"request": [on_request], "response": [on_response]},
        )
        with http, SyncCitadelClient(base, http=http) as api:
            game = api.create_game(3)
            seat = api.join(game.game_id, "patient")
            me = api.with_token(seat.token)
            sent.clear()
            for _ in range(6):
                assert me.view(game.game_id, own=True).game_id == game.game_id
            assert limited and me.requests == 6 + len(limited)
            for at, wait in limited:
                retry = next(t for t in sent if t > at)
                assert retry - at >= wait - 0.01, (retry - at, wait)
    finally:
        procs.stop_all()


def test_the_sync_and_async_clients_have_the_same_operations():
    operations = {name for name, v in vars(Endpoints).items() if isinstance(v, endpoint)}
    assert {"create_game", "join", "start", "decisions", "command", "view", "events", "export", "log"} <= operations
    sync, aio = SyncCitadelClient("http://x"), CitadelClient("http://x")
    for name in operations:
        build = inspect.signature(vars(Endpoints)[name].build)
        params = list(build.parameters.values())[1:]  # without self
        assert list(inspect.signature(getattr(sync, name)).parameters.values()) == params, name
        assert list(inspect.signature(getattr(aio, name)).parameters.values()) == params, name
        assert inspect.iscoroutinefunction(getattr(aio, name)) and not inspect.iscoroutinefunction(getattr(sync, name))
        assert getattr(sync, name).__doc__ == vars(Endpoints)[name].build.__doc__
    sync.close()
    asyncio.run(aio.aclose())


# --- the pieces without the network -------------------------------------------------------------------


def _messages(text: str) -> list:
    parser = SseParser()
    return [msg for line in text.split("\n") if (msg := parser.feed(line)) is not None]


def test_sse_messages_are_read_as_the_standard_says():
    text = (
        ": stream open\n\n"
        'id: 7\nevent: orders_revealed\ndata: {"type": "orders_revealed",\n'
        'data: "round": 1}\n\n'
        ": keep-alive\n\n"
        'retry: 2500\nid: 8\nevent: game_ended\ndata:{"type":"game_ended"}\n\n'
        "event: end\ndata: {}\n\n"
        "event: end\n\n"
        'id: 9\ndata: {"cut": '  # a message cut off by the connection: never delivered
    )
    got = _messages(text)
    assert [(m.id, m.event) for m in got] == [
        ("7", "orders_revealed"),
        ("8", "game_ended"),
        (None, "end"),
        (None, "end"),
    ]
    assert got[0].data == '{"type": "orders_revealed",\n"round": 1}' and got[1].retry_ms == 2500

    cursor = EventCursor(6)
    assert cursor.message(got[0]) == EventOut(seq=7, event={"type": "orders_revealed", "round": 1})
    assert cursor.message(got[0]) is None  # sent again after a reconnection: dropped
    assert not cursor.ended and cursor.message(got[1]) is not None and cursor.ended and cursor.retry_s == 2.5


def test_an_end_message_or_an_ending_event_ends_the_cursor():
    cursor = EventCursor(3)
    cursor.message(_messages("retry: 10000\nevent: end\ndata: {}\n\n")[0])
    assert cursor.ended and cursor.retry_s == 10.0
    opening = EventCursor(0)  # a stream that opens with its reconnection advice alone
    assert opening.message(_messages(": stream open\nretry: 3000\n\n")[0]) is None
    assert opening.retry_s == 3.0 and not opening.ended
    resumed = EventCursor(12)
    resumed.begin([EventOut(seq=12, event={"type": "game_ended"})])
    assert resumed.ended
    gap = EventCursor(3)
    with pytest.raises(StreamGap):
        gap.take(EventOut(seq=5, event={"type": "x"}))


def test_retry_after_in_seconds_or_as_a_date():
    now = datetime(2026, 12, 1, 8, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds(format_datetime(now + timedelta(seconds=30), usegmt=True), now) == 30.0
    assert retry_after_seconds(format_datetime(now - timedelta(seconds=30), usegmt=True), now) == 0.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
    policy = RetryPolicy(retries=2, rng=random.Random(1))
    assert 4.0 <= policy.after_answer(0, 429, "4") <= 5.0  # never sooner than asked
    assert policy.after_answer(0, 503, None) >= 1.0
    assert policy.after_answer(2, 429, "1") is None and policy.after_answer(0, 409, "1") is None
    assert [RetryPolicy(transport_retries=2).after_error(a) for a in range(3)] == [0.2, 0.4, None]
