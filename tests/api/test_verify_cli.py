"""``citadel-verify`` against real exports (issue 10, items 1 and 2): replays nobody can forge or truncate.

A complete 3-player game is played by bots through the real API, worker and projector; its
organizer export (complete, seed revealed, head signed with the deployment's key) is verified by
the console script in a subprocess, then forged in every way the issue lists. Each forgery is
rejected with exit status 1 and its precise reason; an unreadable file exits 2, never with a
traceback. Honest redacted exports (a seat's, a playing organizer's) and a referee's export taken
mid-game verify as far as they can and say what they could not.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema_rs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from clients.bot import play_game
from domain.core.head import ChainHead, signed_bytes
from service.store.keys import SIGNING_KEY
from tests.conftest import ROOT
from tests.support.forgery import (
    FORGERIES,
    WHERE,
    drop_reveal_salt,
    forged,
    index_of,
    last_submission,
    swap_commitments,
)
from tests.support.game_client import new_started_game, submit_all_orders, wait_until
from tests.support.verify_cli import public_key_file, run_verify
from verify import replay_file

SETTINGS = {"decision_timeout_s": 60, "organizer_is_referee": True}


@pytest.fixture(scope="module")
def finished(service, tmp_path_factory):
    """(export as JSON, the key file, a directory) of a complete game with at least one combat."""
    import httpx

    base, _ = service
    tmp = tmp_path_factory.mktemp("verify")
    with httpx.Client(base_url=base, timeout=10) as api:
        for attempt in range(4):
            played = asyncio.run(play_game(base, 3, seed=f"verify-cli-{attempt}", settings=SETTINGS))
            r = api.get(
                f"/v1/games/{played.game_id}/export", headers={"Authorization": f"Bearer {played.organizer_token}"}
            )
            assert r.status_code == 200, r.text
            doc = r.json()
            if any(e["event"]["type"] == "combat_decided" for e in doc["events"]):
                break
        key = public_key_file(api, tmp)
    return doc, key, tmp


def _write(tmp: Path, name: str, doc: dict) -> Path:
    path = tmp / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def _resign(doc: dict, sync_redis) -> dict:
    """Sign the (forged) head with the deployment's own key, as an insider holding it could."""
    seed = base64.b64decode(sync_redis.get(SIGNING_KEY))
    key = Ed25519PrivateKey.from_private_bytes(seed)
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


def test_the_signing_key_is_served_and_names_the_key_of_every_export(api, finished):
    doc, key, _ = finished
    served = api.get("/v1/signing-key").json()
    assert served["algorithm"] == "Ed25519" and len(base64.b64decode(served["public_key"])) == 32
    assert served["public_key_pem"].startswith("-----BEGIN PUBLIC KEY-----")
    assert doc["format"] == "citadel-replay/1"
    head = doc["signed_head"]
    assert head["key_id"] == served["key_id"] and head["version"] == doc["version"] == len(doc["events"])
    assert head["head_hash"] == doc["events"][-1]["hash"] and head["game_id"] == doc["game_id"]


def test_an_honest_complete_export_verifies(finished):
    doc, key, tmp = finished
    ok = run_verify(_write(tmp, "honest", doc), "--public-key", key)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.rstrip().endswith("VERIFIED"), ok.stdout
    n = len(doc["events"])
    assert f"ok ({n} of {n} events re-derived from the commands" in ok.stdout
    assert "not verified" not in ok.stdout and not ok.stderr
    # commit–reveal: every revealed order, bid and House card opened its commitment
    revealed = sum(
        len(e["event"][f])
        for e in doc["events"]
        for t, f in (("orders_revealed", "orders"), ("bids_revealed", "bids"), ("house_cards_revealed", "cards"))
        if e["event"]["type"] == t
    )
    assert revealed > 0 and f"commitments: ok ({revealed} revealed sealed input(s) open their commitments)" in ok.stdout


