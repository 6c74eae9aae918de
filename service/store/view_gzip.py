"""A projected view is stored gzipped, as the start of the gzip member the API sends.

A view's JSON names the projected version (``"version": N``), which moves with every projection
while most views do not change (``service/store/read_models.py``), so the stored body cannot hold
it. It is stored instead as a gzip member without its end (:func:`pack`):

* the gzip header (fixed, ``MTIME`` 0: the same view always packs to the same bytes);
* the raw deflate stream of the view's JSON with its ``version`` field moved last and its value
  and closing ``}`` cut off (``{"game_id":…,"reader":…,…,"version":``), flushed to a byte
  boundary (``Z_SYNC_FLUSH``), not final;
* the CRC-32 and the length of that JSON (4 bytes each, little-endian): the :data:`TAIL`.

Serving it (:func:`gzipped`) appends, instead of the tail, the version and ``}`` as the final
stored (uncompressed) deflate block, then the gzip trailer (CRC-32 continued over those few bytes,
length): a complete gzip member (RFC 1952) that any client decodes, made by copying the stored
bytes and computing about twenty more, never by compressing on a read. A client that does not take
gzip gets the JSON (:func:`plain_json`): the deflate stream inflated, the version and ``}`` appended.

So the served JSON has ``version`` as its last member, where the view's own encoding has it earlier:
the same JSON object (members are unordered, RFC 8259 §4). A view folded from the events is served
with its version last too (:func:`service.store.read_models.view_json`), so both paths give the same
bytes for a version, and its ``ETag`` names one representation.
"""

from __future__ import annotations

import struct
import zlib

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
"""ID1 ID2, CM deflate, no flags, MTIME 0, XFL 0, OS unknown (RFC 1952 §2.3)."""
TAIL = 8
"""The CRC-32 and length of the packed JSON, kept after its deflate stream."""
LEVEL = 6
"""zlib level of the stored views (chosen by ``bench/projection_views.py``: docs/memory.md)."""
VERSION_FIELD = b'"version":'


def is_packed(stored: bytes) -> bool:
    """Whether a stored view is packed here (a view written before views were gzipped is its JSON)."""
    return stored[:2] == GZIP_HEADER[:2]


def pack(body: bytes, version_mark: bytes, level: int = LEVEL) -> bytes:
    """The stored form of a view's JSON ``body`` whose top-level ``version`` member is
    ``version_mark`` (``"version":-1``, as :func:`service.store.read_models.stored_view` makes it)."""
    head = version_last(body, version_mark)
    c = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    deflated = c.compress(head) + c.flush(zlib.Z_SYNC_FLUSH)
    return GZIP_HEADER + deflated + struct.pack("<II", zlib.crc32(head), len(head) & 0xFFFFFFFF)


def version_last(body: bytes, version_mark: bytes) -> bytes:
    """A view's JSON object with its ``version`` member (``version_mark``, at the top level) moved
    last, cut after its name: ``{…,"version":``. Every view the API serves is this and ``N}``
    (:func:`service.store.read_models.view_json`), projected or folded, so one version is one
    representation whichever path served it."""
    at = body.index(version_mark)
    end = at + len(version_mark)
    if body[end : end + 1] == b",":  # a member follows: drop the version and its comma
        rest = body[:at] + body[end + 1 : -1]
    elif body[at - 1 : at] == b"," and body[end:] == b"}":  # already last
        rest = body[: at - 1]
    elif body[at - 1 : at] == b"{" and body[end:] == b"}":  # the only member
        return b"{" + VERSION_FIELD
    else:
        raise ValueError("the version mark is not a top-level member of a JSON object")
    return rest + b"," + VERSION_FIELD


def gzipped(stored: bytes, version: int) -> bytes:
    """The complete gzip member of a packed view at ``version``: the stored bytes, then the version
    and ``}`` as the final stored block, then the gzip trailer."""
    crc, size = struct.unpack_from("<II", stored, len(stored) - TAIL)
    end = b"%d}" % version
    n = len(end)
    last_block = b"\x01" + struct.pack("<HH", n, n ^ 0xFFFF) + end  # BFINAL 1, BTYPE 00 (RFC 1951 §3.2.4)
    trailer = struct.pack("<II", zlib.crc32(end, crc), (size + n) & 0xFFFFFFFF)
    return stored[:-TAIL] + last_block + trailer


def plain_json(stored: bytes, version: int) -> bytes:
    """The JSON of a packed view at ``version``, for a client that does not take gzip."""
    head = zlib.decompressobj(-zlib.MAX_WBITS).decompress(stored[len(GZIP_HEADER) : -TAIL])
    return head + b"%d}" % version
