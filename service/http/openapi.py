"""The OpenAPI document: Litestar's paths and operations, finished with what Litestar does not derive.

Litestar builds the operations (paths, parameters, summaries, statuses) from the controllers. Its
schemas of msgspec types lose what msgspec knows, so the component schemas are msgspec's own
(:func:`msgspec.json.schema_components`): tagged unions become ``oneOf`` with a ``discriminator``
and its ``mapping``, ``forbid_unknown_fields`` becomes ``additionalProperties: false``, and every
constraint the server checks (``Meta(ge=..., max_length=..., pattern=...)``, dict key patterns as
``propertyNames``) is in the document. On top of that, in order:

* descriptions: a Struct's docstring describes its schema; a field's docstring (the string right
  after it, as Sphinx reads it) or its ``Meta(description=...)`` describes the property; failing
  both, the game's :class:`~domain.core.game.SchemaDocs` or, for the service's own types,
  :data:`DESCRIPTIONS`;
* value sets: the game's named enums (areas, order tokens, houses, cards, phases, steps...) as
  component schemas, referenced from the fields the game names;
* times: ``format: date-time`` on the RFC 3339 fields;
* examples: the game's typical instances on their schemas and, per command type, on the request; every
  operation's request body and success answers (:mod:`service.http.examples`);
* per operation: the problem codes of each status (with an example each), the response headers
  the server sends (``ETag``, ``Location``, ``Retry-After``, ``RateLimit-*``, ``WWW-Authenticate``,
  ``Cache-Control``), ``If-None-Match`` and its ``304`` on every ``GET`` that tags its answer
  (``manners.py``), and the item schemas of the NDJSON and SSE event streams.

Games are known only through :mod:`domain.registry`.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import textwrap
from collections.abc import Iterator
from functools import cache
from typing import Any, get_args

import msgspec
import msgspec.inspect as mi
from litestar import Litestar
from litestar.openapi.spec import OpenAPI

from domain import registry
from domain.core.commands import PauseClocks, ResumeClocks
from domain.core.game import SchemaDocs
from service.engine.tournaments import RoundBody, TournamentBody

from . import examples
from .controllers.webhooks import WebhookBody
from .models import (
    CREATE_BODIES,
    AnyCommand,
    AnyEvent,
    AnyJudgeCommand,
    CommandAccepted,
    EventOut,
    ExportEvent,
    ExportOut,
    Health,
    JoinBody,
    LogOut,
    SeatEnded,
    StreamEnd,
    TurnItem,
    TurnsBody,
    TurnsEnd,
    UndoRequestIn,
)
from .problems import PROBLEM, Problem, problem_catalogue

REF = "#/components/schemas/{name}"
TIME_FIELDS = {"ts", "deadline", "at"}
"""Fields that hold an RFC 3339 UTC time (``format: date-time``)."""

DESCRIPTIONS: dict[str, str] = {
    "game_id": "The game's id: `g_` and 32 hexadecimal digits.",
    "version": "The game's version: the number of events in its stream (also sent as the `ETag`).",
    "seq": "The event's sequence number: the game's version after it (1, 2, 3...). The cursor for `from`.",
    "ts": "When the event was appended (RFC 3339 UTC with milliseconds).",
    "event": "The event, tagged by `type`, redacted for the reader.",
    "events": "The events, in order.",
    "player_count": "The number of seats.",
    "organizer_token": "The organizer's bearer token for this game (keep it secret): starts the game, reads as a "
    "spectator.",
    "seed_commitment": "sha256 of the seed behind every shuffle; the seed is revealed at the end.",
    "kind": "The kind of game (`board`...): which rules apply.",
    "seat_id": "The seat's id: `seat1`, `seat2`... in joining order.",
    "token": "The seat's bearer token (keep it secret): send it as `Authorization: Bearer <token>`.",
    "text": "The log line, in English.",
    "schema": "The schema version the event was written with.",
    "prev_hash": "The hash of the previous event (the genesis hash for the first).",
    "hash": "sha256 over this event and the previous hash: the hash chain `scripts/verify_replay.py` checks.",
    "status": "`ok` when the check passed.",
    "redis": "`ok` when Redis answered.",
    "algorithm": "The signature algorithm: `ed25519`.",
    "head_hash": "The hash of the game's last event at `version`: the head of its hash chain.",
    "signature": "Base64 of the 64-byte Ed25519 signature over the head.",
}
"""Descriptions of the service's own fields that carry no docstring (games describe theirs)."""


