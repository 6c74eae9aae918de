"""Rate limits and stream caps (API conventions): per verified client, shared by every API replica
through Redis, with nothing per client in the API process.

Each test starts its own API processes with limits on, and talks from its own loopback address
(127.0.0.N) so the per-address buckets of one test never meet another's.
"""

import asyncio
import os
import secrets
import sys
import time

import httpx
import redis

from service.store import embedded_redis
from service.store.rate_limits import Client, RateLimits
from tests.conftest import Procs
from tests.support.game_client import new_started_game, wait_until


def _start(procs: Procs, name: str, env: dict[str, str]) -> str:
    procs.env.update(env)
    port = embedded_redis.free_port()
    args = [sys.executable, "-m", "uvicorn", "service.http.app:app", "--host", "127.0.0.1", "--port", str(port)]
    procs.start(name, [*args, "--no-access-log"])
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: _ready(base), timeout=60)
    return base


def _client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address=address))


def _ready(base):
    try:
        return httpx.get(base + "/readyz", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


def test_token_bucket_in_redis_refills_at_its_rate(redis_url):
    async def run():
        r = redis.asyncio.Redis.from_url(redis_url)
        try:
            rl = RateLimits(r, 16)
            me = Client("g_bucket_test", "seat1")
            # one token every 2 s: a loaded machine's pause between two takes must not refill one
            # (at 2/s, a 0.5 s stall made the fourth take succeed)
            assert [(await rl.take(me, 0.5, 3)).allowed for _ in range(4)] == [True, True, True, False]
            assert (await rl.take(Client(None, "10.0.0.9"), 0.5, 3)).allowed  # buckets are per client
            await asyncio.sleep(2.05)  # one token back, by Redis' clock
            assert (await rl.take(me, 0.5, 3)).allowed
            assert not (await rl.take(me, 0.5, 3)).allowed
            # requests that arrive together share one script call, and still one bucket each
            many = Client("g_bucket_test", "seat2")
            taken = await asyncio.gather(*(rl.take(c, 1, 5) for c in [many] * 12 + [Client(None, "10.0.0.8")] * 3))
            assert [t.allowed for t in taken] == [True] * 5 + [False] * 7 + [True] * 3
            ttl = await r.pttl(me.key("rl", 16))
            assert 0 < ttl <= 7000  # idle buckets vanish once they would be full again (3 / 0.5 s + 1 s)
        finally:
            await r.aclose()

    asyncio.run(run())


def test_the_api_answers_429_with_headers_per_seat_whatever_the_spelling(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    try:
        # one token back every 5 s: the five reads below must not see a refill however slowly a loaded
        # machine sends them (at 1/s, five requests taking over a second got a fourth 200)
        base = _start(procs, "api", {"CITADEL_RATE_LIMIT_PER_S": "0.2", "CITADEL_RATE_LIMIT_BURST": "3"})
        with _client(base, "127.0.0.11") as api:
            g = new_started_game(api, players=3)  # anonymous lobby calls: 10x the limit
            token = next(iter(g.houses.values()))
            spellings = [
                f"Bearer {token}",
                f"bearer {token}",
                f"BEARER   {token}",
                f"BeArEr {token}",
                f"Bearer {token}",
            ]
            url = f"/v1/games/{g.id}/decisions"
            answers = [api.get(url, headers={"Authorization": h}) for h in spellings]
            assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
            limited = answers[-1]
            assert limited.json()["code"] == "rate_limited"
            assert int(limited.headers["retry-after"]) >= 1
            assert limited.headers["ratelimit-limit"] == "3" and limited.headers["ratelimit-remaining"] == "0"
            assert int(limited.headers["ratelimit-reset"]) >= 1
            other = next(t for t in g.houses.values() if t != token)
            assert api.get(url, headers=g.auth(other)).status_code == 200  # another seat, another bucket
            time.sleep(5.1)
            assert api.get(url, headers={"Authorization": f"bearer {token}"}).status_code == 200  # refilled
    finally:
        procs.stop_all()


def test_junk_tokens_share_the_address_bucket(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    try:
        # 0.2/s (the address bucket: 30, 2/s): the loop must empty it however slowly a loaded machine
        # sends (at 10/s, two requests every 0.2 s or slower never would)
        base = _start(procs, "api", {"CITADEL_RATE_LIMIT_PER_S": "0.2", "CITADEL_RATE_LIMIT_BURST": "3"})
        with _client(base, "127.0.0.12") as api:
            g = new_started_game(api, players=3)
            time.sleep(5.1)  # the address bucket (30, 2/s) is full again
            t0 = time.monotonic()
            statuses = []
            for i in range(120):
                junk = ["Bearer ", "bearer  ", "BEARER "][i % 3] + secrets.token_urlsafe(24 + i % 7)
                statuses.append(api.get(f"/v1/games/{g.id}", headers={"Authorization": junk}).status_code)
                api.post("/v1/games", json={}, headers={"Authorization": f"Bearer junk{i}"})  # ignores tokens
            elapsed = time.monotonic() - t0
            accepted = sum(s != 429 for s in statuses)
            assert 429 in statuses
            # one bucket for all of them (30 + 2/s), shared with the token-ignoring calls
            assert accepted <= 30 + 2 * elapsed + 1, (accepted, elapsed)
            assert set(statuses) <= {200, 401, 429}
    finally:
        procs.stop_all()


def test_two_api_processes_share_the_limit(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    env = {"CITADEL_RATE_LIMIT_PER_S": "1", "CITADEL_RATE_LIMIT_BURST": "5"}
    try:
        bases = [_start(procs, "api-a", env), _start(procs, "api-b", env)]
        with _client(bases[0], "127.0.0.13") as a, _client(bases[1], "127.0.0.13") as b:
            g = new_started_game(a, players=3)
            token = next(iter(g.houses.values()))
            accepted = 0
            per_api = [0, 0]
            t0 = time.monotonic()
            i = 0
            # at least 2 s, and on until most requests were refused (a loaded machine sends fewer per
            # second; at 1/s the shared bucket refills slower than any machine sends)
            while time.monotonic() - t0 < 2.0 or (i <= 4 * accepted and time.monotonic() - t0 < 30):
                ok = (a, b)[i % 2].get(f"/v1/games/{g.id}/decisions", headers=g.auth(token)).status_code == 200
                accepted += ok
                per_api[i % 2] += ok
                i += 1
            elapsed = time.monotonic() - t0
            # burst + rate x t for the pair, not twice that (one bucket per API process would give ~14)
            assert 5 <= accepted <= 5 + 1 * elapsed + 1, (accepted, elapsed)
            assert min(per_api) >= 2 and i > 4 * accepted
    finally:
        procs.stop_all()


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def test_junk_headers_neither_grow_the_api_nor_pass(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    try:
        base = _start(procs, "api", {"CITADEL_RATE_LIMIT_PER_S": "100", "CITADEL_RATE_LIMIT_BURST": "400"})
        pid = procs.procs["api"].pid  # uvicorn itself (start_new_session; no reloader)
        with _client(base, "127.0.0.14") as api:
            g = new_started_game(api, players=3)
            huge = api.get(f"/v1/games/{g.id}", headers={"Authorization": "Bearer " + "x" * 300})
            assert huge.status_code == 400 and huge.json()["code"] == "invalid_parameter"
            for i in range(200):  # warm up allocators and pools
                api.get(f"/v1/games/{g.id}", headers={"Authorization": f"Bearer {i}" + os.urandom(25_000).hex()})
            before = _rss_kb(pid)
            statuses = set()
            for i in range(2000):
                junk = f"Bearer {i}." + os.urandom(25_000).hex()  # 50 KB, each one different
                statuses.add(api.get(f"/v1/games/{g.id}", headers={"Authorization": junk}).status_code)
            grown = _rss_kb(pid) - before
            assert statuses == {400}
            assert grown < 10 * 1024, f"the API grew by {grown} kB"
    finally:
        procs.stop_all()


def test_open_streams_are_capped_per_client_and_released(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    env = {"CITADEL_RATE_LIMIT_PER_S": "100", "CITADEL_RATE_LIMIT_BURST": "400", "CITADEL_MAX_STREAMS_PER_CLIENT": "3"}
    try:
        base = _start(procs, "api", env)
        with _client(base, "127.0.0.15") as api:
            g = new_started_game(api, players=3)
            token, other = list(g.houses.values())[:2]
        url = f"/v1/games/{g.id}/events?from=1000000&wait=5"

        async def open_streams() -> int:
            """The seat's open-stream counter in Redis (service/store/rate_limits.py)."""
            r = redis.asyncio.Redis.from_url(redis_url)
            try:
                return sum([int(await r.get(k) or 0) async for k in r.scan_iter(match=f"*:streams:game:{g.id}:*")])
            finally:
                await r.aclose()

        async def run():
            transport = httpx.AsyncHTTPTransport(local_address="127.0.0.15")
            async with httpx.AsyncClient(base_url=base, timeout=15, transport=transport) as c:
                polls = [asyncio.create_task(c.get(url, headers=g.auth(token))) for _ in range(3)]
                # the three long-polls hold their slots (a fixed 1 s was not always enough under load)
                for _ in range(600):
                    if await open_streams() >= 3:
                        break
                    await asyncio.sleep(0.05)
                fourth = await c.get(url, headers={"Authorization": f"bearer  {token}"})
                assert fourth.status_code == 429 and fourth.json()["code"] == "too_many_streams"
                assert int(fourth.headers["retry-after"]) >= 1
                # another seat is another client
                assert (await c.get(url.replace("wait=5", "wait=1"), headers=g.auth(other))).status_code == 200
                assert [p.status_code for p in await asyncio.gather(*polls)] == [200, 200, 200]
                # the slots were released when the long-polls ended
                again = [c.get(url.replace("wait=5", "wait=1"), headers=g.auth(token)) for _ in range(3)]
                assert [a.status_code for a in await asyncio.gather(*again)] == [200, 200, 200]
                # an SSE stream holds a slot until it closes
                async with c.stream(
                    "GET", f"/v1/games/{g.id}/events", headers={**g.auth(token), "Accept": "text/event-stream"}
                ) as s:
                    assert s.status_code == 200
                    await s.aiter_bytes().__anext__()

        asyncio.run(run())
        r = redis.Redis.from_url(redis_url)
        try:
            wait_until(lambda: not list(r.scan_iter(match="*:streams:*")), timeout=60)
        finally:
            r.close()
    finally:
        procs.stop_all()