def test_a_swapped_commitment_and_a_dropped_reveal_are_rejected(finished, sync_redis):
    """Commit–reveal (issue 10): two houses' order commitments swapped, or one house's salt dropped
    from a reveal, every hash recomputed and the head signed again with the deployment's own key:
    the verifier names the reveal and the commitment it fails to open, by event number."""
    doc, key, tmp = finished
    swapped = copy.deepcopy(doc)
    where: dict[str, tuple[int, int]] = {}
    swapped["events"] = forged(doc["events"], lambda ev: where.setdefault("ij", swap_commitments(ev)))
    i, _ = where["ij"]
    house = doc["events"][i]["event"]["house"]
    reveal = index_of(doc["events"], "orders_revealed") + 1
    out = run_verify(_write(tmp, "swapped-commitment", _resign(swapped, sync_redis)), "--public-key", key)
    assert out.returncode == 1, out.stdout
    assert "signature:   ok" in out.stdout and "hash chain:  ok" in out.stdout
    assert (
        f"REJECTED: commitments: event {i + 1}: {house}'s sealed orders does not open its own commitment" in out.stdout
    )
    assert f"event {reveal}: {house}'s revealed orders " in out.stdout
    assert f"does not open the commitment of event {i + 1}" in out.stdout, out.stdout

    dropped = copy.deepcopy(doc)
    got: dict[str, tuple[int, str]] = {}
    dropped["events"] = forged(doc["events"], lambda ev: got.setdefault("r", drop_reveal_salt(ev, "bids_revealed")))
    r, house = got["r"]
    sub = last_submission(doc["events"], r, "bid_submitted", house)
    out = run_verify(_write(tmp, "dropped-reveal", _resign(dropped, sync_redis)), "--public-key", key)
    assert out.returncode == 1, out.stdout
    assert (
        f"REJECTED: commitments: event {r + 1}: the reveal of {house}'s bid carries no salt to open the "
        f"commitment of event {sub + 1}" in out.stdout
    ), out.stdout


def test_the_key_may_be_given_as_base64_or_pem(api, finished):
    doc, _, tmp = finished
    served = api.get("/v1/signing-key").json()
    path = _write(tmp, "honest-keys", doc)
    assert run_verify(path, "--public-key", served["public_key"]).returncode == 0
    pem = tmp / "key.pem"
    pem.write_text(served["public_key_pem"])
    assert run_verify(path, "--public-key", pem).returncode == 0


def _truncate_last(doc):
    doc["events"].pop()


def _truncate_last_and_version(doc):
    doc["events"].pop()
    doc["version"] -= 1


