"""The tampering suite of issue 10 ("Evidence in the closing note"), as one table: every forgery
the issue lists × complete bot games of 3, 4, 5 and 6 players, each rejected by ``citadel-verify``
with its precise message; and an honest export of every kind (a seat's, a spectator's, the
organizer's, the judge's) of each game accepted.

One bot game per player count is played through the real API, worker and projector (a module
fixture, so the table costs one game per count, not one per row). The forgeries:

* edits caught by the signed head: the last event removed, half the events removed, only the first
  event kept, the seed removed, the top-level ``version`` or ``seed_commitment`` changed;
* re-hashed edits (every hash recomputed: the chain verifies) caught by the head and, with the head
  signed again by the deployment's own key, by the rules (``tests/support/forgery.py``): a changed
  ``game_ended.winner``, a swapped combat result, a Power gain set to 15, a changed revealed order;
* commit–reveal: two houses' order commitments swapped, a reveal's salt dropped (re-signed).

``tests/api/test_verify_cli.py`` checks the same messages in more detail on one 3-player game.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from clients.bot import play_game
from domain.core.head import ChainHead, signed_bytes
from service.store.keys import SIGNING_KEY
from tests.support.forgery import FORGERIES, WHERE, drop_reveal_salt, forged, index_of, swap_commitments
from tests.support.verify_cli import public_key_file, run_verify

COUNTS = (3, 4, 5, 6)
SETTINGS = {"decision_timeout_s": 60}


class Table:
    """One finished bot game: its exports by reader, the key file and a scratch directory."""

    def __init__(self, exports: dict[str, dict], key: Path, tmp: Path) -> None:
        self.exports, self.key, self.tmp = exports, key, tmp

    def verify(self, name: str, doc: dict) -> tuple[int, str]:
        path = self.tmp / f"{name}.json"
        path.write_text(json.dumps(doc))
        out = run_verify(path, "--public-key", self.key)
        assert "Traceback" not in out.stdout + out.stderr
        return out.returncode, out.stdout


@pytest.fixture(scope="module")
def tables(service, tmp_path_factory) -> dict[int, Table]:
    base, _ = service
    out: dict[int, Table] = {}
    with httpx.Client(base_url=base, timeout=10) as api:
        for n in COUNTS:
            tmp = tmp_path_factory.mktemp(f"tamper{n}")
            for attempt in range(3):  # a game with a combat (for the swapped combat result)
                played = asyncio.run(play_game(base, n, seed=f"tamper-{n}-{attempt}", settings=SETTINGS))
                org = {"Authorization": f"Bearer {played.organizer_token}"}
                doc = api.get(f"/v1/games/{played.game_id}/export", headers=org).json()
                if any(e["event"]["type"] == "combat_decided" for e in doc["events"]):
                    break
            judge = api.get(f"/v1/games/{played.game_id}/judge-token", headers=org).json()["judge_token"]
            seat = next(iter(played.seats.values()))
            exports = {"organizer": doc}
            for who, headers in (
                ("seat", {"Authorization": f"Bearer {seat}"}),
                ("spectator", {}),
                ("judge", {"Authorization": f"Bearer {judge}"}),
            ):
                r = api.get(f"/v1/games/{played.game_id}/export", headers=headers)
                assert r.status_code == 200, r.text
                exports[who] = r.json()
            out[n] = Table(exports, public_key_file(api, tmp), tmp)
    return out


def _resign(doc: dict, sync_redis) -> dict:
    """Sign the forged head with the deployment's own key, as an insider holding it could."""
    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(sync_redis.get(SIGNING_KEY)))
    h = doc["signed_head"]
    head = ChainHead(
        game_id=h["game_id"],
        kind=h["kind"],
        version=len(doc["events"]),
        head_hash=doc["events"][-1]["hash"],
        key_id=h["key_id"],
    )
    h.update(
        version=head.version,
        head_hash=head.head_hash,
        signature=base64.b64encode(key.sign(signed_bytes(head))).decode(),
    )
    doc["version"] = head.version
    return doc


