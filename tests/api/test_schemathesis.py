"""schemathesis drives the live API from its OpenAPI document, with all its checks (the Python
equivalent of ``st run --checks all``: every built-in check, positive and negative data).

Cases are generated from ``openapi/openapi.json`` and sent to the running service (real Redis,
worker and projector). Every response must match the documented status codes, content types,
headers and schemas; invalid input must be rejected; no 5xx. Half of the cases target a real,
started game with a real seat token, so the success responses are checked against their schemas
too, not only the 404s of made-up ids.
"""

import json
import os
import uuid
from collections import Counter
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.pytest import from_fixture

from tests.conftest import ROOT
from tests.support.game_client import new_started_game

# A well-formed move can still be illegal by the rules of the game: the API answers those with a
# documented 422 (``illegal_move`` and its rule-specific codes) or 409 (not your turn). Schemathesis'
# positive-data check is told so, and that a generated `If-None-Match` naming the current `ETag` (`*`)
# is answered 304 Not Modified; a 400 is never expected: a request the schema allows must not be
# malformed for the server (the schema carries every constraint the server checks). Every other
# check keeps its defaults.
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "all"},
        "checks": {
            "enabled": True,
            "positive_data_acceptance": {"expected-statuses": ["2xx", "304", "401", "403", "404", "409", "422", "429"]},
        },
    }
)
SEEN: Counter[tuple[str, str, int]] = Counter()
"""(generation mode, operation, status) of every case sent, for the check below."""
CHECKED: Counter[tuple[str, str, str]] = Counter()
"""(phase, check, outcome) of every check schemathesis ran on an answer: ``passed`` or ``failed``."""
REPORT = os.environ.get("CITADEL_SCHEMATHESIS_REPORT")
"""Where ``scripts/schemathesis_report.py`` wants the per-check figures (JSON), if it ran this module."""


def _counting(schema, phase: str):
    """``schema`` with every check's outcome on every answer counted in ``CHECKED`` under ``phase``."""

    @schema.hook
    def after_validate(context, case, response, results):
        for result in results:
            CHECKED[(phase, result.name, "failed" if result.failure is not None else "passed")] += 1

    return schema


@pytest.fixture()
def api_schema():
    return _counting(schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json", config=CONFIG), "cases")


@pytest.fixture(scope="session")
def real_game(service):
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as c:
        g = new_started_game(c, players=3)
    return g


schema = from_fixture("api_schema")


def _prepare(case):
    """Make a generated case fit to be sent again and again (unique idempotency keys, short waits)."""
    if case.headers and case.headers.get("Idempotency-Key"):
        # A key names one request; reusing it with another body is a client error (422) by design: make
        # it unique, of the same length, so that a key too short or too long stays so.
        key = case.headers["Idempotency-Key"]
        case.headers["Idempotency-Key"] = (uuid.uuid4().hex * (len(key) // 32 + 1))[: len(key)]
    if case.query and case.query.get("wait"):
        # long-polling is valid but would only slow the run down: wait 1 s now and then, else not at all
        case.query["wait"] = 1 if uuid.uuid4().int % 4 == 0 else 0


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case, service, real_game):
    base, _ = service
    _prepare(case)
    negative = case.meta is not None and case.meta.generation.mode.is_negative
    use_real = not negative and uuid.uuid4().int % 2 == 0  # never "repair" a deliberately invalid case
    if use_real and case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = real_game.id
        if case.headers and "Authorization" in case.headers:
            case.headers["Authorization"] = f"Bearer {next(iter(real_game.houses.values()))}"
    response = case.call_and_validate(base_url=base)
    mode = "negative" if negative else "positive"
    SEEN[(mode, f"{case.operation.method.upper()} {case.operation.path}", response.status_code)] += 1


def test_both_kinds_of_data_reached_every_operation_and_real_successes():
    """The run above sent positive and negative cases to every operation, and real 2xx answers (whose
    bodies and headers were checked against the document) came back from the game operations."""
    if not SEEN:
        pytest.skip("the schemathesis run was not selected")
    ops = {op for _, op, _ in SEEN}
    documented = json.loads((ROOT / "openapi" / "openapi.json").read_text())["paths"]
    assert len(ops) == sum(len(item) for item in documented.values())
    for mode in ("positive", "negative"):
        assert {op for m, op, _ in SEEN if m == mode} == ops, mode
    succeeded = {op for m, op, status in SEEN if m == "positive" and 200 <= status < 300}
    assert {"GET /v1/games/{game_id}", "GET /v1/games/{game_id}/events", "POST /v1/games"} <= succeeded
    rejected = sum(n for (m, _, status), n in SEEN.items() if m == "negative" and 400 <= status < 500)
    assert rejected > 100


def test_stateful_workflows_follow_the_documented_links(service):
    """schemathesis' stateful phase: chains of calls along the document's links (create a game, join
    it, read your view with the seat's token, play, read your write at the answer's version...), every
    check on every step."""
    base, _ = service
    loaded = _counting(schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json", config=CONFIG), "stateful")
    loaded.config.base_url = base

    answers: Counter[tuple[str, int]] = Counter()

    class Workflow(loaded.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case):
            _prepare(case)

        def after_call(self, response, case):
            answers[(f"{case.operation.method.upper()} {case.operation.path}", response.status_code)] += 1

    assert Workflow.bundles  # the links were understood
    Workflow.run(
        settings=settings(
            max_examples=20, stateful_step_count=6, deadline=None, suppress_health_check=list(HealthCheck)
        )
    )
    # A game id only comes from a creation's answer (a generated one names no game: 404; a token is
    # checked first: 401): a game operation that got further followed a link.
    assert answers[("POST /v1/games", 201)] > 0
    followed = sum(n for (op, status), n in answers.items() if "{game_id}" in op and status not in (400, 401, 404))
    assert followed > 0, sorted(answers.items())


def test_every_check_ran_and_none_failed():
    """Per check of ``--checks all`` (every built-in check, plus ``max_response_time`` when configured):
    how many answers it judged, in the generated cases and in the stateful workflows, and that it
    failed none. ``scripts/schemathesis_report.py`` prints this table from a run of this module."""
    if not CHECKED:
        pytest.skip("the schemathesis runs above were not selected")
    names = sorted({name for _, name, _ in CHECKED})
    table = {
        name: {
            f"{phase} {outcome}": CHECKED[(phase, name, outcome)]
            for phase in ("cases", "stateful")
            for outcome in ("passed", "failed")
        }
        for name in names
    }
    if REPORT:
        Path(REPORT).write_text(json.dumps({"checks": table, "operations": len({op for _, op, _ in SEEN})}, indent=1))
    failed = {name: row for name, row in table.items() if row["cases failed"] or row["stateful failed"]}
    assert not failed, failed
    # the response checks of `--checks all`, each of which judged answers of both kinds of run
    expected = {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "positive_data_acceptance",
    }
    assert expected <= set(names), sorted(names)
    for name in expected:
        assert table[name]["cases passed"] > 0 and table[name]["stateful passed"] > 0, (name, table[name])
