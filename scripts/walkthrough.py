"""Generate ``docs/api-walkthrough.md`` by running every documented call against a live service.

    .venv/bin/python scripts/walkthrough.py --base http://127.0.0.1:8000   # a service you run
    .venv/bin/python scripts/walkthrough.py --serve                          # starts its own

The script starts nothing itself with ``--base``: it talks HTTP to the service at that URL (the
test suite's live service in ``tests/api/test_walkthrough.py``). ``--serve`` starts the API, a
worker and a projector (``service/processes.py``) on a database of ``--redis`` that no test session
holds (claimed as ``tests/conftest.py`` does), with loopback webhooks allowed as in the test suite,
and stops them and empties the database at the end. Either way it writes the Markdown to ``--output`` (default ``docs/api-walkthrough.md``).

The game is a fixed position (a scenario fixture with ``seat_houses`` and the decks' orders), so
every answer is the same from run to run; what still differs per run (ids, tokens, times, hashes,
signatures, keys) is replaced by named placeholders (``scripts/walkthrough_render.py``). Nothing
shown depends on timing: where a worker acts (the reveal, a new phase), the script first waits,
unseen, until the game is waiting for a player again, then shows the answers at known versions.
``tests/api/test_walkthrough.py`` fails when the checked-in file differs from a fresh run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import redis

# Run as a script: its sibling module and the project's root must be importable.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from walkthrough_render import Placeholders, curl_line, elided, fence, pretty, trim  # noqa: E402 - after the path is set

from service.processes import api_command, projector_command, worker_command  # noqa: E402 - after the path is set
from service.store.embedded_redis import free_port  # noqa: E402 - after the path is set

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "api-walkthrough.md"
REGENERATE = ".venv/bin/python scripts/walkthrough.py --serve"
SHOWN_HEADERS = (
    "etag",
    "location",
    "content-type",
    "cache-control",
    "www-authenticate",
    "retry-after",
)
Json = Any  # an answer's decoded JSON, as the server sent it


class Walk:
    """Runs calls and collects the Markdown. Each call renders its curl line and its answer."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.ph = Placeholders()
        self.out: list[str] = []
        self.tokens: dict[str, str] = {}  # shell variable -> token
        self.ids: dict[str, str] = {}  # shell variable -> id
        self.started = 0  # the game's version after its start

    # ------------------------------------------------------------------------------ prose and calls

    def say(self, text: str) -> None:
        self.out.append(text.strip("\n") + "\n")

    def var(self, name: str, value: str, placeholder: str, *, token: bool = False) -> None:
        """Remember a value the reader keeps in a shell variable, shown as ``placeholder``."""
        self.ph.name(value, placeholder)
        (self.tokens if token else self.ids)[name] = value

    def path(self, template: str) -> str:
        for name in sorted(self.ids, key=len, reverse=True):  # $GAME2 before $GAME
            template = template.replace("$" + name, self.ids[name])
        return template

    def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Json = None,
        headers: dict[str, str] | None = None,
        show_headers: bool = True,
        expect: int | None = None,
        shape: dict[str, Any] | None = None,
        show: bool = True,
        show_curl: bool = True,
        more_headers: tuple[str, ...] = (),
        show_body: bool = True,
        curl_extra: str = "",
    ) -> httpx.Response:
        """Send one request; render it (unless ``show`` is false) and return the answer. ``more_headers``:
        answer headers shown besides ``SHOWN_HEADERS``; ``show_body``: false to show the headers only."""
        headers = dict(headers or {})
        sent = dict(headers)
        if token:
            sent["Authorization"] = f"Bearer {self.tokens[token]}"
        r = self.http.request(method, self.path(path), json=body, headers=sent)
        if expect is not None and r.status_code != expect:
            raise RuntimeError(f"{method} {path}: expected {expect}, got {r.status_code}: {r.text}")
        if show:
            if show_curl:
                line = curl_line(
                    method,
                    path,
                    token_var=token,
                    body=body,
                    headers=headers,
                    show_headers=show_headers,
                    extra=curl_extra,
                )
                self.out.append(fence("sh", line))
            self.out.append(
                self.answer(r, show_headers=show_headers, shape=shape or {}, more=more_headers, with_body=show_body)
            )
        return r

    def answer(
        self,
        r: httpx.Response,
        *,
        show_headers: bool,
        shape: dict[str, Any],
        more: tuple[str, ...] = (),
        with_body: bool = True,
    ) -> str:
        """The answer as Markdown: status and selected headers, then the body (JSON pretty and
        trimmed, NDJSON line by line)."""
        if not with_body:
            head = [f"HTTP/1.1 {r.status_code} {r.reason_phrase}"]
            head += [f"{k}: {r.headers[k]}" for k in (*SHOWN_HEADERS, *more) if k in r.headers]
            return fence("http", "\n".join(head))
        ctype = r.headers.get("content-type", "")
        if "ndjson" in ctype:
            lines = [json.dumps(self.ph.value_of(json.loads(x)), ensure_ascii=False) for x in r.text.splitlines() if x]
            body, lang = "\n".join(lines) if lines else "(empty)", "text"
        elif "json" in ctype and r.content:
            shape = dict(shape)
            data: Json = self.ph.value_of(r.json())
            for k, v in shape.pop("mask", {}).items():  # members that depend on what else the service holds
                data[k] = v
            if kind := shape.pop("only_kind", None):  # the documents of the other games a service hosts
                data["documents"] = [d for d in data["documents"] if d["kind"] == kind]
            body, lang = pretty(trim(data, **shape)), "json"
        else:
            body, lang = r.text, "text"
        if not show_headers:
            return fence(lang, body)
        head = [f"HTTP/1.1 {r.status_code} {r.reason_phrase}"]
        head += [f"{k}: {r.headers[k]}" for k in (*SHOWN_HEADERS, *more) if k in r.headers]
        if not r.content:
            return fence("http", "\n".join(head))
        return fence("http", "\n".join(head)) + fence(lang, body)

    def sse(
        self, path: str, *, token: str | None = None, messages: int = 3, method: str = "GET", body: Json = None
    ) -> None:
        """Open an SSE stream, show its first lines up to ``messages`` events, and close it."""
        sent = {"Accept": "text/event-stream"}
        if token:
            sent["Authorization"] = f"Bearer {self.tokens[token]}"
        line = curl_line(
            method,
            path,
            token_var=token,
            body=body,
            headers={"Accept": "text/event-stream"},
            show_headers=True,
            extra="-N",
        )
        self.out.append(fence("sh", line))
        got: list[str] = []
        with self.http.stream(method, self.path(path), headers=sent, json=body) as r:
            head = [f"HTTP/1.1 {r.status_code} {r.reason_phrase}"]
            head += [f"{k}: {r.headers[k]}" for k in SHOWN_HEADERS if k in r.headers]
            seen = 0
            for raw in r.iter_lines():
                got.append(raw)
                if raw == "" and got[-2:-1] and got[-2].startswith("data:"):
                    seen += 1
                    if seen == messages:
                        break
        text = "\n".join(x for x in got)
        self.out.append(fence("http", "\n".join(head)))
        self.out.append(fence("text", text + "\n…"))

    # --------------------------------------------------------------------------------- waiting

    def settle(self, game: str, token: str, version: int | None = None, timeout: float = 60.0) -> int:
        """Wait (unseen) until the workers are done and the game waits for a player; its version."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            d = self.call("GET", f"/v1/games/{game}/decisions", token=token, show=False, expect=200).json()
            if d["waiting_for"] and (version is None or d["version"] >= version):
                return int(d["version"])
            time.sleep(0.05)
        raise RuntimeError(f"game {game} did not settle")

    def markdown(self) -> str:
        """The page, with every per-run value replaced (names given late apply to earlier text)."""
        return self.ph.text("\n".join(self.out).rstrip("\n") + "\n")


def key() -> str:
    """A fresh Idempotency-Key (a game's creation must not replay an earlier run's)."""
    return str(uuid.uuid4())


# ------------------------------------------------------------------------------------ the position


def decks(w: Walk) -> dict[str, Any]:
    """Every Westeros deck and the wildling deck in a fixed order (the reference data's), with a
    quiet card on top of each Westeros deck, so round 2 plays the same every time."""
    ref = w.call("GET", "/v1/reference/westeros-cards", show=False, expect=200).json()
    tops = {"deck_i": "supply", "deck_ii": "game_of_thrones", "deck_iii": "sea_of_storms"}
    out: dict[str, list[str]] = {}
    for deck, infos in sorted(ref["decks"].items()):
        cards = [c["id"] for c in infos for _ in range(c["count"])]
        cards.remove(tops[deck])
        out[deck] = [tops[deck], *cards]
    wild = w.call("GET", "/v1/reference/wildling-cards", show=False, expect=200).json()
    return {"decks": out, "wildling_deck": [c["id"] for c in wild["cards"]]}


def scenario(w: Walk) -> dict[str, Any]:
    return {
        "seat_houses": ["lannister", "baratheon", "stark"],
        "blade_used": True,
        "areas": {
            "winterfell": {"house": "stark", "units": {"knight": 2}},
            "white_harbor": {"house": "stark", "units": {"footman": 1}},
            "karhold": {"house": "lannister", "units": {"footman": 1, "knight": 1}},
            "the_shivering_sea": {"house": "lannister", "units": {"ship": 1}},
            "lannisport": {"house": "lannister", "units": {"footman": 1}},
            "castle_black": {"house": "baratheon", "units": {"footman": 1}},
            "dragonstone": {"house": "baratheon", "units": {"footman": 1}},
        },
        "westeros": decks(w),
    }


# ------------------------------------------------------------------------------------- the tour

HEADER = f"""# Citadel API walkthrough (curl)

<!-- Generated by scripts/walkthrough.py: do not edit by hand. Regenerate with
     `{REGENERATE}` (or `--base URL` against a running service);
     tests/api/test_walkthrough.py fails when this file differs from a fresh run. -->

A tour of the REST API for integrators: the reference data, a 3-player game of *A Game of Thrones:
The Board Game* created from a fixed position, seated, started and played through the Planning phase
(sealed orders, the reveal, the Messenger Raven) and into the Action phase (a raid, a march, support,
a combat with sealed House cards); then views, decisions, NDJSON and Server-Sent Events, the log, the
export and the signing key; the errors you will meet; the lobby and private games; the judge and the
clocks; a tournament; webhooks; HTTP manners (`304`, `HEAD`, gzip, CORS) and `429`; a third game
played to its end and its export verified offline with `citadel-verify`; and the "your turn" stream
across a player's games.

**Every answer below is real and generated.** `scripts/walkthrough.py` runs each call against a live
service and writes this page; `tests/api/test_walkthrough.py` runs it again and fails when the page
differs. To keep it readable and the same from run to run:

* values that differ per run are shown as placeholders: `{{GAME_ID}}`, `{{ORGANIZER_TOKEN}}`,
  `{{SEAT1_TOKEN}}`…, `{{TIME}}` for every RFC 3339 time, `{{HASH}}` for a SHA-256 (hash chain, seed
  commitment), `{{KEY_1}}`… for the random `Idempotency-Key`s, `{{MS}}` for durations measured on the
  clock, `{{SIGNATURE}}`, `{{PUBLIC_KEY}}`; in commands the same values are shell variables (`$GAME`,
  `$ORG`, `$T1`…);
* only the headers a client uses are shown (`etag`, `location`, `content-type`, `cache-control`,
  `www-authenticate`, `retry-after`); `date`, `server` and `content-length` are left out;
* JSON is laid out for reading (what fits on a line stays on one) and long lists and the board's
  empty areas are cut, marked `…` (nothing else inside is changed or re-ordered).

The conventions behind all this (auth, problem codes, idempotency, versions) are in
[`api-conventions.md`](api-conventions.md); the full reference is the OpenAPI document at `/schema`
(interactive at `/schema/scalar`, raw at `/schema/openapi.json`, committed as `openapi/openapi.json`).
"""


def run_the_service(w: Walk) -> None:
    w.say("""
## 0. Run the service

```sh
scripts/setup-venv
.venv/bin/citadel run --port 8000   # with REDIS_URL, or scripts/run (embedded Redis)
B=http://127.0.0.1:8000
```

Liveness (`/healthz`: the process answers) and readiness (`/readyz`: Redis answers, else `503 not_ready`):
""")
    w.call("GET", "/healthz", show_headers=False, expect=200)
    w.call("GET", "/readyz", show_headers=False, expect=200)
    w.say("""
`/metrics` serves Prometheus counters per API process (commands accepted and refused, latency);
its numbers depend on everything the process served, so they are not shown here.
""")


def reference(w: Walk) -> None:
    w.say("""
## 1. Reference data

The facts a client needs to draw and explain the game, no token needed. The index lists every
document with its current `etag`:
""")
    index = w.call("GET", "/v1/reference", show=False, expect=200)
    w.out.append(fence("sh", "curl -s -i $B/v1/reference"))
    w.out.append(w.answer(index, show_headers=True, shape={"only_kind": "board"}))
    w.say("""
The board: each area's kind, castle, mustering points, supply barrels, Power crowns, home, port,
adjacent areas and the `point` where it is drawn (`frame` gives the board's size in the same units).
Shown here with three of its areas:
""")
    board = w.call("GET", "/v1/reference/board", show=False, expect=200)
    w.out.append(fence("sh", "curl -s -i $B/v1/reference/board"))
    w.out.append(w.answer(board, show_headers=True, shape={"max_items": 3, "keep": 3}))
    tag = board.headers["etag"]
    w.say("""
Send the tag back as `If-None-Match` and an unchanged document is a `304` without a body:
""")
    w.call("GET", "/v1/reference/board", headers={"If-None-Match": tag}, expect=304)
    w.say("""
`/v1/reference/house-cards`, `/v1/reference/westeros-cards`, `/v1/reference/wildling-cards` and
`/v1/reference/order-tokens` work the same way. The game below uses the Westeros and wildling decks
in the order of these documents, so that round 2 draws the same cards every time.
""")


def create(w: Walk, position: dict[str, Any]) -> None:
    w.say("""
## 2. Create a game from a fixed position

`POST /v1/games` with the player count (3 to 6), optional `settings` and, for the organizer who wants
a described position rather than the standard setup, a `scenario` ([`fixtures.md`](fixtures.md)).
This one puts two Stark Knights in Winterfell next to a Lannister army in Karhold, with a Baratheon
Footman in Castle Black; `seat_houses` gives the houses to the seats in the order they are taken
(Lannister, Baratheon, Stark) instead of a random deal; the `westeros` decks are given top first.
`decision_timeout_s` is how long each decision waits before the server applies its documented
default (here an hour).

Send an `Idempotency-Key` so that a retry after a network error cannot create a second game. **Use
a fresh random UUID**: for game creation the key alone decides the game id. A key under 16
characters is refused:
""")
    body = {"player_count": 3, "settings": {"decision_timeout_s": 3600}, "scenario": position}
    short = {"player_count": 3}
    w.call("POST", "/v1/games", body=short, headers={"Idempotency-Key": "create-1"}, expect=400)
    w.say("With a UUID (the answer names the new game in `Location`; `ETag` is the game's version):")
    k = key()
    w.ph.name(k, "KEY_1")
    r = w.call("POST", "/v1/games", body=body, headers={"Idempotency-Key": k}, expect=201)
    g = r.json()
    w.var("GAME", g["game_id"], "GAME_ID")
    w.var("ORG", g["organizer_token"], "ORGANIZER_TOKEN", token=True)
    w.var("JUDGE", g["judge_token"], "JUDGE_TOKEN", token=True)
    w.ph.name(g["seed_commitment"][:12], "SEED_COMMITMENT_PREFIX")  # the log's first line
    w.say("""
The answer carries the **organizer token** (it starts the game; keep it secret), the **judge token**
(hand it to the game's judge, section 14) and the `seed_commitment`, the SHA-256 of the secret seed
behind every shuffle, revealed when the game ends. The game is at version 2: `game_created`, then
`scenario_loaded`, which records the whole position. The same request again (same key, same body)
returns the first answer byte for byte, and no second game exists:
""")
    again = w.call("POST", "/v1/games", body=body, headers={"Idempotency-Key": k}, expect=201, show=False)
    w.out.append(w.answer(again, show_headers=True, shape={}))
    if again.content != r.content:
        raise RuntimeError("the creation's retry answered differently")
    w.say("""
```sh
GAME={GAME_ID}
ORG={ORGANIZER_TOKEN}
JUDGE={JUDGE_TOKEN}
```

Every game has a **version**: the number of events in its stream. Every answer that describes the
game sends it as the `ETag`.

### 2.1 Positions the rules could not produce

A position that breaks a rule is refused with `422 invalid_scenario`, naming the rule (`rule`) in
the rules digest; nothing is created. Ships on land:
""")
    w.call(
        "POST",
        "/v1/games",
        body={"player_count": 3, "scenario": {"areas": {"winterfell": {"house": "stark", "units": {"ship": 1}}}}},
        expect=422,
    )
    w.say("A misspelt field is not a scenario problem but the usual strict decoding error (section 13):")
    w.call(
        "POST",
        "/v1/games",
        body={"player_count": 3, "scenario": {"areas": {"winterfell": {"house": "stark", "units": {"knigth": 2}}}}},
        expect=422,
    )


def join(w: Walk) -> None:
    w.say("""
## 3. Join three seats

`POST /v1/games/{id}/seats` takes the next free seat and returns its **seat token**. No token is
needed to join a public game: whoever has the game id can take a free seat.
""")
    k = key()
    w.ph.name(k, "KEY_2")
    r = w.call("POST", "/v1/games/$GAME/seats", body={"name": "Alice"}, headers={"Idempotency-Key": k}, expect=201)
    w.var("T1", r.json()["token"], "SEAT1_TOKEN", token=True)
    w.say("""
Retried with the same key and body (a client that lost the answer), the join returns the same seat
and the same token: tokens are derived, not stored:
""")
    again = w.call("POST", "/v1/games/$GAME/seats", body={"name": "Alice"}, headers={"Idempotency-Key": k}, expect=201)
    if again.content != r.content:
        raise RuntimeError("the join's retry answered differently")
    w.say("The same key with a *different* body is refused:")
    w.call("POST", "/v1/games/$GAME/seats", body={"name": "Mallory"}, headers={"Idempotency-Key": k}, expect=422)
    w.say("Bob and Carol join the same way (without keys here):")
    r = w.call("POST", "/v1/games/$GAME/seats", body={"name": "Bob"}, show_headers=False, expect=201)
    w.var("T2", r.json()["token"], "SEAT2_TOKEN", token=True)
    r = w.call("POST", "/v1/games/$GAME/seats", body={"name": "Carol"}, show_headers=False, expect=201)
    w.var("T3", r.json()["token"], "SEAT3_TOKEN", token=True)
    w.say("""
```sh
T1={SEAT1_TOKEN}   # Alice: Lannister
T2={SEAT2_TOKEN}   # Bob: Baratheon
T3={SEAT3_TOKEN}   # Carol: Stark
```

A fourth join is refused with a conflict:
""")
    w.call("POST", "/v1/games/$GAME/seats", body={"name": "Dave"}, expect=409)
    lobby(w)


def lobby(w: Walk) -> None:
    w.say("""
### 3.1 The lobby

`GET /v1/games` lists public games, newest first, with filters (`status`: `open`, `running`,
`ended`; `open_seats`; `kind`) and paging (`limit`, then `cursor` = the answer's `next_cursor`, set
when more games follow: shown here as `{CURSOR}`, since it depends on the other games the service
holds); see [`lobby.md`](lobby.md). The list is a projection, written a moment after each change:
""")
    path = "/v1/games?kind=board&status=open&limit=1"
    deadline = time.monotonic() + 60  # the projector's moment; a loaded machine's can be seconds
    while True:
        games = w.call("GET", path, show=False, expect=200).json()["games"]
        if games and games[0]["game_id"] == w.ids["GAME"] and games[0]["seats_taken"] == 3:
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the lobby did not list the game")
        time.sleep(0.05)
    w.call("GET", path, expect=200, shape={"mask": {"next_cursor": "{CURSOR}"}})


def start(w: Walk) -> None:
    w.say("""
## 4. Start the game (organizer)

Only the organizer may start; a seat token gets `403`:
""")
    w.call("POST", "/v1/games/$GAME/start", token="T1", expect=403)
    w.say("""
The organizer starts it. The answer lists the events the start produced: the houses given to the
seats (from the fixture's `seat_houses`) and the Planning phase of round 1 opening with a deadline.
Deck orders are hidden (`null`, `{}`) from everyone but the server until the end:
""")
    w.started = int(w.call("POST", "/v1/games/$GAME/start", token="ORG", expect=200).json()["version"])


def views(w: Walk) -> None:
    w.say("""
## 5. The public view, and the view at a version

`GET /v1/games/{id}` needs no token: it is what a spectator sees. No hand, no sealed order, no deck
order (`hand_size` and `wildling_deck_size` instead). Areas impassable at this player count are
`{"blocked": true}`; empty areas are `{}` (both cut here). `min_version` asks for a view at least as
new as a version you know of (the view is served from the stream when the projection lags):
""")
    w.call("GET", f"/v1/games/$GAME?min_version={w.started}", expect=200)
    w.say("""
The organizer may read the game as it stood at any version (`at_version`; others only once the game
has ended, [`fixtures.md`](fixtures.md#the-board-at-any-version-at_version)). Version 2 is the loaded
position, before anyone joined:
""")
    w.call(
        "GET",
        "/v1/games/$GAME?at_version=2",
        token="ORG",
        show_headers=False,
        expect=200,
        shape={"only": {"houses": []}},
    )


def decisions_and_orders(w: Walk) -> None:
    v = w.started
    w.say("""
## 6. What must each seat decide?

`GET /v1/games/{id}/decisions` (token required) lists the caller's pending decisions with their
legal options, the deadline and the default the server applies at the deadline, plus `waiting_for`:
everyone the game is waiting on, without their options.
""")
    w.call("GET", "/v1/games/$GAME/decisions", token="T1", expect=200)
    w.say(f"""
Read it as: send one `assign_orders` command with an order on each of `areas`, using the `tokens`
you own (id → copies), with at most `special_limit` special orders.

## 7. Assign orders

`POST /v1/games/{{id}}/commands` with a tagged body. Alice sends her orders with an idempotency key and
`If-Match: "{v}"`, i.e. "only if the game is still at version {v}". The answer shows the events the
command produced as *you* may see them: your own orders in clear.
""")
    k = key()
    w.ph.name(k, "KEY_3")
    lannister = {"karhold": "defense_plus_1", "lannisport": "defense_plus_1", "the_shivering_sea": "raid"}
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T1",
        body={"type": "assign_orders", "orders": lannister},
        headers={"Idempotency-Key": k, "If-Match": f'"{v}"'},
        expect=200,
    )
    w.say(f"""
**A stale `If-Match`**: Bob read the game at version {v} and sends his orders guarded by it, but
Alice's orders made it version {v + 1}. The command is refused with the current version in the body and
in the `ETag`:
""")
    baratheon = {"castle_black": "support_0", "dragonstone": "defense_plus_1"}
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T2",
        body={"type": "assign_orders", "orders": baratheon},
        headers={"If-Match": f'"{v}"'},
        expect=409,
    )
    w.say(f'Bob retries with `If-Match: "{v + 1}"`:')
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T2",
        body={"type": "assign_orders", "orders": baratheon},
        headers={"If-Match": f'"{v + 1}"'},
        show_headers=False,
        expect=200,
    )
    w.say("""
**What the others see.** The same events read without a token carry no orders; with Alice's token,
hers are in clear and Bob's are not:
""")
    w.call("GET", f"/v1/games/$GAME/events?from={v}", show_headers=False, expect=200)
    w.call("GET", f"/v1/games/$GAME/events?from={v}", token="T1", show_headers=False, expect=200)
    w.say("""
**Alice's own view** (`GET /v1/games/{id}/view` with her token) shows her hand and her orders; Bob's
areas show only that an order lies there face down (`"sealed"`):
""")
    w.call(
        "GET",
        f"/v1/games/$GAME/view?min_version={v + 2}",
        token="T1",
        show_headers=False,
        expect=200,
        shape={"only": {"areas": ["karhold", "castle_black", "winterfell"]}},
    )
    w.say("""
## 8. The last order, and the reveal

When the last house submits, a **worker** reveals all orders together (one `orders_revealed` event)
and opens the Messenger Raven step, a moment after the command's answer. Carol's orders:
""")
    stark = {"winterfell": "march_0", "white_harbor": "consolidate_power"}
    w.call("POST", "/v1/games/$GAME/commands", token="T3", body={"type": "assign_orders", "orders": stark}, expect=200)
    version = w.settle(w.ids["GAME"], "ORG")
    w.say(f"""
Two ways to see the reveal without busy polling: **NDJSON with `wait`** (`GET …/events?from={v + 3}&wait=25`
answers as soon as something newer than version {v + 3} exists, or after 25 s with an empty body; a client
loops on `from=<last seq>`), and **Server-Sent Events** (below). Once the worker is done, the game is
at version {version}:
""")
    w.call("GET", f"/v1/games/$GAME/events?from={v + 3}&wait=25", show_headers=True, expect=200)
    w.say(
        """
**Server-Sent Events**: the same endpoint with `Accept: text/event-stream`. The stream opens with a
comment and a `retry:` (how long a client waits before reconnecting, in ms); then each event is one
message whose `id:` is its version and whose `event:` is its type; with nothing new it sends a
`: keep-alive` comment every 15 s, and after `game_ended` it sends `event: end` and closes. To resume
after a disconnect, send the last id as `Last-Event-ID` (browsers' `EventSource` does it). Its first
lines from version """
        + str(v + 2)
        + """ (curl was stopped after them; the stream stays open):
"""
    )
    w.sse(f"/v1/games/$GAME/events?from={v + 2}", messages=3)


def raven_and_action(w: Walk) -> None:
    w.say("""
## 9. The Messenger Raven

The holder of the Messenger Raven (first on the King's Court track: Lannister, Alice) may replace
one of her orders, look at the top wildling card, or pass. Her decision lists exactly which tokens
each order may become:
""")
    w.call("GET", "/v1/games/$GAME/decisions", token="T1", show_headers=False, expect=200)
    w.say("**Not your turn**: Bob tries to use the Raven:")
    w.call("POST", "/v1/games/$GAME/commands", token="T2", body={"type": "raven_peek_wildling"}, expect=409)
    w.say("Alice passes; the worker then opens the Action phase:")
    w.call("POST", "/v1/games/$GAME/commands", token="T1", body={"type": "raven_pass"}, show_headers=False, expect=200)
    w.settle(w.ids["GAME"], "ORG")
    w.say("""
## 10. The Action phase: a raid

Raids are resolved first, in Iron Throne order. Lannister's Ship in the Shivering Sea has the only
Raid order; Alice's decision lists the orders it may remove:
""")
    w.call("GET", "/v1/games/$GAME/decisions", token="T1", show_headers=False, expect=200)
    w.say(
        "She raids Stark's Consolidate Power order in White Harbor (BG-RAID-03: she gains a Power token, Stark loses one):"
    )
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T1",
        body={"type": "resolve_raid", "area": "the_shivering_sea", "target": "white_harbor"},
        show_headers=False,
        expect=200,
    )
    v = w.settle(w.ids["GAME"], "ORG")
    w.say(f"""
## 11. A march, support and a combat

The marches come next (version {v}). Carol's March options mark the destinations that would start a
fight (`fights`), with everything a legal move must respect:
""")
    w.call("GET", "/v1/games/$GAME/decisions", token="T3", show_headers=False, expect=200)
    w.say("""
She sends both Knights into Karhold. `combat_began` names the attacker, the defender and the
`support_queue`: the houses with a Support order next to the contested area, asked one at a time:
""")
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T3",
        body={"type": "resolve_march", "area": "winterfell", "moves": {"karhold": {"knight": 2}}},
        show_headers=False,
        expect=200,
    )
    w.say("Bob decides which side his Support order in Castle Black backs (`strength` is each side's so far):")
    w.call("GET", "/v1/games/$GAME/decisions", token="T2", show_headers=False, expect=200)
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T2",
        body={"type": "declare_support", "side": "defender"},
        show_headers=False,
        expect=200,
    )
    w.say("""
Both combatants now choose a House card, sealed: Carol's answer shows her card; everyone else reads
`null` until both have chosen:
""")
    r = w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T3",
        body={"type": "choose_house_card", "card": "eddard_stark"},
        show_headers=False,
        expect=200,
    )
    v = int(r.json()["version"])
    w.call("GET", f"/v1/games/$GAME/events?from={v - 1}", show_headers=False, expect=200)
    w.say(f"""
The combat in the public view (`action.combat`): the attacking Knights still stand in Winterfell
(`from_area`) until the combat is decided, and Carol's card is `"sealed"`. The organizer reads it
at version {v} (`at_version`), since by the time you read it live the combat may be over:
""")
    w.call(
        "GET",
        f"/v1/games/$GAME?at_version={v}",
        token="ORG",
        show_headers=False,
        expect=200,
        shape={"only": {"areas": ["karhold", "winterfell", "castle_black"], "houses": []}},
    )
    w.say("""
Alice's card completes the choice, so her answer carries the reveal and everything the engine does
on its own until the next decision: the ability stages, the outcome (Stark 4 + Eddard Stark 4 = 8;
Lannister 3 + Defense 1 + Baratheon's support 1 + The Hound 2 = 7), the casualties (Eddard's two
swords against The Hound's two fortifications: none), the retreat (the Lannister Ship carries the
survivors to the only legal area), Stark moving in, and the end of the Action phase:
""")
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T1",
        body={"type": "choose_house_card", "card": "the_hound"},
        show_headers=False,
        expect=200,
    )
    v = w.settle(w.ids["GAME"], "ORG")
    w.say(f"""
The worker then plays the Westeros phase of round 2 from the decks the fixture gave (Supply, Game
of Thrones, Sea of Storms) and opens the Planning phase; the game is at version {v}:
""")
    w.call(
        "GET",
        f"/v1/games/$GAME?min_version={v}",
        show_headers=False,
        expect=200,
        shape={"only": {"areas": ["karhold", "widows_watch", "winterfell", "white_harbor"]}},
    )


def read_back(w: Walk) -> None:
    w.say("""
## 12. The log, the export and the signing key

`GET /v1/games/{id}/log` gives human-readable public lines, paginated by `from` (a version) and
`limit`; `next_cursor` is set when a page is full (pass it as `from`):
""")
    w.call("GET", "/v1/games/$GAME/log?from=0&limit=8", show_headers=False, expect=200, shape={"max_items": 8})
    w.say("""
`GET /v1/games/{id}/export` is the replay file (`citadel-replay/1`, [`replay-format.md`](replay-format.md)):
every event with its hash-chain link, redacted for the caller until the game ends (`complete:
false`, the redacted events' numbers in `redacted`), the seed `null` until the end, and
`signed_head`, the chain head signed with the deployment's Ed25519 key:
""")
    w.call("GET", "/v1/games/$GAME/export", show_headers=False, expect=200, shape={"max_items": 4, "keep": 2})
    w.say("""
The public key, to check exports offline with `citadel-verify FILE --public-key KEY`:
""")
    w.call("GET", "/v1/signing-key", show_headers=False, expect=200)


def errors(w: Walk) -> None:
    w.say("""
## 13. Errors

Every error is `application/problem+json` (RFC 9457) with a stable machine `code`; branch on `code`,
not on `detail` (for humans). Extra members appear when useful: `errors` (one per invalid field),
`rule` (the rule of the game that refused a move), `current_version` (on version conflicts). The
full list of codes is in [`api-conventions.md`](api-conventions.md). Sections 3, 4 and 7 showed a
`409 game_full`, a `403 forbidden` and a `409 stale_version`.

**No token** where one is needed (401, with `WWW-Authenticate`):
""")
    w.call("GET", "/v1/games/$GAME/decisions", expect=401)
    w.tokens["BAD"] = "seat1.bm90LXRoZS1yaWdodC1zaWduYXR1cmU"
    w.say(f"""
**A token that does not verify** for this game (401 `invalid_token`), with
`BAD={w.tokens["BAD"]}`:
""")
    w.call("POST", "/v1/games/$GAME/commands", token="BAD", body={"type": "raven_pass"}, expect=401)
    w.say("**A valid token that may not do this** (403): the organizer sending a player command:")
    w.call("POST", "/v1/games/$GAME/commands", token="ORG", body={"type": "raven_pass"}, expect=403)
    w.say("**An unknown field** (422): bodies are strict, and `errors[].field` names it:")
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T1",
        body={"type": "assign_orders", "orders": {"karhold": "support_0"}, "expected_version": 6},
        expect=422,
    )
    w.say("**An illegal move** (422, with the `rule`): an order where Alice has no units:")
    w.call(
        "POST",
        "/v1/games/$GAME/commands",
        token="T1",
        body={
            "type": "assign_orders",
            "orders": {
                "lannisport": "defense_plus_1",
                "widows_watch": "defense_plus_1",
                "the_shivering_sea": "support_0",
                "dragonstone": "march_0",
            },
        },
        expect=422,
    )
    w.say("**A version not reached yet** (409) and **no such game** (404):")
    w.call("GET", "/v1/games/$GAME?min_version=999", expect=409)
    w.call("GET", "/v1/games/g_00000000000000000000000000000000", expect=404)


def judge_and_clocks(w: Walk) -> None:
    w.say("""
## 14. The judge and the clocks

The organizer can ask for the judge token again at any time ([`judge.md`](judge.md)):
""")
    w.call("GET", "/v1/games/$GAME/judge-token", token="ORG", show_headers=False, expect=200)
    w.say("""
A judge may pause the clocks ([`clocks.md`](clocks.md)): nothing runs out while paused, the
decisions' `deadline` is `null`, and commands wait (`409 clocks_paused`):
""")
    w.call(
        "POST",
        "/v1/games/$GAME/pause",
        token="JUDGE",
        body={"reason": "a player lost the connection"},
        show_headers=False,
        expect=200,
    )
    w.call("POST", "/v1/games/$GAME/pause", token="JUDGE", body={"reason": "again"}, expect=409)
    w.say("On resume, every deadline moves by the paused time:")
    w.call(
        "POST", "/v1/games/$GAME/resume", token="JUDGE", body={"reason": "back online"}, show_headers=False, expect=200
    )
    w.say("""
The judge's console (`POST /v1/games/{id}/judge`: set Power, restore a unit, roll back, undo a seat's
last command, replace a player) records each action as one public event with its `reason`:
""")
    w.call(
        "POST",
        "/v1/games/$GAME/judge",
        token="JUDGE",
        body={"type": "set_power", "house": "stark", "power": 8, "reason": "a Power token was miscounted"},
        show_headers=False,
        expect=200,
    )
    w.say("The organizer's token does not judge:")
    w.call(
        "POST",
        "/v1/games/$GAME/judge",
        token="ORG",
        body={"type": "set_power", "house": "stark", "power": 8, "reason": "a Power token was miscounted"},
        expect=403,
    )


def deadlines(w: Walk) -> None:
    w.say("""
## 15. When nobody answers: deadlines

Every decision has a deadline (`decision_timeout_s` after its step began, or the seat's time bank,
[`clocks.md`](clocks.md)). At the deadline a worker applies the documented default (the `default`
text of the decision) and records who timed out. A second game, created with a one-second timeout,
seated and started, then left alone:
""")
    body = {
        "player_count": 3,
        "settings": {"decision_timeout_s": 1},
        "scenario": {
            "seat_houses": ["lannister", "baratheon", "stark"],
            "areas": {
                "winterfell": {"house": "stark", "units": {"footman": 1}},
                "lannisport": {"house": "lannister", "units": {"footman": 1}},
                "dragonstone": {"house": "baratheon", "units": {"footman": 1}},
            },
        },
    }
    k = key()
    w.ph.name(k, "KEY_6")
    r = w.call("POST", "/v1/games", body=body, headers={"Idempotency-Key": k}, show=False, expect=201)
    g = r.json()
    w.var("GAME2", g["game_id"], "GAME2_ID")
    w.var("ORG2", g["organizer_token"], "GAME2_ORGANIZER_TOKEN", token=True)
    w.ph.name(g["judge_token"], "GAME2_JUDGE_TOKEN")
    for name in ("Ann", "Ben", "Cat"):
        seat = w.call("POST", "/v1/games/$GAME2/seats", body={"name": name}, show=False, expect=201).json()
        w.ph.name(seat["token"], f"GAME2_{seat['seat_id'].upper()}_TOKEN")
    started = int(w.call("POST", "/v1/games/$GAME2/start", token="ORG2", show=False, expect=200).json()["version"])
    shown = 9
    for _ in range(200):  # the first two deadlines pass in about two seconds
        if w.call("GET", "/v1/games/$GAME2", token="ORG2", show=False, expect=200).json()["version"] >= started + shown:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError("the deadlines did not fire")
    w.call("GET", f"/v1/games/$GAME2/events?from={started}&limit={shown}", show_headers=False, expect=200)
    w.say("""
Deadlines fire within about a second of the time shown (each worker sweeps for due deadlines every
second). Here the game goes on alone, one default a second, until a judge pauses it:
""")
    w.tokens["JUDGE2"] = g["judge_token"]
    w.call("POST", "/v1/games/$GAME2/pause", token="JUDGE2", body={"reason": "nobody plays"}, show=False, expect=200)


def private_game(w: Walk) -> None:
    w.say("""
## 16. Private games and invitations

A game created with `settings.private` is never listed in the lobby, and its seats need the
invitation code the creation answers with ([`lobby.md`](lobby.md)):
""")
    k = key()
    w.ph.name(k, "KEY_4")
    r = w.call(
        "POST",
        "/v1/games",
        body={"player_count": 3, "settings": {"private": True}},
        headers={"Idempotency-Key": k},
        show_headers=False,
        expect=201,
    )
    g = r.json()
    w.var("PGAME", g["game_id"], "PRIVATE_GAME_ID")
    w.var("PORG", g["organizer_token"], "PRIVATE_ORGANIZER_TOKEN", token=True)
    w.ph.name(g["judge_token"], "PRIVATE_JUDGE_TOKEN")
    w.ph.name(g["invitation_code"], "INVITATION_CODE")
    w.say("Without the code:")
    w.call("POST", "/v1/games/$PGAME/seats", body={"name": "Dave"}, expect=403)
    w.say("The organizer can read the code again, and a join with it succeeds:")
    w.call("GET", "/v1/games/$PGAME/invitation", token="PORG", show_headers=False, expect=200)
    r = w.call(
        "POST",
        "/v1/games/$PGAME/seats",
        body={"name": "Dave", "invitation": g["invitation_code"]},
        show_headers=False,
        expect=201,
    )
    w.ph.name(r.json()["token"], "PRIVATE_SEAT1_TOKEN")


def tournament(w: Walk) -> None:
    w.say("""
## 17. A tournament

`POST /v1/tournaments` creates every table of a tournament at once, all or nothing
([`tournaments.md`](tournaments.md)); `houses` gives each table's houses, `seat1` first (`null`
draws them from the tournament's committed seed), and `start: false` leaves the tables in the
lobby. The answer holds every token:
""")
    k = key()
    w.ph.name(k, "KEY_5")
    body = {
        "name": "Winter Cup, round 1",
        "players": ["Ann", "Bob", "Cy"],
        "table_sizes": [3],
        "houses": [["stark", "baratheon", "lannister"]],
        "settings": {"decision_timeout_s": 3600, "organizer_is_referee": True},
        "start": False,
    }
    r = w.call("POST", "/v1/tournaments", body=body, headers={"Idempotency-Key": k}, expect=201)
    t = r.json()
    for table in t["tables"]:
        w.ph.name(table["game_id"], f"TABLE{table['table']}_GAME_ID")
        w.ph.name(table["organizer_token"], f"TABLE{table['table']}_ORGANIZER_TOKEN")
    for player in t["players"]:
        for seat in player["seats"]:
            w.ph.name(seat["token"], f"{player['player'].upper()}_TABLE{seat['table']}_TOKEN")
    w.var("TOUR", t["tournament_id"], "TOURNAMENT_ID")
    w.var("TORG", t["organizer_token"], "TOURNAMENT_ORGANIZER_TOKEN", token=True)
    w.say("Its standings (`GET /v1/tournaments/{id}/standings`), before any table has played:")
    w.call("GET", "/v1/tournaments/$TOUR/standings", show_headers=False, expect=200)


def webhooks(w: Walk) -> None:
    w.say("""
## 18. Webhooks

An organizer subscribes a URL to a game's (or a tournament's) notifications; the workers POST each
one, signed with the subscription's `secret` (shown once), and retry ([`webhooks.md`](webhooks.md)).
URLs are checked: `https` only (`http` to the loopback where the deployment allows it, as this one
does for its tests), and never a private address:
""")
    w.call(
        "POST",
        "/v1/games/$GAME/webhooks",
        token="ORG",
        body={"url": "http://10.0.0.7/hooks", "events": ["turn_start", "game_end"]},
        expect=422,
    )
    r = w.call(
        "POST",
        "/v1/games/$GAME/webhooks",
        token="ORG",
        body={"url": "http://127.0.0.1:9/citadel-hooks", "events": ["game_end"]},
        expect=201,
    )
    sub = r.json()["subscription"]["subscription_id"]
    w.ph.name(r.json()["secret"], "WEBHOOK_SECRET")
    w.var("SUB", sub, "SUBSCRIPTION_ID")
    w.say("The subscriptions (without secrets), and the end of one:")
    w.call("GET", "/v1/games/$GAME/webhooks", token="ORG", show_headers=False, expect=200)
    w.call("DELETE", "/v1/games/$GAME/webhooks/$SUB", token="ORG", expect=204)


CORS_ORIGIN = "https://app.example"
"""The origin the walkthrough's service lists in ``CITADEL_CORS_ORIGINS`` (section 19)."""


def manners(w: Walk) -> None:
    w.say("""
## 19. HTTP manners: 304, HEAD, gzip, CORS

**Conditional reads.** Every answer that describes a game carries its version as the `ETag`. Send
it back as `If-None-Match`: while the game has not moved, the answer is a `304` without a body (the
public view here; a seat's view, the decisions and the log work the same way):
""")
    tag = w.call("GET", "/v1/games/$GAME", show=False, expect=200).headers["etag"]
    w.call("GET", "/v1/games/$GAME", headers={"If-None-Match": tag}, expect=304)
    w.say("""
**`HEAD`** wherever there is a `GET`: the same status and headers, no body (here the log):
""")
    w.call("HEAD", "/v1/games/$GAME/log", expect=200)
    w.say("""
**gzip** for large answers, when the client accepts it (`curl --compressed`; most HTTP libraries
ask by themselves). `Vary` says the answer depends on `Accept-Encoding`:
""")
    r = w.call(
        "GET",
        "/v1/reference/board",
        headers={"Accept-Encoding": "gzip"},
        expect=200,
        more_headers=("content-encoding", "vary"),
        show_body=False,
        curl_extra="--compressed",
    )
    if r.headers.get("content-encoding") != "gzip":
        raise RuntimeError("the board was not sent compressed")
    w.say(f"""
The board's {len(r.content)} bytes of JSON travel as {r.num_bytes_downloaded} bytes. Small answers
(under a kilobyte or so) are sent as they are.

**CORS**, for a web page on another origin (a client's own site), is off unless the deployment
lists the origin in `CITADEL_CORS_ORIGINS` (this one lists `{CORS_ORIGIN}`). A listed origin's
request gets the `Access-Control-*` headers it needs, including the headers a page may read:
""")
    cors = ("access-control-allow-origin", "access-control-expose-headers", "vary")
    r = w.call(
        "GET", "/v1/games/$GAME", headers={"Origin": CORS_ORIGIN}, expect=200, more_headers=cors, show_body=False
    )
    if r.headers.get("access-control-allow-origin") != CORS_ORIGIN:
        raise RuntimeError(f"the service does not list {CORS_ORIGIN} in CITADEL_CORS_ORIGINS")
    w.say("""
A browser asks first (a preflight) before it sends a command with a token and a JSON body:
""")
    w.call(
        "OPTIONS",
        "/v1/games/$GAME/commands",
        headers={
            "Origin": CORS_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
        more_headers=(
            "access-control-allow-origin",
            "access-control-allow-methods",
            "access-control-allow-headers",
            "access-control-max-age",
            "vary",
        ),
        show_body=False,
    )
    w.say("An origin the deployment does not list gets no `Access-Control-*` header, so its browser refuses:")
    r = w.call(
        "GET",
        "/v1/reference",
        headers={"Origin": "https://elsewhere.example"},
        expect=200,
        more_headers=cors,
        show_body=False,
    )
    if any(k.startswith("access-control-") for k in r.headers):
        raise RuntimeError("an unlisted origin got CORS headers")


def too_many(w: Walk) -> None:
    w.say("""
## 20. Too many: `429` and `Retry-After`

A client that sends too much gets `429` with `Retry-After` (seconds) and a problem `code`:
`rate_limited` beyond `CITADEL_RATE_LIMIT_PER_S` requests a second per client (with the
`RateLimit-*` headers; this deployment turns that limit off for its tests), or `too_many_streams`
beyond `CITADEL_MAX_STREAMS_PER_CLIENT` open event streams and long-polls per client, shared by every
API replica. A client is a game's seat or organizer (by its token), else its address.
""")
    sse = {"Accept": "text/event-stream"}
    token = {"Authorization": f"Bearer {w.tokens['T3']}"}
    path = w.path("/v1/games/$GAME/events")
    with contextlib.ExitStack() as held:
        held_open = 0
        while (r := held.enter_context(w.http.stream("GET", path, headers={**sse, **token}))).status_code == 200:
            held_open += 1
            if held_open > 64:
                raise RuntimeError("no stream cap within 64 streams")
        if r.status_code != 429:
            raise RuntimeError(f"an event stream answered {r.status_code}")
        w.say(f"With {held_open} event streams open with Carol's token, one more:")
        w.call("GET", "/v1/games/$GAME/events", token="T3", headers=sse, expect=429)
    w.say("""
Wait `Retry-After` seconds, or close a stream, and try again. The client in
[`clients/`](../clients/README.md) does that for you (`429` and `503` alike).
""")


def end_position() -> dict[str, Any]:
    """Round 10, the Action phase, one Consolidate Power order per house: three commands to the end."""
    return {
        "round": 10,
        "start_at": "action",
        "seat_houses": ["lannister", "baratheon", "stark"],
        "areas": {
            "winterfell": {"house": "stark", "units": {"footman": 1}, "order": "consolidate_power"},
            "lannisport": {"house": "lannister", "units": {"footman": 1}, "order": "consolidate_power"},
            "dragonstone": {"house": "baratheon", "units": {"footman": 1}, "order": "consolidate_power"},
        },
    }


def to_the_end(w: Walk) -> None:
    w.say("""
## 21. A game to its end, verified offline

A third fixture starts in the Action phase of round 10, the last, with one Consolidate Power order
per house: three commands, and the game is over.
""")
    body = {"player_count": 3, "settings": {"decision_timeout_s": 3600}, "scenario": end_position()}
    k = key()
    w.ph.name(k, "KEY_7")
    r = w.call("POST", "/v1/games", body=body, headers={"Idempotency-Key": k}, show_headers=False, expect=201)
    g = r.json()
    w.var("GAME3", g["game_id"], "GAME3_ID")
    w.var("ORG3", g["organizer_token"], "GAME3_ORGANIZER_TOKEN", token=True)
    w.ph.name(g["judge_token"], "GAME3_JUDGE_TOKEN")
    w.ph.name(g["seed_commitment"], "GAME3_SEED_COMMITMENT")
    seats: dict[str, str] = {}
    for name in ("Ann", "Ben", "Cat"):
        seat = w.call("POST", "/v1/games/$GAME3/seats", body={"name": name}, show=False, expect=201).json()
        var = f"G3_{seat['seat_id'].upper()}"
        w.var(var, seat["token"], f"GAME3_{seat['seat_id'].upper()}_TOKEN", token=True)
        seats[seat["seat_id"]] = var
    started = int(w.call("POST", "/v1/games/$GAME3/start", token="ORG3", show=False, expect=200).json()["version"])
    w.say("""
Seated (Ann, Ben and Cat: `$G3_SEAT1`, `$G3_SEAT2`, `$G3_SEAT3`) and started by its organizer, it waits
for the houses in Iron Throne order, one at a time: Baratheon (Ben) first. Each resolves its order
in its area and gains the Power the area gives (BG-CP-01):
""")
    version = w.settle(w.ids["GAME3"], "ORG3", started)
    for turn_no in range(3):
        waiting = w.call("GET", "/v1/games/$GAME3/decisions", token="ORG3", show=False, expect=200).json()
        (turn,) = waiting["waiting_for"]
        var = seats[turn["seat_id"]]
        if turn_no == 0:
            w.call("GET", "/v1/games/$GAME3/decisions", token=var, show_headers=False, expect=200)
        (area,) = w.call("GET", "/v1/games/$GAME3/decisions", token=var, show=False, expect=200).json()["decisions"][0][
            "options"
        ]["orders"]
        if turn_no == 1:
            w.say(f"Then Lannister (Ann) in {area.title()}, and Stark (Cat), whose command ends the game:")
        r = w.call(
            "POST",
            "/v1/games/$GAME3/commands",
            token=var,
            body={"type": "resolve_consolidate_power", "area": area},
            show_headers=False,
            expect=200,
            show=turn_no != 1,
        )
        version = int(r.json()["version"])
        if any(e["event"]["type"] == "game_ended" for e in r.json()["events"]):
            break
        version = w.settle(w.ids["GAME3"], "ORG3", version) if turn_no < 2 else version
    for _ in range(400):  # the worker appends the final scoring a moment after the last command
        tail = w.call("GET", f"/v1/games/$GAME3/events?from={version}", show=False, expect=200).text.splitlines()
        if any(json.loads(line)["event"]["type"] == "game_ended" for line in tail):
            break
        time.sleep(0.05)
    else:
        raise RuntimeError("the game did not end")
    w.say("""
The last one ends the Action phase of round 10, the last round, and a worker scores the game: the
house with the most castles and strongholds wins (BG-VIC-02; ties by supply, then Power, then the
Iron Throne). The stream's last event, `game_ended`, names the winner and gives the standings:
""")
    last = json.loads(tail[-1])["seq"]
    w.call("GET", f"/v1/games/$GAME3/events?from={last - 2}", show_headers=False, expect=200)
    w.say("""
Now the export is complete (`complete: true`, nothing redacted, the seed revealed) and anyone may
fetch it (shown with its first and last events). Save it and the deployment's public key, and
check both offline with `citadel-verify`: the signature over the chain head, the hash chain, the
seed against its commitment, and every event re-derived by the rules from the commands:
""")
    export = w.call("GET", "/v1/games/$GAME3/export", show=False, expect=200)
    w.out.append(fence("sh", "curl -s $B/v1/games/$GAME3/export > game.json\ncurl -s $B/v1/signing-key > key.json"))
    shown = export.json()
    events = shown["events"]
    shown["events"] = [*events[:1], elided(len(events) - 2), events[-1]]
    w.out.append(fence("json", pretty(trim(w.ph.value_of(shown)))))
    key_answer = w.call("GET", "/v1/signing-key", show=False, expect=200)
    w.ph.name(key_answer.json()["key_id"], "KEY_ID")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "game.json").write_bytes(export.content)
        (Path(tmp) / "key.json").write_bytes(key_answer.content)
        verify = Path(sys.executable).parent / "citadel-verify"
        done = subprocess.run(
            [str(verify), "game.json", "--public-key", "key.json"], cwd=tmp, capture_output=True, text=True, timeout=60
        )
    if done.returncode != 0:
        raise RuntimeError(f"citadel-verify rejected the export:\n{done.stdout}{done.stderr}")
    w.out.append(fence("sh", "citadel-verify game.json --public-key key.json; echo $?"))
    w.out.append(fence("text", done.stdout + str(done.returncode)))
    w.say("""
Exit status 0: verified ([`replay-format.md`](replay-format.md) describes the file and what each
check means).
""")


def your_turn(w: Walk) -> None:
    w.say("""
## 22. "Your turn" across games: `POST /v1/turns`

A client with seats in several games opens **one** Server-Sent Events stream for all of them
([`lobby.md`](lobby.md#post-v1turns-your-turn-across-your-games)), with each seat's game and token
in the body (not in the URL, which ends up in logs). Alice's seat in the first game and Ann's in
the third: a `turn` for each open decision of these seats, `game_ended` for a game that is over;
once every game is over, `end`, and the server closes the stream:
""")
    body = {
        "seats": [
            {"game_id": w.ids["GAME"], "token": w.tokens["T1"]},
            {"game_id": w.ids["GAME3"], "token": w.tokens["G3_SEAT1"]},
        ]
    }
    waiting = w.call("GET", "/v1/games/$GAME/decisions", token="T1", show=False, expect=200).json()["decisions"]
    w.sse("/v1/turns", method="POST", body=body, messages=len(waiting) + 1)
    w.say("""
Read the decision itself with `GET /v1/games/{game_id}/decisions?min_version=<version>` and that
seat's token. A browser's `EventSource` can only `GET`: read this stream with `fetch()` and a
stream reader, or with the Python client's `turns()` ([`clients/`](../clients/README.md)).
""")


FOOTER = """
## What this page does not show

* A whole game from its first round: the bots play one (`citadel bot --new 3`, or the example bot
  in [`clients/`](../clients/README.md)), and the watch page shows it
  ([`watch-page.md`](watch-page.md)).
* The `rate_limited` answer of section 20 with its `RateLimit-*` headers (this deployment turns the
  request rate limit off for its tests; [`api-conventions.md`](api-conventions.md)).
"""


def generate(base: str) -> str:
    w = Walk(base)
    w.say(HEADER)
    position = scenario(w)
    run_the_service(w)
    reference(w)
    create(w, position)
    join(w)
    start(w)
    views(w)
    decisions_and_orders(w)
    raven_and_action(w)
    read_back(w)
    errors(w)
    judge_and_clocks(w)
    deadlines(w)
    private_game(w)
    tournament(w)
    webhooks(w)
    manners(w)
    too_many(w)
    to_the_end(w)
    your_turn(w)
    w.say(FOOTER)
    return w.markdown()


SESSION_LOCK = "citadel:test-session"  # the test suite's claim on a database (tests/conftest.py)


def claim_database(server: str) -> str:
    """A database of ``server`` no test session holds, marked as this process's, then flushed: the
    test suite's protocol, so a walkthrough never flushes a running session's data."""
    for db in range(15, 1, -1):
        r = redis.Redis.from_url(f"{server}/{db}")
        try:
            if r.set(SESSION_LOCK, os.getpid(), nx=True, ex=3600):
                r.flushdb()
                r.set(SESSION_LOCK, os.getpid(), ex=3600)
                return f"{server}/{db}"
        finally:
            r.close()
    raise RuntimeError(f"every database of {server} is held by a test session")


def serve(redis_url: str) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """Start the API, a worker and a projector on ``redis_url``, as the test suite does."""
    port = free_port()
    queue = f"citadel-walkthrough-{os.getpid()}"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PYTHONPATH": str(ROOT),
        "CITADEL_QUEUE": queue,
        "CITADEL_RATE_LIMIT_PER_S": "0",
        "CITADEL_WEBHOOK_ALLOW_LOOPBACK": "1",
        "CITADEL_CORS_ORIGINS": CORS_ORIGIN,
        "CITADEL_GAMES": "board,auction,cards",  # as tests/conftest.py: the same reference index
    }
    cmds = [api_command("127.0.0.1", port), worker_command(redis_url, queue), projector_command()]
    procs = [
        subprocess.Popen(
            c, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        for c in cmds
    ]
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/readyz", timeout=0.5).status_code == 200:
                return base, procs
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    stop(procs)
    raise RuntimeError("the service did not start")


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--base", help="the service's base URL (it must allow loopback webhooks)")
    ap.add_argument("--serve", action="store_true", help="start the service for the run, on a free database")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379", help="with --serve: the Redis server")
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="where to write (- for stdout)")
    args = ap.parse_args(argv)
    procs: list[subprocess.Popen[bytes]] = []
    db = None
    if args.serve:
        db = claim_database(args.redis)
        base, procs = serve(db)
    elif args.base:
        base = args.base
    else:
        ap.error("give --base URL or --serve")
    try:
        text = generate(base)
    finally:
        stop(procs)
        if db:
            r = redis.Redis.from_url(db)
            r.flushdb()  # the lock goes with the data
            r.close()
    if str(args.output) == "-":
        sys.stdout.write(text)
    else:
        args.output.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
