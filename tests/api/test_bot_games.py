"""Complete games played by bots (clients/bot.py) through the real API, Redis, RQ worker and projector.

One :class:`clients.bot.RandomBot` per seat answers every decision with a random legal choice built
from ``GET /decisions`` alone, from round 1 to a winner (``clients.bot.play_game``: create, join,
start, bots woken by one watcher long-polling the game's events). Then, for each game:

* the public view says ``ended`` / ``game_over`` with a winner;
* the organizer's (referee) export is complete, reveals the seed, and audits clean: hash chain,
  seed commitment, every shuffle, every event re-derived from the command behind its batch
  (``domain.board.audit``); ``citadel-verify`` with the deployment's public key says VERIFIED;
  and the same export forged and re-hashed (the winner, a combat's result, a Power gain set to 15,
  a revealed order) diverges at the forged event;
* re-folding the export batch by batch breaks no invariant (tests/support/export_checks.py, the checks of
  tests/support/full_games.py);
* the folded final state renders the same public view and the same view for every house as the API;
* no process logged a traceback while the game ran.

One more game has seats played by ``citadel bot`` processes (``--token``, and ``--join`` filling
free seats before the start).
A full 10-round game takes about 2 s (3 players) to 4 s (6 players) through the API on a 2-core
machine, checks included.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import msgspec
import pytest

from clients.bot import RandomBot, play_game
from domain.board.audit import audit
from domain.board.redaction import view_for
from tests.support.export_checks import check_export
from tests.support.forgery import (
    FORGERIES,
    WHERE,
    envelopes,
    forged,
    index_of,
)
from tests.support.game_client import wait_until
from tests.support.verify_cli import public_key_file, run_verify

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"decision_timeout_s": 60, "organizer_is_referee": True}
_enc = msgspec.json.Encoder()


def _log_sizes(logdir: Path) -> dict[Path, int]:
    return {p: p.stat().st_size for p in logdir.glob("*.log")}


def _new_tracebacks(logdir: Path, before: dict[Path, int]) -> list[str]:
    out = []
    for p in logdir.glob("*.log"):
        with open(p, "rb") as f:
            f.seek(before.get(p, 0))
            text = f.read().decode(errors="replace")
        if "Traceback" in text:
            out.append(f"{p.name}: ...{text[max(0, text.index('Traceback') - 200) :][:3000]}")
    return out


def verify_finished_game(
    api: httpx.Client, game_id: str, organizer: str, version: int, seats: dict[str, str] | None = None
) -> None:
    """The checks of the module docstring; ``seats`` (seat id -> token) adds each house's view."""
    view = api.get(f"/v1/games/{game_id}", params={"min_version": version})
    assert view.status_code == 200, view.text
    public = view.json()
    assert (public["phase"], public["step"]) == ("ended", "game_over") and public["winner"], public
    assert public["version"] == version

    r = api.get(f"/v1/games/{game_id}/export", headers={"Authorization": f"Bearer {organizer}"})
    assert r.status_code == 200, r.text
    checked = check_export(r.content)
    s = checked.final_state
    assert s.version == version and s.winner == public["winner"]
    assert checked.batches > 100
    assert checked.report.rederived_through == version, checked.report.unverified

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.json"
        path.write_bytes(r.content)
        out = run_verify(path, "--public-key", public_key_file(api, Path(tmp)))
        assert out.returncode == 0 and out.stdout.rstrip().endswith("VERIFIED"), out.stdout + out.stderr
    doc = r.json()
    for name, forge in FORGERIES.items():
        if not any(e["event"]["type"] == WHERE[name] for e in doc["events"]):
            continue  # e.g. a game without a combat
        bad = forged(doc["events"], forge)
        report = audit(envelopes(bad), doc["seed"])
        at = index_of(bad, WHERE[name]) + 1
        assert report.divergence and report.divergence.startswith(f"event {at} "), (name, report.divergence)

    assert msgspec.json.decode(_enc.encode(view_for(s, None))) == public
    for seat_id, token in (seats or {}).items():
        mine = api.get(
            f"/v1/games/{game_id}/view", params={"min_version": version}, headers={"Authorization": f"Bearer {token}"}
        )
        assert mine.status_code == 200, mine.text
        assert msgspec.json.decode(_enc.encode(view_for(s, s.seat(seat_id).house))) == mine.json()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_full_game_through_the_api(service, api, players):
    base, procs = service
    logs = _log_sizes(procs.logdir)
    played = asyncio.run(play_game(base, players, seed=f"bot-games-{players}", settings=SETTINGS))
    assert played.winner and played.stats.accepted > 100
    verify_finished_game(api, played.game_id, played.organizer_token, played.version, played.seats)
    assert not _new_tracebacks(procs.logdir, logs)


