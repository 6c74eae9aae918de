"""Bearer tokens: ``<role>.<mac>``, where the MAC is HMAC-SHA256(secret, "<game_id>:<role>").

A role is ``org`` (the organizer of that game), ``judge`` (its judge, docs/judge.md) or a seat:
``seat3`` for the seat's first player, ``seat3~2`` for the player the judge put in after two
replacements (the seat's *generation*, kept in the game's state: a replaced player's token still
verifies here, and the game refuses it, ``token_replaced``). Tokens are derived, not stored: any
API replica with the secret checks them, and a retried join returns the same token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from service.store.keys import SECRET_KEY

ORGANIZER = "org"
JUDGE = "judge"
GENERATION_MARK = "~"


def seat_role(seat_id: str, generation: int = 0) -> str:
    """The role of a seat's token for its ``generation`` (0: the seat id alone, as before replacements)."""
    return seat_id if generation == 0 else f"{seat_id}{GENERATION_MARK}{generation}"


def parse_seat(role: str) -> tuple[str, int]:
    """``(seat_id, generation)`` of a seat's role (``seat3~2`` -> ``("seat3", 2)``); a malformed
    generation reads as -1, which no seat has."""
    seat_id, mark, gen = role.partition(GENERATION_MARK)
    if not mark:
        return seat_id, 0
    return seat_id, int(gen) if gen.isdigit() and gen[0] != "0" else -1


def _mac(secret: bytes, game_id: str, role: str) -> str:
    d = hmac.new(secret, f"{game_id}:{role}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(d[:24]).decode().rstrip("=")


def issue(secret: bytes, game_id: str, role: str) -> str:
    return f"{role}.{_mac(secret, game_id, role)}"


def verify(secret: bytes, game_id: str, token: str) -> str | None:
    """The role this token grants in this game, or None. Any text is a token that may fail: a MAC that
    is not ASCII fails here (``hmac.compare_digest`` raises on non-ASCII text; a token comes from a JSON
    body or a header that a client fills with what it likes)."""
    role, _, mac = token.partition(".")
    if not role or not mac or not mac.isascii():
        return None
    if hmac.compare_digest(mac, _mac(secret, game_id, role)):
        return role
    return None


def invitation(secret: bytes, game_id: str) -> str:
    """The invitation code of a private game: ``inv_`` + HMAC-SHA256(secret, "invitation:<game_id>").

    Derived like the tokens, so it is never stored, its organizer can ask for it again, and it can
    never pass for a bearer token (a token's MAC covers ``<game_id>:<role>``)."""
    d = hmac.new(secret, f"invitation:{game_id}".encode(), hashlib.sha256).digest()
    return "inv_" + base64.urlsafe_b64encode(d[:18]).decode()


def invitation_ok(secret: bytes, game_id: str, code: str) -> bool:
    return hmac.compare_digest(code.encode(), invitation(secret, game_id).encode())


def load_or_create_secret(sync_redis, configured: str | None) -> bytes:
    """The signing secret: from config, else the one kept in Redis (created once, SET NX)."""
    if configured:
        return configured.encode()
    sync_redis.set(SECRET_KEY, secrets.token_hex(32), nx=True)
    return sync_redis.get(SECRET_KEY)
