"""Every error a down or failing-over store raises answers 503 ``store_unavailable`` with
``Retry-After``, never 500 (issue 8, item 4). CI once saw a 500 on a long-poll after a Redis Cluster
failover: ``RedisClusterException`` was not in the API's map."""

from __future__ import annotations

import pytest
from litestar.middleware._internal.exceptions.middleware import get_exception_handler

from service.http.app import app
from service.http.problems import lost_connection, runtime_error_handler, store_unavailable_handler, too_deep_handler
from service.store.redis_client import STORE_UNREACHABLE


@pytest.mark.parametrize("kind", STORE_UNREACHABLE, ids=lambda k: k.__name__)
def test_each_store_failure_is_answered_503(kind):
    handler = get_exception_handler(app.exception_handlers, kind("the store is gone"))
    assert handler is store_unavailable_handler


def test_a_connection_the_store_closed_under_uvloop_is_a_503_and_other_runtime_errors_stay_500():
    """uvloop raises ``RuntimeError`` ("... the handler is closed") when a client writes on a
    connection the store closed; the Cluster failover test once got a 500 for it."""
    closed = RuntimeError("unable to perform operation on <TCPTransport closed=True>; the handler is closed")
    assert get_exception_handler(app.exception_handlers, closed) is runtime_error_handler
    assert lost_connection(closed) and not lost_connection(RuntimeError("a bug"))
    assert get_exception_handler(app.exception_handlers, RecursionError()) is too_deep_handler
