"""Running ``citadel-verify`` (the console script declared in pyproject.toml) in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import ROOT

CITADEL_VERIFY = Path(sys.executable).parent / "citadel-verify"


def public_key_file(api: httpx.Client, tmp_path: Path) -> Path:
    """The answer of ``GET /v1/signing-key`` saved to a file, as an organizer keeps it."""
    r = api.get("/v1/signing-key")
    assert r.status_code == 200, r.text
    path = tmp_path / "signing-key.json"
    path.write_bytes(r.content)
    return path


def run_verify(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """``citadel-verify ARGS...``, from outside the repository (the script needs no checkout)."""
    return subprocess.run(
        [str(CITADEL_VERIFY), *map(str, args)], cwd=ROOT.parent, capture_output=True, text=True, timeout=120
    )
