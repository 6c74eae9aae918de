"""The OpenAPI document's examples of every operation: its request body and each of its success answers.

Every example is a value of the service's own types (msgspec Structs), never a hand-written dict, so
it cannot drift from what the server sends: the test decodes each one with its type and validates it
against its schema (``tests/api/test_openapi.py``). Where the answer comes out of a game, it is the
game's real answer: :class:`_Table` creates a game from the default game's example create body,
seats its players, starts it and plays on through the :class:`~domain.core.game.Game` protocol
(commands, the judge's actions, the clocks), and records the events as the engine seals them. The
export is that game's, hash chain and signature included (signed with an example key, the one the
signing-key example shows). The large reference documents are abridged: each list and map cut to
its first entries, still a valid document.

Text answers (SSE, NDJSON, Prometheus) are written by the functions that write the real ones; the
tournament archive, a binary tar, is described rather than shown.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import msgspec.inspect as mi
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain import registry
from domain.core.commands import (
    JUDGE,
    ORGANIZER,
    Actor,
    JoinGame,
    PauseClocks,
    RequestUndo,
    ResumeClocks,
    StartGame,
)
from domain.core.context import Context, rfc3339
from domain.core.envelope import Envelope
from domain.core.hashing import GENESIS
from domain.core.rederive import Recorded
from domain.core.rng import commit_seed
from domain.core.tournament import SeatResult, TableResult, TableStatus, draw_houses, standings
from service.engine import tokens
from service.engine.engine import Engine, GameCreatedOut, SeatOut
from service.engine.signing import ALGORITHM, Signer
from service.engine.tournaments import (
    RoundBody,
    RoundOut,
    TableStateOut,
    TournamentBody,
    TournamentOut,
    created_answer,
    round_answer,
    table_game_id,
    tournament_id_for,
)
from service.store.read_models import LogLine
from service.store.tournaments import RoundRecord, TableRecord, TournamentRecord
from service.store.webhooks import Delivery, Subscription, delivery_id

from . import metrics
from .controllers.events import SSE_RETRY_MS, sse_end, sse_event
from .controllers.lobby import sse_message
from .controllers.reference import PATH as REFERENCE_PATH
from .controllers.reference import Served, documents, reference_index
from .controllers.tournaments import TAR, StandingsOut, StartedOut
from .controllers.webhooks import (
    DeliveryLogOut,
    SubscriptionCreatedOut,
    SubscriptionsOut,
    WebhookBody,
    delivery_out,
    subscription_out,
)
from .models import (
    CommandAccepted,
    EventOut,
    ExportOut,
    GameListOut,
    GameSummary,
    Health,
    InvitationOut,
    JoinBody,
    JudgeActionOut,
    JudgeTokenOut,
    LogOut,
    SeatEnded,
    SeatKey,
    SigningKeyOut,
    TurnItem,
    TurnsBody,
    TurnsEnd,
    UndoRequestIn,
)

GAME_ID = "g_5aa048011931598388d613dc747077aa"
NOW = datetime(2026, 11, 29, 13, 30, 32, 282000, tzinfo=UTC)
TS = rfc3339(NOW)
SEED = "openapi-example"
SECRET = hashlib.sha256(b"citadel openapi example secret").digest()
"""The example deployment's token secret: every token shown is one this secret issues."""
SIGNER = Signer(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"citadel openapi example key").digest()))
"""The example deployment's signing key (``GET /v1/signing-key``), which signs the example export."""
HOOK_URL = "https://bots.example.org/citadel/hooks"

SMALL_EXAMPLE = 4096
"""A reference document up to this size is its own operation's example; a longer one is abridged."""
ABRIDGED = 3
"""How many entries of each list and map an abridged reference document keeps."""


class Example(msgspec.Struct, frozen=True):
    """One example of an operation: ``where`` is ``request`` or a status; ``value`` a Struct, or the text
    of a text answer; ``description`` stands for the value where the answer is binary."""

    path: str
    method: str
    where: str
    media: str
    name: str
    value: Any = None
    summary: str = ""
    description: str = ""


