"""Sealed orders, deck order and the raven's peek never leak (BG-PLAN-03, BG-PLAN-07, BG-MISC-02),
nor a Tides of Battle deck or a drawn Tides card before the reveal (BG-TIDES-02/03).

Every endpoint a player or spectator can read is checked: public view, seat view, decisions,
events (NDJSON and SSE), log, export, and the answers to other seats' commands.
"""

import httpx

from domain.board import board_data
from domain.board.action import commands as acmd
from domain.board.action import tides_events as tev
from domain.board.orders import ORDER_TOKENS
from tests.support.game_client import decisions, default_like_orders, new_started_game, wait_until

WILDLING_IDS = [c.id for c in board_data.cards().wildling_cards]


def _reads(api: httpx.Client, g, token: str | None) -> dict[str, str]:
    h = g.auth(token) if token else {}
    now = {"min_version": api.get(f"/v1/games/{g.id}/decisions", headers=g.auth(g.organizer)).json()["version"]}
    out = {
        "public": api.get(f"/v1/games/{g.id}", params=now).text,
        "events": api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=h).text,
        "log": api.get(f"/v1/games/{g.id}/log", headers=h).text,
        "export": api.get(f"/v1/games/{g.id}/export", headers=h).text,
    }
    with api.stream("GET", f"/v1/games/{g.id}/events", headers={**h, "Accept": "text/event-stream"}) as r:
        chunks = []
        for line in r.iter_lines():
            chunks.append(line)
            if line.startswith("id: ") and int(line[4:]) >= out_version(out["public"]):
                break
        out["sse"] = "\n".join(chunks)
    if token:
        out["view"] = api.get(f"/v1/games/{g.id}/view", params=now, headers=h).text
        out["decisions"] = api.get(f"/v1/games/{g.id}/decisions", headers=h).text
    return out


def out_version(public_text: str) -> int:
    import json

    return json.loads(public_text)["version"]


def test_BG_PLAN_03_sealed_orders_hidden_from_every_other_seat_and_spectators(api):
    g = new_started_game(api, players=4)
    houses = list(g.houses)
    sealed_house = houses[0]
    token = g.houses[sealed_house]
    opts = decisions(api, g, token)["decisions"][0]["options"]
    orders = default_like_orders(opts)
    answer = api.post(
        f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=g.auth(token)
    )
    assert answer.status_code == 200
    assert answer.json()["events"][0]["event"]["orders"] == orders  # the submitter sees its own
    # commit–reveal (domain/board/sealed_inputs.py): the submitter sees its salt; the commitment is public
    salt = answer.json()["events"][0]["event"]["salt"]
    commitment = answer.json()["events"][0]["event"]["commitment"]
    assert len(salt) == 64 and len(commitment) == 64

    # spectators: no order token id appears anywhere before the reveal, nor the salt; the commitment does
    for name, text in _reads(api, g, None).items():
        for token_id in ORDER_TOKENS:
            assert f'"{token_id}"' not in text, f"{token_id} leaked to spectators via {name}"
        assert salt not in text, f"the salt leaked to spectators via {name}"
        if name in ("events", "export"):  # (the SSE read stops at the newest event's id line)
            assert commitment in text, f"the commitment is missing from the spectators' {name}"
    # other seats: the sealed house's orders never appear; they see "sealed" on its areas
    for other in houses[1:]:
        reads = _reads(api, g, g.houses[other])
        import json

        view = json.loads(reads["view"])
        for area in orders:
            assert view["areas"][area]["order"] == "sealed"
        for line in reads["events"].splitlines():
            e = json.loads(line)["event"]
            if e["type"] == "orders_submitted":
                assert e["orders"] is None
        exported = json.loads(reads["export"])
        for env in exported["events"]:
            if env["event"]["type"] == "orders_submitted":
                assert env["event"]["orders"] is None
        assert exported["complete"] is False
        assert '"orders":{"' not in reads["sse"]
        for name, text in reads.items():
            assert salt not in text, f"the salt leaked to {other} via {name}"
        assert commitment in reads["events"] and commitment in reads["export"]
        assert json.loads(reads["decisions"])["decisions"][0]["options"]["submitted"] is None
    # and the submitter does see them in its own view
    mine = api.get(
        f"/v1/games/{g.id}/view", params={"min_version": answer.json()["version"]}, headers=g.auth(token)
    ).json()
    assert {a: mine["areas"][a]["order"] for a in orders} == orders


def test_BG_MISC_02_deck_order_and_hands_hidden(api):
    g = new_started_game(api, players=3)
    for token in [None, *g.houses.values()]:
        reads = _reads(api, g, token)
        for name in ("events", "export", "sse"):
            for card in WILDLING_IDS:
                assert card not in reads[name], f"wildling deck order leaked via {name}"
    now = decisions(api, g, g.organizer)["version"]  # the projected view may lag the start: read it at now
    view = api.get(f"/v1/games/{g.id}", params={"min_version": now}).json()
    assert all(h["hand"] is None and h["hand_size"] == 7 for h in view["houses"])


