"""A player who leaves a Mother of Dragons game through the real API (MOD-FLEX-01/02): its house turns
vassal in the view, and its token sends no more commands (403 ``seat_left``)."""

from __future__ import annotations

import asyncio

from clients.bot import WAIT_S, _api, _join, _play_seats
from tests.api.test_mother_of_dragons_api import _choose_all
from tests.support.export_checks import check_export
from tests.support.game_client import create, decisions, join_all, wait_until


def _choose_commanders(api, g) -> None:
    """MOD-VASSAL-03: every set holder commands the first free vassal, until Assign Orders opens."""
    for _ in range(10):
        pending = [
            (t, d)
            for t in g.seats.values()
            for d in decisions(api, g, t)["decisions"]
            if d["commands"] == ["command_vassal"]
        ]
        if not pending:
            return
        token, d = pending[0]
        body = {"type": "command_vassal", "vassal": d["options"]["vassals"][0]}
        r = api.post(f"/v1/games/{g.id}/commands", json=body, headers=g.auth(token))
        assert r.status_code == 200, r.text


def test_MOD_FLEX_01_a_player_leaves_through_the_api(api) -> None:
    g = create(api, 4, expansion="mother_of_dragons")
    join_all(api, g, 4)
    assert api.post(f"/v1/games/{g.id}/start", headers=g.auth(g.organizer)).status_code == 200
    _choose_all(api, g)
    _choose_commanders(api, g)
    token = next(iter(g.seats.values()))
    house = next(d["house"] for d in decisions(api, g, token)["decisions"])
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "leave_game", "reason": "called away"}, headers=g.auth(token)
    )
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    view = wait_until(
        lambda: api.get(f"/v1/games/{g.id}", params={"min_version": version}, headers=g.auth(g.organizer)).json()
    )
    assert house in view["vassals"]
    r = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "gift_power", "to": "stark", "amount": 1}, headers=g.auth(token)
    )
    assert r.status_code == 403 and r.json()["code"] == "seat_left", r.text
    assert decisions(api, g, token)["decisions"] == []


SILENT = {
    "expansion": "mother_of_dragons",
    "decision_timeout_s": 2,
    "vassal_after_missed_deadlines": 2,
    "organizer_is_referee": True,
}


async def _one_seat_silent(base: str) -> tuple[str, str, dict[str, str], str]:
    """A 3-player game where bots play two seats and the third never answers: the real worker fires
    its deadlines. Returns (game id, organizer token, every seat's token, the silent seat)."""
    async with _api(base, WAIT_S) as api:
        created = await api.create_game(3, SILENT)
        seats = await _join(api, created.game_id, 3)
        await api.with_token(created.organizer_token).start(created.game_id)
        silent = sorted(seats)[-1]
        playing = {s: t for s, t in seats.items() if s != silent}
        await _play_seats(api, base, created.game_id, created.organizer_token, playing, "silent-seat", WAIT_S)
        return created.game_id, created.organizer_token, seats, silent


def test_MOD_FLEX_01_a_seat_that_stops_playing_becomes_a_vassal_and_the_game_goes_on(service, api) -> None:
    """``vassal_after_missed_deadlines`` = 2 through the real API and worker: one seat of three never
    answers; at its second missed deadline in a row (2 s each) its house becomes a vassal, the log
    says why, its token sends no more commands, and the two bots play the game on to its end over the
    following rounds; the export audits clean (every batch re-derived)."""
    base, _ = service
    game_id, organizer, seats, silent = asyncio.run(_one_seat_silent(base))
    export = api.get(f"/v1/games/{game_id}/export", headers={"Authorization": f"Bearer {organizer}"})
    assert export.status_code == 200, export.text
    events = [e["event"] for e in export.json()["events"]]
    left = [e for e in events if e["type"] == "player_left"]
    assert len(left) == 1 and left[0]["seat_id"] == silent and left[0]["missed_deadlines"] == 2, left
    house = left[0]["house"]
    at = events.index(left[0])
    rounds_after = {e["round"] for e in events[at:] if e["type"] == "step_began"}
    assert len(rounds_after) >= 2  # the game went on to further rounds
    checked = check_export(export.content)
    assert checked.report.rules_ok and checked.report.rederived_through == len(events), checked.report.problems
    final = export.json()["events"][-1]["seq"]  # the projected view may lag: read it at the game's end
    view = api.get(
        f"/v1/games/{game_id}", params={"min_version": final}, headers={"Authorization": f"Bearer {organizer}"}
    ).json()
    assert house in view["vassals"] and view["phase"] == "ended" and view["winner"] != house
    # the log is projected and has no min_version: read it once it shows the game's last version
    log = wait_until(
        lambda: (
            (
                (x := api.get(f"/v1/games/{game_id}/log", headers={"Authorization": f"Bearer {organizer}"})).status_code
                != 200
                or x.json()["version"] >= final
            )
            and x
        )
    )
    assert log.status_code == 200, log.text
    assert "missed 2 deadlines in a row" in log.text and house.capitalize() in log.text
    r = api.post(
        f"/v1/games/{game_id}/commands",
        json={"type": "gift_power", "to": "stark", "amount": 1},
        headers={"Authorization": f"Bearer {seats[silent]}"},
    )
    assert r.status_code in (403, 409), r.text  # 403 seat_left (409 if the game is already over)


def test_MOD_FLEX_01_the_policy_is_refused_outside_mother_of_dragons(api) -> None:
    """422 naming the setting; no game is created."""
    r = api.post("/v1/games", json={"player_count": 3, "settings": {"vassal_after_missed_deadlines": 2}})
    assert r.status_code == 422 and "vassal_after_missed_deadlines" in r.text, r.text
    assert r.json()["code"] == "invalid_settings"
