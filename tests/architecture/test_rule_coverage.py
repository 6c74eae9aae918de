"""Every rule ID of the board-game digest is named by a test (issue 9, "every rule ID tested").

The digest lives beside the project, in ``../shared/reference/rules/board-game.md`` (every developer
and CI have ``../shared`` next to the project's root; ``CITADEL_SHARED`` may point elsewhere). The
count here is the one ``../shared/tools/rule_coverage.py`` makes -- an ID is named when a file under
``tests/`` writes it whole, as ``BG-RAID-01`` or ``BG_RAID_01`` -- and the test checks that both
counts agree. ``scripts/rule_coverage`` prints the table (rule ID -> tests).

Naming is necessary, not sufficient: each named test must set up a position that exercises the rule
and assert its outcome (reviewed, not checkable here).

Every ID is required (199/199). ``PENDING`` may list sections or (section, number) IDs that a
feature still under construction names later; it is empty. IDs are written there as section +
number, never whole, so that this file names no rule itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CITADEL_SHARED", ROOT.parent / "shared"))
DIGEST = SHARED / "reference" / "rules" / "board-game.md"
TOOL = SHARED / "tools" / "rule_coverage.py"
TESTS = ROOT / "tests"

#: Sections (all their IDs) and single (section, number) IDs not required yet, see the docstring.
PENDING_SECTIONS: set[str] = set()
PENDING_IDS: set[tuple[str, int]] = set()

ID = re.compile(r"\b((?:BG|MOD|CG)-[A-Z]+-\d+)\b")
EXTENSIONS = (".py", ".yaml", ".yml", ".json", ".md")

needs_digest = pytest.mark.skipif(
    not DIGEST.is_file(), reason=f"the rule digest is not at {DIGEST} (set CITADEL_SHARED to the shared folder)"
)


def rule_ids() -> list[str]:
    return sorted({i for i in ID.findall(DIGEST.read_text(encoding="utf-8")) if i.startswith("BG-")})


def files_under_tests() -> dict[Path, str]:
    return {
        p: p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(TESTS.rglob("*"))
        if p.is_file() and p.name.endswith(EXTENSIONS)
    }


def naming(rule: str, files: dict[Path, str]) -> list[Path]:
    """Files that write ``rule`` whole, with dashes or underscores (the shared tool's pattern)."""
    pat = re.compile("(?:" + re.escape(rule) + "|" + re.escape(rule.replace("-", "_")) + r")(?!\d)")
    return [p for p, text in files.items() if pat.search(text)]


def pending(rule: str) -> bool:
    _, section, number = rule.split("-")
    return section in PENDING_SECTIONS or (section, int(number)) in PENDING_IDS


@needs_digest
def test_every_board_game_rule_id_is_named_by_a_test():
    files = files_under_tests()
    ids = rule_ids()
    assert len(ids) >= 199  # the digest as of issue 9; IDs are never removed (section 0)
    unnamed = [i for i in ids if not pending(i) and not naming(i, files)]
    assert not unnamed, f"rule IDs named by no test under tests/: {' '.join(unnamed)}"


@needs_digest
def test_the_count_agrees_with_the_shared_tool():
    if not TOOL.is_file():
        pytest.skip(f"the shared tool is not at {TOOL}")
    out = subprocess.run(
        [sys.executable, str(TOOL), "board-game.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    m = re.search(r"^(\d+)/(\d+) rule IDs named", out, re.MULTILINE)
    assert m, out
    files = files_under_tests()
    ids = rule_ids()
    assert (int(m.group(1)), int(m.group(2))) == (sum(1 for i in ids if naming(i, files)), len(ids))
