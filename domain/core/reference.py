"""Reference data: the facts of a game that never change while it is hosted.

A client that draws or explains a game needs more than its views: the board game's map (areas,
adjacency, where each area is drawn), its cards and its order tokens. A game publishes each such
document as a :class:`ReferenceDocument` (:attr:`domain.core.game.Game.reference`); the service
serves it read-only at ``GET /v1/reference/{name}``, with a strong ``ETag`` computed from its bytes
(``service/http/controllers/reference.py``). The content is built from the game's own data files
when the game is imported, never read from anywhere at request time.
"""

from __future__ import annotations

import msgspec

NAME_PATTERN = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
"""A document's name is one URL path segment: lowercase words joined by ``-`` (``house-cards``)."""


class ReferenceDocument(msgspec.Struct, frozen=True):
    """One reference document of a game.

    ``content`` is a Struct whose type is the document's answer model: the service documents the
    operation with it (its docstring and its fields' docstrings describe the schema)."""

    name: str
    """The URL segment (``board``, ``house-cards``): unique among the hosted games' documents."""
    summary: str
    """One line for the API document's operation summary and the index."""
    description: str
    """What the document holds, for the API document."""
    content: msgspec.Struct
    """The document itself."""
