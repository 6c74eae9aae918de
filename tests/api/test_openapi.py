"""openapi/openapi.json is generated from the app and checked in; this fails when it is stale."""

import json

import msgspec

from service.http.app import create_app
from tests.conftest import ROOT


def test_checked_in_openapi_matches_the_app():
    generated = create_app().openapi_schema.to_schema()
    checked_in = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert checked_in == json.loads(msgspec.json.encode(generated)), (
        "openapi/openapi.json is stale: run `.venv/bin/citadel openapi`"
    )


def test_every_operation_is_documented_with_its_errors():
    doc = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    for path, item in doc["paths"].items():
        for method, op in item.items():
            assert op.get("summary") and op.get("description"), f"{method} {path} lacks a summary/description"
            if path.startswith("/v1/"):
                errors = [s for s in op["responses"] if s.startswith("4")]
                assert errors, f"{method} {path} documents no error"
                for s in errors:
                    content = op["responses"][s]["content"]
                    assert "application/problem+json" in content, f"{method} {path} {s} is not a problem"
