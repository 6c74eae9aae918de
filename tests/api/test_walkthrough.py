"""The walkthrough (docs/api-walkthrough.md) is generated, not written: scripts/walkthrough.py runs
every call it shows against the live service and renders the answers, with placeholders for what
differs per run. This test runs it again against the test suite's service and fails when the
checked-in page differs from the fresh one, so the page can never again show answers of older code
or commands that fail as written (issue 11, item 7)."""

from __future__ import annotations

import difflib
import subprocess
import sys

from tests.conftest import ROOT

PAGE = ROOT / "docs" / "api-walkthrough.md"
REGENERATE = ".venv/bin/python scripts/walkthrough.py --serve"


def test_the_walkthrough_is_what_the_service_answers_today(service, tmp_path):
    base, _ = service
    fresh = tmp_path / "api-walkthrough.md"
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "walkthrough.py"), "--base", base, "--output", str(fresh)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
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
