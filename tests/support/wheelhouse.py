"""Wheels of distributions installed in this environment, so that a fresh virtual environment can
install them with ``pip install --no-index --find-links``: no network and no package cache needed.

An installed distribution lists its files in its ``RECORD``; :func:`repack` zips them back (under
their paths relative to ``site-packages``, without compiled ``__pycache__`` files and without the
scripts pip wrote outside it, which pip writes again from ``entry_points.txt``) with a fresh
``RECORD``. :func:`requirement_closure` follows ``Requires-Dist`` (markers evaluated here, extras
not followed) from the distributions a project needs.
"""

from __future__ import annotations

import base64
import hashlib
import re
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

_SKIP = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def requirement_closure(requirements: list[str]) -> list[metadata.Distribution]:
    """The installed distributions that ``requirements`` need, transitively."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        if name in seen:
            continue
        dist = metadata.distribution(req.name)
        seen[name] = dist
        todo.extend(Requirement(r) for r in dist.requires or [])
    return list(seen.values())


def repack(dist: metadata.Distribution, into: Path) -> Path:
    """A wheel of the installed ``dist`` in the folder ``into``."""
    files = [f for f in dist.files or [] if f.parts[0] != ".." and "__pycache__" not in f.parts]
    info_dir = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
    tag = next(
        line.split(":", 1)[1].strip()
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    )
    name, version = info_dir.removesuffix(".dist-info").rsplit("-", 1)
    wheel = into / f"{name}-{version}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            if f.parts[0] == info_dir and f.name in _SKIP:
                continue
            data = Path(str(dist.locate_file(f))).read_bytes()
            z.writestr(f.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{f.as_posix()},sha256={digest},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        z.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return wheel