# -- a game played through the Game protocol --------------------------------------------------


class _Table:
    """A game of ``kind`` made from its example create body, every seat taken and started: the events
    recorded and sealed as the engine seals them, one batch a command, a second apart."""

    def __init__(self, kind: str) -> None:
        self.game = registry.GAMES[kind]
        body = next(e for e in self.game.schema_docs.examples if isinstance(e, self.game.create_body))
        self.players = int(getattr(body, "player_count", 0))
        self.now = NOW
        self.envelopes: list[Envelope] = []
        self.events: list[Any] = []
        self.state: Any = None
        self._record(self.game.create(body, self._ctx()))
        for i in range(self.players):
            self.play(JoinGame(name=f"player{i + 1}"), Actor(kind="seat"))
        self.started = self.play(StartGame(), ORGANIZER)
        """The events of the start."""

    def _ctx(self) -> Context:
        return Context(now=self.now, seed=SEED, game_id=GAME_ID)

    def _record(self, events: list[Any], actor: Actor | None = None) -> list[EventOut]:
        """Append ``events``; the answer's events as ``actor`` reads them (the engine's ``reader_of``: a
        seat's eyes, else the public's; the judge reads everything)."""
        reader = (
            self.game.reader_of(self.state, actor.seat_id) if actor and actor.kind == "seat" and actor.seat_id else None
        )
        head = self.envelopes[-1].hash if self.envelopes else GENESIS
        envs = Engine._seal(self.game.schema_version, head, len(self.envelopes), events, self.now)
        self.envelopes += envs
        self.events += events
        self.state = self.game.fold(events, self.state)
        self.now += timedelta(seconds=1)
        return [
            EventOut(seq=env.seq, ts=env.ts, event=e if actor == JUDGE else self.game.redact_event(e, reader))
            for env, e in zip(envs, events)
        ]

    def play(self, command: object, actor: Actor) -> list[EventOut]:
        return self._record(self.game.decide(self.state, command, actor, self._ctx()), actor)

    def judge(self, command: object, actor: Actor = JUDGE) -> list[EventOut]:
        """A judge's action (or a seat's undo request), prepared with the stream first as the engine does."""
        history = [
            Recorded(seq=env.seq, ts=datetime.fromisoformat(env.ts), event=e)
            for env, e in zip(self.envelopes, self.events)
        ]
        return self.play(self.game.prepare_judge(self.state, history, command), actor)

    @property
    def version(self) -> int:
        return len(self.envelopes)

    def public_export(self) -> ExportOut:
        """The export a spectator reads while the game runs: redacted, signed over its head."""
        redacted = []
        envs = []
        for env, e in zip(self.envelopes, self.events):
            shown = self.game.redact_event(e, None)
            if shown is not e:
                redacted.append(env.seq)
                env = msgspec.structs.replace(env, event=msgspec.Raw(msgspec.json.encode(shown)))
            envs.append(env)
        return ExportOut(
            game_id=GAME_ID,
            version=self.version,
            seed_commitment=self.game.seed_commitment(self.state),
            seed=None,
            complete=not redacted,
            signed_head=SIGNER.sign(GAME_ID, self.game.kind, self.version, self.envelopes[-1].hash),
            events=envs,
            redacted=redacted,
            kind=self.game.kind,
        )


def _seat_orders(table: _Table, seat: str) -> object:
    """The seat's first command: its decision's options taken in order (areas with the tokens as listed).
    Decoded with the game's command type and decided by the game, so it is a command the game accepts."""
    decision = next(d for d in msgspec.to_builtins(table.game.decisions(table.state, seat))["decisions"])
    options = decision["options"]
    orders = dict(zip(options["areas"], [t for t, n in options["tokens"].items() for _ in range(n)]))
    return msgspec.convert({"type": decision["commands"][0], "orders": orders}, table.game.command_type)


# -- the examples --------------------------------------------------------------------------------


def _members(union: Any) -> tuple[Any, ...]:
    return tuple(getattr(union, "__args__", (union,)))


