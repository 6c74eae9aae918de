"""Complete card-game jousts played by HTTP bots (clients/card_bot.py) through the real API, Redis,
RQ worker (the reveals of sealed setup and plots) and projector, one game for every pairing of the
four legal decks of decks.yaml.

Each :class:`clients.card_bot.CardBot` answers its seat's decisions with random legal choices built
from ``GET /decisions`` alone, with If-Match and idempotency keys. For each game:

* the bots' commands were never refused (a decision the server offers must be accepted), and the
  game ended with a winner;
* the organizer's (referee) export is complete with the seed, and ``citadel-verify`` with the
  deployment's public key says VERIFIED (hash chain, signature, seed, every shuffle, every event
  re-derived from the command behind it);
* folding the export gives the very views the API served: the public one and each seat's;
* no process logged a traceback.

Together the games answer every decision kind the bots met (mulligan, setup, plot, first player,
marshal, challenge, defend, claim, reserve... as the random games bring them).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from pathlib import Path

import httpx
import msgspec

from clients.card_bot import PlayedCardGame, play_card_game
from clients.citadel_client import ApiProblem, SyncCitadelClient
from clients.citadel_client import cards as c
from domain.cards.game import GAME
from tests.support.verify_cli import public_key_file, run_verify

SETTINGS = {"decision_timeout_s": 600, "organizer_is_referee": True}
PAIRINGS = list(itertools.combinations(c.LEGAL_DECKS, 2))
"""The 6 pairings of the 4 legal decks (each deck meets each other once, in both seats overall)."""


def _tracebacks(logdir: Path, before: dict[Path, int]) -> list[str]:
    out = []
    for p in logdir.glob("*.log"):
        with open(p, "rb") as f:
            f.seek(before.get(p, 0))
            text = f.read().decode(errors="replace")
        if "Traceback" in text:
            out.append(f"{p.name}: {text[text.index('Traceback') :][:2000]}")
    return out


async def _play_all(base: str) -> list[PlayedCardGame]:
    sem = asyncio.Semaphore(3)

    async def one(i: int, decks: tuple[str, str]) -> PlayedCardGame:
        async with sem:
            # the second half swaps the seats, so every deck plays first and second seat
            seated = decks if i % 2 == 0 else (decks[1], decks[0])
            return await play_card_game(base, seated, seed=f"card-bots-{i}", settings=SETTINGS)

    # a game that stops moving (a lost reveal, a bot waiting forever) fails the test instead of hanging it
    return list(await asyncio.wait_for(asyncio.gather(*(one(i, d) for i, d in enumerate(PAIRINGS))), timeout=300))


def verify_card_game(api: httpx.Client, g: PlayedCardGame, tmp_path: Path) -> None:
    """The export verifies offline, and folds to the views the API served for every reader."""
    org = {"Authorization": f"Bearer {g.organizer_token}"}
    r = api.get(f"/v1/games/{g.game_id}/export", headers=org)
    assert r.status_code == 200, r.text
    export = r.json()
    assert export["kind"] == "cards" and export["complete"] and export["seed"] and export["version"] == g.version
    path = tmp_path / f"{g.game_id}.json"
    path.write_bytes(r.content)
    out = run_verify(path, "--public-key", public_key_file(api, tmp_path))
    assert out.returncode == 0 and "(cards)" in out.stdout and out.stdout.rstrip().endswith("VERIFIED"), (
        out.stdout + out.stderr
    )
    state = GAME.fold(
        msgspec.json.decode(json.dumps(e["event"]).encode(), type=GAME.event_type) for e in export["events"]
    )
    assert state.winner == g.winner and state.phase == "ended"
    readers: list[tuple[str | None, str | None]] = [(None, None), *g.seats.items()]
    for reader, token in readers:
        served = api.get(
            f"/v1/games/{g.game_id}/view" if token else f"/v1/games/{g.game_id}",
            params={"min_version": g.version},
            headers={"Authorization": f"Bearer {token}"} if token else {},
        )
        assert served.status_code == 200, served.text
        assert served.json() == msgspec.to_builtins(GAME.view(state, reader)), reader


def test_bots_play_every_pairing_of_the_legal_decks_to_a_winner_and_every_export_verifies(service, api, tmp_path):
    base, procs = service
    logs = {p: p.stat().st_size for p in procs.logdir.glob("*.log")}
    played = asyncio.run(_play_all(base))
    kinds: Counter[str] = Counter()
    for g in played:
        assert g.winner in g.seats and g.end_reason, g
        assert g.stats.refused == 0, (g.decks, g.stats.refusals)
        assert g.stats.accepted > 50 and g.stats.fallbacks == 0
        kinds.update(g.stats.by_kind)
        verify_card_game(api, g, tmp_path)
    assert {"mulligan", "setup", "plot", "first_player", "marshal", "challenge", "defend"} <= set(kinds), kinds
    assert not _tracebacks(procs.logdir, logs)


def test_the_sync_client_creates_and_reads_a_card_game(service):
    """The card game's typed helpers of the blocking client: a game with a deck by name and one as a
    list, a seat's decision, a command, its own view with the hand, and a 422 naming a deck rule."""
    base, _ = service
    with SyncCitadelClient(base) as api:
        short = c.DeckList(faction="stark", agenda="01199", plots=[c.DeckEntry(code="01008", count=1)], draw=[])
        try:
            api.create_card_game(["stark_kraken", short])
        except ApiProblem as e:
            assert e.status == 422 and e.code == "illegal_deck" and e.problem.rule == "CG-DECK-01"
        else:
            raise AssertionError("an illegal deck was accepted")
        game = api.create_card_game(["stark_kraken", c.DeckChoice(name="watch_stag")], SETTINGS)
        assert game.kind == "cards"
        seat = api.join(game.game_id, "ann")
        api.join(game.game_id, "bob")
        api.with_token(game.organizer_token).start(game.game_id)
        me = api.with_token(seat.token)
        ds = me.card_decisions(game.game_id, min_version=1)
        assert ds.phase == "setup" and [d.kind for d in ds.decisions] == ["mulligan"]
        assert ds.decisions[0].commands == list(c.COMMANDS["mulligan"])
        done = me.command(game.game_id, c.ChooseMulligan(mulligan=False), if_match=ds.version)
        assert done.version > ds.version
        view = me.card_view(game.game_id, own=True, min_version=done.version)
        mine = view.seat(seat.seat_id)
        assert view.you == seat.seat_id and mine.hand is not None and len(mine.hand) == 7
        assert all(card in view.cards for card in mine.hand) and mine.mulligan is False
        public = api.card_view(game.game_id, min_version=done.version)
        assert public.you is None and public.seat(seat.seat_id).hand is None


