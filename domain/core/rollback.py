"""Folding a stream that holds a judge's rollback: the state re-derived as of an earlier version.

A judge never rewrites a stream. To roll a game back to version ``t`` the judge appends one event
(the board game's ``judge_rolled_back``) that names ``t``; from that event on the state is the fold
of the first ``t`` events, continued by the rollback event itself and whatever follows it. So a
fold that meets a rollback needs the events before it, not only the state: :func:`fold_at` takes
the whole history, and :func:`refold` folds a stream from its first event. Rollbacks may nest (a
rollback to a version after an earlier rollback): the prefix is re-folded by the same rule.

The version keeps counting events: after a rollback event at number ``s`` the state's ``version``
is ``s``, whatever version it was rolled back to. Each game says which of its events roll back and
to where (``target_of``); everything else here is game-independent and pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

Fold = Callable[[Sequence[Any], Any], Any]
TargetOf = Callable[[Any], "int | None"]


class RollbackOutOfRange(ValueError):
    """A rollback names a version that is not before it (a forged or corrupt stream)."""


def fold_at(fold: Fold, target_of: TargetOf, events: Sequence[Any], i: int, state: Any) -> Any:
    """Fold ``events[i]`` (event number ``i + 1``) onto ``state``, the fold of ``events[:i]``.

    A rollback to version ``t`` replaces ``state`` by the fold of ``events[:t]`` first, numbered
    ``i`` so that folding the rollback event makes it version ``i + 1``."""
    t = target_of(events[i])
    if t is not None:
        if not 1 <= t < i:
            raise RollbackOutOfRange(f"event {i + 1} rolls back to version {t}, which is not before it")
        state = refold(fold, target_of, events[:t])
        state.version = i
    return fold([events[i]], state)


def refold(fold: Fold, target_of: TargetOf, events: Sequence[Any]) -> Any:
    """The state after ``events``, a stream from its first event, rollbacks honoured.

    One pass: the state at each version some rollback returns to is kept (a copy) as the fold goes
    by it, so nested rollbacks cost no second fold of their prefix."""
    targets = {t for e in events if (t := target_of(e)) is not None}
    kept: dict[int, Any] = {}
    state = None
    for i, event in enumerate(events):
        t = target_of(event)
        if t is not None:
            if not 1 <= t < i or t not in kept:
                raise RollbackOutOfRange(f"event {i + 1} rolls back to version {t}, which is not before it")
            state = _copy(kept[t])
            state.version = i
        state = fold([event], state)
        if i + 1 in targets:
            kept[i + 1] = _copy(state)
    return state


def _copy(state: Any) -> Any:
    """A deep copy of a game's state (a msgspec Struct), through msgpack."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state))
