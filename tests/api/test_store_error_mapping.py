"""Every error a down or failing-over store raises answers 503 ``store_unavailable`` with
``Retry-After``, never 500 (issue 8, item 4). CI once saw a 500 on a long-poll after a Redis Cluster
failover: ``RedisClusterException`` was not in the API's map."""

from __future__ import annotations

import pytest
from litestar.middleware._internal.exceptions.middleware import get_exception_handler

from service.http.app import app
from service.http.problems import store_unavailable_handler
from service.store.redis_client import STORE_UNREACHABLE


@pytest.mark.parametrize("kind", STORE_UNREACHABLE, ids=lambda k: k.__name__)
def test_each_store_failure_is_answered_503(kind):
    handler = get_exception_handler(app.exception_handlers, kind("the store is gone"))
    assert handler is store_unavailable_handler