def _abridged(content: msgspec.Struct) -> msgspec.Struct:
    """``content`` with each of its lists and maps cut to its first :data:`ABRIDGED` entries, guided by
    its type (a Struct keeps every field, a list its least length) and decoded again with it: a shorter but valid document."""

    def cut(value: Any, t: mi.Type) -> Any:
        while isinstance(t, mi.Metadata):
            t = t.type
        if isinstance(t, mi.StructType) and isinstance(value, dict):
            fields = {f.encode_name: f.type for f in t.fields}
            return {k: cut(v, fields[k]) if k in fields else v for k, v in value.items()}
        if isinstance(t, mi.CollectionType) and isinstance(value, list | tuple):
            return [cut(v, t.item_type) for v in value[: max(ABRIDGED, t.min_length or 0)]]
        if isinstance(t, mi.DictType) and isinstance(value, dict):
            return {k: cut(v, t.value_type) for k, v in list(value.items())[: max(ABRIDGED, t.min_length or 0)]}
        return value

    short = cut(msgspec.to_builtins(content), mi.type_info(type(content)))
    return msgspec.convert(short, type(content))


def _game_examples(board: _Table) -> list[Example]:
    game = board.game
    out: list[Example] = []
    events = [e for e in game.schema_docs.examples if type(e) in _members(game.event_type)]
    lines = [EventOut(seq=board.version + 1 + i, ts=TS, event=e) for i, e in enumerate(events)]
    seat_token = tokens.issue(SECRET, GAME_ID, "seat1")

    for other in registry.GAMES.values():
        body = next((e for e in other.schema_docs.examples if isinstance(e, other.create_body)), None)
        if body is not None:
            summary = f"A game of `{other.kind}`: {other.title}"
            out.append(Example("/v1/games", "post", "request", "application/json", other.kind, body, summary))
    out.append(
        Example(
            "/v1/games",
            "post",
            "201",
            "application/json",
            "example",
            GameCreatedOut(
                game_id=GAME_ID,
                version=1,
                player_count=board.players,
                organizer_token=tokens.issue(SECRET, GAME_ID, tokens.ORGANIZER),
                seed_commitment=commit_seed(SEED),
                kind=game.kind,
                judge_token=tokens.issue(SECRET, GAME_ID, tokens.JUDGE),
            ),
        )
    )
    seats = "/v1/games/{game_id}/seats"
    out.append(Example(seats, "post", "request", "application/json", "example", JoinBody(name="player1")))
    out.append(
        Example(
            seats,
            "post",
            "request",
            "application/json",
            "private",
            JoinBody(name="player1", invitation=tokens.invitation(SECRET, GAME_ID)),
            "A private game's seat: its invitation code",
        )
    )
    out.append(
        Example(
            seats,
            "post",
            "201",
            "application/json",
            "example",
            SeatOut(game_id=GAME_ID, seat_id="seat1", token=seat_token, version=2),
        )
    )
    started = CommandAccepted(game_id=GAME_ID, version=board.version, events=board.started)
    out.append(Example("/v1/games/{game_id}/start", "post", "200", "application/json", "example", started))
    out.append(
        Example("/v1/games/{game_id}", "get", "200", "application/json", "example", game.view(board.state, None))
    )
    reader = game.reader_of(board.state, "seat1")
    out.append(
        Example("/v1/games/{game_id}/view", "get", "200", "application/json", "example", game.view(board.state, reader))
    )
    decisions = "/v1/games/{game_id}/decisions"
    out.append(Example(decisions, "get", "200", "application/json", "example", game.decisions(board.state, "seat1")))
    for e in game.schema_docs.examples:
        if isinstance(e, game.decisions_type):
            out.append(Example(decisions, "get", "200", "application/json", "later", e, "Later in a game"))
            break
    orders = _seat_orders(board, "seat1")
    accepted = CommandAccepted(game_id=GAME_ID, version=board.version + 1, events=board.play(orders, _seat("seat1")))
    out.append(Example("/v1/games/{game_id}/commands", "post", "200", "application/json", "example", accepted))
    reason = UndoRequestIn(reason="misclicked the March")
    undo = "/v1/games/{game_id}/undo-requests"
    out.append(Example(undo, "post", "request", "application/json", "example", reason))
    undone = board.judge(RequestUndo(seat_id="seat1", reason=reason.reason), _seat("seat1"))
    out.append(
        Example(
            undo,
            "post",
            "200",
            "application/json",
            "example",
            CommandAccepted(game_id=GAME_ID, version=board.version, events=undone),
        )
    )
    for op, command in (
        ("pause", PauseClocks(reason="a player's connection dropped")),
        ("resume", ResumeClocks(reason="the player is back")),
    ):
        path = f"/v1/games/{{game_id}}/{op}"
        out.append(Example(path, "post", "request", "application/json", "example", command))
        events_out = board.play(command, JUDGE)
        out.append(
            Example(
                path,
                "post",
                "200",
                "application/json",
                "example",
                CommandAccepted(game_id=GAME_ID, version=board.version, events=events_out),
            )
        )
    judged = "/v1/games/{game_id}/judge"
    for action in game.schema_docs.examples:
        if game.judge_command_type is None or type(action) not in _members(game.judge_command_type):
            continue
        tag = str(type(action).__struct_config__.tag)
        if tag not in ("set_power", "replace_player"):
            continue  # a rollback needs a longer game: the two kinds of answer (with and without tokens) are shown
        events_out = board.judge(action)
        replaced = game.seat_replacements([e.event for e in events_out])
        answer = JudgeActionOut(
            game_id=GAME_ID,
            version=board.version,
            events=events_out,
            tokens={s: tokens.issue(SECRET, GAME_ID, tokens.seat_role(s, g)) for s, g in replaced.items()},
        )
        out.append(
            Example(judged, "post", "200", "application/json", tag, answer, _first_sentence(type(action).__doc__))
        )
    out.append(
        Example(
            "/v1/games/{game_id}/log",
            "get",
            "200",
            "application/json",
            "example",
            LogOut(
                game_id=GAME_ID,
                version=board.version,
                lines=[
                    LogLine(seq=env.seq, ts=env.ts, text=text)
                    for env, e in zip(board.envelopes, board.events)
                    if (text := game.describe(e))
                ],
                next_cursor=None,
            ),
        )
    )
    out.append(
        Example(
            "/v1/games",
            "get",
            "200",
            "application/json",
            "example",
            GameListOut(
                games=[
                    GameSummary(
                        game_id=GAME_ID,
                        kind=game.kind,
                        status="open",
                        seats_taken=2,
                        seats_total=board.players,
                        created_at=TS,
                        version=3,
                    )
                ],
                next_cursor=None,
            ),
        )
    )
    out.append(
        Example(
            "/v1/games/{game_id}/invitation",
            "get",
            "200",
            "application/json",
            "example",
            InvitationOut(game_id=GAME_ID, invitation_code=tokens.invitation(SECRET, GAME_ID)),
        )
    )
    out.append(
        Example(
            "/v1/games/{game_id}/judge-token",
            "get",
            "200",
            "application/json",
            "example",
            JudgeTokenOut(game_id=GAME_ID, judge_token=tokens.issue(SECRET, GAME_ID, tokens.JUDGE)),
        )
    )
    out.append(
        Example("/v1/games/{game_id}/export", "get", "200", "application/json", "example", board.public_export())
    )
    events_path = "/v1/games/{game_id}/events"
    ndjson = "".join(msgspec.json.encode(x).decode() + "\n" for x in lines)
    out.append(Example(events_path, "get", "200", "application/x-ndjson", "lines", ndjson))
    sse = b"retry: %d\n: stream open\n\n" % SSE_RETRY_MS
    sse += b"".join(sse_event(x.seq, x.event) for x in board.started)
    out.append(Example(events_path, "get", "200", "text/event-stream", "messages", sse.decode()))
    ended = sse_event(lines[-1].seq, lines[-1].event) + sse_end(GAME_ID, lines[-1].seq)
    out.append(
        Example(
            events_path, "get", "200", "text/event-stream", "end", ended.decode(), "The last messages of a game over"
        )
    )
    out.append(Example("/v1/signing-key", "get", "200", "application/json", "example", _signing_key()))
    out += _turns_examples(board, seat_token)
    return out


