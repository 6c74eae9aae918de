"""Work appended but never enqueued is not lost: the workers' sweep (workers/sweep.py) finds it.

An API process that dies between its append and its enqueue is played here by an engine in this
process with a scheduler that enqueues nothing (``NullScheduler``), on the same Redis as the live
service. The append script marks the game atomically (``pending`` set, ``deadlines`` sorted set);
the real worker's sweep must then resolve the step and fire the deadline on its own.
"""

from __future__ import annotations

import asyncio

import msgspec

from domain.board.game import BoardCreateBody
from domain.board.state import Settings
from domain.core.commands import ORGANIZER, Actor, JoinGame, StartGame
from service.engine.dispatch import NullScheduler
from service.engine.runtime import build_runtime
from tests.support.game_client import Game, decisions, default_like_orders, new_started_game, wait_until


async def _as_a_dying_api(coro_factory):
    rt = build_runtime(scheduler=NullScheduler())
    try:
        return await coro_factory(rt)
    finally:
        await rt.close()


def test_a_resolution_nobody_enqueued_is_swept_up(api):
    game: Game = new_started_game(api, players=3)
    houses = list(game.houses.items())
    for _house, token in houses[:-1]:
        (mine,) = decisions(api, game, token)["decisions"]
        r = api.post(
            f"/v1/games/{game.id}/commands",
            json={"type": "assign_orders", "orders": default_like_orders(mine["options"])},
            headers=game.auth(token),
        )
        assert r.status_code == 200, r.text
    last_token = houses[-1][1]
    (mine,) = decisions(api, game, last_token)["decisions"]
    seat_id = next(s for s, t in game.seats.items() if t == last_token)
    body = {"type": "assign_orders", "orders": default_like_orders(mine["options"])}

    async def last_orders(rt):
        command = msgspec.json.decode(msgspec.json.encode(body), type=(await rt.engine.load(game.id)).game.command_type)
        return await rt.engine.execute(game.id, Actor(kind="seat", seat_id=seat_id), command)

    status, answer = asyncio.run(_as_a_dying_api(last_orders))
    assert status == 200
    version = msgspec.json.decode(answer)["version"]
    # no job was enqueued for this reveal: only the sweep can bring it

    def revealed(v: dict) -> bool:
        return v["version"] >= version and v["step"] != "assign_orders"

    view = wait_until(lambda: revealed(v := api.get(f"/v1/games/{game.id}").json()) and v, 60)
    assert view["step"] in ("messenger_raven", "awaiting_action_phase", "resolve_raid", "resolve_march")


def test_a_deadline_nobody_scheduled_is_swept_up(api):
    async def started_game(rt):
        create = BoardCreateBody(player_count=3, settings=Settings(decision_timeout_s=1))
        _, created = await rt.engine.create_game("board", create, None, "")
        game_id = msgspec.json.decode(created)["game_id"]
        for i in range(3):
            await rt.engine.execute(game_id, Actor(kind="seat"), JoinGame(name=f"p{i}"))
        await rt.engine.execute(game_id, ORGANIZER, StartGame())
        return game_id

    game_id = asyncio.run(_as_a_dying_api(started_game))
    # the 1 s deadline of the orders was never scheduled with RQ: the sweep fires it (grace 2 s)
    export = wait_until(
        lambda: (
            (e := api.get(f"/v1/games/{game_id}/export").json())["events"]
            and any(x["event"]["type"] == "decision_timed_out" for x in e["events"])
            and e
        ),
        60,
    )
    assert any(x["event"]["type"] == "orders_submitted" and x["event"]["by_default"] for x in export["events"])


def test_a_pending_game_is_left_to_the_apis_job_for_a_grace_then_taken_once_per_lease():
    from workers.sweep import LEASE_S, PENDING_GRACE_S, take_pending

    seen: dict[str, float] = {}
    assert take_pending({"g1"}, seen, 100.0) == []  # just appended: the API's resolve job has it
    assert take_pending({"g1", "g2"}, seen, 100.0 + PENDING_GRACE_S) == ["g1"]  # still pending: ours
    assert take_pending({"g1", "g2"}, seen, 100.0 + PENDING_GRACE_S + 1) == []  # g1 taken, g2 too new
    assert take_pending({"g1", "g2"}, seen, 100.0 + 2 * PENDING_GRACE_S) == ["g2"]
    assert take_pending({"g1"}, seen, 100.0 + PENDING_GRACE_S + LEASE_S) == ["g1"]  # taken again
    assert "g2" not in seen  # resolved games are forgotten