def test_BG_TIDES_01_05_a_game_with_tides_of_battle_played_by_bots_to_a_winner(service, api, tmp_path):
    """Tides of Battle on (BG-TIDES-01..05): bots play a 4-player game to a winner through the API; the
    export audits clean, so every Tides deck is the seed's shuffle and every draw its top card
    (BG-TIDES-02); combats between two houses drew cards, each revealed (BG-TIDES-03). The offline
    verifier (citadel-verify) passes the export and finds a forged Tides deck at its event."""
    base, procs = service
    logs = _log_sizes(procs.logdir)
    settings = {**SETTINGS, "tides_of_battle": True}
    played = asyncio.run(play_game(base, 4, seed="bot-games-tides-4", settings=settings))
    assert played.winner and played.stats.accepted > 100
    verify_finished_game(api, played.game_id, played.organizer_token, played.version, played.seats)
    r = api.get(f"/v1/games/{played.game_id}/export", headers={"Authorization": f"Bearer {played.organizer_token}"})
    events = [e["event"] for e in r.json()["events"]]
    kinds = [e["type"] for e in events]
    began = [e for e in events if e["type"] == "combat_began" and e["defender"] is not None]
    assert began and kinds.count("tides_deck_shuffled") == len(began) == kinds.count("tides_cards_revealed")
    assert kinds.count("tides_card_drawn") == 2 * len(began)

    # verify_finished_game ran citadel-verify on the export (VERIFIED); a forged Tides deck, every
    # hash recomputed, is caught where it was forged
    doc = r.json()

    def reverse_first_deck(evs):
        first = next(e["event"] for e in evs if e["event"]["type"] == "tides_deck_shuffled")
        first["cards"] = first["cards"][::-1]

    bad = forged(doc["events"], reverse_first_deck)
    doc["events"] = bad
    path = tmp_path / "forged.json"
    path.write_bytes(msgspec.json.encode(doc))
    out = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    at = index_of(bad, "tides_deck_shuffled") + 1
    assert out.returncode == 1 and f"event {at} " in out.stdout and "tides_deck_shuffled" in out.stdout, out.stdout
    assert not _new_tracebacks(procs.logdir, logs)


def _cli_bot(base: str, game_id: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli", "bot", "--base", base, "--game", game_id, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_seats_played_by_the_citadel_bot_command(service, api):
    """Bots fill a game before it starts: ``citadel bot --game G --token T`` plays a seat joined
    by someone else, ``citadel bot --game G --join 2`` joins two free seats and plays them (each in
    its own process, waiting in the lobby); a bot in this process plays the fourth seat."""
    base, procs = service
    logs = _log_sizes(procs.logdir)
    r = api.post("/v1/games", json={"player_count": 4, "settings": SETTINGS})
    assert r.status_code == 201, r.text
    game_id, organizer = r.json()["game_id"], r.json()["organizer_token"]
    seats = {}
    for i in range(2):
        r = api.post(f"/v1/games/{game_id}/seats", json={"name": f"p{i}"})
        assert r.status_code == 201, r.text
        seats[r.json()["seat_id"]] = r.json()["token"]
    (seat_a, token_a), (seat_b, token_b) = seats.items()
    clis = [
        _cli_bot(base, game_id, "--token", token_a, "--seed", "7"),
        _cli_bot(base, game_id, "--join", "2", "--seed", "8"),
    ]
    try:
        wait_until(lambda: len(api.get(f"/v1/games/{game_id}").json()["seats"]) == 4, timeout=60)
        assert (
            api.post(f"/v1/games/{game_id}/start", headers={"Authorization": f"Bearer {organizer}"}).status_code == 200
        )
        asyncio.run(RandomBot(base, game_id, token_b, seed=9).run())
        outs = [p.communicate(timeout=600)[0].decode() for p in clis]  # a whole game; loaded machines are slow
    finally:
        for p in clis:
            if p.poll() is None:
                p.kill()
    for p, out in zip(clis, outs):
        assert p.returncode == 0, out
        assert f"game {game_id} ended" in out, out
    assert "2 seat(s) played" in outs[1]
    # the final scoring is the worker's: wait for the winner
    view = wait_until(lambda: (v := api.get(f"/v1/games/{game_id}").json())["step"] == "game_over" and v, timeout=60)
    verify_finished_game(api, game_id, organizer, view["version"], seats)
    assert not _new_tracebacks(procs.logdir, logs)
