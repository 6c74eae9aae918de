"""Test helpers for commit–reveal (domain/board/sealed_inputs.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.westeros import events as wev
from domain.core.commitment import opens, salt_purpose
from domain.core.context import Context
from domain.core.rederive import RecordedRng
from domain.core.rng import SeededRng

_CONTENT = {
    ev.OrdersSubmitted: ("orders", "orders"),
    wev.BidSubmitted: ("bid", "amount"),
    aev.HouseCardChosen: ("house_card", "card"),
}


def unsealed(event: Any) -> Any:
    """A sealed input's submission event without its salt and commitment, after checking that its
    content and salt open its commitment; any other event as it is."""
    spec = _CONTENT.get(type(event))
    if spec is None:
        return event
    kind, field = spec
    assert event.salt is not None and len(event.salt) == 64, event
    assert opens(event.commitment, kind, event.house, event.salt, getattr(event, field)), event
    return msgspec.structs.replace(event, salt=None, commitment="")


@dataclass(frozen=True, slots=True)
class ServerSaltsContext(Context):
    """A context for re-deciding a batch while the seed is secret: the salts of the sealed inputs
    are the ones the server's batch records (so the commitments around them are recomputed and
    compared), every other draw comes from the stream of ``seed`` as usual. The salts themselves
    are checked against the seed by the audit of the finished export (domain/board/audit.py)."""

    salts: Mapping[str, str] = field(default_factory=dict)

    def rng(self, purpose: str) -> SeededRng:
        if purpose in self.salts:
            return RecordedRng(purpose, [self.salts[purpose]])
        return Context.rng(self, purpose)


def with_server_salts(ctx: Context, version: int, server_events: Sequence[Any]) -> ServerSaltsContext:
    """``ctx`` with the salts of the sealed inputs in ``server_events``, the batch that follows
    ``version`` (its first event is number ``version + 1``)."""
    salts = {
        salt_purpose(version + k, e.house): e.salt
        for k, e in enumerate(server_events, 1)
        if type(e) in _CONTENT and e.salt is not None
    }
    return ServerSaltsContext(now=ctx.now, seed=ctx.seed, game_id=ctx.game_id, salts=salts)
