"""Reference data: each hosted game's documents (``Game.reference``), read-only and cacheable.

``GET /v1/reference`` lists the documents; ``GET /v1/reference/{name}`` serves one (the board game:
``board``, ``house-cards``, ``westeros-cards``, ``wildling-cards``, ``order-tokens``). Each route
answers with its document's own model, so the API document types each answer exactly.

A document never changes while the service runs: its bytes are encoded once, when the app is
built, and its strong ``ETag`` is a hash of them, so the tag changes exactly when the content
does (a new deployment with new data). ``Cache-Control`` lets clients and caches keep it for an
hour and then revalidate: ``If-None-Match`` with the tag answers ``304 Not Modified`` without a
body (``service/http/manners.py``, which also answers ``HEAD``). Nothing is read at request time:
the content comes from the games' own data, imported with them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from litestar import Response, get
from litestar.handlers import HTTPRouteHandler

from domain import registry
from domain.core.reference import NAME_PATTERN, ReferenceDocument

from ..problems import problems

PATH = "/v1/reference"
CACHE_CONTROL = "public, max-age=3600"
"""Reference data may be kept an hour, then revalidated with its ``ETag`` (a 304 costs no body)."""
TAGS = ["reference"]
_enc = msgspec.json.Encoder()


class ReferenceEntry(msgspec.Struct, frozen=True):
    """One reference document: where it is and its current version."""

    name: str
    """The document's name: the last segment of its path."""
    kind: str
    """The kind of game it belongs to (`board`...)."""
    path: str
    """Where to get it: `/v1/reference/<name>`."""
    summary: str
    """What it holds, in a line."""
    etag: str
    """Its current strong entity tag (the `ETag` its answer carries): a hash of its content. When it has
    not changed, a copy you kept is current."""


class ReferenceIndex(msgspec.Struct, frozen=True):
    """The reference documents this deployment serves, one per game fact sheet (the board, the cards...)."""

    documents: list[ReferenceEntry]
    """Every document of every hosted game."""


class Served(msgspec.Struct, frozen=True):
    """A document as it is sent: its bytes and their entity tag."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, content: msgspec.Struct) -> Served:
        body = _enc.encode(content)
        return cls(body=body, etag=f'"{hashlib.sha256(body).hexdigest()[:32]}"')

    def response(self) -> Response[Any]:
        headers = {"ETag": self.etag, "Cache-Control": CACHE_CONTROL}
        return Response(content=self.body, status_code=200, media_type="application/json", headers=headers)


def documents() -> list[tuple[str, ReferenceDocument]]:
    """Every registered game's documents with their game's kind; a name must be a path segment and
    unique across games (the service cannot start otherwise)."""
    seen: dict[str, str] = {}
    out = []
    for game in registry.GAMES.values():
        for doc in game.reference:
            if not re.match(NAME_PATTERN, doc.name):
                raise ValueError(f"reference document {doc.name!r} of {game.kind!r} is not a path segment")
            if doc.name in seen:
                raise ValueError(f"reference document {doc.name!r} of {game.kind!r} is also one of {seen[doc.name]!r}")
            seen[doc.name] = game.kind
            out.append((game.kind, doc))
    return out


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _document_route(kind: str, doc: ReferenceDocument, served: Served) -> HTTPRouteHandler:
    async def handler() -> Response[Any]:
        return served.response()

    handler.__name__ = handler.__qualname__ = f"reference_{doc.name.replace('-', '_')}"
    handler.__annotations__ = {"return": Response[type(doc.content)]}  # type: ignore[misc]  # the document's own model
    return _route(
        f"{PATH}/{doc.name}",
        handler,
        summary=doc.summary,
        description=f"{doc.description}\n\nReference data of the `{kind}` game: the same for every game, it "
        "changes only with a new deployment. Cacheable: a strong `ETag` (a hash of the content) and "
        f"`Cache-Control: {CACHE_CONTROL}`; send the tag back as `If-None-Match` for a `304` without a body.",
        operation_id=f"V1Reference{_camel(doc.name)}",
    )


def _route(
    path: str, handler: Callable[[], Awaitable[Response[Any]]], *, summary: str, description: str, operation_id: str
) -> HTTPRouteHandler:
    return get(
        path,
        summary=summary,
        description=description,
        operation_id=operation_id,
        tags=TAGS,
        responses=problems(400, 429, 503),
    )(handler)


def reference_index(docs: list[tuple[str, ReferenceDocument]], served: list[Served]) -> ReferenceIndex:
    """The list of ``docs`` (with their kinds), each with the tag of its ``served`` bytes."""
    return ReferenceIndex(
        documents=[
            ReferenceEntry(name=doc.name, kind=kind, path=f"{PATH}/{doc.name}", summary=doc.summary, etag=s.etag)
            for (kind, doc), s in zip(docs, served)
        ]
    )


def reference_routes() -> list[HTTPRouteHandler]:
    """The index and one route per document, each answering its precomputed bytes."""
    docs = documents()
    served = [Served.of(doc.content) for _, doc in docs]
    index = Served.of(reference_index(docs, served))

    async def index_of_documents() -> Response[ReferenceIndex]:
        return index.response()

    routes = [
        _route(
            PATH,
            index_of_documents,
            summary="Reference data: the list",
            description="The reference documents this deployment serves (the board, the House cards, the Westeros "
            "and wildling decks, the order tokens...), each with its path and its current `ETag`: a client that "
            "kept a document with the same tag needs not fetch it again. Cacheable like the documents.",
            operation_id="V1ReferenceIndex",
        )
    ]
    routes += [_document_route(kind, doc, s) for (kind, doc), s in zip(docs, served)]
    return routes
