"""Re-deriving a game from its players' commands: the offline check that no event was invented.

An export holds events, not commands. Every event was produced by ``decide`` answering one command:
a player's (recovered from the event that opens its batch), or the system's (``ResolvePending``
when every sealed input is in or a phase must open, ``ApplyTimeout`` when a deadline passed). So
the events can be re-derived batch by batch: from the state before a batch, find the command that
produced it, run ``decide`` again at the batch's recorded time with the revealed seed, and compare
event by event. The first event that differs is the divergence (its sequence number, the event the
rules produce there, and the event the export holds).

Each game says which commands may have opened a batch (``candidates``); this module runs the loop,
game-independent. A batch is accepted when one candidate's events equal the export's, which makes
the reconstruction of a command safe to get wrong: a wrong guess produces other events, never a
false acceptance.

Without the seed (an export taken before the end), random outcomes are read from the export
itself (:class:`RecordedContext`): a recorded shuffle must still be a permutation of what was
shuffled, everything around it is re-derived, and the report says the draws were not checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import msgspec

from .commands import Actor
from .context import Context
from .rng import SeededRng

T = TypeVar("T")

_enc = msgspec.json.Encoder(order="sorted")


class UnrecordedDraw(Exception):
    """``decide`` asked for a random outcome that the export does not record (and no seed is known)."""


class RecordedRng(SeededRng):
    """Hands out the outcome the export recorded for one purpose, after checking it could be one."""

    __slots__ = ("_outcome", "_purpose")

    def __init__(self, purpose: str, outcome: Sequence[Any] | None) -> None:
        super().__init__("", purpose)
        self._purpose = purpose
        self._outcome = outcome

    def shuffled(self, items: Sequence[T]) -> list[T]:
        if self._outcome is None:
            raise UnrecordedDraw(f"the draw {self._purpose!r} is not recorded in the export")
        if Counter(map(_key, self._outcome)) != Counter(map(_key, items)):
            raise UnrecordedDraw(f"the recorded draw {self._purpose!r} is not a shuffle of what was shuffled")
        return list(self._outcome)

    def token_hex(self, nbytes: int) -> str:
        """A salt the export records in the clear (an unredacted submission): handed back as is,
        so the commitment around it is re-derived; unrecorded, it cannot be checked."""
        if self._outcome is None or len(self._outcome) != 1 or not isinstance(self._outcome[0], str):
            raise UnrecordedDraw(f"the draw {self._purpose!r} cannot be checked without the seed")
        return self._outcome[0]

    def below(self, n: int) -> int:
        raise UnrecordedDraw(f"the draw {self._purpose!r} cannot be checked without the seed")


def _key(x: Any) -> bytes:
    return _enc.encode(x)


@dataclass(frozen=True, slots=True)
class RecordedContext(Context):
    """A context whose random streams replay the outcomes recorded in the export (by purpose)."""

    outcomes: Mapping[str, Sequence[Any]] = field(default_factory=dict)

    def rng(self, purpose: str) -> SeededRng:
        return RecordedRng(purpose, self.outcomes.get(purpose))


def replay_context(
    seed: str | None, game_id: str, outcomes: Mapping[str, Sequence[Any]]
) -> Callable[[datetime], Context]:
    """The context each re-run command gets, at its batch's time: the revealed ``seed``'s own
    random streams, or, while the seed is secret, the outcomes the export records (by purpose)."""

    def context(ts: datetime) -> Context:
        if seed is not None:
            return Context(now=ts, seed=seed, game_id=game_id)
        return RecordedContext(now=ts, seed="", game_id=game_id, outcomes=outcomes)

    return context


class Recorded(msgspec.Struct, frozen=True):
    """One exported event, decoded, with where it sits in the export."""

    seq: int
    ts: datetime
    event: Any
    redacted: bool = False
    """The export hides part of it from its reader: it cannot be compared."""


class Divergence(msgspec.Struct, frozen=True):
    seq: int
    expected: str
    """The event the rules produce here (canonical JSON), or a sentence when there is none."""
    found: str
    """The event the export holds here, or a sentence when the export ends."""
    command: str = ""
    """The command that was re-run (its type), when one was."""

    def message(self) -> str:
        by = f" (re-running {self.command})" if self.command else ""
        return f"event {self.seq}{by}: expected {self.expected}, found {self.found}"


class Rederived(msgspec.Struct):
    state: Any
    through: int
    """The sequence number of the last re-derived event (0: none)."""
    batches: int
    divergence: Divergence | None = None
    stopped: str | None = None
    """Why re-derivation stopped before the end without a divergence (a redacted event, a draw
    that cannot be checked without the seed)."""


Candidate = tuple[Actor, object]
Decide = Callable[[Any, object, Actor, Context], list[Any]]
Fold = Callable[[Sequence[Any], Any], Any]
Candidates = Callable[[Any, Sequence[Recorded], int], list[Candidate]]


def show(event: Any, limit: int = 400) -> str:
    """An event as canonical JSON, cut at ``limit`` characters."""
    text = _enc.encode(event).decode()  # sorted keys, compact: as the hash chain sees it
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_difference(expected: Any, found: Any) -> tuple[str, str]:
    """Both events as canonical JSON; when they are of the same type, only what differs (with the
    type tag), down to the innermost differing keys, so the difference is readable in one line."""
    a, b = msgspec.to_builtins(expected), msgspec.to_builtins(found)
    if isinstance(a, dict) and isinstance(b, dict) and a.get("type") == b.get("type"):
        tag = a.get("type")
        a, b = _differing(a, b)
        a, b = {"type": tag, **a}, {"type": tag, **b}
    return show(a), show(b)


def _differing(a: dict[str, Any], b: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keys whose values differ; nested objects pruned the same way."""
    out_a: dict[str, Any] = {}
    out_b: dict[str, Any] = {}
    for k in sorted(a.keys() | b.keys()):
        x, y = a.get(k), b.get(k)
        if x == y:
            continue
        if isinstance(x, dict) and isinstance(y, dict):
            out_a[k], out_b[k] = _differing(x, y)
        else:
            out_a[k], out_b[k] = x, y
    return out_a, out_b