# -- the types and their fields ----------------------------------------------------------------


def _game_types(game: Any) -> list[Any]:
    judged = [] if game.judge_command_type is None else [game.judge_command_type]
    reference = [type(doc.content) for doc in game.reference]
    return [
        game.command_type,
        game.event_type,
        game.view_type,
        game.decisions_type,
        game.create_body,
        *judged,
        *reference,
    ]


SERVICE_TYPES: list[Any] = [
    AnyCommand,
    AnyEvent,
    AnyJudgeCommand,
    CommandAccepted,
    EventOut,
    ExportOut,
    LogOut,
    Health,
    JoinBody,
    PauseClocks,
    ResumeClocks,
    TurnsBody,
    TurnItem,
    SeatEnded,
    TurnsEnd,
    StreamEnd,
    Problem,
    TournamentBody,
    RoundBody,
    WebhookBody,
    UndoRequestIn,
]


def _all_types(app: Litestar) -> list[Any]:
    """The service's types, every game's, and every Struct an operation answers with."""
    types = [*SERVICE_TYPES, *CREATE_BODIES, ExportEvent]
    for game in registry.GAMES.values():
        types += [game.view_type, game.decisions_type]
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            answer = handler.parsed_fn_signature.return_type.annotation
            for t in (answer, *get_args(answer)):
                if isinstance(t, type) and issubclass(t, msgspec.Struct) and t not in types:
                    types.append(t)
    return types


def _structs(types: list[Any]) -> dict[type, mi.StructType]:
    """Every Struct reachable from ``types``, as msgspec collects its components."""
    found: dict[type, mi.StructType] = {}

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls in found:
                return
            found[t.cls] = t
            for f in t.fields:
                walk(f.type)
        elif isinstance(t, mi.Metadata):
            walk(t.type)
        elif isinstance(t, mi.CollectionType):
            walk(t.item_type)
        elif isinstance(t, mi.TupleType):
            for x in t.item_types:
                walk(x)
        elif isinstance(t, mi.DictType):
            walk(t.key_type)
            walk(t.value_type)
        elif isinstance(t, mi.UnionType):
            for x in t.types:
                walk(x)

    for info in mi.multi_type_info(types):
        walk(info)
    return found


def _names(classes: list[type]) -> dict[type, str]:
    """msgspec's component name of each class (its name; its import path when two share a name)."""
    count: dict[str, int] = {}
    for c in classes:
        count[c.__name__] = count.get(c.__name__, 0) + 1
    return {c: c.__name__ if count[c.__name__] == 1 else f"{c.__module__}.{c.__qualname__}" for c in classes}


def _short(name: str) -> str:
    """``domain.board.redaction.SeatView`` -> ``board_redaction_SeatView`` (a name generators accept)."""
    return name.removeprefix("domain.").removeprefix("service.").replace(".", "_")