def _keep_half(doc):
    del doc["events"][len(doc["events"]) // 2 :]


def _keep_first(doc):
    del doc["events"][1:]


def _drop_seed(doc):
    doc["seed"] = None


def _change_version(doc):
    doc["version"] += 1


def _change_commitment(doc):
    doc["seed_commitment"] = "0" * 64


def _drop_head(doc):
    del doc["signed_head"]


@pytest.mark.parametrize(
    "edit, reason",
    [
        (_truncate_last, "events but the signed head is at version"),
        (_truncate_last_and_version, "is not the signed version"),
        (_keep_half, "events but the signed head is at version"),
        (_keep_first, "the export holds 1 events but the signed head is at version"),
        (_drop_seed, "the game is over but the export does not reveal its seed"),
        (_change_version, "is not the signed version"),
        (_change_commitment, "is not the one in the creation event"),
        (_drop_head, "the export carries no signed head"),
    ],
    ids=lambda x: getattr(x, "__name__", "")[1:],
)
def test_a_truncated_or_edited_export_is_rejected(finished, edit, reason):
    doc, key, tmp = finished
    bad = copy.deepcopy(doc)
    edit(bad)
    out = run_verify(_write(tmp, edit.__name__, bad), "--public-key", key)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "REJECTED" in out.stdout and reason in out.stdout, out.stdout
    assert "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_rehashed_forgery_is_rejected_by_the_head_and_by_the_rules(finished, sync_redis, name):
    """With every hash recomputed the chain verifies; the signed head does not match it, and even
    with the head signed again by the deployment's own key the rules re-derive the true event."""
    doc, key, tmp = finished
    bad = copy.deepcopy(doc)
    bad["events"] = forged(doc["events"], FORGERIES[name])
    at = index_of(bad["events"], WHERE[name]) + 1
    out = run_verify(_write(tmp, f"rehashed-{name}", bad), "--public-key", key)
    assert out.returncode == 1, out.stdout
    assert "hash chain:  ok" in out.stdout  # only the anchor and the rules can tell
    assert "is not the signed head hash" in out.stdout
    assert f"rules:       FAILED: event {at} " in out.stdout, out.stdout

    insider = run_verify(_write(tmp, f"resigned-{name}", _resign(bad, sync_redis)), "--public-key", key)
    assert insider.returncode == 1, insider.stdout
    assert "signature:   ok" in insider.stdout and "signed head: ok" in insider.stdout
    assert f"rules:       FAILED: event {at} " in insider.stdout, insider.stdout
    # a changed reveal no longer opens the commitment published with the sealed orders: that check
    # comes first (commit–reveal, domain/board/sealed_inputs.py)
    first = "commitments" if name == "revealed_order" else "rules"
    assert f"REJECTED: {first}: event {at}" in insider.stdout, insider.stdout
    assert ": expected {" in insider.stdout and ", found {" in insider.stdout


def test_a_head_signed_by_another_key_is_rejected(finished):
    doc, key, tmp = finished
    bad = copy.deepcopy(doc)
    other = Ed25519PrivateKey.generate()
    h = bad["signed_head"]
    head = ChainHead(**{k: h[k] for k in ("game_id", "kind", "version", "head_hash", "key_id")})
    h["signature"] = base64.b64encode(other.sign(signed_bytes(head))).decode()
    out = run_verify(_write(tmp, "other-key", bad), "--public-key", key)
    assert out.returncode == 1 and "the signature does not match the signed head" in out.stdout, out.stdout


def test_without_a_public_key_nothing_is_trusted(finished):
    doc, _, tmp = finished
    out = run_verify(_write(tmp, "no-key", doc))
    assert out.returncode == 3 and "NOT VERIFIED" in out.stdout and "NOT CHECKED" in out.stdout, out.stdout


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "the top level is a JSON list"),
        (b'{"format": "citadel-replay/99"}', "format 'citadel-replay/99' is not one this verifier reads"),
        (b'{"game_id": "g"}', "has no 'format'"),
    ],
)
def test_an_unreadable_file_is_a_clear_exit_2(finished, content, reason):
    _, key, tmp = finished
    path = tmp / "unreadable.json"
    path.write_bytes(content)
    out = run_verify(path, "--public-key", key)
    assert out.returncode == 2 and reason in out.stdout and "Traceback" not in out.stdout + out.stderr, out


def test_a_malformed_event_says_where(finished):
    doc, key, tmp = finished
    bad = copy.deepcopy(doc)
    bad["events"][3]["seq"] = "four"
    out = run_verify(_write(tmp, "malformed", bad), "--public-key", key)
    assert out.returncode == 2 and "$.events[3].seq" in out.stdout, out.stdout