def _first_sentence(text: str | None) -> str:
    paragraph = " ".join((text or "").split("\n\n")[0].split())
    return paragraph.split(". ")[0].rstrip(".") + "."


def _seat(seat_id: str) -> Actor:
    return Actor(kind="seat", seat_id=seat_id)


def _signing_key() -> SigningKeyOut:
    return SigningKeyOut(
        key_id=SIGNER.key_id,
        algorithm=ALGORITHM,
        public_key=base64.b64encode(SIGNER.public_raw).decode(),
        public_key_pem=SIGNER.public_pem,
    )


def _turns_examples(board: _Table, seat_token: str) -> list[Example]:
    other = "g_" + hashlib.sha256(b"another game").hexdigest()[:32]
    body = TurnsBody(
        seats=[
            SeatKey(game_id=GAME_ID, token=seat_token),
            SeatKey(game_id=other, token=tokens.issue(SECRET, other, "seat2")),
        ]
    )
    deadline = board.game.deadline(board.state)
    stream = b"retry: %d\n: stream open\n\n" % SSE_RETRY_MS
    stream += sse_message(
        "turn",
        TurnItem(game_id=GAME_ID, seat_id="seat1", version=board.version, deadline=deadline.at if deadline else None),
    )
    stream += sse_message("game_ended", SeatEnded(game_id=other, seat_id="seat2", version=812))
    stream += sse_message("turn", TurnItem(game_id=GAME_ID, seat_id="seat1", version=board.version + 9, deadline=None))
    stream += sse_message("game_ended", SeatEnded(game_id=GAME_ID, seat_id="seat1", version=1204))
    stream += sse_message("end", TurnsEnd())
    return [
        Example("/v1/turns", "post", "request", "application/json", "example", body, "A seat in each of two games"),
        Example("/v1/turns", "post", "200", "text/event-stream", "example", stream.decode()),
    ]


