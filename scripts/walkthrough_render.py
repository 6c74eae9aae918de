"""Rendering for ``scripts/walkthrough.py``: placeholders for what differs per run, trimmed JSON,
and the Markdown of one call (its curl command line and the answer).

Why placeholders: ids, tokens, timestamps, hashes, signatures, keys and durations measured on a
clock differ on every run. The walkthrough must render byte for byte the same from a fresh service,
so every such value is replaced by a stable name (``{GAME_ID}``, ``{SEAT1_TOKEN}``, ``{TIME}``,
``{HASH}``...). Names given by the script (:meth:`Placeholders.name`) come first; anything else of
a known shape gets a numbered name in order of first appearance, which is deterministic because the
script makes the same calls in the same order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

ELLIPSIS = "…"


class _Elided:
    """Marks where trimmed items were left out of a list or an object."""

    def __init__(self, count: int) -> None:
        self.count = count


def elided(count: int) -> object:
    """A marker for ``count`` items left out of a list by hand (rendered ``…``, as :func:`trim` does)."""
    return _Elided(count)


# Shapes of per-run values, most specific first: (regex, name stem, numbered?).
_SHAPES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(?:seat\d+(?:~\d+)?|org|judge)\.[A-Za-z0-9_-]{32}"), "TOKEN"),
    (re.compile(r"\binv_[A-Za-z0-9_-]{24}"), "INVITATION_CODE"),
    (re.compile(r"\bwhsec_[A-Za-z0-9_-]+"), "WEBHOOK_SECRET"),
    (re.compile(r"\bwh_[0-9a-f]{8,}"), "SUBSCRIPTION_ID"),
    (re.compile(r"\bg_(?!0{32})[0-9a-f]{32}\b"), "GAME_ID"),
    (re.compile(r"\bt_[0-9a-f]{32}\b"), "TOURNAMENT_ID"),
]
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_HASH = re.compile(r"\b(?!0{64}\b)[0-9a-f]{64}\b")
# Object members whose values are measured on a clock or are per-deployment secrets and keys.
_VOLATILE_KEYS = {
    "signature": "{SIGNATURE}",
    "public_key": "{PUBLIC_KEY}",
    "public_key_pem": "{PUBLIC_KEY_PEM}",
    "key_id": "{KEY_ID}",
    "seed": "{SEED}",
}


class Placeholders:
    """Maps per-run values to stable names, and applies the mapping to rendered text."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        self._counts: dict[str, int] = {}

    def name(self, value: str, placeholder: str) -> None:
        """Render ``value`` as ``{placeholder}`` from now on (and in what was rendered before it)."""
        self._names.setdefault(value, "{" + placeholder + "}")

    def _numbered(self, value: str, stem: str) -> str:
        if value not in self._names:
            n = self._counts.get(stem, 0) + 1
            self._counts[stem] = n
            self._names[value] = "{" + f"{stem}_{n}" + "}"
        return self._names[value]

    def _replacer(self, stem: str) -> Callable[[re.Match[str]], str]:
        return lambda m: self._numbered(m.group(0), stem)

    def value_of(self, obj: object) -> object:
        """``obj`` with volatile members replaced (before rendering, so the JSON stays tidy)."""
        if isinstance(obj, dict):
            out: dict[str, object] = {}
            for k, v in obj.items():
                if k in _VOLATILE_KEYS and v is not None:
                    out[k] = _VOLATILE_KEYS[k]
                elif k.endswith("_ms") and isinstance(v, int) and not isinstance(v, bool):
                    out[k] = "{MS}"
                else:
                    out[k] = self.value_of(v)
            return out
        if isinstance(obj, list):
            return [self.value_of(v) for v in obj]
        if isinstance(obj, str):  # times and hashes now, so the layout has their final lengths
            return _HASH.sub("{HASH}", _TIME.sub("{TIME}", obj))
        return obj

    def text(self, text: str) -> str:
        """``text`` with every known value, then every value of a known shape, replaced."""
        for value in sorted(self._names, key=len, reverse=True):
            text = text.replace(value, self._names[value])
        for pattern, stem in _SHAPES:
            text = pattern.sub(self._replacer(stem), text)
        text = _TIME.sub("{TIME}", text)
        return _HASH.sub("{HASH}", text)


# ---------------------------------------------------------------------------------------------- JSON


