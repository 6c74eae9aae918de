"""``citadel-verify FILE --public-key KEY``: verify a replay file offline, with a report and an exit status.

The checks, in order (docs/replay-format.md explains each):

1. the file is a ``citadel-replay/1`` replay (else exit 2, with what is wrong and where);
2. the **signed head**: present, signed by the given public key (the key the organizer fetched
   from ``GET /v1/signing-key``), for this game and kind; the top-level ``version`` is the signed
   version; the export holds exactly that many events and the last one's hash is the signed head
   hash. A truncated export (its last event removed, half of its events, only the first) or a
   re-hashed chain fails here;
3. the **hash chain**: every event links to the one before (an event redacted for the export's
   reader keeps its link; its content cannot be rehashed);
4. the **seed**: the top-level ``seed_commitment`` is the one the creation event published; once
   the game is over the seed must be revealed and match it;
5. the **rules**: the game's audit (``Game.audit``: ``domain/board/audit.py`` for the board game)
   re-derives every event from the players' commands and the revealed seed and reports the first
   divergence (event number, expected, found).

Exit status: 0 verified (a redacted export: verified as far as it can be, with what was not said;
``--require-complete`` makes that 1), 1 rejected (a check failed), 2 the file or the key cannot be
read, 3 no public key given (nothing else is trusted without it; the other checks still run).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain import registry
from domain.core.envelope import ChainError, verify_chain
from domain.core.game import AuditReport

from . import replay_file, signature

VERIFIED, REJECTED, UNREADABLE, UNANCHORED = 0, 1, 2, 3


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.rejections: list[str] = []
        self.unverified: list[str] = []

    def check(self, name: str, problem: str | None, ok_text: str = "ok") -> None:
        if problem is None:
            self.lines.append(f"  {name + ':':<13}{ok_text}")
        else:
            self.lines.append(f"  {name + ':':<13}FAILED: {problem}")
            self.rejections.append(f"{name}: {problem}")

    def note(self, name: str, text: str) -> None:
        self.lines.append(f"  {name + ':':<13}{text}")


def _args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="citadel-verify",
        description="Verify a Citadel replay file (GET /v1/games/{id}/export) offline: the service's "
        "signature over the chain head, the hash chain, the seed, and every event re-derived by the rules.",
        epilog="Exit status: 0 verified, 1 rejected, 2 unreadable file or key, 3 no public key given.",
    )
    ap.add_argument("file", nargs="?", help="the replay file (JSON)")
    ap.add_argument(
        "--public-key",
        metavar="KEY",
        help="the deployment's public key (GET /v1/signing-key): base64, PEM, or a file with either or with that answer",
    )
    ap.add_argument("--seed", help="the game's seed, if the file does not reveal it yet")
    ap.add_argument(
        "--require-complete", action="store_true", help="reject a redacted export instead of verifying it in part"
    )
    ap.add_argument("--schema", action="store_true", help="print the JSON Schema of the replay format and exit")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _args(argv)
    if args.schema:
        print(json.dumps(replay_file.schema(), indent=2, sort_keys=True))
        return VERIFIED
    if not args.file:
        print("citadel-verify: give a replay FILE (see --help)", file=sys.stderr)
        return UNREADABLE
    try:
        data = Path(args.file).read_bytes()
    except OSError as e:
        print(f"citadel-verify: cannot read {args.file}: {e.strerror or e}")
        return UNREADABLE
    replay, warnings, why = replay_file.read(data)
    if replay is None:
        print(f"citadel-verify: {args.file}: {why}")
        print("UNREADABLE")
        return UNREADABLE
    key = None
    if args.public_key:
        try:
            key = signature.load_public_key(args.public_key)
        except signature.PublicKeyError as e:
            print(f"citadel-verify: --public-key: {e}")
            return UNREADABLE
    return _verify(replay, warnings, key, args)


def _verify(
    replay: replay_file.ReplayFile, warnings: list[str], key: Ed25519PublicKey | None, args: argparse.Namespace
) -> int:
    r = Report()
    n = len(replay.events)
    print(f"game {replay.game_id} ({replay.kind}): {n} events, version {replay.version}, format {replay.format}")
    for w in warnings:
        r.unverified.append(w)

    # 2. the signed head
    head = replay.signed_head
    if head is None:
        r.check("signed head", "the export carries no signed head: nothing anchors its events")
    else:
        if key is None:
            r.note("signature", "NOT CHECKED: no --public-key given (fetch it from GET /v1/signing-key)")
        else:
            r.check("signature", signature.check(head, key), f"ok ({head.key_id}, head at version {head.version})")
        r.check("signed head", _head_problem(replay), f"ok (the events end at the signed version {head.version})")

    # 3-5. the game's audit
    game = registry.GAMES.get(replay.kind)
    if game is None:
        r.check("rules", f"this verifier does not know the game {replay.kind!r} ({', '.join(registry.GAMES)})")
        return _verdict(r, key, args)
    redacted = frozenset(replay.redacted)
    seed = args.seed or replay.seed
    try:
        report = game.audit(replay.events, seed, redacted)
    except Exception as e:  # noqa: BLE001 - a verifier never ends in a traceback
        r.check("rules", f"the audit could not run: {type(e).__name__}: {e}")
        return _verdict(r, key, args)
    _report_audit(r, replay, report, seed, redacted)
    return _verdict(r, key, args)


def _head_problem(replay: replay_file.ReplayFile) -> str | None:
    head = replay.signed_head
    assert head is not None
    if head.game_id != replay.game_id:
        return f"the head is signed for game {head.game_id}, not {replay.game_id}"
    if head.kind != replay.kind:
        return f"the head is signed for a {head.kind!r} game, not {replay.kind!r}"
    if replay.version != head.version:
        return f"the top-level version {replay.version} is not the signed version {head.version}"
    if len(replay.events) != head.version:
        return (
            f"the export holds {len(replay.events)} events but the signed head is at version {head.version}: "
            "events were removed or added"
        )
    last = replay.events[-1].hash if replay.events else None
    if head.version and last != head.head_hash:
        return f"the last event's hash {last} is not the signed head hash {head.head_hash}: the chain was altered"
    seqs = [e.seq for e in replay.events]
    if seqs != list(range(1, len(seqs) + 1)):
        return "the events are not numbered 1..version"
    return None


def _report_audit(
    r: Report, replay: replay_file.ReplayFile, report: AuditReport, seed: str | None, redacted: frozenset[int]
) -> None:
    try:
        verify_chain(replay.events, redacted=redacted)
        chain_problem = None if report.chain_ok else "broken"
    except ChainError as e:
        chain_problem = str(e)
    if redacted and replay.complete:
        r.check("redaction", "the export says it is complete but lists redacted events")
    if not redacted and not replay.complete:
        r.check("redaction", "the export says it is redacted but lists no redacted event")
    r.check(
        "hash chain",
        chain_problem,
        "ok" + (f" ({len(redacted)} redacted event(s) keep their link)" if redacted else ""),
    )
    # the seed commitment at the top level is the creation event's
    if report.seed_commitment is not None and replay.seed_commitment != report.seed_commitment:
        r.check(
            "commitment",
            f"the top-level seed_commitment {replay.seed_commitment} is not the one in the creation event "
            f"({report.seed_commitment})",
        )
    if seed is None:
        if report.game_over:
            r.check("seed", "the game is over but the export does not reveal its seed (it was removed)")
        else:
            r.note("seed", "not revealed yet (the game is not over)")
    else:
        r.check("seed", None if report.seed_ok else "the revealed seed does not match the commitment", "ok")
    if report.shuffles_ok is None:
        r.note("shuffles", "not re-derived (no seed)")
    else:
        r.check("shuffles", None if report.shuffles_ok else "a recorded draw is not what the seed produces")
    # commit–reveal: every reveal of a sealed input opens the commitment published at its submission
    if report.commitments_ok is None:
        r.note("commitments", "none (the game commits no sealed input)")
    else:
        r.check(
            "commitments",
            "; ".join(report.commitment_problems) or None,
            f"ok ({report.reveals_opened} revealed sealed input(s) open their commitments)",
        )
    if report.divergence is not None:
        r.check("rules", report.divergence)
    elif not report.rules_ok:
        r.check("rules", "; ".join(report.problems) or "violated")
    else:
        r.check(
            "rules",
            None,
            f"ok ({report.rederived_through} of {len(replay.events)} events re-derived from the commands"
            + (f" in {report.batches} batches)" if report.batches else ")"),
        )
    r.unverified.extend(report.unverified)


def _verdict(r: Report, key: Ed25519PublicKey | None, args: argparse.Namespace) -> int:
    for line in r.lines:
        print(line)
    for u in r.unverified:
        print(f"  not verified: {u}")
    if r.rejections:
        print(f"REJECTED: {r.rejections[0]}")
        return REJECTED
    partial = any("redacted" in u or "not re-derived" in u for u in r.unverified)
    if key is None:
        print("NOT VERIFIED: without the deployment's public key nothing anchors the events (--public-key)")
        return UNANCHORED
    if partial and args.require_complete:
        print("REJECTED: the export is redacted and --require-complete was given")
        return REJECTED
    print("VERIFIED IN PART (see 'not verified')" if partial else "VERIFIED")
    return VERIFIED


if __name__ == "__main__":
    sys.exit(main())