def _webhook_examples() -> list[Example]:
    out: list[Example] = []
    tournament_id = tournament_id_for("openapi-example-tournament")
    body = WebhookBody(url=HOOK_URL, events=["turn_start", "game_end"])
    for scope, scope_id, base in (
        ("game", GAME_ID, "/v1/games/{game_id}/webhooks"),
        ("tournament", tournament_id, "/v1/tournaments/{tournament_id}/webhooks"),
    ):
        sub_id = "wh_" + hashlib.sha256(f"{scope_id}/subscription".encode()).hexdigest()[:32]
        sub = Subscription(
            subscription_id=sub_id,
            scope=scope,  # type: ignore[arg-type]  # one of the two scopes, as the loop names them
            scope_id=scope_id,
            url=body.url,
            events=list(body.events),
            created=TS,
            secret="whsec_" + hashlib.sha256(sub_id.encode()).hexdigest()[:40],
        )
        created = SubscriptionCreatedOut(subscription=subscription_out(sub), secret=sub.secret)
        listed = SubscriptionsOut(subscriptions=[subscription_out(sub)])
        game_id = GAME_ID if scope == "game" else table_game_id(tournament_id, 1)
        deliveries = [
            Delivery(
                delivery_id=delivery_id(sub_id, game_id, 42, "turn_start"),
                subscription_id=sub_id,
                event="turn_start",
                game_id=game_id,
                seq=42,
                created=rfc3339(NOW + timedelta(minutes=20)),
                payload=msgspec.Raw(b"{}"),
                status="pending",
                attempts=2,
                last_error="the receiver answered 503",
                last_status=503,
                next_attempt_at=rfc3339(NOW + timedelta(minutes=20, seconds=6)),
            ),
            Delivery(
                delivery_id=delivery_id(sub_id, game_id, 7, "turn_start"),
                subscription_id=sub_id,
                event="turn_start",
                game_id=game_id,
                seq=7,
                created=rfc3339(NOW + timedelta(seconds=2)),
                payload=msgspec.Raw(b"{}"),
                status="delivered",
                attempts=1,
                delivered_at=rfc3339(NOW + timedelta(seconds=3)),
            ),
        ]
        log = DeliveryLogOut(subscription_id=sub_id, deliveries=[delivery_out(d) for d in deliveries])
        out += [
            Example(base, "post", "request", "application/json", "example", body),
            Example(base, "post", "201", "application/json", "example", created),
            Example(base, "get", "200", "application/json", "example", listed),
            Example(f"{base}/{{subscription_id}}/deliveries", "get", "200", "application/json", "example", log),
        ]
    return out


