"""Rule IDs named by tests, section by section of a rule digest.

    .venv/bin/python scripts/rule_sections.py mother-of-dragons.md
    .venv/bin/python scripts/rule_sections.py card-game.md --sections 1 2 3 4 5 6 7 8 10 12

An issue asks for "a test per rule ID of §1, §2, §4..."; ``../shared/tools/rule_coverage.py`` counts
the whole digest. This prints, for each numbered section (``## N. Title``), the IDs the section
defines (a list item opening with the bold ID, ``- **MOD-VASSAL-03``), how many a test names, and
the ones none does. A test names an ID as rule_coverage.py reads it: ``MOD-VASSAL-03`` anywhere in a
file under ``tests/``, or ``MOD_VASSAL_03`` in a name. Naming is necessary, not sufficient: the
test must set up a position and assert the rule's outcome. Exits 1 when a chosen section has an ID
no test names.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIGESTS = ROOT.parent / "shared" / "reference" / "rules"
SECTION = re.compile(r"^## (\d+)\. (.+)$")
DEFINED = re.compile(r"^\s*- \*\*((?:BG|MOD|CG)-[A-Z]+-\d+)\b")


def sections(digest: Path) -> list[tuple[str, str, list[str]]]:
    """(number, title, IDs defined there) for each numbered section, in order."""
    out: list[tuple[str, str, list[str]]] = []
    for line in digest.read_text(encoding="utf-8").splitlines():
        if m := SECTION.match(line):
            out.append((m.group(1), m.group(2), []))
        elif (m := DEFINED.match(line)) and out and m.group(1) not in out[-1][2]:
            out[-1][2].append(m.group(1))
    return out


def named(rule: str, texts: list[str]) -> bool:
    pattern = re.compile("(?:" + re.escape(rule) + "|" + re.escape(rule.replace("-", "_")) + r")(?!\d)")
    return any(pattern.search(t) for t in texts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("digest", help="a file under ../shared/reference/rules/")
    ap.add_argument("--sections", nargs="*", default=None, help="only these section numbers")
    ap.add_argument("--tests", default=str(ROOT / "tests"))
    a = ap.parse_args()
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in Path(a.tests).rglob("*.py")]
    failing = False
    for number, title, ids in sections(DIGESTS / a.digest):
        if a.sections is not None and number not in a.sections:
            continue
        missing = [i for i in ids if not named(i, texts)]
        failing = failing or bool(missing)
        print(
            f"§{number} {title}: {len(ids) - len(missing)}/{len(ids)} named"
            + (f"; not: {' '.join(missing)}" if missing else "")
        )
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
