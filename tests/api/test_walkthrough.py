"""The walkthrough (docs/api-walkthrough.md) is generated, not written: scripts/walkthrough.py runs
every call it shows against the live service and renders the answers, with placeholders for what
differs per run. This test runs it again against the test suite's service and fails when the
checked-in page differs from the fresh one, so the page can never again show answers of older code
or commands that fail as written (issue 11, item 7)."""

from __future__ import annotations

import difflib
import subprocess
import sys

import httpx
import pytest

from service.processes import api_command
from service.store import embedded_redis
from tests.conftest import ROOT, Procs
from tests.support.game_client import wait_until

PAGE = ROOT / "docs" / "api-walkthrough.md"
REGENERATE = ".venv/bin/python scripts/walkthrough.py --serve"
CORS_ORIGIN = "https://app.example"
"""The origin the walkthrough shows CORS for (``CORS_ORIGIN`` in scripts/walkthrough.py, whose ``--serve``
lists it too)."""


def _ready(base: str) -> bool:
    try:
        return httpx.get(base + "/readyz", timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture()
def walkthrough_api(service, redis_url, tmp_path_factory):
    """An API process of its own beside the suite's worker and projector, configured like the
    walkthrough's ``--serve``: ``CITADEL_CORS_ORIGINS`` lists the page's origin (the suite's own API
    has CORS off, as a deployment has by default)."""
    procs = Procs(redis_url, tmp_path_factory.mktemp("walkthrough"))
    procs.env["CITADEL_CORS_ORIGINS"] = CORS_ORIGIN
    port = embedded_redis.free_port()
    procs.start("api", api_command("127.0.0.1", port))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _ready(base), timeout=60)
        yield base
    finally:
        procs.stop_all()


def test_the_walkthrough_is_what_the_service_answers_today(walkthrough_api, tmp_path):
    base = walkthrough_api
    fresh = tmp_path / "api-walkthrough.md"
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "walkthrough.py"), "--base", base, "--output", str(fresh)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, f"the walkthrough's generator failed:\n{run.stdout}\n{run.stderr}"
    expected, got = PAGE.read_text(), fresh.read_text()
    if expected != got:
        diff = list(
            difflib.unified_diff(
                expected.splitlines(),
                got.splitlines(),
                "docs/api-walkthrough.md (checked in)",
                "a fresh run",
                lineterm="",
                n=2,
            )
        )
        excerpt = "\n".join(diff[:80]) + ("\n…" if len(diff) > 80 else "")
        raise AssertionError(
            f"docs/api-walkthrough.md differs from a fresh run ({len(diff)} diff lines); "
            f"regenerate it with `{REGENERATE}` and review the change:\n{excerpt}"
        )
