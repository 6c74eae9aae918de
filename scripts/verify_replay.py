"""Verify a replay export offline: ``.venv/bin/python scripts/verify_replay.py export.json [--seed S]``.

The export is the body of ``GET /v1/games/{id}/export``. Exit status 0 when everything checks out.
The export's ``kind`` (``board`` when absent: exports made before games had kinds) picks the game,
whose own audit (``Game.audit``, e.g. domain/board/audit.py) says what is checked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import registry
from domain.core.envelope import Envelope


class Export(msgspec.Struct):
    game_id: str
    version: int
    seed_commitment: str
    complete: bool
    events: list[Envelope]
    seed: str | None = None
    kind: str = registry.DEFAULT_KIND


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--seed", help="the game's seed, if the export does not carry it yet")
    args = ap.parse_args()
    export = msgspec.json.decode(Path(args.export).read_bytes(), type=Export)
    report = registry.get(export.kind).audit(export.events, args.seed or export.seed)
    print(f"game {export.game_id} ({export.kind}): {len(export.events)} events, version {report.version}")
    print(
        f"  hash chain:  {'ok' if report.chain_ok else 'BROKEN'}"
        + ("" if export.complete else " (export is redacted: hidden events cannot verify)")
    )
    print(f"  seed:        {'not revealed' if report.seed_ok is None else 'ok' if report.seed_ok else 'MISMATCH'}")
    print(
        f"  shuffles:    {'not checked' if report.shuffles_ok is None else 'ok' if report.shuffles_ok else 'MISMATCH'}"
    )
    print(f"  rules:       {'ok' if report.rules_ok else 'VIOLATED'}")
    for p in report.problems:
        print("  -", p)
    ok = report.chain_ok and report.rules_ok and report.seed_ok is not False and report.shuffles_ok is not False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
