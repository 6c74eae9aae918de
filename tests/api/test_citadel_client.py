"""clients/citadel_client against the live API: every method, and error answers raised as
:class:`ApiProblem` with the status, code and detail of their ``application/problem+json``."""

from __future__ import annotations

import asyncio

import pytest

from clients.bot import fallback_command
from clients.citadel_client import ApiProblem, CitadelClient
from clients.citadel_client import models as m


async def _walk(base: str) -> None:
    async with CitadelClient(base, timeout=20) as api:
        game = await api.create_game(3, settings={"decision_timeout_s": 60})
        assert game.game_id.startswith("g_") and game.player_count == 3 and game.version >= 1
        seats = [await api.join(game.game_id, f"p{i}") for i in range(3)]
        assert len({s.seat_id for s in seats}) == 3 and all(s.token for s in seats)

        player = api.with_token(seats[0].token)
        with pytest.raises(ApiProblem) as e:
            await player.start(game.game_id)  # only the organizer starts
        assert (e.value.status, e.value.code) == (403, "forbidden") and e.value.detail
        assert e.value.problem.status == 403

        org = api.with_token(game.organizer_token)
        started = await org.start(game.game_id)
        assert started.version > game.version and started.events

        ds = await player.decisions(game.game_id)
        assert ds.game_id == game.game_id and ds.phase == "planning" and ds.step == "assign_orders"
        (d,) = ds.decisions
        assert isinstance(d.options, m.AssignOrdersOptions) and m.kind_of(d.options) == "assign_orders"
        assert {w.seat_id for w in ds.waiting_for} == {s.seat_id for s in seats}

        with pytest.raises(ApiProblem) as e:  # a version the game is not at
            await player.command(game.game_id, fallback_command(d), if_match=ds.version + 5)
        assert (e.value.status, e.value.code) == (409, "stale_version")
        assert e.value.problem.current_version == ds.version

        with pytest.raises(ApiProblem) as e:  # refused by the rules
            await player.command(game.game_id, m.AssignOrders(orders={"no_such_area": "march_0"}), if_match=ds.version)
        assert e.value.status == 422 and e.value.code

        accepted = await player.command(game.game_id, fallback_command(d), if_match=ds.version)
        assert accepted.version == ds.version + 1 and accepted.game_id == game.game_id

        events = await player.events(game.game_id, ds.version, wait=1)
        assert [ev.seq for ev in events] == [accepted.version] and events[0].event["type"] == "orders_submitted"
        assert await player.events(game.game_id, accepted.version, wait=0) == []

        view = await api.view(game.game_id, min_version=accepted.version)
        assert view.version >= accepted.version and view.phase == "planning" and len(view.seats) == 3
        mine = await player.view(game.game_id, min_version=accepted.version, own=True)
        assert mine.reader == d.house
        assert "areas" in await api.view_json(game.game_id)

        log = await api.log(game.game_id, limit=2)
        assert log.game_id == game.game_id and len(log.lines) == 2 and all(line.text for line in log.lines)
        assert log.next_cursor == log.lines[-1].seq  # a full page: the next one starts there
        key = await api.signing_key()
        assert key.key_id.startswith("ed25519:") and key.public_key

        export = await org.export(game.game_id)
        assert export.game_id == game.game_id and export.version >= accepted.version
        assert [e.seq for e in export.events] == list(range(1, export.version + 1)) and export.seed is None

        with pytest.raises(ApiProblem) as e:
            await api.with_token("not-a-token").decisions(game.game_id)
        assert e.value.status == 401
        with pytest.raises(ApiProblem) as e:
            await api.view(f"g_{'0' * 32}")
        assert e.value.status == 404 and e.value.code
        assert api.requests > 0 and player.requests > 0


def test_the_client_against_the_live_api(service):
    base, _ = service
    asyncio.run(_walk(base))