@cache
def field_docstrings(cls: type) -> dict[str, str]:
    """The docstrings of a class's fields: the string literal right after each annotated field (PEP 257's
    "attribute docstrings", as Sphinx reads them), inherited fields included."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__ in ("builtins", "msgspec"):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        node = tree.body[0]
        if not isinstance(node, ast.ClassDef):
            continue
        for a, b in zip(node.body, node.body[1:]):
            if (
                isinstance(a, ast.AnnAssign)
                and isinstance(a.target, ast.Name)
                and isinstance(b, ast.Expr)
                and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)
            ):
                docs[a.target.id] = inspect.cleandoc(b.value.value)
    return docs


def _rule(table: dict[str, str], struct: str, field: str) -> str | None:
    """A :class:`SchemaDocs` rule: ``"Struct.field"`` first, then the plain field name."""
    return table.get(f"{struct}.{field}", table.get(field))


# -- building the document ---------------------------------------------------------------------


def build(app: Litestar) -> dict[str, Any]:
    """The finished document (a plain JSON object) of ``app``."""
    doc: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(app.openapi_schema.to_schema()))
    types = _all_types(app)
    (commands_schema, events_schema, judge_schema, *_), raw = msgspec.json.schema_components(types, ref_template=REF)
    structs = _structs(types)
    names = _names(list(structs))
    assert set(names.values()) == set(raw), "msgspec named its components otherwise than expected"
    rename = {n: _short(n) for n in raw}
    components: dict[str, Any] = {rename[n]: s for n, s in raw.items()}
    for n in raw:
        if rename[n] != n:
            components[rename[n]]["title"] = rename[n]  # generators name their classes by the title
    for cls, info in structs.items():
        _describe_fields(components[rename[names[cls]]], cls, info, _docs_of(cls), DESCRIPTIONS)
    for game in registry.GAMES.values():
        own = _structs(_game_types(game))
        docs = game.schema_docs
        for name, values in docs.enums.items():
            components[name] = {"type": "string", "enum": list(values), "description": _enum_text(name)}
        for cls in own:
            _value_sets(components[rename[names[cls]]], cls.__name__, docs)
        for example in docs.examples:
            schema = components[rename[names[type(example)]]]
            schema.setdefault("examples", []).append(msgspec.to_builtins(example))
    components["ProblemCode"] = _problem_codes()
    components["Problem"]["properties"]["code"] = {
        "$ref": REF.format(name="ProblemCode"),
        "description": "The stable, machine-readable code: branch on it.",
    }
    # The unions of every game's commands and events are named components, referred to wherever they appear.
    components["Command"] = {**commands_schema, "description": "A player command of any hosted game, tagged by `type`."}
    components["Event"] = {**events_schema, "description": "An event of any hosted game, tagged by `type`."}
    components["JudgeCommand"] = {
        **judge_schema,
        "description": "A judge's action of any hosted game, tagged by `type` (docs/judge.md).",
    }
    components["EventOut"]["properties"]["event"] = {
        "$ref": REF.format(name="Event"),
        "description": "The event, tagged by `type`, redacted for the reader.",
    }
    components[rename[names[ExportEvent]]]["properties"]["event"] = {
        "$ref": REF.format(name="Event"),
        "description": "The event, tagged by `type`, as stored (in the schema version `schema`), redacted for "
        "the reader unless the export is `complete`.",
    }
    doc["components"]["schemas"] = components
    _rewrite(doc, rename)
    create = [{"$ref": REF.format(name=rename[names[t]])} for t in CREATE_BODIES]
    _finish_operations(doc, components["Command"], create)
    judged = doc["paths"]["/v1/games/{game_id}/judge"]["post"]
    judged["requestBody"]["content"]["application/json"] = {
        "schema": {"$ref": REF.format(name="JudgeCommand")},
        "examples": _command_examples(judge=True),
    }
    judged["requestBody"]["description"] = "One judge's action, tagged by `type`."
    judged["description"] += "\n\nActions:\n" + _listing(doc, components["JudgeCommand"])
    examples.install(doc)
    _links(doc)
    _check_refs(doc)
    return doc


def _docs_of(cls: type) -> SchemaDocs | None:
    for game in registry.GAMES.values():
        if cls.__module__.startswith(f"domain.{game.kind}."):
            return game.schema_docs
    return None


def _describe_fields(
    schema: dict[str, Any], cls: type, info: mi.StructType, docs: SchemaDocs | None, fallback: dict[str, str]
) -> None:
    own = field_docstrings(cls)
    props = schema.get("properties", {})
    tag_field = info.tag_field
    for f in info.fields:
        p = props.get(f.encode_name)
        if p is None:
            continue
        if f.encode_name in TIME_FIELDS:
            _date_time(p)
        if "description" in p:
            continue
        text = own.get(f.name)
        if text is None and docs is not None:
            text = _rule(docs.descriptions, cls.__name__, f.encode_name)
        if text is None:
            text = fallback.get(f.encode_name)
        if text is not None:
            p["description"] = text
    if tag_field is not None and tag_field in props:
        props[tag_field]["description"] = f"`{info.tag}`: the tag that names this type."


def _date_time(p: dict[str, Any]) -> None:
    for s in _strings(p):
        s["format"] = "date-time"


def _strings(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The string schemas a field's values are: itself, a nullable's non-null member, list items."""
    if node.get("type") == "string" and "enum" not in node:
        yield node
    for member in node.get("anyOf", []):
        yield from _strings(member)
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        yield from _strings(node["items"])