def _tournament_examples(board: _Table) -> list[Example]:
    kind = registry.DEFAULT_KIND
    rules = registry.TOURNAMENT_RULES[kind]
    tournament_id = tournament_id_for("openapi-example-tournament")
    players = [f"player{i}" for i in range(1, 9)]
    body = TournamentBody(players=players, table_sizes=[4, 4], name="Winter Cup", settings={"decision_timeout_s": 600})
    seed = "openapi-example-tournament-round-1"
    houses = rules.houses(4)
    tables = [
        TableRecord(
            table=t,
            round=1,
            game_id=table_game_id(tournament_id, t),
            players=players[4 * (t - 1) : 4 * t],
            seat_houses=draw_houses(seed, t, houses),
            drawn=True,
        )
        for t in (1, 2)
    ]
    record = TournamentRecord(
        tournament_id=tournament_id,
        name=body.name,
        kind=kind,
        created=TS,
        seed_commitment=commit_seed(seed),
        players=players,
        tables=tables,
        fingerprint="",
        settings=body.settings,
    )
    round_body = RoundBody(round=2, players=players[:4] + players[6:] + players[4:6], table_sizes=[4, 4])
    round_seed = "openapi-example-tournament-round-2"
    round_tables = [
        TableRecord(
            table=t + 2,
            round=2,
            game_id=table_game_id(tournament_id, t + 2),
            players=round_body.players[4 * (t - 1) : 4 * t],
            seat_houses=draw_houses(round_seed, t + 2, houses),
            drawn=True,
        )
        for t in (1, 2)
    ]
    round_record = RoundRecord(
        round=2,
        created=rfc3339(NOW + timedelta(hours=3)),
        seed_commitment=commit_seed(round_seed),
        players=round_body.players,
        tables=round_tables,
        fingerprint="",
    )
    first = tables[0]
    won = first.seat_houses[2]
    results = [
        TableResult(
            table=1,
            players={f"seat{i}": p for i, p in enumerate(first.players, 1)},
            results=[
                SeatResult(seat_id=f"seat{s}", house=first.seat_houses[s - 1], rank=r, points=p, tiebreaks=tb)
                for r, (s, p, tb) in enumerate(
                    [(3, 7, [9, 4, -2]), (1, 5, [8, 6, -1]), (4, 4, [7, 2, -3]), (2, 3, [5, 3, -4])], 1
                )
            ],
        )
    ]
    overview = TournamentOut(
        tournament_id=tournament_id,
        name=body.name,
        kind=kind,
        created=TS,
        players=players,
        seed_commitment=record.seed_commitment,
        seed=None,
        rounds=[RoundOut(round=1, created=TS, seed_commitment=record.seed_commitment, seed=None)],
        tables=[
            TableStateOut(
                table=1,
                round=1,
                game_id=first.game_id,
                players=first.players,
                seat_houses=first.seat_houses,
                drawn=True,
                version=1873,
                status=TableStatus(status="ended", phase="ended", round=10, winner=won),
            ),
            TableStateOut(
                table=2,
                round=1,
                game_id=tables[1].game_id,
                players=tables[1].players,
                seat_houses=tables[1].seat_houses,
                drawn=True,
                version=board.version,
                status=rules.status(board.state),
            ),
        ],
    )
    ranked = StandingsOut(
        tournament_id=tournament_id,
        tables=len(tables),
        tables_ended=len(results),
        tiebreaks=rules.tiebreak_names(board.state),
        standings=standings(players, results),
    )
    base = "/v1/tournaments"
    return [
        Example(base, "post", "request", "application/json", "example", body, "Two tables of four, houses drawn"),
        Example(base, "post", "201", "application/json", "example", created_answer(SECRET, record)),
        Example(f"{base}/{{tournament_id}}/rounds", "post", "request", "application/json", "example", round_body),
        Example(
            f"{base}/{{tournament_id}}/rounds",
            "post",
            "201",
            "application/json",
            "example",
            round_answer(SECRET, tournament_id, round_record),
        ),
        Example(f"{base}/{{tournament_id}}", "get", "200", "application/json", "example", overview),
        Example(f"{base}/{{tournament_id}}/standings", "get", "200", "application/json", "example", ranked),
        Example(
            f"{base}/{{tournament_id}}/start",
            "post",
            "200",
            "application/json",
            "example",
            StartedOut(tournament_id=tournament_id, not_started=[]),
        ),
        Example(
            f"{base}/{{tournament_id}}/export",
            "get",
            "200",
            TAR,
            "example",
            summary="A tar archive (binary)",
            description=f"A plain tar file, `{tournament_id}.tar`, holding `tournament.json` (the answer of "
            f"`GET /v1/tournaments/{{tournament_id}}`) and one `table-<n>-<game_id>.json` per table (the answer "
            f"of `GET /v1/games/{{game_id}}/export` without a token), e.g. `table-1-{first.game_id}.json`.",
        ),
    ]


