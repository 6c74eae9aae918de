"""The reliability report (issue 8) holds its thresholds: ``bench/reliability.py --quick`` runs
every fault against its own processes and its own embedded Redis, and its table must show 0 events
lost and 0 duplicated, every deadline at most 5 s late, and no 5xx answer to the hostile set.

Every refusal of the hostile set is ``application/problem+json``; version races have exactly one
winner per round; every cell of the authorization matrix holds; contract fuzzing gets no 5xx.

The script runs as a subprocess: it patches the bots' client to count their traffic, which must not
leak into this session. The deadline burst (row 6) is printed, not asserted: its lateness depends
on how much CPU the machine has left while the rest of the suite runs (its CPU cost per deadline,
which does not, is in its notes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


def _table(stdout: str) -> dict[str, dict[str, str]]:
    """The report's rows by scenario number: column name -> cell."""
    lines = [x for x in stdout.splitlines() if x.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[1:]:
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|"))))
        rows[cells["scenario"].split()[0]] = cells
    return rows


@pytest.fixture(scope="module")
def report() -> tuple[dict[str, dict[str, str]], str]:
    out = subprocess.run(
        [sys.executable, "bench/reliability.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,  # 130 s on a quiet machine; over 420 s while six other test sessions shared the 2 cores
    )
    assert "| scenario" in out.stdout, out.stdout + out.stderr
    return _table(out.stdout), out.stdout


def test_every_scenario_ran(report):
    rows, text = report
    assert sorted(rows, key=int) == [str(n) for n in range(1, 11)], text


@pytest.mark.parametrize("n", ["1", "2", "3", "4", "5"])
def test_no_accepted_command_is_lost_or_duplicated(report, n):
    rows, text = report
    row = rows[n]
    assert int(row["accepted"]) > 0, text
    assert row["lost"] == "0" and row["duplicated"] == "0", text
    assert row["5xx"] == "0", text
    assert row["verdict"] == "ok", text  # audits clean, every game finished, views equal a rebuild, no exit


def test_deadlines_fire_at_most_5_s_late_though_the_worker_was_killed(report):
    rows, text = report
    assert float(rows["3"]["worst late s"]) <= 5.0, text


def test_hostile_input_never_gets_a_5xx_and_every_refusal_is_a_problem(report):
    rows, text = report
    assert rows["7"]["5xx"] == "0" and rows["7"]["verdict"] == "ok", text


def test_version_races_have_one_winner_and_double_nothing(report):
    rows, text = report
    assert int(rows["8"]["accepted"]) > 0 and rows["8"]["duplicated"] == "0" and rows["8"]["verdict"] == "ok", text


def test_every_cell_of_the_authorization_matrix_holds(report):
    rows, text = report
    assert rows["9"]["verdict"] == "ok" and "0 wrong" in text, text


def test_contract_fuzzing_gets_no_5xx(report):
    rows, text = report
    assert rows["10"]["5xx"] == "0" and rows["10"]["verdict"] == "ok", text
