"""A 7-player Mother of Dragons game (no vassal) played by the random bots through the real API to a
winner (``clients.bot.play_game``, HTTP only): the seats choose their houses, place sea orders among
their tokens (MOD-SEA-*), now and then give Power from their optional ``gift_power`` decision
(MOD-GIFT-*), and Arryn fights with its cards (MOD-DATA-01). The export verifies and audits clean
(tests/api/test_bot_games.py's checks)."""

from __future__ import annotations

import asyncio

from clients.bot import play_game
from domain.board.orders import SEA_ORDER_TOKENS
from tests.api.test_bot_games import SETTINGS, _log_sizes, _new_tracebacks, verify_finished_game


def test_MOD_GIFT_01_bots_play_a_mother_of_dragons_game_to_a_winner(service, api) -> None:
    base, procs = service
    logs = _log_sizes(procs.logdir)
    settings = {**SETTINGS, "expansion": "mother_of_dragons"}
    played = asyncio.run(play_game(base, 7, seed="mod-bots-7", settings=settings))
    assert played.winner and played.stats.accepted > 100
    verify_finished_game(api, played.game_id, played.organizer_token, played.version, played.seats)
    r = api.get(f"/v1/games/{played.game_id}/export", headers={"Authorization": f"Bearer {played.organizer_token}"})
    events = [e["event"] for e in r.json()["events"]]
    assert any(e["type"] == "power_gifted" for e in events), played.stats.by_kind
    sea = [e for e in events if e["type"] == "order_removed" and e["order"] in SEA_ORDER_TOKENS]
    assert sea
    assert not _new_tracebacks(procs.logdir, logs)
