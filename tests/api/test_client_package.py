"""``clients/`` as the ``citadel-client`` distribution (issue 11, item 2): built from
``clients/pyproject.toml`` alone, installed offline into a fresh virtual environment that holds
nothing of the server, typed (``py.typed``: ``mypy --strict`` checks the example bot against the
installed package and catches a misuse), and able to play: three copies of
``clients/examples/simple_bot.py`` run from that environment play a game to its end (BG-VIC-02)
against the live service.

The fresh environment gets its dependencies (httpx, msgspec and theirs) as wheels repacked from
this environment (``tests/support/wheelhouse.py``), so the test needs no network and no cache.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from clients.citadel_client import SyncCitadelClient
from tests.conftest import ROOT
from tests.support.wheelhouse import repack, requirement_closure

pytestmark = pytest.mark.slow  # builds and installs packages, starts processes
CLIENTS = ROOT / "clients"
EXAMPLE = CLIENTS / "examples" / "simple_bot.py"
LAST_ROUND = {
    "round": 10,
    "areas": {
        "winterfell": {"house": "stark", "units": {"footman": 2}},
        "lannisport": {"house": "lannister", "units": {"footman": 2}},
        "dragonstone": {"house": "baratheon", "units": {"footman": 2}},
    },
}
"""A 3-player game in its last round (docs/fixtures.md): it ends after this round's Action phase."""


def _clean_env() -> dict[str, str]:
    """This process's environment without Python's and pip's settings (no PYTHONPATH, no index)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(args: list[str | Path], cwd: Path, timeout: float = 300) -> str:
    out = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new virtual environment with ``citadel-client`` installed from a wheel built out of a copy
    of ``clients/pyproject.toml``, ``README.md`` and ``citadel_client/`` (nothing else)."""
    tmp = tmp_path_factory.mktemp("citadel-client")
    src = tmp / "src"
    shutil.copytree(CLIENTS / "citadel_client", src / "citadel_client", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(CLIENTS / name, src / name)
    wheels = tmp / "wheels"
    wheels.mkdir()
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", wheels, src], tmp)
    requires = tomllib.loads((CLIENTS / "pyproject.toml").read_text())["project"]["dependencies"]
    for dist in requirement_closure(requires):
        repack(dist, wheels)
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp)
    python = venv / "bin" / "python"
    _run([*pip, "--python", python, "install", "--no-index", "--find-links", wheels, "citadel-client"], tmp)
    _run([*pip, "--python", python, "check"], tmp)
    return venv


def test_the_package_installs_alone_and_imports_without_the_server(fresh_venv):
    probe = (
        "import importlib.util, pathlib, citadel_client\n"
        "from importlib.metadata import requires\n"
        "print(pathlib.Path(citadel_client.__file__).parent)\n"
        "print(sorted(r.split('>')[0] for r in requires('citadel-client')))\n"
        "print([m for m in ('domain', 'service', 'workers', 'projections', 'clients', 'tests', 'litestar', 'redis')"
        " if importlib.util.find_spec(m)])\n"
        "print(sorted(citadel_client.__all__))\n"
    )
    package, requires, server, exported = _run([fresh_venv / "bin" / "python", "-c", probe], fresh_venv).splitlines()
    assert Path(package).is_relative_to(fresh_venv) and (Path(package) / "py.typed").is_file()
    assert requires == "['httpx', 'msgspec']"
    assert server == "[]"  # nothing of the server, nor its libraries, is importable there
    assert "'SyncCitadelClient'" in exported and "'CitadelClient'" in exported


def test_the_installed_package_is_typed_for_mypy(fresh_venv, tmp_path):
    """``mypy --strict`` with the fresh environment's interpreter: the package's own code and the
    example bot pass, and misusing what the clients return (sync and async) is caught."""
    misuse = tmp_path / "misuse.py"
    misuse.write_text(
        "from citadel_client import CitadelClient, SyncCitadelClient\n\n"
        "def sync_answer() -> str:\n"
        "    return SyncCitadelClient('http://x').decisions('g')\n\n"
        "async def async_answer() -> int:\n"
        "    return await CitadelClient('http://x').decisions('g', min_version='3')\n"
    )
    args = [
        Path(sys.executable).parent / "mypy",
        "--strict",
        "--python-executable",
        fresh_venv / "bin" / "python",
        "--cache-dir",
        tmp_path / "mypy-cache",
        fresh_venv.parent / "src" / "citadel_client",  # the package itself, away from the repository's config
        EXAMPLE,
        misuse,
    ]
    out = subprocess.run([str(a) for a in args], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    checked = re.search(r"checked (\d+) source files", out.stdout)
    assert checked and int(checked.group(1)) >= 2 + len(list((CLIENTS / "citadel_client").glob("*.py"))), out.stdout
    assert len(errors) == 3 and all(line.startswith("misuse.py:") for line in errors), out.stdout  # none elsewhere
    assert any(':4: error: Incompatible return value type (got "DecisionsOut", expected "str")' in e for e in errors)
    assert any(":7: error: Argument" in e and '"min_version"' in e for e in errors), errors
    assert any(':7: error: Incompatible return value type (got "DecisionsOut", expected "int")' in e for e in errors)


def test_the_example_bot_plays_a_game_to_its_end_from_the_fresh_environment(service, fresh_venv):
    base, _ = service
    with SyncCitadelClient(base) as api:
        game = api.create_game(3, {"decision_timeout_s": 60}, LAST_ROUND)
        bots = [
            subprocess.Popen(
                [str(fresh_venv / "bin" / "python"), str(EXAMPLE), "--base", base, "--game", game.game_id]
                + ["--join", f"simple {i}"],
                cwd=fresh_venv,
                env=_clean_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(3)
        ]
        try:
            deadline = time.monotonic() + 120  # three bot processes join; starting one took over 20 s under load
            while len(api.view(game.game_id).seats) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            api.with_token(game.organizer_token).start(game.game_id)
            outputs = [b.communicate(timeout=600) for b in bots]  # a whole game; loaded machines are slow
        finally:
            for b in bots:
                if b.poll() is None:
                    b.kill()
                    b.communicate()
        assert [b.returncode for b in bots] == [0, 0, 0], outputs
        last = api.events(game.game_id, api.view(game.game_id).version - 1)
        assert last[-1].event["type"] == "game_ended"
        assert {out for out, _ in outputs} == {f"winner: {last[-1].event['winner']}\n"}
        export = api.export(game.game_id)
        assert export.complete and export.events[-1].event["type"] == "game_ended"