def test_BG_PLAN_07_raven_peek_seen_only_by_its_holder(api):
    g = new_started_game(api, players=3)
    for _house, token in g.houses.items():
        orders = default_like_orders(decisions(api, g, token)["decisions"][0]["options"])
        assert (
            api.post(
                f"/v1/games/{g.id}/commands", json={"type": "assign_orders", "orders": orders}, headers=g.auth(token)
            ).status_code
            == 200
        )
    wait_until(lambda: api.get(f"/v1/games/{g.id}").json()["step"] == "messenger_raven")
    holder = api.get(f"/v1/games/{g.id}").json()["tracks"]["kings_court"][0]
    r = api.post(f"/v1/games/{g.id}/commands", json={"type": "raven_peek_wildling"}, headers=g.auth(g.houses[holder]))
    assert r.status_code == 200
    card = r.json()["events"][0]["event"]["card"]
    assert card in WILDLING_IDS
    holder_view = api.get(
        f"/v1/games/{g.id}/view", params={"min_version": r.json()["version"]}, headers=g.auth(g.houses[holder])
    ).json()
    assert holder_view["raven_peek"] == card
    d = decisions(api, g, g.houses[holder])["decisions"][0]
    assert d["options"]["card"] == card
    for other in [None, *[t for h, t in g.houses.items() if h != holder]]:
        for name, text in _reads(api, g, other).items():
            assert card not in text, (
                f"the raven's card leaked to {'spectator' if other is None else 'a seat'} via {name}"
            )


def _lines(text: str) -> list[dict]:
    """The events of an NDJSON body or an SSE stream (its ``data:`` lines)."""
    import json

    out = []
    for line in text.splitlines():
        line = line.removeprefix("data: ").strip()
        if line.startswith("{"):
            doc = json.loads(line)
            out.append(doc.get("event", doc))
    return out


def test_BG_TIDES_03_drawn_tides_cards_hidden_from_every_other_seat_and_spectators(api, monkeypatch):
    """Tides of Battle on: Stark (attacker, Blade holder) and Lannister have drawn their Tides cards,
    which wait unrevealed for Stark's redraw decision. Every seat and the spectator read the events
    (NDJSON and SSE), the export, the view and the decisions: the deck order is nowhere, and each
    drawn card only in its own house's reads; after the reveal everyone sees both."""
    import json
    from types import SimpleNamespace

    from tests.support import combat_helpers
    from tests.support.api_positions import ApiPosition
    from tests.support.tides_positions import STARK_BLADE, TIDES

    monkeypatch.setattr(ApiPosition, "client", api)
    monkeypatch.setattr(combat_helpers, "Position", ApiPosition)
    sc = combat_helpers.north(settings=TIDES, tracks=STARK_BLADE)
    combat_helpers.fight(sc, "eddard_stark", "the_hound")
    assert sc.state.step == "use_blade"
    drawn = dict(sc.state.action.combat.tides.drawn)  # from the referee export
    assert set(drawn) == {"stark", "lannister"} and not sc.state.action.combat.tides.revealed
    g = SimpleNamespace(id=sc.game_id, organizer=sc.organizer, auth=lambda t: {"Authorization": f"Bearer {t}"})
    for reader in [None, *sc.tokens]:
        reads = _reads(api, g, sc.tokens.get(reader) if reader else None)
        for name in ("events", "export", "sse"):
            events = (
                _lines(reads[name]) if name != "export" else [e["event"] for e in json.loads(reads[name])["events"]]
            )
            assert [e["type"] for e in events].count("tides_card_drawn") == 2, name
            for e in events:
                if e["type"] == "tides_deck_shuffled":
                    assert e["cards"] is None, f"the Tides deck leaked to {reader} via {name}"
                if e["type"] == "tides_card_drawn":
                    want = drawn[e["house"]] if e["house"] == reader else None
                    assert e["card"] == want, f"{e['house']}'s Tides card seen by {reader} via {name}"
        if reader is None:
            public = json.loads(reads["public"])["action"]["combat"]["tides"]
            assert public == {"stark": "sealed", "lannister": "sealed"}
            continue
        view = json.loads(reads["view"])["action"]["combat"]["tides"]
        assert view == {h: (c if h == reader else "sealed") for h, c in drawn.items()}
        mine = json.loads(reads["decisions"])["decisions"]
        if reader == "stark":
            assert mine[0]["options"]["tides_redraw"] is True and mine[0]["options"]["tides_card"] == drawn["stark"]
        else:
            assert mine == []
    sc.run("stark", acmd.UseBlade(use=False))  # keep the card: both are revealed
    revealed = next(e for e in reversed(sc.events) if isinstance(e, tev.TidesCardsRevealed))
    assert revealed.cards == drawn
    for reader in [None, *sc.tokens]:
        h = g.auth(sc.tokens[reader]) if reader else {}
        events = api.get(f"/v1/games/{g.id}/events", params={"from": 0}, headers=h).text
        shown = [e for e in _lines(events) if e["type"] == "tides_cards_revealed"]
        assert [e["cards"] for e in shown] == [drawn]
