"""openapi/openapi.json is generated from the app and checked in; this fails when it is stale, and when
the document stops being one a generator and a person can use (issue 11, item 1): descriptions
everywhere, a discriminator mapping on every tagged union, the games' value sets as enums, times as
``date-time``, examples that are valid, the headers and problem codes of every operation, item
schemas for the event streams. A complete random game checks that everything the server sends
(events for every reader, views, decisions) matches the document."""

import json
import os
import random
import re
import subprocess
import sys

import jsonschema_rs
import msgspec
import pytest

from domain import registry
from domain.board import board_data
from domain.board.orders import ORDER_TOKENS, VASSAL_FACES, VASSAL_TOKENS
from domain.board.state import Phase, Settings, Step
from service.http.app import create_app
from service.http.examples import operation_examples
from service.http.problems import problem_catalogue
from tests.conftest import ROOT
from tests.support.full_games import FullGame
from tests.support.verify_cli import run_verify

DOC = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SCHEMAS = DOC["components"]["schemas"]
METHODS = ("get", "post", "put", "patch", "delete", "head")


def operations():
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", op


def members(union):
    return getattr(union, "__args__", (union,))


def validator(schema):
    return jsonschema_rs.Draft202012Validator({**schema, "components": DOC["components"]})


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def walk(node, path=""):
    """Every schema object of the document with its JSON path."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}/{i}")


def test_checked_in_openapi_matches_the_app():
    generated = create_app().openapi_schema.to_schema()
    checked_in = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert checked_in == json.loads(msgspec.json.encode(generated)), (
        "openapi/openapi.json is stale: run `.venv/bin/citadel openapi`"
    )


def test_every_operation_is_documented_with_its_errors():
    for op_id, op in operations():
        assert op.get("summary") and op.get("description"), f"{op_id} lacks a summary/description"
        if " /v1/" in op_id:
            errors = [s for s in op["responses"] if s.startswith("4")]
            assert errors, f"{op_id} documents no error"
            for s in errors:
                content = op["responses"][s]["content"]
                assert "application/problem+json" in content, f"{op_id} {s} is not a problem"


def test_every_operation_parameter_and_property_is_described():
    missing = []
    for op_id, op in operations():
        for p in op.get("parameters", []):
            if not p.get("description"):
                missing.append(f"{op_id} parameter {p['name']}")
    for path, node in walk(DOC["components"]):
        props = node.get("properties")
        if isinstance(props, dict) and not path.endswith("/properties"):
            for name, p in props.items():
                if not p.get("description"):
                    missing.append(f"{path}.{name}")
    assert not missing, f"{len(missing)} without a description: {missing[:20]}"
    assert sum(1 for _, n in walk(DOC["components"]) if isinstance(n.get("properties"), dict)) > 150


def _tag_of(name):
    """The tag of a tagged component: its one ``type`` or ``kind`` value."""
    props = SCHEMAS.get(name, {}).get("properties", {})
    for field in ("type", "kind"):
        enum = props.get(field, {}).get("enum")
        if isinstance(enum, list) and len(enum) == 1 and field in SCHEMAS[name].get("required", []):
            return field, enum[0]
    return None


def test_every_tagged_union_has_a_discriminator_with_its_mapping():
    unions = 0
    for path, node in walk(DOC):
        for key in ("oneOf", "anyOf"):
            members = node.get(key)
            if not isinstance(members, list) or not all("$ref" in m for m in members) or len(members) < 2:
                continue
            names = [m["$ref"].rsplit("/", 1)[1] for m in members]
            tags = [_tag_of(n) for n in names]
            if not all(tags):
                continue
            unions += 1
            assert key == "oneOf", f"{path}: a tagged union is exactly one of its members"
            disc = node.get("discriminator")
            assert disc, f"{path}: tagged union without a discriminator"
            assert disc["propertyName"] == tags[0][0]
            assert disc["mapping"] == {t[1]: f"#/components/schemas/{n}" for t, n in zip(tags, names)}, path
    assert unions >= 3  # commands, events (in several places), decision options


def test_the_commands_operation_describes_every_command_with_an_example():
    body = DOC["paths"]["/v1/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == ref("Command")
    mapping = SCHEMAS["Command"]["discriminator"]["mapping"]
    expected = {t.__struct_config__.tag for g in registry.GAMES.values() for t in members(g.command_type)}
    assert set(mapping) == expected and len(expected) >= 21
    assert set(body["examples"]) == expected, "every command type has an example"
    for tag, example in body["examples"].items():
        assert validator(body["schema"]).is_valid(example["value"]), tag
        game = next(
            g for g in registry.GAMES.values() if tag in {t.__struct_config__.tag for t in members(g.command_type)}
        )
        msgspec.json.decode(msgspec.json.encode(example["value"]), type=game.command_type, strict=True)


def test_every_example_in_the_document_matches_its_schema():
    checked = 0
    for name, schema in SCHEMAS.items():
        for example in schema.get("examples", []):
            errors = [e.message for e in validator(ref(name)).iter_errors(example)]
            assert not errors, f"{name}: {errors}"
            checked += 1
    for op_id, op in operations():
        answers = [(status, r.get("content", {})) for status, r in op["responses"].items()]
        for where, contents in [("request", op.get("requestBody", {}).get("content", {})), *answers]:
            for content in contents.values():
                for code, example in content.get("examples", {}).items():
                    if "value" in example:
                        assert validator(content["schema"]).is_valid(example["value"]), f"{op_id} {where} {code}"
                        checked += 1
    assert checked > 150


BINARY = ("application/octet-stream",)
"""Media types whose examples describe the answer rather than show it (a tar archive)."""


def _media(op):
    """Each request body and success answer media of an operation: (where, media type, media object)."""
    for media_type, media in op.get("requestBody", {}).get("content", {}).items():
        yield "request", media_type, media
    for status, response in op["responses"].items():
        if status.startswith("2"):
            for media_type, media in response.get("content", {}).items():
                yield status, media_type, media


def lacking_examples(doc):
    """Every request body and success answer of ``doc`` without an example (a value, or a description
    for a binary answer)."""
    missing = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            for where, media_type, media in _media(op):
                examples = media.get("examples", {})
                shown = [
                    e for e in examples.values() if "value" in e or (media_type in BINARY and e.get("description"))
                ]
                if not shown:
                    missing.append(f"{method.upper()} {path} {where} {media_type}")
    return missing


def test_every_operation_has_an_example_of_its_request_body_and_success_answers():
    """Issue 11: every operation shows its request body and each of its success answers."""
    assert lacking_examples(DOC) == []
    assert sum(1 for _ in operations()) >= 43
    # the check fails on a document that lacks one
    broken = json.loads(json.dumps(DOC))
    del broken["paths"]["/v1/turns"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    broken["paths"]["/v1/tournaments/{tournament_id}/export"]["get"]["responses"]["200"]["content"][
        "application/octet-stream"
    ]["examples"] = {}
    assert set(lacking_examples(broken)) == {
        "POST /v1/turns request application/json",
        "GET /v1/tournaments/{tournament_id}/export 200 application/octet-stream",
    }


def test_operation_examples_are_the_service_types_and_match_their_schemas():
    """Each example of a request body or success answer is a value of the service's own type, the type
    the operation's schema names; it decodes with that type and validates against the schema; the
    document holds exactly it."""
    checked = 0
    for ex in operation_examples():
        op = DOC["paths"][ex.path][ex.method]
        target = op["requestBody"] if ex.where == "request" else op["responses"][ex.where]
        media = target["content"][ex.media]
        shown = media["examples"][ex.name]
        label = f"{ex.method.upper()} {ex.path} {ex.where} {ex.name}"
        if ex.value is None:
            assert ex.media in BINARY and shown["description"], label
            continue
        if isinstance(ex.value, str):
            assert shown["value"] == ex.value and ex.media != "application/json", label
        else:
            data = msgspec.json.encode(ex.value)
            again = msgspec.json.decode(data, type=type(ex.value), strict=True)
            assert msgspec.json.encode(again) == data, label
            assert shown["value"] == json.loads(data), label
            schema = media["schema"]
            names = [r["$ref"].rsplit("/", 1)[1] for r in schema.get("oneOf", [schema])]
            assert any(n.split("_")[-1] == type(ex.value).__name__ for n in names), f"{label}: {names}"
        errors = [e.message[:300] for e in validator(media["schema"]).iter_errors(shown["value"])]
        assert not errors, f"{label}: {errors[:3]}"
        checked += 1
    assert checked >= 50


def test_the_ndjson_and_sse_examples_are_what_the_streams_send():
    """The event stream's NDJSON example is lines of ``EventOut``; its SSE examples and the turns
    stream's are messages of the kinds their item schemas name, each ``data`` valid."""
    events = DOC["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    lines = events["application/x-ndjson"]["examples"]["lines"]["value"].splitlines()
    assert len(lines) >= 5
    for line in lines:
        assert validator(ref("EventOut")).is_valid(json.loads(line)), line
    turns = DOC["paths"]["/v1/turns"]["post"]["responses"]["200"]["content"]["text/event-stream"]
    for content, data_schemas in (
        (events["text/event-stream"], {"end": ref("StreamEnd")}),
        (turns, {"turn": ref("TurnItem"), "game_ended": ref("SeatEnded"), "end": ref("TurnsEnd")}),
    ):
        for example in content["examples"].values():
            text = example["value"]
            assert text.startswith("retry: 3000\n") or "event: end" in text
            for message in text.strip().split("\n\n"):
                fields = dict(line.split(": ", 1) for line in message.split("\n") if not line.startswith(":"))
                if "data" not in fields:
                    continue
                schema = data_schemas.get(fields["event"], ref("Event"))
                assert validator(schema).is_valid(json.loads(fields["data"])), message


def test_the_export_example_verifies_with_the_signing_key_example(tmp_path):
    """The export example is a real game's export: ``citadel-verify`` checks its signature with the key
    of the signing-key example, its hash chain and its rules (in part: it is redacted, the game runs)."""
    answers = {
        p: DOC["paths"][p]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
        for p in ("/v1/games/{game_id}/export", "/v1/signing-key")
    }
    export, key = tmp_path / "export.json", tmp_path / "signing-key.json"
    export.write_text(json.dumps(answers["/v1/games/{game_id}/export"]["example"]["value"]))
    key.write_text(json.dumps(answers["/v1/signing-key"]["example"]["value"]))
    out = run_verify(export, "--public-key", key)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "signature:   ok" in out.stdout and "hash chain:  ok" in out.stdout and "rules:       ok" in out.stdout


def test_every_member_of_a_tagged_union_has_an_example():
    """Commands, decision options and the answers: a person sees one of each (events: the main ones)."""
    for _, node in walk(DOC):
        disc = node.get("discriminator")
        if disc and "assign_orders" in disc["mapping"]:  # the commands (`type`) and the decision options (`kind`)
            for tag, target in disc["mapping"].items():
                assert SCHEMAS[target.rsplit("/", 1)[1]].get("examples"), f"{tag} has no example"


def test_the_games_value_sets_are_enums_from_their_facts():
    enums = {name: s["enum"] for name, s in SCHEMAS.items() if s.get("type") == "string" and "enum" in s}
    # the base game's values, then what Mother of Dragons adds (docs/mother-of-dragons.md)
    mod = board_data.mother_of_dragons()
    assert enums["Area"] == list(dict.fromkeys([*board_data.areas(), *board_data.mod_areas()]))
    # MOD-SEA-04: the sea tokens after the base game's; MOD-VASSAL-11: the vassals' tokens and faces last
    assert enums["OrderToken"] == [*ORDER_TOKENS, *mod.sea_orders, *VASSAL_TOKENS, *VASSAL_FACES]
    assert enums["House"] == list(dict.fromkeys([*board_data.setup().houses, *mod.houses]))
    assert enums["HouseCard"] == [
        *board_data.all_house_cards(),
        *(c.id for c in mod.arryn_house_cards),
        *(c.id for c in mod.vassal_house_cards),
    ]
    assert enums["Phase"] == list(Phase.__args__) and enums["Step"] == list(Step.__args__)
    assert set(enums["ProblemCode"]) == {c.code for c in problem_catalogue()}
    props = SCHEMAS["AssignOrders"]["properties"]["orders"]
    assert props["propertyNames"] == ref("Area") and props["additionalProperties"] == ref("OrderToken")
    assert SCHEMAS["Muster"]["properties"]["recruits"]["propertyNames"] == ref("Area")
    assert SCHEMAS["StepBegan"]["properties"]["phase"]["$ref"].endswith("/Phase")
    assert SCHEMAS["StepBegan"]["properties"]["step"]["$ref"].endswith("/Step")
    assert SCHEMAS["ChooseHouseCard"]["properties"]["card"]["$ref"].endswith("/HouseCard")
    assert SCHEMAS["Problem"]["properties"]["code"]["$ref"].endswith("/ProblemCode")
    used = {n["$ref"].rsplit("/", 1)[1] for _, n in walk(SCHEMAS) if isinstance(n.get("$ref"), str)}
    assert set(enums) <= used, f"value sets nothing refers to: {set(enums) - used}"


def test_every_problem_code_raised_by_the_code_is_documented():
    """``code="..."`` anywhere in domain/ and service/, and the error classes' codes."""
    source = "".join(p.read_text() for d in ("domain", "service") for p in (ROOT / d).rglob("*.py"))
    raised = set(re.findall(r'\bcode\s*=\s*"([a-z_]+)"', source)) | set(
        re.findall(r'ApiError\(\s*\d+,\s*"([a-z_]+)"', source)
    )
    internal = {"timeout_void", "timeout_early"}  # between workers and the engine, never answered
    documented = set(SCHEMAS["ProblemCode"]["enum"])
    assert raised - internal - documented == set()
    assert len(raised) > 40


def test_every_error_response_lists_its_problem_codes_with_examples():
    for op_id, op in operations():
        for status, response in op["responses"].items():
            if status[0] in "45":
                examples = response["content"]["application/problem+json"]["examples"]
                assert examples, f"{op_id} {status}: no problem code"
                for code, ex in examples.items():
                    assert ex["value"]["code"] == code and ex["value"]["status"] == int(status)
                    assert f"`{code}`" in response["description"]
    commands_409 = DOC["paths"]["/v1/games/{game_id}/commands"]["post"]["responses"]["409"]
    assert {"not_your_turn", "wrong_phase", "stale_version"} <= set(
        commands_409["content"]["application/problem+json"]["examples"]
    )


def test_response_headers_are_documented_where_the_server_sends_them():
    for op_id, op in operations():
        for status, response in op["responses"].items():
            headers = response.get("headers", {})
            versionless = op_id in ("GET /v1/games", "GET /v1/games/{game_id}/invitation") or op_id.endswith("/events")
            if status[0] == "2" and " /v1/games" in op_id and not versionless:
                assert "ETag" in headers, f"{op_id} {status}"
            if status[0] == "2" and versionless:
                assert "ETag" not in headers, f"{op_id} {status}: the answer names no one version"
            if status == "429":
                assert {"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(headers)
            if status == "503":
                assert "Retry-After" in headers, f"{op_id} {status}"
            if status == "401":
                assert "WWW-Authenticate" in headers, f"{op_id} {status}"
    assert "Location" in DOC["paths"]["/v1/games"]["post"]["responses"]["201"]["headers"]


def test_times_are_date_times():
    times = [n for path, n in walk(SCHEMAS) if re.search(r"/properties/(ts|deadline|at)$", path)]
    assert len(times) >= 10
    for node in times:
        strings = (
            [node] if node.get("type") == "string" else [m for m in node.get("anyOf", []) if m.get("type") == "string"]
        )
        assert strings and all(s.get("format") == "date-time" for s in strings), node


def test_the_event_streams_have_item_schemas():
    content = DOC["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    assert content["application/x-ndjson"]["itemSchema"] == ref("EventOut")
    event, end = content["text/event-stream"]["itemSchema"]["oneOf"]
    assert event["properties"]["data"]["contentSchema"] == ref("Event")
    assert end["properties"]["event"]["const"] == "end"
    assert end["properties"]["data"]["contentSchema"] == ref("StreamEnd")
    turns = DOC["paths"]["/v1/turns"]["post"]["responses"]["200"]["content"]["text/event-stream"]["itemSchema"]
    assert [m["properties"]["event"]["const"] for m in turns["oneOf"]] == ["turn", "game_ended", "end"]
    assert SCHEMAS["Event"]["discriminator"]["propertyName"] == "type"
    assert SCHEMAS["Envelope"]["properties"]["event"]["$ref"] == ref("Event")["$ref"]
    assert SCHEMAS["EventOut"]["properties"]["event"]["$ref"] == ref("Event")["$ref"]


def test_server_side_constraints_are_in_the_schema():
    for path in ("/v1/games", "/v1/games/{game_id}/seats"):
        key = next(p for p in DOC["paths"][path]["post"]["parameters"] if p["name"] == "Idempotency-Key")
        assert key["schema"]["pattern"] == "^(.{16,})?$" and key["schema"]["maxLength"] == 255
    assert SCHEMAS["JoinBody"]["additionalProperties"] is False
    assert SCHEMAS["BoardCreateBody"]["properties"]["player_count"]["minimum"] == 3
    assert SCHEMAS["Muster"]["properties"]["recruits"]["maxProperties"] == 20


@pytest.mark.parametrize("tides", [False, True], ids=["standard", "tides_of_battle"])
def test_what_a_complete_game_sends_matches_the_document(tides):
    """Every event (redacted for each reader and the public), and along the way every view and every
    seat's decisions of a random complete 4-player game, validate against their schemas (with and
    without the Tides of Battle variant)."""
    board = registry.GAMES["board"]
    event = validator(ref("Event"))
    view, decisions = validator(ref("BoardView")), validator(ref("DecisionsOut"))
    game = FullGame(4, seed="openapi", settings=Settings(tides_of_battle=tides))
    rng = random.Random(4)
    steps = 0
    while not (game.state.phase == "ended" and game.state.step == "game_over") and steps < 20_000:
        game.step(rng)
        steps += 1
        if steps % 25 == 0:
            s = game.state
            for seat in s.seats:
                reader = board.reader_of(s, seat.seat_id)
                _valid(view, board.view(s, reader))
                _valid(decisions, board.decisions(s, seat.seat_id))
            _valid(view, board.view(s, None))
    assert game.state.phase == "ended"
    if tides:
        assert any(type(e).__name__ == "TidesCardsRevealed" for e in game.events)
    readers = [*game.state.houses_in_play, None]
    for e in game.events:
        for reader in readers:
            _valid(event, board.redact_event(e, reader))
        _valid(event, board.redact_event(e, None, game_over=True))


def _valid(v, obj):
    data = msgspec.to_builtins(obj)
    errors = [f"{e.instance_path}: {e.message[:300]}" for e in v.iter_errors(data)]
    assert not errors, f"{type(obj).__name__}: {errors[:5]}"


@pytest.mark.slow
def test_a_generated_client_builds_without_warnings(tmp_path):
    """``openapi-python-client`` generates a typed client from the checked-in document with no warning:
    every operation kept, the commands and decision options typed one model per kind."""
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(
        [
            os.path.join(os.path.dirname(sys.executable), "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "citadel_generated"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    log = out.stdout + out.stderr
    assert out.returncode == 0, log
    assert not re.search(r"warning|unable|error|cannot", log, re.I), log
    pkg = tmp_path / "citadel_generated"
    api = "".join(p.read_text() for p in (pkg / "api").rglob("*.py"))
    assert api.count("def sync_detailed(") == sum(1 for _ in operations())
    models = {p.stem for p in (pkg / "models").glob("*.py")}
    assert {"assign_orders", "muster", "place_bid", "decision", "assign_orders_options", "step_began"} <= models
    body = next((pkg / "api" / "commands").glob("v1_*.py")).read_text()
    assert body.count("Muster") and body.count("AssignOrders") and body.count("PlaceBid")


def test_the_service_serves_the_finished_document(api):
    """``/schema/openapi.json`` is the document checked in, not Litestar's unfinished one."""
    r = api.get("/schema/openapi.json")
    assert r.status_code == 200
    assert r.json() == DOC
