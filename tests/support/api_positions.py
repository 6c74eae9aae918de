"""``ApiPosition``: the Action-phase :class:`~tests.support.action_positions.Position`, played through the API.

Drop-in replacement for the domain ``Position`` (same constructor, ``setup``, ``begin``, ``run``,
``timeout``, ``decisions``, ``decision``, ``state``, ``events``), so the scenario tests of
``tests/domain/board/action`` run unchanged against the live service (``tests/api/test_action_positions_api.py``).

How it works:

1. The constructor and :meth:`setup` build the position locally exactly as the domain ``Position``
   does (a real folded Planning phase, then the documented mutations).
2. :meth:`begin` turns that local state into a **scenario fixture** (``POST /v1/games`` with a
   ``scenario``, ``start_at: action``, ``organizer_is_referee: true``), fills every seat, starts the
   game and waits until the worker has opened the Action phase. From then on the local state is
   thrown away: ``state`` and ``events`` are the fold of the organizer's complete (referee) export,
   i.e. exactly the server's state.
3. :meth:`run` posts the command with the house's seat token (guarded by ``If-Match``), maps a
   problem answer back to the domain's exception (``RuleViolation``/``NotYourTurn``/``WrongPhase``/
   ``Forbidden`` with the same ``code`` and ``rule``), and returns the answer's events (redacted for
   that house, as the API gives them).
4. :meth:`decisions` reads ``GET /decisions`` for every house the game waits for (the API lists the
   legal options) and checks them against ``pending_decisions`` of the folded state.
5. :meth:`timeout` posts nothing: it waits for the worker's own timeout job, so a test that calls it
   must run with a short ``decision_timeout_s`` (``ApiPosition.decision_timeout_s``).

Consistency checks (a failure there raises :class:`ServerMismatch`: a server bug, not a test failure):
the game the fixture created holds exactly the local position; every batch the server appends (a
command's, the worker's opening of the phase, a timeout's) equals what the domain decides for the same
command on the state folded from the export at the batch's timestamp (up to a Tides of Battle shuffle,
which needs the secret seed: see ``_until_secret_shuffle``; the salts of sealed inputs, drawn from
the seed too, are taken from the server's batch and the commitments recomputed around them:
``tests/support/sealed.py``), and a refused command is refused
by the domain with the same code and rule; the answer's events equal the export's redacted for the
caller; the public view equals ``view_for`` of the folded state; the decisions the API lists equal
``pending_decisions`` of the folded state.

**Areas with units but no order.** The domain tests often leave areas without an order (a defender
whose order is long gone). A scenario fixture that starts the Action phase needs an order in every
such area (BG-PLAN-02), so :meth:`begin` reaches the same position by a legal history instead: each
such area gets a Raid order of its house (2 regular Raids per house, then its Special Raid if its
King's Court stars allow), and those Raids are resolved through the API *without a target* before
the test goes on (BG-RAID-04: removed with no effect). The Raid step then ends and the phase stands
exactly where the domain ``Position`` starts it (same step, same house to play, same orders). This is
possible only when the position has no Raid orders of its own (else :class:`NotReproducible`).

A test that mutates ``sc.state`` *after* :meth:`begin` cannot be reproduced through the API (the
server never sees the mutation); the next call then fails with :class:`NotReproducible`.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import httpx
import msgspec

from domain.board.action import commands as acmd
from domain.board.action.tides_events import TidesDeckShuffled
from domain.board.commands import Actor, ApplyTimeout, PlayerCommand, ResolvePending
from domain.board.decider import decide, fold
from domain.board.decisions import Decision, pending_decisions
from domain.board.emitter import copy_state
from domain.board.events import BoardEvent, DecisionTimedOut, StepBegan
from domain.board.orders import is_special, order_type, owned_tokens
from domain.board.planning import special_order_limit
from domain.board.redaction import redact_event, view_for
from domain.board.state import PlacedOrder
from domain.core.context import Context, parse_rfc3339
from domain.core.envelope import Envelope
from domain.core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from tests.support.action_positions import Position
from tests.support.sealed import with_server_salts

_event = msgspec.json.Decoder(BoardEvent)
_enc = msgspec.json.Encoder()
_state_enc = msgspec.msgpack.Encoder()

#: 409 codes raised as ``NotYourTurn`` by the domain (every other 409 rule code is ``WrongPhase``).
NOT_YOUR_TURN_CODES = {"not_your_turn", "not_started"}
#: Problem codes that are not rule violations: the request itself is wrong (a harness bug).
HARNESS_CODES = {
    "validation_error",
    "unknown_field",
    "bad_json",
    "invalid_parameter",
    "unauthorized",
    "invalid_token",
    "idempotency_key_reused",
    "stale_version",
    "version_not_reached",
}


class NotReproducible(AssertionError):
    """The test did something the API cannot reproduce (e.g. mutated the state after ``begin``)."""


class ServerMismatch(AssertionError):
    """The server disagrees with itself or with the fold of its own events: a server bug."""


class _Answer(msgspec.Struct):
    version: int
    events: list[_EventOut]


class _EventOut(msgspec.Struct):
    seq: int
    ts: str
    event: msgspec.Raw


class _Export(msgspec.Struct):
    version: int
    complete: bool
    events: list[Envelope]


class _Waiting(msgspec.Struct):
    seat_id: str
    house: str


class _Decisions(msgspec.Struct):
    version: int
    phase: str
    step: str
    decisions: list[Decision]
    waiting_for: list[_Waiting]


_answer_dec = msgspec.json.Decoder(_Answer)
_export_dec = msgspec.json.Decoder(_Export)
_decisions_dec = msgspec.json.Decoder(_Decisions)


def filler_raids(state) -> dict[str, str]:
    """area -> Raid token for every area with units but no order (see the module docstring)."""
    missing = [aid for aid, a in state.areas.items() if a.units and aid not in state.orders]
    if not missing:
        return {}
    if any(order_type(o.order) == "raid" for o in state.orders.values()):
        raise NotReproducible(
            f"areas {missing} hold units but no order, and the position has Raid orders of its own: "
            "the already-resolved-Raid filler would mix with them"
        )
    out: dict[str, str] = {}
    for house in state.houses_in_play:
        areas = [aid for aid in missing if state.areas[aid].house == house]
        if not areas:
            continue
        specials = sum(1 for o in state.orders.values() if o.house == house and is_special(o.order))
        tokens = ["raid"] * owned_tokens()["raid"]
        if specials < special_order_limit(state, house):
            tokens += ["raid_special"] * owned_tokens()["raid_special"]
        if len(areas) > len(tokens):
            raise NotReproducible(f"{house} has {len(areas)} areas without an order, more than its Raid tokens")
        out.update(zip(areas, tokens))
    return out


def scenario_fixture(state, fillers: dict[str, str] | None = None) -> dict:
    """The scenario fixture (API JSON) describing ``state``, a local state at ``awaiting_action_phase``,
    plus the ``fillers`` orders (area -> token) in areas that have none.

    Areas carrying an order come first, in the order of ``state.orders`` (the server inserts orders in
    the order the areas are listed, as the domain scenario did)."""
    fillers = fillers or {}
    order_first = list(state.orders) + list(fillers)
    order_first += [a for a in state.areas if a not in state.orders and a not in fillers]
    areas: dict[str, dict] = {}
    for aid in order_first:
        a = state.areas[aid]
        entry: dict = {}
        if a.units:
            entry["house"] = a.house
            entry["units"] = dict(a.units)
        if a.power_token:
            entry["power_token"] = a.power_token
        if a.garrison:
            entry["garrison"] = a.garrison
        if a.neutral:
            entry["neutral"] = a.neutral
        if aid in state.orders:
            o = state.orders[aid]
            entry["order"] = o.order
            if not a.units:  # an order without units: let the server say what it thinks of it
                entry["house"] = o.house
        if aid in fillers:
            entry["order"] = fillers[aid]
        if entry:
            areas[aid] = entry
    houses = {
        h: {"power": hs.power, "supply": hs.supply, "hand": list(hs.hand), "discards": list(hs.discards)}
        for h, hs in state.houses.items()
        if h in state.houses_in_play
    }
    t = state.tracks
    return {
        "areas": areas,
        "houses": houses,
        "tracks": {
            "iron_throne": list(t.iron_throne),
            "fiefdoms": list(t.fiefdoms),
            "kings_court": list(t.kings_court),
        },
        "raven_used": state.raven_used,
        "blade_used": state.blade_used,
        "round": state.round,
        "wildling_threat": state.wildling_threat,
        "start_at": "action",
        "garrisons": "listed",  # every garrison of the local position is listed above
    }


def position(state) -> dict:
    """What a scenario fixture describes, as plain data (to compare the server's state with the local one)."""
    b = msgspec.to_builtins(state)
    keys = (
        "player_count",
        "houses_in_play",
        "phase",
        "step",
        "round",
        "areas",
        "houses",
        "tracks",
        "kings_court_stars",
        "raven_used",
        "blade_used",
        "wildling_threat",
        "forbidden_order_types",
        "orders",
    )
    return {k: b.get(k) for k in keys}


SYSTEM = Actor(kind="system")


def _until_secret_shuffle(events: list[BoardEvent]) -> list[BoardEvent]:
    """The events before a Tides of Battle shuffle (BG-TIDES-02), which a player's command may cause.
    The game's seed stays secret until the end, so the domain cannot redo that shuffle here; the
    events up to it are compared, the shuffle itself is re-derived by the audit of the finished export
    (``domain.board.audit``), and every later command is decided on the state folded from the export,
    recorded deck included."""
    for i, e in enumerate(events):
        if isinstance(e, TidesDeckShuffled):
            return events[:i]
    return events


class ApiPosition(Position):
    #: The httpx client of the live service (set by the test module, e.g. from the ``api`` fixture).
    client: httpx.Client | None = None
    #: Deadline of every decision. Long by default; tests that call :meth:`timeout` need a short one.
    decision_timeout_s: int = 3600
    #: How long to wait for the worker (opening the phase, firing a timeout).
    wait_s: float = 60.0  # a wait on the worker costs nothing when it is quick; loaded machines are slow
    #: Compare the public view with ``view_for`` of the folded state after every sync.
    check_view: bool = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game_id: str | None = None
        self.organizer: str | None = None
        self.tokens: dict[str, str] = {}  # house -> seat token
        self.version = 0
        self._synced: bytes | None = None  # the state as last folded from the server

    # --- HTTP plumbing --------------------------------------------------------------------------

    @property
    def api(self) -> httpx.Client:
        if self.client is None:
            raise RuntimeError("ApiPosition.client is not set (use the api fixture)")
        return self.client

    def _auth(self, token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}

    def _ok(self, r: httpx.Response, *statuses: int) -> httpx.Response:
        if r.status_code not in (statuses or (200,)):
            raise ServerMismatch(f"{r.request.method} {r.request.url.path} -> {r.status_code}: {r.text}")
        return r

    # --- syncing with the server ----------------------------------------------------------------

    def _export(self) -> list[Envelope]:
        r = self._ok(self.api.get(f"/v1/games/{self.game_id}/export", headers=self._auth(self.organizer)))
        out = _export_dec.decode(r.content)
        if not out.complete:
            raise ServerMismatch("the referee organizer's export is not complete")
        return out.events

    def _sync(self, envs: list[Envelope] | None = None, upto: int | None = None) -> list[BoardEvent]:
        """Fold the export (up to version ``upto``) into ``state``/``events``; returns the new events."""
        envs = self._export() if envs is None else envs
        if upto is not None:
            envs = [e for e in envs if e.seq <= upto]
        events = [_event.decode(e.event) for e in envs]
        new = events[self.version :]
        self.events = events
        self.state = fold(events)
        self.version = self.state.version
        if self.version != (envs[-1].seq if envs else 0):
            raise ServerMismatch(f"export sequence numbers do not match the fold: {self.version} vs {envs[-1].seq}")
        self._synced = _state_enc.encode(self.state)
        if self.check_view:
            self._check_public_view()
        return new

    def _check_public_view(self) -> None:
        r = self._ok(self.api.get(f"/v1/games/{self.game_id}", params={"min_version": self.version}))
        got = msgspec.json.decode(r.content)
        if got.get("version") != self.version:
            return  # the server moved on (a timeout fired); nothing to compare at this version
        want = msgspec.json.decode(_enc.encode(view_for(self.state, None)))
        if got != want:
            diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)}
            raise ServerMismatch(f"public view at version {self.version} differs from the fold of the export: {diff}")

    def _guard(self) -> None:
        if self.game_id is None:
            raise NotReproducible(
                "ApiPosition: the game exists on the server only from begin() on (the server never rests at "
                "awaiting_action_phase: the worker opens the Action phase at once)"
            )
        if _state_enc.encode(self.state) != self._synced:
            raise NotReproducible("the test mutated sc.state after begin(); the server cannot see that mutation")

    # --- the Position interface -----------------------------------------------------------------

    def begin(self) -> list[BoardEvent]:
        """Create the game from the local position through the API and let the worker open the Action phase."""
        assert self.game_id is None, "begin() twice"
        fillers = filler_raids(self.state)
        fixture = scenario_fixture(self.state, fillers)
        body = {
            "player_count": self.state.player_count,
            "settings": {
                "decision_timeout_s": self.decision_timeout_s,
                "organizer_is_referee": True,
                "tides_of_battle": self.state.settings.tides_of_battle,
            },
            "scenario": fixture,
        }
        r = self.api.post("/v1/games", json=body)
        if r.status_code == 422 and r.json().get("code") == "invalid_scenario":
            raise NotReproducible(f"the API refuses this position: {r.json()['detail']} ({r.json().get('rule')})")
        self._ok(r, 201)
        self.game_id, self.organizer = r.json()["game_id"], r.json()["organizer_token"]
        seats: dict[str, str] = {}
        for i in range(self.state.player_count):
            j = self._ok(self.api.post(f"/v1/games/{self.game_id}/seats", json={"name": f"p{i + 1}"}), 201).json()
            seats[j["seat_id"]] = j["token"]
        started = self._ok(self.api.post(f"/v1/games/{self.game_id}/start", headers=self._auth(self.organizer))).json()
        view = self._ok(self.api.get(f"/v1/games/{self.game_id}", params={"min_version": started["version"]})).json()
        self.tokens = {s["house"]: seats[s["seat_id"]] for s in view["seats"]}
        deadline = time.monotonic() + self.wait_s
        while True:
            d = self._ok(self.api.get(f"/v1/games/{self.game_id}/decisions", headers=self._auth(self.organizer))).json()
            if d["step"] != "awaiting_action_phase":
                break
            if time.monotonic() > deadline:
                raise ServerMismatch(f"the worker did not open the Action phase within {self.wait_s}s")
            time.sleep(0.02)
        self.version = 0
        envs = self._export()
        opened = next(
            e.seq
            for e in envs
            if isinstance(ev := _event.decode(e.event), StepBegan) and ev.step == "awaiting_action_phase"
        )
        # the position the server starts from must be the local one (plus the filler Raids)
        local = copy_state(self.state)
        for area, token in fillers.items():
            local.orders[area] = PlacedOrder(house=local.areas[area].house, order=token)
        server = fold(_event.decode(e.event) for e in envs[:opened])
        if position(server) != position(local):
            want, got = position(local), position(server)
            diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
            raise ServerMismatch(f"the scenario fixture did not reproduce the local position (server, local): {diff}")
        # fold only the worker's ResolvePending batch (a short deadline may already have fired more)
        batch_end = opened + 1
        while (
            batch_end < len(envs)
            and envs[batch_end].ts == envs[opened].ts
            and not isinstance(_event.decode(envs[batch_end].event), DecisionTimedOut)
        ):
            batch_end += 1
        self._sync(envs, upto=batch_end)
        self._check_system(server, ResolvePending(), self.events[opened:], envs[opened].ts)
        while fillers and self.state.step == "resolve_raid":  # the Raids that stand for "no order"
            house = self.state.action.current_house
            area = next(a for a in fillers if a in self.state.orders and self.state.orders[a].house == house)
            self.run(house, acmd.ResolveRaid(area=area))
        if any(a in self.state.orders for a in fillers):
            raise ServerMismatch(f"filler Raids left on the board: {[a for a in fillers if a in self.state.orders]}")
        return self.events[opened:]

    def run(self, house: str, command) -> list[BoardEvent]:
        """A player's command through ``POST /commands`` with that house's seat token.

        Cross-check: the same command is decided by the domain on the state folded from the export
        (at the server's own timestamp); its events, or its refusal, must be the server's."""
        self._guard()
        before = copy_state(self.state)
        actor = Actor(kind="seat", seat_id=before.seat_of_house(house).seat_id)
        body = msgspec.json.encode(command)
        wire = msgspec.json.decode(body, type=PlayerCommand)  # the command exactly as the server decodes it
        r = self.api.post(
            f"/v1/games/{self.game_id}/commands",
            content=body,
            headers={
                **self._auth(self.tokens[house]),
                "Content-Type": "application/json",
                "If-Match": f'"{self.version}"',
            },
        )
        if r.status_code != 200:
            err = self._violation(r)
            if isinstance(err, RuleViolation):
                try:
                    decide(before, wire, actor, Context(now=datetime.now(UTC), seed="", game_id=self.game_id))
                except RuleViolation as want:
                    if (want.code, want.rule) != (err.code, err.rule):
                        raise ServerMismatch(
                            f"the server refused with {err.code}/{err.rule}, the domain with {want.code}/{want.rule}"
                        ) from err
                else:
                    raise ServerMismatch(
                        f"the server refused {command!r} ({err.code}: {err.detail}) but the domain accepts it"
                    ) from err
            raise err
        ans = _answer_dec.decode(r.content)
        got = [_event.decode(e.event) for e in ans.events]
        if [e.seq for e in ans.events] != list(range(self.version + 1, ans.version + 1)):
            raise ServerMismatch(f"answer sequence numbers {[e.seq for e in ans.events]} after version {self.version}")
        new = self._sync(upto=ans.version)
        want = [redact_event(e, house) for e in new]
        if _enc.encode(got) != _enc.encode(want):
            raise ServerMismatch(f"the answer's events differ from the export redacted for {house}:\n{got}\n{want}")
        ctx = Context(now=parse_rfc3339(ans.events[0].ts), seed="", game_id=self.game_id)
        domain = decide(before, wire, actor, with_server_salts(ctx, before.version, new))
        if _enc.encode(_until_secret_shuffle(domain)) != _enc.encode(_until_secret_shuffle(new)):
            raise ServerMismatch(f"the server's events differ from the domain's for {command!r}:\n{new}\n{domain}")
        return got

    def _check_system(self, before, command, new: list[BoardEvent], ts: str) -> None:
        """The worker's batch must be what the domain decides for ``command`` at the batch's time."""
        ctx = Context(now=parse_rfc3339(ts), seed="", game_id=self.game_id)
        domain = decide(before, command, SYSTEM, with_server_salts(ctx, before.version, new))
        if _enc.encode(_until_secret_shuffle(domain)) != _enc.encode(_until_secret_shuffle(new)):
            raise ServerMismatch(f"the worker's events for {command!r} differ from the domain's:\n{new}\n{domain}")

    def _violation(self, r: httpx.Response) -> Exception:
        try:
            p = r.json()
        except ValueError:
            return ServerMismatch(f"{r.status_code} without a problem body: {r.text}")
        code, detail, rule = p.get("code"), p.get("detail", ""), p.get("rule")
        if r.status_code >= 500 or code in HARNESS_CODES:
            return ServerMismatch(f"{r.status_code} {code}: {detail}")
        if code == "nothing_to_do":
            return ServerMismatch("409 nothing_to_do: the domain accepted the command but produced no event")
        if r.status_code == 403:
            cls = Forbidden
        elif r.status_code == 409:
            cls = NotYourTurn if code in NOT_YOUR_TURN_CODES else WrongPhase
        elif r.status_code == 422:
            cls = RuleViolation
        else:
            return ServerMismatch(f"unexpected status {r.status_code}: {r.text}")
        err = cls(detail, rule=rule, code=code)
        err.status = r.status_code
        return err

    def timeout(self) -> list[BoardEvent]:
        """Wait for the worker to apply the defaults of the current step (its deadline must be short)."""
        self._guard()
        if self.decision_timeout_s > 10:
            raise NotReproducible("timeout() through the API needs a short ApiPosition.decision_timeout_s")
        deadline = time.monotonic() + self.decision_timeout_s + self.wait_s
        while True:
            envs = self._export()
            after = envs[self.version :]
            if after:
                first = _event.decode(after[0].event)
                if not isinstance(first, DecisionTimedOut):
                    raise ServerMismatch(f"expected a timeout, the server appended {first!r}")
                # one append only (the worker may be faster than us and have appended more since):
                # the events sealed with the same timestamp, up to the next DecisionTimedOut
                end = self.version + 1
                while (
                    end < len(envs)
                    and envs[end].ts == after[0].ts
                    and not isinstance(_event.decode(envs[end].event), DecisionTimedOut)
                ):
                    end += 1
                before = copy_state(self.state)
                new = self._sync(envs, upto=end)
                self._check_system(before, ApplyTimeout(step_version=before.step_version), new, after[0].ts)
                return new
            if time.monotonic() > deadline:
                raise ServerMismatch("no timeout fired")
            time.sleep(0.05)

    def decisions(self, house: str | None = None):
        """Pending decisions as the API lists them (each seat's ``GET /decisions``)."""
        self._guard()
        params = {"min_version": self.version}
        org = _decisions_dec.decode(
            self._ok(
                self.api.get(f"/v1/games/{self.game_id}/decisions", params=params, headers=self._auth(self.organizer))
            ).content
        )
        if org.version != self.version:
            raise NotReproducible(f"the server moved on to version {org.version} (a deadline passed?)")
        if org.decisions:
            raise ServerMismatch("the organizer was given decisions")
        per_house: dict[str, list[Decision]] = {}
        for w in org.waiting_for:
            if w.house in per_house:
                continue
            mine = _decisions_dec.decode(
                self._ok(
                    self.api.get(
                        f"/v1/games/{self.game_id}/decisions", params=params, headers=self._auth(self.tokens[w.house])
                    )
                ).content
            )
            per_house[w.house] = list(mine.decisions)
        out = [per_house[w.house].pop(0) for w in org.waiting_for]
        if any(per_house.values()):
            raise ServerMismatch(f"decisions not listed in waiting_for: {per_house}")
        if _enc.encode(out) != _enc.encode(pending_decisions(self.state)):
            raise ServerMismatch(
                f"the API's decisions differ from the folded state's:\n{out}\n{pending_decisions(self.state)}"
            )
        return [d for d in out if house is None or d.house == house]


__all__ = ["ApiPosition", "NotReproducible", "ServerMismatch", "scenario_fixture"]
