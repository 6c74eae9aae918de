"""Trimming the partition feeds by what every consumer group has acknowledged.

Each append adds one entry to its partition's feed (``{pNN}:feed``: "game G reached version V").
The projector's group reads every feed from its start; the webhooks' group (``service/store/webhooks.py``)
reads a feed from when its first subscription was made. Once every group has been handed an entry
and acknowledged it, nobody will read it again, so it can go: :func:`trim_acknowledged` removes the
entries older than the oldest one some group still needs (``XTRIM ... MINID``): the oldest entry a
group holds pending (handed out, not acknowledged), else the first it has not been handed yet. The
append script's ``MAXLEN ~ 1,000,000`` stays as the cap when a group stops reading.

A feed is left alone until the projector's group exists: entries appended before the projector
first started are still to be projected (its group starts from the feed's first entry).
"""

from __future__ import annotations

from typing import Any

from .keys import feed_key

PROJECTOR_GROUP = "projector"
"""The projector's consumer group (``projections/projector.py``)."""


def _id(raw: bytes | str) -> tuple[int, int]:
    text = raw.decode() if isinstance(raw, bytes) else raw
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


def oldest_needed(groups: list[dict[str, Any]], pending_min: dict[str, bytes | str | None]) -> tuple[int, int] | None:
    """The id of the oldest entry some group still needs (see the module docstring), from
    ``XINFO GROUPS`` and each group's oldest pending id; None when the projector's group is missing."""
    names = {_name(g) for g in groups}
    if PROJECTOR_GROUP not in names:
        return None
    needed = []
    for g in groups:
        name = _name(g)
        oldest = pending_min.get(name)
        if oldest:
            needed.append(_id(oldest))
        else:
            ms, seq = _id(g.get("last-delivered-id") or "0-0")
            needed.append((ms, seq + 1))
    return min(needed)


def _name(group: dict[str, Any]) -> str:
    name = group["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def trim_acknowledged(redis: Any, partition: int) -> int:
    """Remove the entries of ``partition``'s feed that every group acknowledged (synchronous
    client: the worker's sweep); returns how many went."""
    key = feed_key(partition)
    try:
        groups = redis.xinfo_groups(key)
    except Exception as e:  # noqa: BLE001 - no feed yet: nothing to trim
        if "no such key" in str(e).lower():
            return 0
        raise
    pending_min: dict[str, bytes | str | None] = {}
    for g in groups:
        if int(g.get("pending") or 0):
            summary = redis.xpending(key, _name(g))
            pending_min[_name(g)] = summary.get("min")
    oldest = oldest_needed(groups, pending_min)
    if oldest is None:
        return 0
    return int(redis.xtrim(key, minid=f"{oldest[0]}-{oldest[1]}", approximate=False))
