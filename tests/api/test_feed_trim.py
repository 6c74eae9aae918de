"""Partition feeds trimmed by what every consumer group acknowledged (service/store/feeds.py, issue 12).

Run against a database of its own (no service reads it): a feed with the projector's group and the
webhooks' group, some entries handed out and acknowledged, some pending, some not handed out yet.
"""

from __future__ import annotations

import pytest
import redis

from service.store.feeds import PROJECTOR_GROUP, trim_acknowledged
from service.store.keys import feed_key
from tests.conftest import claim_database, release_database


@pytest.fixture()
def r(redis_url):
    url = claim_database(redis_url.rsplit("/", 1)[0], range(8, 1, -1))
    client = redis.Redis.from_url(url)
    yield client
    client.close()
    release_database(url)


def _feed(r, n: int) -> list[bytes]:
    return [r.xadd(feed_key(0), {"g": "g_x", "v": i}, id=f"{i}-0") for i in range(1, n + 1)]


def test_entries_every_group_acknowledged_are_removed_and_the_rest_kept(r):
    ids = _feed(r, 10)
    key = feed_key(0)
    r.xgroup_create(key, PROJECTOR_GROUP, id="0")
    r.xgroup_create(key, "webhooks", id="0")
    handed = r.xreadgroup(PROJECTOR_GROUP, "p", {key: ">"}, count=8)[0][1]
    r.xack(key, PROJECTOR_GROUP, *[i for i, _ in handed[:5]])  # 6..8 pending for the projector
    hooks = r.xreadgroup("webhooks", "w", {key: ">"}, count=7)[0][1]
    r.xack(key, "webhooks", *[i for i, _ in hooks])  # 8..10 not yet handed to webhooks

    assert trim_acknowledged(r, 0) == 5
    assert [i for i, _ in r.xrange(key)] == ids[5:], "entry 6 is pending for the projector: kept from there"

    r.xack(key, PROJECTOR_GROUP, *[i for i, _ in handed[5:]])
    assert trim_acknowledged(r, 0) == 2
    assert [i for i, _ in r.xrange(key)] == ids[7:], "entry 8 was never handed to the webhooks' group"


def test_a_feed_the_projector_has_not_read_yet_is_left_alone(r):
    _feed(r, 5)
    r.xgroup_create(feed_key(0), "webhooks", id="$")
    assert trim_acknowledged(r, 0) == 0
    assert r.xlen(feed_key(0)) == 5
    assert trim_acknowledged(r, 1) == 0, "a partition without a feed"


def test_everything_acknowledged_leaves_an_empty_feed_that_still_takes_entries(r):
    _feed(r, 4)
    key = feed_key(0)
    r.xgroup_create(key, PROJECTOR_GROUP, id="0")
    got = r.xreadgroup(PROJECTOR_GROUP, "p", {key: ">"})[0][1]
    r.xack(key, PROJECTOR_GROUP, *[i for i, _ in got])
    assert trim_acknowledged(r, 0) == 4
    assert r.xlen(key) == 0
    r.xadd(key, {"g": "g_x", "v": 5}, id="5-0")
    assert r.xreadgroup(PROJECTOR_GROUP, "p", {key: ">"})[0][1][0][0] == b"5-0"
