"""Many clients at once never lose or duplicate an event, and the hash chain verifies."""

import asyncio

import httpx
import msgspec

from domain.core.envelope import verify_chain
from service.store.event_store import decode_entry
from service.store.keys import Keys
from tests.support.game_client import create, decisions, default_like_orders, new_started_game


def _envelopes(sync_redis, game_id):
    return [decode_entry(f) for _, f in sync_redis.xrange(Keys(game_id, 16).events)]


def test_concurrent_submissions_lose_and_duplicate_nothing(api, service, sync_redis):
    base, _ = service
    g = new_started_game(api, players=6)
    houses = list(g.houses)
    amenders = houses[:-1]  # the last house never submits, so the step stays open
    options = {h: decisions(api, g, g.houses[h])["decisions"][0]["options"] for h in amenders}
    start_len = len(_envelopes(sync_redis, g.id))
    per_client = 15

    async def client(house: str, n: int) -> list[int]:
        versions = []
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            for i in range(n):
                orders = default_like_orders(options[house])
                if i % 2:
                    orders = dict(reversed(list(orders.items())))
                    orders = dict(zip(orders, orders.values()))
                r = await c.post(
                    f"/v1/games/{g.id}/commands",
                    json={"type": "assign_orders", "orders": orders},
                    headers={"Authorization": f"Bearer {g.houses[house]}", "Idempotency-Key": f"{house}-{i}"},
                )
                assert r.status_code == 200, r.text
                versions.append(r.json()["version"])
        return versions

    async def main():
        # 3 concurrent clients per house, 15 commands each
        tasks = [client(h, per_client) for h in amenders for _ in range(3)]
        return await asyncio.gather(*tasks)

    results = asyncio.run(main())
    accepted = sum(len(v) for v in results)
    all_versions = sorted(v for vs in results for v in vs)
    envs = _envelopes(sync_redis, g.id)
    # same idempotency key from three clients: appended once, answered three times
    distinct_keys = len(amenders) * per_client
    assert accepted == 3 * distinct_keys
    assert len(envs) == start_len + distinct_keys, "each distinct command appended exactly once"
    assert [e.seq for e in envs] == list(range(1, len(envs) + 1)), "no gap, no duplicate"
    verify_chain(envs)
    assert set(all_versions) <= set(range(start_len + 1, len(envs) + 1))


def test_concurrent_joins_fill_each_seat_exactly_once(service, sync_redis):
    base, _ = service
    with httpx.Client(base_url=base) as c:
        g = create(c, players=5)

    async def join(i):
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            return await c.post(f"/v1/games/{g.id}/seats", json={"name": f"p{i}"})

    async def main():
        return await asyncio.gather(*[join(i) for i in range(20)])

    answers = asyncio.run(main())
    ok = [r for r in answers if r.status_code == 201]
    assert len(ok) == 5
    assert all(r.status_code == 409 and r.json()["code"] == "game_full" for r in answers if r.status_code != 201)
    assert sorted(r.json()["seat_id"] for r in ok) == [f"seat{i}" for i in range(1, 6)]
    envs = _envelopes(sync_redis, g.id)
    assert len(envs) == 6
    verify_chain(envs)
    joined = [msgspec.json.decode(e.event) for e in envs[1:]]
    assert len({j["seat_id"] for j in joined}) == 5
