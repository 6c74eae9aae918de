"""Reading stored events written by another version of the code.

A game's events are stored with the ``schema`` number of the code that wrote them (each
:class:`~domain.core.envelope.Envelope` carries it). Reading them back is :meth:`EventCodec.decode`:

* **same schema** -- the fast typed decode; if the event carries fields this code does not know
  (a newer writer of the same schema during a rolling deploy), the unknown fields are dropped and
  the rest is read, instead of failing;
* **older schema** -- the event is read as plain JSON and passed through the game's upcasters, one
  schema step at a time (``upcasters[n]`` turns a schema-``n`` event into schema ``n + 1``), then
  converted into the current type;
* **newer schema** -- read like the same schema, dropping what this code does not know.

Stored events are never rewritten: upcasting happens on every read, so the hash chain over the
stored bytes still verifies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from msgspec import inspect as mi

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns one event of schema ``n`` (plain JSON object) into schema ``n + 1``."""


class UpcastError(ValueError):
    pass


class EventCodec:
    """Decodes one game's stored events of any schema into its current event types."""

    def __init__(self, event_type: Any, schema_version: int, upcasters: Mapping[int, Upcaster] | None = None) -> None:
        self.event_type = event_type
        self.schema_version = schema_version
        self.upcasters = dict(upcasters or {})
        self._fast: msgspec.json.Decoder[Any] = msgspec.json.Decoder(event_type)
        self._info = mi.type_info(event_type)

    def decode(self, raw: bytes, schema: int | None = None) -> Any:
        """The event in ``raw`` (stored with ``schema``; None means the current one)."""
        if schema is None or schema >= self.schema_version:
            try:
                return self._fast.decode(raw)
            except msgspec.ValidationError as e:
                if "unknown field" not in str(e):
                    raise
            return self.from_builtins(msgspec.json.decode(raw))
        obj = msgspec.json.decode(raw)
        for n in range(schema, self.schema_version):
            step = self.upcasters.get(n)
            if step is None:
                raise UpcastError(f"no upcaster from schema {n} to {n + 1}")
            obj = step(obj)
        return self.from_builtins(obj)

    def from_builtins(self, obj: Any) -> Any:
        """Convert a plain JSON value, dropping fields the current types do not know."""
        return msgspec.convert(prune_unknown(obj, self._info), self.event_type)


def prune_unknown(obj: Any, info: mi.Type) -> Any:
    """``obj`` without the object fields that ``info`` (a msgspec type description) does not declare."""
    if isinstance(info, mi.Metadata):
        return prune_unknown(obj, info.type)
    if isinstance(info, mi.StructType):
        if not isinstance(obj, dict):
            return obj
        fields = {f.encode_name: f.type for f in info.fields}
        out = {}
        for k, v in obj.items():
            if k == info.tag_field:
                out[k] = v
            elif k in fields:
                out[k] = prune_unknown(v, fields[k])
        return out
    if isinstance(info, mi.UnionType):
        if isinstance(obj, dict):
            structs = [t for t in info.types if isinstance(t, mi.StructType)]
            for t in structs:
                if t.tag_field is not None and obj.get(t.tag_field) == t.tag:
                    return prune_unknown(obj, t)
            if len(structs) == 1:
                return prune_unknown(obj, structs[0])
            for other in info.types:
                if isinstance(other, mi.DictType | mi.Metadata):
                    return prune_unknown(obj, other)
        if isinstance(obj, list):
            for other in info.types:
                if isinstance(other, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
                    return prune_unknown(obj, other)
        return obj
    if isinstance(info, mi.DictType) and isinstance(obj, dict):
        return {k: prune_unknown(v, info.value_type) for k, v in obj.items()}
    if isinstance(info, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType) and isinstance(obj, list):
        return [prune_unknown(v, info.item_type) for v in obj]
    if isinstance(info, mi.TupleType) and isinstance(obj, list):
        return [prune_unknown(v, t) for v, t in zip(obj, info.item_types)]
    return obj
