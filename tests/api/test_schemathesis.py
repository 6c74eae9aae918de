"""schemathesis drives the live API from its OpenAPI document, with all its checks.

Cases are generated from ``openapi/openapi.json`` and sent to the running service (real Redis,
worker and projector). Every response must match the documented status codes, content types,
headers and schemas; invalid input must be rejected; no 5xx. Half of the cases target a real,
started game with a real seat token, so the success responses are checked against their schemas
too, not only the 404s of made-up ids.
"""

import uuid

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.pytest import from_fixture

from tests.conftest import ROOT
from tests.support.game_client import new_started_game

# A well-formed move can still be illegal by the rules of the game: the API answers those with a
# documented 422 (``illegal_move`` and its rule-specific codes). Schemathesis' positive-data check
# is told so; every other check keeps its defaults.
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]}}}
)


@pytest.fixture()
def api_schema():
    return schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json", config=CONFIG)


@pytest.fixture(scope="session")
def real_game(service):
    base, _ = service
    with httpx.Client(base_url=base, timeout=10) as c:
        g = new_started_game(c, players=3)
    return g


schema = from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case, service, real_game):
    base, _ = service
    if case.headers and "Idempotency-Key" in case.headers:
        # a key names one request; reusing it with another body is a client error (422) by design
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    if case.query and case.query.get("wait"):
        case.query["wait"] = 1  # long-polling is valid but would only slow the run down
    negative = case.meta is not None and case.meta.generation.mode.is_negative
    use_real = not negative and uuid.uuid4().int % 2 == 0  # never "repair" a deliberately invalid case
    if use_real and case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = real_game.id
        if case.headers and "Authorization" in case.headers:
            case.headers["Authorization"] = f"Bearer {next(iter(real_game.houses.values()))}"
    case.call_and_validate(base_url=base)
