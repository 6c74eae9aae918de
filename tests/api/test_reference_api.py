"""Reference data through the live service (issue 11, item 4): ``GET /v1/reference`` and one document
per path, each answered with its documented model, a strong ``ETag`` that is a hash of its bytes,
``Cache-Control``, and ``304`` to ``If-None-Match``."""

from __future__ import annotations

import hashlib

import jsonschema_rs
import msgspec
import pytest

from domain import registry
from tests.api.test_openapi import DOC

DOCS = {d.name: d for d in registry.GAMES["board"].reference}
MODELS = {
    "board": "BoardReference",
    "board-mother-of-dragons": "BoardReference",
    "house-cards": "HouseCardsReference",
    "westeros-cards": "WesterosCardsReference",
    "wildling-cards": "WildlingCardsReference",
    "order-tokens": "OrderTokensReference",
}


def _schema_of(path: str) -> jsonschema_rs.Draft202012Validator:
    schema = DOC["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return jsonschema_rs.Draft202012Validator({**schema, "components": DOC["components"]})


def test_the_index_lists_every_document_with_its_path_and_current_etag(api):
    r = api.get("/v1/reference")
    assert r.status_code == 200
    assert r.headers["cache-control"] == "public, max-age=3600"
    assert _schema_of("/v1/reference").is_valid(r.json())
    entries = r.json()["documents"]
    assert [e["name"] for e in entries] == list(DOCS)
    for e in entries:
        assert e["kind"] == "board" and e["path"] == f"/v1/reference/{e['name']}"
        doc = api.get(e["path"])
        assert doc.status_code == 200 and doc.headers["etag"] == e["etag"]


@pytest.mark.parametrize("name", list(DOCS))
def test_each_document_is_the_domains_own_typed_and_tagged_by_its_content(api, name):
    r = api.get(f"/v1/reference/{name}", headers={"Accept-Encoding": "identity"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.json() == msgspec.json.decode(msgspec.json.encode(DOCS[name].content))
    schema = DOC["paths"][f"/v1/reference/{name}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": f"#/components/schemas/{MODELS[name]}"}
    errors = [e.message[:200] for e in _schema_of(f"/v1/reference/{name}").iter_errors(r.json())]
    assert not errors, errors
    assert r.headers["etag"] == f'"{hashlib.sha256(r.content).hexdigest()[:32]}"'
    assert r.headers["cache-control"] == "public, max-age=3600"
    assert "authorization" not in r.headers.get("vary", "").lower()  # the same for everyone


def test_the_board_gives_every_area_a_point_and_the_frame_to_draw_it_in(api):
    board = api.get("/v1/reference/board").json()
    frame = board["frame"]
    assert (frame["width"], frame["height"], frame["origin"]) == (1.0, 1.8596, "top_left")
    assert len(board["areas"]) == 58
    for a in board["areas"]:
        x0, y0, x1, y1 = a["point"]["box"]
        assert 0 <= x0 <= a["point"]["x"] <= x1 <= frame["width"], a["id"]
        assert 0 <= y0 <= a["point"]["y"] <= y1 <= frame["height"], a["id"]
    ports = {a["id"]: a["port_of"] for a in board["areas"] if a["kind"] == "port"}
    assert ports["port_of_winterfell"] == {"land": "winterfell", "sea": "bay_of_ice"}  # BG-MAP-07


@pytest.mark.parametrize("name", ["", "/board", "/order-tokens"])
def test_if_none_match_with_the_current_tag_is_304_without_a_body(api, name):
    path = f"/v1/reference{name}"
    etag = api.get(path).headers["etag"]
    for sent in (etag, f"W/{etag}", f'"0000", {etag}', "*"):
        r = api.get(path, headers={"If-None-Match": sent})
        assert r.status_code == 304, sent
        assert r.content == b"" and r.headers["etag"] == etag and r.headers["cache-control"] == "public, max-age=3600"
        assert "content-type" not in r.headers and "content-encoding" not in r.headers
    r = api.get(path, headers={"If-None-Match": '"0123456789abcdef0123456789abcdef"'})
    assert r.status_code == 200 and r.headers["etag"] == etag and r.content


def test_reference_data_refuses_unknown_parameters_and_unknown_documents(api):
    r = api.get("/v1/reference/board", params={"version": "2"})
    assert r.status_code == 400 and r.json()["code"] == "unknown_parameter"
    r = api.get("/v1/reference/castles")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