def _pop_last(doc: dict) -> None:
    doc["events"].pop()


def _keep_half(doc: dict) -> None:
    del doc["events"][len(doc["events"]) // 2 :]


def _keep_first(doc: dict) -> None:
    del doc["events"][1:]


def _drop_seed(doc: dict) -> None:
    doc["seed"] = None


def _change_version(doc: dict) -> None:
    doc["version"] += 1


def _change_commitment(doc: dict) -> None:
    doc["seed_commitment"] = "0" * 64


EDITS: dict[str, tuple[Callable[[dict], None], Callable[[dict], str]]] = {
    "last_event_removed": (_pop_last, lambda d: "events but the signed head is at version"),
    "half_removed": (_keep_half, lambda d: "events but the signed head is at version"),
    "only_first": (_keep_first, lambda d: "the export holds 1 events but the signed head is at version"),
    "seed_removed": (_drop_seed, lambda d: "the game is over but the export does not reveal its seed"),
    "version_changed": (_change_version, lambda d: "is not the signed version"),
    "seed_commitment_changed": (_change_commitment, lambda d: "is not the one in the creation event"),
}
"""Edits without re-signing: (edit, the message that must name it)."""


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("kind", ["organizer", "seat", "spectator", "judge"])
def test_an_honest_export_of_every_kind_is_accepted(tables, players, kind):
    doc = tables[players].exports[kind]
    code, out = tables[players].verify(f"honest-{kind}", doc)
    n = len(doc["events"])
    assert code == 0 and out.rstrip().endswith("VERIFIED"), out
    assert f"ok ({n} of {n} events re-derived" in out, out


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_export_is_rejected(tables, players, name):
    edit, message = EDITS[name]
    bad = copy.deepcopy(tables[players].exports["organizer"])
    edit(bad)
    code, out = tables[players].verify(name, bad)
    assert code == 1 and "REJECTED" in out and message(bad) in out, out


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_rehashed_forgery_is_rejected_signed_or_not(tables, sync_redis, players, name):
    doc = tables[players].exports["organizer"]
    bad = copy.deepcopy(doc)
    bad["events"] = forged(doc["events"], FORGERIES[name])
    at = index_of(bad["events"], WHERE[name]) + 1
    code, out = tables[players].verify(f"rehashed-{name}", bad)
    assert code == 1 and "hash chain:  ok" in out and "is not the signed head hash" in out, out
    code, out = tables[players].verify(f"resigned-{name}", _resign(bad, sync_redis))
    assert code == 1 and "signature:   ok" in out and f"rules:       FAILED: event {at} " in out, out


@pytest.mark.parametrize("players", COUNTS)
def test_a_swapped_commitment_is_rejected(tables, sync_redis, players):
    doc = tables[players].exports["organizer"]
    where: dict[str, Any] = {}
    bad = dict(doc, events=forged(doc["events"], lambda ev: where.setdefault("ij", swap_commitments(ev))))
    i, _ = where["ij"]
    house = doc["events"][i]["event"]["house"]
    code, out = tables[players].verify("swapped", _resign(bad, sync_redis))
    assert code == 1, out
    assert f"REJECTED: commitments: event {i + 1}: {house}'s sealed orders does not open its own commitment" in out


@pytest.mark.parametrize("players", COUNTS)
def test_a_dropped_reveal_is_rejected(tables, sync_redis, players):
    doc = tables[players].exports["organizer"]
    got: dict[str, Any] = {}
    bad = dict(doc, events=forged(doc["events"], lambda ev: got.setdefault("r", drop_reveal_salt(ev))))
    r, house = got["r"]
    code, out = tables[players].verify("dropped", _resign(bad, sync_redis))
    assert code == 1, out
    assert f"REJECTED: commitments: event {r + 1}: the reveal of {house}'s" in out and "carries no salt" in out, out
