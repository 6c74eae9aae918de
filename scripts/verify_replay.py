"""Kept for old instructions: ``scripts/verify_replay.py FILE`` is ``citadel-verify FILE`` (verify/cli.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verify.cli import main

if __name__ == "__main__":
    sys.exit(main())
