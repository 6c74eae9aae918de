"""Print schemathesis' figures per check: how many answers of the live service each check of
``--checks all`` judged, and how many it failed.

    .venv/bin/python scripts/schemathesis_report.py [pytest options]

It runs ``tests/api/test_schemathesis.py`` (the suite's own live service: API, worker and projector on
a real Redis) and prints the table that module's last test writes: per check, the answers judged
and failed in the generated cases (positive and negative data, every operation, half of them on a
real started game with a real seat token) and in the stateful workflows (chains of calls along the
document's links). Exit status: pytest's (non-zero when any check failed any answer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = "tests/api/test_schemathesis.py"


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "checks.json"
        env = {**os.environ, "CITADEL_SCHEMATHESIS_REPORT": str(report)}
        done = subprocess.run([sys.executable, "-m", "pytest", MODULE, "-q", *argv], cwd=ROOT, env=env, check=False)
        if not report.is_file():
            print(f"no figures: {MODULE} did not reach its last test (pytest exit status {done.returncode})")
            return done.returncode or 1
        data = json.loads(report.read_text())
    checks: dict[str, dict[str, int]] = data["checks"]
    print(f"\nschemathesis --checks all against the live service, {data['operations']} operations")
    header = ("check", "cases judged", "failed", "stateful judged", "failed")
    rows: list[tuple[str, ...]] = [
        (
            name,
            str(row["cases passed"] + row["cases failed"]),
            str(row["cases failed"]),
            str(row["stateful passed"] + row["stateful failed"]),
            str(row["stateful failed"]),
        )
        for name, row in sorted(checks.items())
    ]
    totals = [sum(int(r[i]) for r in rows) for i in range(1, 5)]
    rows.append(("all checks", *(str(t) for t in totals)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    for r in [header, *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