async def _play_melees(base: str) -> list[PlayedCardGame]:
    games = [
        ("stark_kraken", "lannister_rose", "targaryen_sun"),  # decks.yaml's melee_3
        ("stark_kraken", "watch_stag", "targaryen_sun", "lannister_rose", "watch_stag"),
    ]
    return list(
        await asyncio.wait_for(
            asyncio.gather(
                *(play_card_game(base, d, seed=f"card-melee-{i}", settings=SETTINGS) for i, d in enumerate(games))
            ),
            timeout=300,
        )
    )


def test_bots_play_melees_of_3_and_5_seats_to_a_winner_and_every_export_verifies(service, api, tmp_path):
    """Melee (CG-GEN-01, CG-PHASE-05, CG-MELEE-*) through the real API, worker and projector: the
    titles' secret picks, defenders named by the attacker; never refused; the exports verify and
    fold to every reader's view."""
    base, procs = service
    logs = {p: p.stat().st_size for p in procs.logdir.glob("*.log")}
    played = asyncio.run(_play_melees(base))
    for g in played:
        assert g.winner in g.seats and g.end_reason and len(g.seats) == len(g.decks), g
        assert g.stats.refused == 0, (g.decks, g.stats.refusals)
        assert g.stats.fallbacks == 0 and g.stats.by_kind["title"] > 0
        verify_card_game(api, g, tmp_path)
    assert not _tracebacks(procs.logdir, logs)