def trim(
    obj: object,
    *,
    max_items: int = 6,
    keep: int = 3,
    only: dict[str, list[str]] | None = None,
    drop_empty_areas: bool = True,
) -> object:
    """A copy of ``obj`` shortened for reading: lists longer than ``max_items`` keep their first
    ``keep`` items then an ellipsis; an object under a key of ``only`` keeps the members listed;
    a list under a key of ``only`` that lists nothing is cut whole; a large ``areas`` object keeps
    only the areas with something in them."""
    only = only or {}

    def walk(o: object, key: str | None) -> object:
        if isinstance(o, dict):
            items = list(o.items())
            if key in only:
                kept = [(k, v) for k, v in items if k in only[key]]
            elif key == "areas" and drop_empty_areas and len(items) > 12:
                kept = [(k, v) for k, v in items if v and v != {"blocked": True} and v != {"controller": None}]
            else:
                kept = items
            out: dict[str, object] = {k: walk(v, k) for k, v in kept}
            if len(kept) < len(items):
                out[ELLIPSIS] = _Elided(len(items) - len(kept))
            return out
        if isinstance(o, list) and key in only and not only[key] and o:
            return [_Elided(len(o))]  # a list cut whole: it says nothing new here
        limit = 30 if key in ("events", "lines") else max_items  # a command's events are its story
        if isinstance(o, list) and len(o) > limit:
            return [walk(v, None) for v in o[:keep]] + [_Elided(len(o) - keep)]
        if isinstance(o, list):
            return [walk(v, None) for v in o]
        return o

    return walk(obj, None)


def _compact(o: object) -> str:
    if isinstance(o, _Elided):
        return ELLIPSIS
    if isinstance(o, dict):
        parts = []
        for k, v in o.items():
            parts.append(ELLIPSIS if isinstance(v, _Elided) else f"{json.dumps(k)}: {_compact(v)}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(o, list):
        return "[" + ", ".join(_compact(v) for v in o) + "]"
    return json.dumps(o, ensure_ascii=False)


def pretty(o: object, indent: int = 0, width: int = 100, used: int | None = None) -> str:
    """JSON laid out for reading: a value that fits on its line stays on one line, as
    ``api-walkthrough.md`` always showed them; an ellipsis marks what ``trim`` left out.
    ``used`` is how much of the current line is taken already (the indent and a member's key)."""
    flat = _compact(o)
    start = indent if used is None else used
    if start + len(flat) <= width or not isinstance(o, dict | list) or not o:
        return flat
    if isinstance(o, dict) and start + len(flat) <= width + 60 and all(_small(v) for v in o.values()):
        return flat  # a record of plain values reads best on one line, as a table row
    if isinstance(o, list) and start + len(flat) <= width + 60 and all(_small(v) for v in o):
        return flat
    pad = " " * (indent + 2)
    lines: list[str] = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, _Elided):
                lines.append(pad + ELLIPSIS)
            else:
                key = json.dumps(k) + ": "
                lines.append(pad + key + pretty(v, indent + 2, width, indent + 2 + len(key)))
        return "{\n" + _join(lines) + "\n" + " " * indent + "}"
    for v in o:
        lines.append(pad + (ELLIPSIS if isinstance(v, _Elided) else pretty(v, indent + 2, width)))
    return "[\n" + _join(lines) + "\n" + " " * indent + "]"


def _small(v: object) -> bool:
    return not isinstance(v, dict | list) or len(_compact(v)) <= 40


def _join(lines: list[str]) -> str:
    """Comma-separate lines, except after an ellipsis line."""
    last = len(lines) - 1
    return "\n".join(line if i == last or line.strip() == ELLIPSIS else line + "," for i, line in enumerate(lines))


# -------------------------------------------------------------------------------------------- curl


def shell_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def curl_line(
    method: str,
    path: str,
    *,
    token_var: str | None,
    body: object | None,
    headers: dict[str, str],
    show_headers: bool,
    extra: str = "",
) -> str:
    """The curl command line a reader types: shell variables for the base URL, ids and tokens."""
    url = "$B" + path
    url = f'"{url}"' if "?" in url or "&" in url else url
    head = method == "HEAD"  # curl -I sends a HEAD and shows the headers (-X HEAD would wait for a body)
    parts = ["curl -s" + (" -I" if head else " -i" if show_headers else "") + (extra and " " + extra)]
    if method not in ("GET", "HEAD"):
        parts[0] += f" -X {method}"
    parts[0] += " " + url
    if token_var:
        parts.append(f'-H "Authorization: Bearer ${token_var}"')
    for k, v in headers.items():
        parts.append("-H " + shell_quote(f"{k}: {v}"))
    if body is not None:
        parts.append("-H 'Content-Type: application/json'")
        parts.append("-d " + shell_quote(json.dumps(body, ensure_ascii=False)))
    lines: list[str] = []
    line = parts[0]
    for p in parts[1:]:
        if len(line) + 1 + len(p) > 100:
            lines.append(line + " \\")
            line = "  " + p
        else:
            line += " " + p
    lines.append(line)
    return "\n".join(lines)


def fence(lang: str, text: str) -> str:
    return f"```{lang}\n{text.rstrip()}\n```\n"
