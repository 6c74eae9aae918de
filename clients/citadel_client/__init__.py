"""A small typed client of the Citadel API (HTTP only): :class:`CitadelClient` and the JSON models."""

from .client import ApiProblem, CitadelClient
from .models import (
    Command,
    Decision,
    DecisionOptions,
    DecisionsOut,
    PlayerCommand,
    Problem,
    kind_of,
)

__all__ = [
    "ApiProblem",
    "CitadelClient",
    "Command",
    "Decision",
    "DecisionOptions",
    "DecisionsOut",
    "PlayerCommand",
    "Problem",
    "kind_of",
]