def rederive(
    state: Any,
    recorded: Sequence[Recorded],
    start: int,
    *,
    decide: Decide,
    fold: Fold,
    candidates: Candidates,
    context: Callable[[datetime], Context],
) -> Rederived:
    """Re-derive ``recorded[start:]`` from ``state`` (the fold of ``recorded[:start]``), batch by batch.

    ``candidates(state, recorded, i)`` lists the commands that may have produced the batch that
    starts at ``recorded[i]``; ``context(ts)`` is the context to decide at that recorded time.
    ``state`` is folded forward (and mutated) as batches are accepted."""
    i, batches = start, 0
    through = recorded[start - 1].seq if start else 0
    while i < len(recorded):
        head = recorded[i]
        if head.redacted:
            return Rederived(state, through, batches, stopped=f"event {head.seq} is redacted for this reader")
        best: tuple[int, list[Any], str] | None = None
        refusals: list[str] = []
        for actor, command in candidates(state, recorded, i):
            name = type(command).__name__
            try:
                out = decide(state, command, actor, context(head.ts))
            except UnrecordedDraw as e:
                return Rederived(state, through, batches, stopped=f"event {head.seq}: {e}")
            except Exception as e:  # a refusal (GameError) or a state the rules never reach: no match
                refusals.append(f"{name} refused: {e}")
                continue
            hidden = next((r for r in recorded[i : i + len(out)] if r.redacted), None)
            if hidden is not None:
                return Rederived(state, through, batches, stopped=f"event {hidden.seq} is redacted for this reader")
            k = _same_prefix(out, recorded, i, head.ts)
            if k == len(out) and out:
                # fold what the export records (equal to ``out``, and byte for byte what the game folded)
                state = fold([r.event for r in recorded[i : i + len(out)]], state)
                i += len(out)
                through = recorded[i - 1].seq
                batches += 1
                break
            if best is None or k > best[0]:
                best = (k, out, name)
        else:
            return Rederived(state, through, batches, divergence=_divergence(recorded, i, best, refusals))
    return Rederived(state, through, batches)


def _same_prefix(out: list[Any], recorded: Sequence[Recorded], i: int, ts: datetime) -> int:
    """How many of ``out`` equal the recorded events from ``i`` on (one batch: one timestamp)."""
    k = 0
    while k < len(out) and i + k < len(recorded) and recorded[i + k].ts == ts and out[k] == recorded[i + k].event:
        k += 1
    return k


def _divergence(
    recorded: Sequence[Recorded], i: int, best: tuple[int, list[Any], str] | None, refusals: list[str]
) -> Divergence:
    head = recorded[i]
    if best is None:
        why = "; ".join(refusals) if refusals else "no player's command and no system step fits here"
        return Divergence(
            seq=head.seq, expected=f"no event (the rules produce nothing here: {why})", found=show(head.event)
        )
    k, out, name = best
    if i + k >= len(recorded):
        return Divergence(seq=recorded[-1].seq + 1, expected=show(out[k]), found="the end of the export", command=name)
    at = recorded[i + k]
    expected, found = show_difference(out[k], at.event)
    if at.ts != head.ts and out[k] == at.event:
        found += f" sealed at {at.ts.isoformat()}, not with its batch at {head.ts.isoformat()}"
    return Divergence(seq=at.seq, expected=expected, found=found, command=name)
