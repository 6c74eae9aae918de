"""Rate limits answer 429 with Retry-After and RateLimit-* headers (API conventions)."""

import httpx
import pytest

from service.http.errors import ApiError
from service.http.ratelimit import RateLimiter
from service.store import embedded_redis
from tests.conftest import Procs
from tests.support.game_client import new_started_game, wait_until


def test_token_bucket_refills_at_its_rate():
    now = [0.0]
    rl = RateLimiter(per_second=2, burst=3, clock=lambda: now[0])
    for _ in range(3):
        rl.check("t")
    with pytest.raises(ApiError) as e:
        rl.check("t")
    assert e.value.status == 429 and e.value.extra["retry_after"] == 1
    rl.check("other")  # buckets are per client
    now[0] += 0.5  # one token back
    rl.check("t")
    with pytest.raises(ApiError):
        rl.check("t")


def test_the_api_answers_429_with_headers(redis_url, tmp_path):
    procs = Procs(redis_url, tmp_path)
    procs.env.update({"CITADEL_RATE_LIMIT_PER_S": "1", "CITADEL_RATE_LIMIT_BURST": "3"})
    port = embedded_redis.free_port()
    procs.start_api(port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _ready(base), timeout=20)
        with httpx.Client(base_url=base, timeout=10) as api:
            g = new_started_game(api, players=3)  # anonymous lobby calls: 10x the limit
            token = next(iter(g.houses.values()))
            answers = [api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(token)) for _ in range(5)]
            assert [a.status_code for a in answers[:3]] == [200, 200, 200]
            limited = answers[-1]
            assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
            assert int(limited.headers["retry-after"]) >= 1
            assert limited.headers["ratelimit-limit"] == "3" and limited.headers["ratelimit-remaining"] == "0"
            other = next(t for t in g.houses.values() if t != token)
            assert api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(other)).status_code == 200
    finally:
        procs.stop_all()


def _ready(base):
    try:
        return httpx.get(base + "/readyz", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False