def _value_sets(schema: dict[str, Any], struct: str, docs: SchemaDocs) -> None:
    for field, p in schema.get("properties", {}).items():
        values = _rule(docs.values, struct, field)
        if values:
            _refer(p, values, dict_values=True)
        keys = _rule(docs.keys, struct, field)
        if keys:
            for obj in _objects(p):
                obj["propertyNames"] = {"$ref": REF.format(name=keys)}


def _objects(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if node.get("type") == "object" and "additionalProperties" in node:
        yield node
    for member in node.get("anyOf", []):
        yield from _objects(member)


def _refer(node: dict[str, Any], name: str, dict_values: bool) -> None:
    """Make the string values of ``node`` take the value set ``name``."""
    targets: list[dict[str, Any]] = list(_strings(node))
    if dict_values:
        for obj in _objects(node):
            value = obj["additionalProperties"]
            if isinstance(value, dict):
                targets += list(_strings(value))
    for s in targets:
        kept = {k: v for k, v in s.items() if k in ("description", "default")}
        s.clear()
        s.update({"$ref": REF.format(name=name), **kept})


def _enum_text(name: str) -> str:
    words = re.sub(r"(?<!^)([A-Z])", r" \1", name).lower()
    return f"Every {words} id of the game's facts."


def _problem_codes() -> dict[str, Any]:
    codes = sorted({c.code for c in problem_catalogue()})
    return {
        "type": "string",
        "enum": codes,
        "description": "Every problem `code` the API returns (`docs/api-conventions.md`, *Problem codes*).",
    }


def _rewrite(node: Any, rename: dict[str, str]) -> None:
    """Point every ``$ref`` at its renamed component; msgspec's ``anyOf`` of a tagged union becomes the
    ``oneOf`` it is (the discriminator picks exactly one member)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            node["$ref"] = REF.format(name=rename.get(name, name))
        if "discriminator" in node and "anyOf" in node:
            node["oneOf"] = node.pop("anyOf")
        mapping = node.get("discriminator", {}).get("mapping")
        if isinstance(mapping, dict):
            for tag, target in mapping.items():
                mapping[tag] = REF.format(name=rename.get(target.rsplit("/", 1)[1], target.rsplit("/", 1)[1]))
        for v in node.values():
            _rewrite(v, rename)
    elif isinstance(node, list):
        for v in node:
            _rewrite(v, rename)


def _check_refs(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                assert ref.rsplit("/", 1)[1] in schemas, f"dangling {ref}"
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)


# -- operations ----------------------------------------------------------------------------------


def _header(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": description, "schema": schema or {"type": "string"}, "required": True}


ETAG = _header('The game\'s version as a strong entity tag: `"12"`.', {"type": "string", "pattern": '^"[0-9]+"$'})
REFERENCE_ETAG = _header(
    "A strong entity tag of the content (a hash): it changes exactly when the content does.",
    {"type": "string", "pattern": '^"[0-9a-f]{32}"$'},
)
CACHE_CONTROL = _header("How long the answer may be kept before it is revalidated: `public, max-age=3600`.")
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The `ETag` of the copy you hold (several, comma-separated; `W/` ignored; `*`: any): when it "
    "is still current the answer is `304 Not Modified`, without a body.",
    "schema": {"type": "string"},
}
HEADERS_BY_STATUS: dict[str, dict[str, dict[str, Any]]] = {
    "401": {"WWW-Authenticate": _header('`Bearer realm="citadel"`, with `error="invalid_token"` for a bad token.')},
    "429": {
        "Retry-After": _header("Seconds to wait before retrying.", {"type": "string", "pattern": "^[0-9]+$"}),
    },
    "503": {"Retry-After": _header("Seconds to wait before retrying.", {"type": "string", "pattern": "^[0-9]+$"})},
}
RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": "Requests per second allowed to this client (`rate_limited` only).",
    "RateLimit-Remaining": "Requests left in the window: `0` (`rate_limited` only).",
    "RateLimit-Reset": "Seconds until a request is allowed again (`rate_limited` only).",
}


NO_ETAG = ("GET /v1/games", "GET /v1/games/{game_id}/invitation", "GET /v1/games/{game_id}/events")
"""Answers under ``/v1/games`` that describe no one version of a game: they carry no ``ETag``."""

LONG_KEYS = ("POST /v1/games", "POST /v1/games/{game_id}/seats", "POST /v1/tournaments")
"""Operations whose ``Idempotency-Key`` must have 16 characters or more (``bodies.require_long_key``)."""


def _finish_operations(doc: dict[str, Any], commands_schema: dict[str, Any], create: list[dict[str, Any]]) -> None:
    catalogue = problem_catalogue()
    examples = _command_examples()
    for path, item in doc["paths"].items():
        for method, op in item.items():
            op_id = f"{method.upper()} {path}"
            responses = op["responses"]
            for status, response in responses.items():
                if status.startswith("2") and path.startswith("/v1/games") and op_id not in NO_ETAG:
                    response.setdefault("headers", {})["ETag"] = ETAG
                if status == "200" and path.startswith("/v1/reference"):
                    response.setdefault("headers", {}).update({"ETag": REFERENCE_ETAG, "Cache-Control": CACHE_CONTROL})
                if status in HEADERS_BY_STATUS:
                    response.setdefault("headers", {}).update(HEADERS_BY_STATUS[status])
                if status == "429":
                    for name, text in RATE_LIMIT_HEADERS.items():
                        response["headers"][name] = {"description": text, "schema": {"type": "string"}}
                if status.startswith(("4", "5")) and PROBLEM in response.get("content", {}):
                    codes = [c for c in catalogue if c.status == int(status) and c.applies(op_id)]
                    response["description"] = (
                        "; ".join(f"`{c.code}`: {c.meaning}" for c in codes) or response["description"]
                    )
                    response["content"][PROBLEM]["examples"] = {
                        c.code: {"summary": c.meaning, "value": c.example(path)} for c in codes
                    }
            if method == "get" and "ETag" in responses.get("200", {}).get("headers", {}):
                _not_modified(op)
            if op_id == "GET /readyz":
                responses["503"]["headers"]["Retry-After"]["required"] = False
            for param in op.get("parameters", []):
                if param["name"] == "Idempotency-Key" and op_id in LONG_KEYS:
                    param["schema"]["pattern"] = "^(.{16,})?$"  # empty: no key
                    param["description"] += (
                        " At least 16 characters here (use a random UUID): the key returns a token. An empty value "
                        "counts as no key."
                    )
            if op_id == "POST /v1/games":
                responses["201"]["headers"]["Location"] = _header("The new game's URL: `/v1/games/{game_id}`.")
                op["requestBody"] = {
                    "content": {"application/json": {"schema": {"oneOf": create}}},
                    "required": True,
                    "description": "The game to create; `kind` picks the game (default `board`).",
                }
            if op_id == "POST /v1/games/{game_id}/commands":  # the handler reads its body itself
                op["requestBody"] = {
                    "content": {
                        "application/json": {"schema": {"$ref": REF.format(name="Command")}, "examples": examples}
                    },
                    "description": "One command, tagged by `type`.",
                    "required": True,
                }
                op["description"] += "\n\nCommand types:\n" + _listing(doc, commands_schema)
            if op_id == "GET /v1/games/{game_id}/decisions":
                kinds = [
                    n for _, n in _nodes(doc["components"]) if n.get("discriminator", {}).get("propertyName") == "kind"
                ]
                op["description"] += "".join("\n\nDecision kinds (`options.kind`):\n" + _listing(doc, k) for k in kinds)
            if op_id == "POST /v1/turns":
                responses["200"] = _turns_response()
            if op_id == "GET /v1/games/{game_id}/events":
                responses["200"] = _events_response()
                responses["204"] = {
                    "description": "SSE only: the game is over and nothing follows `Last-Event-ID` (or `from`); "
                    "an `EventSource` stops reconnecting."
                }
                op["parameters"].append(
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "description": "SSE: resume after this `seq` (wins over `from`; a value that is not a "
                        "number is ignored).",
                        "schema": {"type": "string"},
                    }
                )


def _not_modified(op: dict[str, Any]) -> None:
    """A GET that tags its answer also answers ``If-None-Match`` with a 304 (``service/http/manners.py``)."""
    op.setdefault("parameters", []).append(IF_NONE_MATCH)
    kept = {k: v for k, v in op["responses"]["200"]["headers"].items() if k in ("ETag", "Cache-Control")}
    op["responses"]["304"] = {
        "description": "Not Modified: the `ETag` named by `If-None-Match` is current. No body; the `ETag` "
        "(and the `Cache-Control`) the `200` would have carried.",
        "headers": kept,
    }


def _links(doc: dict[str, Any]) -> None:
    """OpenAPI links: what an answer lets a client (and schemathesis' stateful phase) call next."""
    ops = {f"{m.upper()} {p}": op for p, item in doc["paths"].items() for m, op in item.items()}

    def link(target: str, description: str, **parameters: str) -> dict[str, Any]:
        return {
            "operationId": ops[target]["operationId"],
            "description": description,
            "parameters": {k.replace("__", "."): v for k, v in parameters.items()},
        }

    game = "$response.body#/game_id"
    org = "Bearer {$response.body#/organizer_token}"
    seat = "Bearer {$response.body#/token}"
    ops["POST /v1/games"]["responses"]["201"]["links"] = {
        "JoinGame": link("POST /v1/games/{game_id}/seats", "Take a seat in the new game.", path__game_id=game),
        "StartGame": link(
            "POST /v1/games/{game_id}/start",
            "Start it as its organizer.",
            path__game_id=game,
            header__Authorization=org,
        ),
        "PublicView": link("GET /v1/games/{game_id}", "Watch it.", path__game_id=game),
        "Events": link("GET /v1/games/{game_id}/events", "Follow its events.", path__game_id=game),
        "Log": link("GET /v1/games/{game_id}/log", "Read its log.", path__game_id=game),
        "Export": link("GET /v1/games/{game_id}/export", "Export it.", path__game_id=game),
        "Invitation": link(
            "GET /v1/games/{game_id}/invitation",
            "A private game's invitation code, again (its organizer).",
            path__game_id=game,
            header__Authorization=org,
        ),
    }
    ops["POST /v1/games/{game_id}/seats"]["responses"]["201"]["links"] = {
        "SeatView": link(
            "GET /v1/games/{game_id}/view",
            "Your view, with the seat's token.",
            path__game_id=game,
            header__Authorization=seat,
        ),
        "Decisions": link(
            "GET /v1/games/{game_id}/decisions", "What you must decide.", path__game_id=game, header__Authorization=seat
        ),
        "SubmitCommand": link(
            "POST /v1/games/{game_id}/commands", "Play.", path__game_id=game, header__Authorization=seat
        ),
    }
    for op in ("POST /v1/games/{game_id}/start", "POST /v1/games/{game_id}/commands"):
        ops[op]["responses"]["200"]["links"] = {
            "PublicViewAtVersion": link(
                "GET /v1/games/{game_id}",
                "Read your write: the view at this version at least.",
                path__game_id="$request.path.game_id",
                query__min_version="$response.body#/version",
            ),
            "EventsAfter": link(
                "GET /v1/games/{game_id}/events",
                "What happens next: the events after this version.",
                path__game_id="$request.path.game_id",
                query__from="$response.body#/version",
            ),
        }


def _members(union: Any) -> tuple[Any, ...]:
    return tuple(getattr(union, "__args__", (union,)))


def _listing(doc: dict[str, Any], union: dict[str, Any]) -> str:
    """One line per member of a tagged union: its tag and the first line of its description."""
    lines = []
    for tag, target in union["discriminator"]["mapping"].items():
        text = doc["components"]["schemas"][target.rsplit("/", 1)[1]].get("description", "")
        lines.append(f"* `{tag}`: {' '.join(text.split(chr(10) * 2)[0].split())}")
    return "\n".join(lines)


def _nodes(node: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield "", node
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nodes(v)


def _command_examples(judge: bool = False) -> dict[str, Any]:
    """Every game's examples of its player commands (of its judge's actions with ``judge``)."""
    out: dict[str, Any] = {}
    for game in registry.GAMES.values():
        union = game.judge_command_type if judge else game.command_type
        if union is None:
            continue
        members = getattr(union, "__args__", (union,))
        for example in game.schema_docs.examples:
            if type(example) in members:
                tag = type(example).__struct_config__.tag
                out[str(tag)] = {
                    "summary": (type(example).__doc__ or "").split("\n")[0],
                    "value": msgspec.to_builtins(example),
                }
    return out


def _sse_message(description: str, event: str, data: dict[str, Any], with_id: bool) -> dict[str, Any]:
    """The item schema of one kind of SSE message: ``event`` names it, ``data`` is JSON."""
    properties: dict[str, Any] = {
        "event": {"type": "string", "description": "The message's type.", **({"const": event} if event else {})},
        "data": {
            "type": "string",
            "description": "JSON.",
            "contentMediaType": "application/json",
            "contentSchema": data,
        },
    }
    if with_id:
        properties["id"] = {"type": "string", "pattern": "^[0-9]+$", "description": "The event's `seq`."}
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": ["event", "data", *(["id"] if with_id else [])],
    }


def _events_response() -> dict[str, Any]:
    line = {"$ref": REF.format(name="EventOut")}
    end = _sse_message(
        "The last message once the game has ended: `data` names the final `version`; then the stream closes.",
        "end",
        {"$ref": REF.format(name="StreamEnd")},
        with_id=False,
    )
    return {
        "description": "The events after `from`, redacted for the caller. NDJSON: one `EventOut` object per line "
        "(the schema describes each line). SSE (`Accept: text/event-stream`): `retry: 3000`, then one message per "
        "event with `id` (the event's `seq`), `event` (its `type`) and `data` (the event as JSON); once the game has "
        "ended, a last message `event: end` (`data`: `StreamEnd`) and the stream closes. The schema describes "
        "each message.",
        "headers": {
            "Cache-Control": {"description": "SSE: `no-cache`.", "schema": {"type": "string"}},
            "X-Accel-Buffering": {"description": "SSE: `no` (proxies must not buffer).", "schema": {"type": "string"}},
        },
        "content": {
            "application/x-ndjson": {
                "schema": {"type": "string", "description": "NDJSON: one `EventOut` object per line."},
                "itemSchema": line,
            },
            "text/event-stream": {
                "schema": {"type": "string", "description": "Server-Sent Events: one message per event."},
                "itemSchema": {
                    "oneOf": [
                        _sse_message("One event of the game.", "", {"$ref": REF.format(name="Event")}, with_id=True),
                        end,
                    ]
                },
            },
        },
    }


def _turns_response() -> dict[str, Any]:
    def msg(event: str, struct: str, description: str) -> dict[str, Any]:
        return _sse_message(description, event, {"$ref": REF.format(name=struct)}, with_id=False)

    return {
        "description": "Server-Sent Events: `retry: 3000`, then a `turn` message whenever a decision opens for "
        "one of the seats, `game_ended` when a game is over, `end` when every game is over (then it closes).",
        "headers": {
            "Cache-Control": {"description": "`no-cache`.", "schema": {"type": "string"}},
            "X-Accel-Buffering": {"description": "`no` (proxies must not buffer).", "schema": {"type": "string"}},
        },
        "content": {
            "text/event-stream": {
                "schema": {"type": "string", "description": "Server-Sent Events."},
                "itemSchema": {
                    "oneOf": [
                        msg("turn", "TurnItem", "A decision is open for this seat: your turn in this game."),
                        msg("game_ended", "SeatEnded", "This game is over."),
                        msg("end", "TurnsEnd", "Every game is over; the stream closes."),
                    ]
                },
            }
        },
    }


class _Document(OpenAPI):
    """Litestar's document object, serving the finished JSON."""

    def __init__(self, raw: dict[str, Any], base: OpenAPI) -> None:
        super().__init__(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base) if f.init})
        self._raw = raw

    def to_schema(self) -> dict[str, Any]:
        return self._raw


def install(app: Litestar) -> None:
    """Serve the finished document at ``/schema`` and as ``app.openapi_schema``."""
    from litestar._openapi.plugin import OpenAPIPlugin

    plugin = app.plugins.get(OpenAPIPlugin)
    raw = build(app)
    plugin._openapi = _Document(raw, app.openapi_schema)
    plugin._openapi_schema = None