def test_unknown_fields_are_reported_never_a_traceback(finished):
    doc, key, tmp = finished
    bad = copy.deepcopy(doc)
    bad["events"][1]["event"]["surprise"] = 1
    bad["organizer_note"] = "hi"
    out = run_verify(_write(tmp, "unknown-field", bad), "--public-key", key)
    assert out.returncode == 1 and "event 2 was altered" in out.stdout, out.stdout
    assert "unknown top-level field 'organizer_note' ignored" in out.stdout
    assert "event 2 carries a field this verifier does not know" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_honest_redacted_exports_verify_in_part(api, tmp_path):
    """A seat's export and a playing organizer's export of a running game: no violation reported,
    the redacted events named, exit 0; ``--require-complete`` refuses them."""
    key = public_key_file(api, tmp_path)
    g = new_started_game(api, players=3)
    submit_all_orders(api, g)
    wait_until(lambda: api.get(f"/v1/games/{g.id}").json()["step"] == "messenger_raven")
    for who, token in [("seat", next(iter(g.houses.values()))), ("organizer", g.organizer)]:
        r = api.get(f"/v1/games/{g.id}/export", headers=g.auth(token))
        doc = r.json()
        assert doc["complete"] is False and doc["redacted"], doc["redacted"]
        path = _write(tmp_path, f"redacted-{who}", doc)
        out = run_verify(path, "--public-key", key)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "VERIFIED IN PART" in out.stdout and "FAILED" not in out.stdout and "VIOLATED" not in out.stdout
        # the others' sealed orders are hidden, their commitments not: the reveal is checked against them
        assert "commitments: ok (3 revealed sealed input(s) open their commitments)" in out.stdout, out.stdout
        assert f"not verified: {len(doc['redacted'])} event(s) are redacted for this reader" in out.stdout
        first = min(doc["redacted"])
        assert f"event {first} is redacted for this reader" in out.stdout
        strict = run_verify(path, "--public-key", key, "--require-complete")
        assert strict.returncode == 1 and "--require-complete" in strict.stdout


def test_a_referee_export_mid_game_verifies_without_the_seed(api, tmp_path):
    key = public_key_file(api, tmp_path)
    g = new_started_game(api, players=4, organizer_is_referee=True)
    submit_all_orders(api, g)
    wait_until(lambda: api.get(f"/v1/games/{g.id}").json()["step"] == "messenger_raven")
    doc = api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json()
    assert doc["complete"] and doc["seed"] is None
    out = run_verify(_write(tmp_path, "referee", doc), "--public-key", key)
    assert out.returncode == 0, out.stdout
    assert "seed:        not revealed yet" in out.stdout and "VERIFIED IN PART" in out.stdout
    n = len(doc["events"])
    assert f"ok ({n} of {n} events re-derived" in out.stdout


def test_the_replay_schema_is_fresh_and_fits_real_exports(finished, api):
    """The JSON Schema in the repository is the format's (openapi/replay.schema.json, regenerated by
    ``citadel-verify --schema``), and real exports (complete, redacted) are valid instances."""
    doc, _, _ = finished
    stored = json.loads((ROOT / "openapi" / "replay.schema.json").read_text())
    assert stored == replay_file.schema(), "regenerate: citadel-verify --schema > openapi/replay.schema.json"
    validator = jsonschema_rs.validator_for(stored)
    validator.validate(doc)
    g = new_started_game(api, players=3)
    validator.validate(api.get(f"/v1/games/{g.id}/export", headers=g.auth(g.organizer)).json())
    broken = copy.deepcopy(doc)
    del broken["signed_head"]
    assert not validator.is_valid(broken)
    broken = {**doc, "format": "citadel-replay/2"}
    assert not validator.is_valid(broken)


def test_the_verifier_runs_without_any_server_library(finished):
    """verify/ imports the rules only: with the service's libraries made unimportable (litestar,
    redis, rq, uvicorn, httpx) and the service's packages too, a real export still verifies."""
    doc, key, tmp = finished
    path = _write(tmp, "no-server", doc)
    blocked = ["litestar", "redis", "rq", "uvicorn", "httpx", "service", "workers", "projections", "clients"]
    code = (
        "import sys\n"
        f"for m in {blocked!r}: sys.modules[m] = None\n"
        "from verify.cli import main\n"
        f"sys.exit(main([{str(path)!r}, '--public-key', {str(key)!r}]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.rstrip().endswith("VERIFIED"), out.stdout + out.stderr
