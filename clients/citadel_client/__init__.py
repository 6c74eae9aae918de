"""A typed client of the Citadel API (HTTP only), async (:class:`CitadelClient`) and blocking
(:class:`SyncCitadelClient`), with the same operations; the API's JSON as msgspec Structs in
:mod:`.models`. See ``clients/README.md``."""

from . import cards
from .client import CitadelClient
from .endpoints import Call, Endpoints
from .models import (
    Command,
    Decision,
    DecisionOptions,
    DecisionsOut,
    EventOut,
    PlayerCommand,
    Problem,
    kind_of,
)
from .problem import ApiProblem
from .retry import RetryPolicy
from .sse import ENDING_EVENTS, EventCursor, SseParser, StreamGap
from .sync import SyncCitadelClient

AsyncCitadelClient = CitadelClient
"""The async client under a name that says so."""

__all__ = [
    "ENDING_EVENTS",
    "ApiProblem",
    "AsyncCitadelClient",
    "Call",
    "CitadelClient",
    "Command",
    "Decision",
    "DecisionOptions",
    "DecisionsOut",
    "Endpoints",
    "EventCursor",
    "EventOut",
    "PlayerCommand",
    "Problem",
    "RetryPolicy",
    "SseParser",
    "StreamGap",
    "cards",
    "SyncCitadelClient",
    "kind_of",
]