def _service_examples() -> list[Example]:
    docs = documents()
    out = [
        Example(
            REFERENCE_PATH,
            "get",
            "200",
            "application/json",
            "example",
            reference_index(docs, [Served.of(d.content) for _, d in docs]),
        )
    ]
    for _, d in docs:
        short = len(msgspec.json.encode(d.content)) <= SMALL_EXAMPLE
        out.append(
            Example(
                f"{REFERENCE_PATH}/{d.name}",
                "get",
                "200",
                "application/json",
                "example" if short else "abridged",
                d.content if short else _abridged(d.content),
                "" if short else f"Abridged: the first {ABRIDGED} entries of each list and map",
            )
        )
    counters = metrics.Metrics()
    for name, n in (("assign_orders", 412), ("muster", 57), ("create_game", 31)):
        counters.commands.inc(name, n)
    counters.rejected.inc("not_your_turn", 3)
    counters.command_ways.inc("lane", 466)
    counters.command_ways.inc("route", 6)
    for seconds in (0.004, 0.006, 0.012, 0.03):
        counters.latency.observe(seconds)
    out += [
        Example("/metrics", "get", "200", "text/plain", "example", counters.render()),
        Example("/healthz", "get", "200", "application/json", "example", Health(status="ok")),
        Example("/readyz", "get", "200", "application/json", "example", Health(status="ok", redis="ok")),
    ]
    return out


def operation_examples() -> list[Example]:
    """Every example of every operation, in the document's terms (path, method, request or status, media)."""
    board = _Table(registry.DEFAULT_KIND)
    return [*_game_examples(board), *_webhook_examples(), *_tournament_examples(board), *_service_examples()]


def _value(value: Any) -> Any:
    """The JSON the server sends for ``value`` (a text answer as it is)."""
    return value if isinstance(value, str) else msgspec.json.decode(msgspec.json.encode(value))


def install(doc: dict[str, Any]) -> None:
    """Put :func:`operation_examples` into the document, beside the examples it already has (errors,
    commands); the NDJSON lines also become ``EventOut``'s schema examples."""
    for ex in operation_examples():
        op = doc["paths"][ex.path][ex.method]
        target = op["requestBody"] if ex.where == "request" else op["responses"][ex.where]
        media = target["content"][ex.media]
        entry: dict[str, Any] = {}
        if ex.summary:
            entry["summary"] = ex.summary
        if ex.description:
            entry["description"] = ex.description
        if ex.value is not None:
            entry["value"] = _value(ex.value)
        media.setdefault("examples", {})[ex.name] = entry
        if ex.media == "application/x-ndjson":
            lines = [msgspec.json.decode(x) for x in ex.value.splitlines()]
            doc["components"]["schemas"]["EventOut"]["examples"] = lines
