"""The API process freezes what it built at start (``service.http.app.freeze_startup_objects``), so
the collector's full passes stop walking the app, its schema and the modules (docs/benchmarks.md)."""

import gc

from litestar.testing import TestClient

from service.http.app import create_app


def test_the_api_freezes_its_startup_objects(redis_url):  # the app's runtime reads REDIS_URL
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        with TestClient(create_app()) as client:
            assert gc.get_freeze_count() > 10_000, "the app, its routes and the modules are frozen"
            assert client.get("/healthz").status_code == 200
    finally:
        gc.unfreeze()
