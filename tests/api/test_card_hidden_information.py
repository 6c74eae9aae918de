"""Hidden information of the card game, probed over HTTP: a joust played through the real API, RQ
worker and projector, and at many points of it every endpoint and stream a reader can reach is read
by every reader, then searched for the card ids hidden from that reader.

The hidden zones (card-game.md): each draw deck and its order, from everyone, its owner too
(CG-GEN-03, CG-SETUP-05: the deck is face down and shuffled); each hand, from all but its owner
(CG-GEN-03, CG-SETUP-06: the setup hand and the mulligan's); the facedown setup cards until the
simultaneous reveal (CG-SETUP-07/08); the sealed plot until the reveal (CG-PHASE-01), and with it
the rest of the plot deck; and the options of a card ability's choice among hidden cards (Summons
and Building Orders search the top 10 cards of their owner's deck), from all but the chooser.

The probe points: the hands dealt (mulligan); setup sealed by one seat while the other chooses; after
the setup reveal, before any plot; a plot sealed by one seat while the other chooses; a hidden
search choice pending; marshaling; challenges (defenders to declare); after claims. The readers: a
spectator (no token), each seat with its own token (what the other seat hides is what it must not
see), and the organizer (not a referee here: it reads as the public does). What each reads:

* the public view (``GET /v1/games/{id}``) and the public view ``at_version`` (the organizer's; a
  403 for the others before the end);
* its own view, its decisions;
* the events as NDJSON and as SSE, the log, the export;
* the lobby's summary of the game, the watch page (``/watch/{id}``, whose script reads the public
  view, the log and the events above);
* for a seat, the turns stream (``POST /v1/turns``) with its token.

The hidden set is computed after the end, from the complete export (the seed revealed) folded to the
probe's version: the ids in the hidden zones above, less those ever shown (a card that was in play,
in a discard, dead or used pile, revealed from the deck or picked from a search is known to all from
then on), and for a deck's owner less the cards it has held or was shown by a search. The public id
-> code catalog of the game's first event (each seat's deck list, public at the table) is left out
of the texts searched. Each id hidden at the probe's first and last version must not appear in any
read of that reader. The probe shows it could fail: every hidden id it searches for does appear in
the complete export, and each seat finds its own hand in its own reads.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import pytest

from clients import card_bot
from clients.citadel_client import ApiProblem, SyncCitadelClient
from clients.citadel_client import cards as c
from domain.cards import events as ev
from domain.cards.game import GAME
from domain.cards.state import CardState

DECKS = ("stark_kraken", "watch_stag")
"""Summons (01022) in the first deck, Building Orders (01006) in the second: both plots search
their owner's deck, a choice among hidden cards."""
SEARCH_PLOTS = {"01022", "01006"}
SETTINGS = {"decision_timeout_s": 600}
CARD_ID = re.compile(r"(?<![\w-])s\d+-p?\d+(?![\w-])")
"""A card instance id (``s1-07``, a plot ``s2-p3``)."""
CATEGORIES = ("deck", "hand", "setup", "plot", "choice")
MAX_PROBES = {"marshal": 2, "defend": 3, "after_claim": 3, "choice": 2}
TURNS_READ_S = 1.5
"""How long a turns stream is read: a turn open at that moment is announced at once."""

Reader = str | None


@dataclass
class Probe:
    label: str
    first: int
    """The public version before the reads."""
    last: int = 0
    """The public version after them."""
    reads: dict[str, dict[str, str]] = field(default_factory=dict)
    """reader name -> read name -> body as served."""


@dataclass
class Played:
    gid: str
    seats: dict[str, str]
    organizer: str
    probes: list[Probe]
    export: dict[str, Any]
    hidden: list[dict[str, dict[str, set[str]]]]
    """Per probe: reader name -> category -> ids hidden from that reader."""
    own_hand: list[dict[str, set[str]]]
    """Per probe: seat -> its hand (at the probe's first version)."""


def _lobby_entries(http: httpx.Client, gid: str, wait_s: float = 30.0) -> list[dict]:
    """The game's entries in the game list (``GET /v1/games?kind=cards``), every page read: in the
    whole suite the session's database holds many card games, and the game may not be on page one.
    The list is a projection written a moment after each change: on a loaded machine the game may
    not be listed yet right after its start, so the list is read again until it is (``wait_s``)."""
    deadline = time.monotonic() + wait_s
    while True:
        found: list[dict] = []
        params: dict[str, str | int] = {"kind": "cards", "limit": 200}
        while True:
            page = http.get("/v1/games", params=params).json()
            found += [g for g in page["games"] if g["game_id"] == gid]
            if not page.get("next_cursor"):
                break
            params["cursor"] = page["next_cursor"]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


# --- reading everything a reader can reach ----------------------------------------------------------


def _sse(http: httpx.Client, gid: str, token: str | None, upto: int) -> str:
    """The SSE stream from the start until the event ``upto``."""
    lines: list[str] = []
    with http.stream("GET", f"/v1/games/{gid}/events", headers={**_auth(token), "Accept": "text/event-stream"}) as r:
        for line in r.iter_lines():
            lines.append(line)
            if line.startswith("id: ") and int(line[4:]) >= upto:
                break
    return "\n".join(lines)


def _turns(http: httpx.Client, gid: str, token: str) -> str:
    """The turns stream's opening (every turn open now is announced at once), read for a moment."""
    lines: list[str] = []
    timeout = httpx.Timeout(10, read=TURNS_READ_S)
    body = {"seats": [{"game_id": gid, "token": token}]}
    try:
        with http.stream("POST", "/v1/turns", json=body, timeout=timeout) as r:
            assert r.status_code == 200, r.read()
            for line in r.iter_lines():
                lines.append(line)
    except httpx.ReadTimeout:
        pass
    return "\n".join(lines)


def _reads(http: httpx.Client, gid: str, token: str | None, version: int, *, seat: bool) -> dict[str, str]:
    h = _auth(token)
    out = {
        "public": http.get(f"/v1/games/{gid}", params={"min_version": version}, headers=h).text,
        "public_at_version": http.get(f"/v1/games/{gid}", params={"at_version": version}, headers=h).text,
        "events": http.get(f"/v1/games/{gid}/events", params={"from": 0}, headers=h).text,
        "sse": _sse(http, gid, token, version),
        "log": http.get(f"/v1/games/{gid}/log", headers=h).text,
        "export": http.get(f"/v1/games/{gid}/export", headers=h).text,
        "lobby": json.dumps(_lobby_entries(http, gid)),
        "watch": http.get(f"/watch/{gid}").text,
    }
    if token:
        out["view"] = http.get(f"/v1/games/{gid}/view", params={"min_version": version}, headers=h).text
        out["decisions"] = http.get(f"/v1/games/{gid}/decisions", headers=h).text
    if seat:
        assert token is not None
        out["turns"] = _turns(http, gid, token)
    return out


def _documents(text: str) -> Iterator[Any]:
    """The JSON documents of a body: a whole JSON body, NDJSON lines, or SSE ``data:`` lines."""
    try:
        yield json.loads(text)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        line = line.removeprefix("data:").strip()
        if line.startswith(("{", "[")):
            yield json.loads(line)


def _scrub_catalog(doc: Any) -> Any:
    """The document without the public id -> code catalog of ``cards_game_created`` (each seat's
    deck list, known to all at the table); anything else is kept as served."""
    if isinstance(doc, dict):
        if doc.get("type") == "cards_game_created":
            return {**doc, "decks": [{**d, "cards": {}} for d in doc["decks"]]}
        return {k: _scrub_catalog(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_scrub_catalog(v) for v in doc]
    return doc


def card_ids(text: str) -> set[str]:
    """Every card id in a body, the game's public catalog left out (a non-JSON body as it is)."""
    docs = list(_documents(text))
    if not docs:
        return set(CARD_ID.findall(text))
    return {i for d in docs for i in CARD_ID.findall(json.dumps(_scrub_catalog(d)))}


# --- the hidden sets, from the complete export --------------------------------------------------------


@dataclass
class Knowledge:
    """What has been shown so far: to everyone (``public``), and to each seat besides (``shown``)."""

    public: set[str] = field(default_factory=set)
    shown: dict[str, set[str]] = field(default_factory=dict)

    def see(self, state: CardState, event: ev.Event) -> None:
        s = state
        self.public.update(s.in_play)
        for placed in s.in_play.values():
            self.public.update(placed.duplicates)
        for p in s.players:
            self.public.update(p.discard + p.dead + p.used_plots + p.removed + ([p.plot] if p.plot else []))
            self.shown.setdefault(p.seat_id, set()).update(p.hand)  # held once: known to its owner
        match event:
            case ev.CardsTakenFromDeck(cards=cards):  # a search's pick, revealed
                self.public.update(cards)
            case ev.CardsTopCardRevealed(card=card):
                self.public.add(card)
            case ev.CardsChoiceMade(chosen=chosen):  # revealed by what follows (hand shown, or play)
                self.public.update(chosen)
            case ev.CardsChoiceOffered(choice=choice) if choice.hidden:
                self.shown.setdefault(choice.seat, set()).update(choice.options)


def hidden_from(state: CardState, known: Knowledge, reader: Reader) -> dict[str, set[str]]:
    """Category -> the ids hidden from ``reader`` now (see the module's docstring)."""
    out: dict[str, set[str]] = {k: set() for k in CATEGORIES}
    for p in state.players:
        if p.seat_id == reader:
            out["deck"] |= set(p.deck) - known.shown.get(reader, set())
            continue
        out["deck"] |= set(p.deck)
        out["hand"] |= set(p.hand)
        out["setup"] |= {x.card for x in p.setup or []}
        out["plot"] |= set(p.plots) | ({p.chosen_plot} if p.chosen_plot else set())
    if state.choice is not None and state.choice.hidden and state.choice.seat != reader:
        out["choice"] |= set(state.choice.options)
    return {k: v - known.public for k, v in out.items()}


def _hidden_per_probe(
    export: dict[str, Any], probes: list[Probe], readers: dict[str, Reader]
) -> tuple[list[dict[str, dict[str, set[str]]]], list[dict[str, set[str]]]]:
    events = [msgspec.json.decode(json.dumps(e["event"]).encode(), type=GAME.event_type) for e in export["events"]]
    wanted = {v for p in probes for v in (p.first, p.last)}
    at: dict[int, tuple[dict[str, dict[str, set[str]]], dict[str, set[str]]]] = {}
    state: CardState | None = None
    known = Knowledge()
    for i, e in enumerate(events, start=1):
        state = GAME.fold([e], state)
        known.see(state, e)
        if i in wanted:
            hands = {p.seat_id: set(p.hand) for p in state.players}
            at[i] = ({name: hidden_from(state, known, r) for name, r in readers.items()}, hands)
    hidden = []
    for p in probes:
        first, last = at[p.first][0], at[p.last][0]
        hidden.append({name: {k: first[name][k] & last[name][k] for k in CATEGORIES} for name in readers})
    return hidden, [at[p.first][1] for p in probes]


# --- the game, driven seat by seat with probes between the steps ----------------------------------------


class ProbedJoust:
    def __init__(self, http: httpx.Client, base: str):
        self.http = http
        r = http.post("/v1/games", json={"kind": "cards", "decks": [{"name": d} for d in DECKS], "settings": SETTINGS})
        assert r.status_code == 201, r.text
        self.gid, self.organizer = r.json()["game_id"], r.json()["organizer_token"]
        self.seats: dict[str, str] = {}
        for name in ("ann", "bob"):
            j = http.post(f"/v1/games/{self.gid}/seats", json={"name": name})
            assert j.status_code == 201, j.text
            self.seats[j.json()["seat_id"]] = j.json()["token"]
        assert http.post(f"/v1/games/{self.gid}/start", headers=_auth(self.organizer)).status_code == 200
        self.api = SyncCitadelClient(base, http=http)
        self.clients = {s: self.api.with_token(t) for s, t in self.seats.items()}
        created = json.loads(http.get(f"/v1/games/{self.gid}/events", params={"limit": 1}).text.splitlines()[0])
        self.codes = {i: code for d in created["event"]["decks"] for i, code in d["cards"].items()}
        self.rng = random.Random(14)
        self.probes: list[Probe] = []
        self.counts: dict[str, int] = {}
        self.sealed: set[tuple[str, int, str]] = set()
        """(kind, round, seat) of the setup and plots sealed."""
        self.readers: dict[str, Reader] = {"spectator": None, "organizer": None, **{s: s for s in self.seats}}
        self.tokens: dict[str, str | None] = {"spectator": None, "organizer": self.organizer, **self.seats}

    def version(self) -> int:
        """The game's version (the decisions are read from the event stream; a view may lag behind)."""
        r = self.http.get(f"/v1/games/{self.gid}/decisions", headers=_auth(self.organizer))
        return int(r.json()["version"])

    def round_at(self, version: int) -> int:
        """The round at ``version`` (the organizer may read any version)."""
        r = self.http.get(f"/v1/games/{self.gid}", params={"at_version": version}, headers=_auth(self.organizer))
        return int(r.json()["round"])

    def probe(self, label: str, kind: str | None = None) -> None:
        if kind is not None:
            if self.counts.get(kind, 0) >= MAX_PROBES[kind]:
                return
            self.counts[kind] = self.counts.get(kind, 0) + 1
        p = Probe(label, self.version())
        for name, token in self.tokens.items():
            p.reads[name] = _reads(self.http, self.gid, token, p.first, seat=name in self.seats)
        p.last = self.version()
        self.probes.append(p)

    def choose(self, d: c.CardDecision, round_: int) -> Any:
        """The bot's random choice, but in round 1 a plot that searches the deck (a hidden choice)."""
        if d.kind == "plot" and round_ == 1:
            search = [x for x in d.cards if self.codes[x] in SEARCH_PLOTS]
            if search:
                return c.ChoosePlot(plot=search[0])
        return card_bot.random_command(d, self.rng)

    def before(self, seat: str, d: c.CardDecision, round_: int) -> None:
        other = next(s for s in self.seats if s != seat)
        if d.kind == "mulligan" and not self.probes:
            self.probe("hands dealt, before the mulligans (CG-SETUP-05/06)")
        elif d.kind in ("setup", "plot") and (d.kind, round_, other) in self.sealed:
            rule = "CG-SETUP-07" if d.kind == "setup" else "CG-PHASE-01"
            self.probe(f"{other}'s {d.kind} sealed, {seat} choosing ({rule}), round {round_}")
        elif d.kind == "plot" and round_ == 1 and not self.sealed & {("plot", 1, s) for s in self.seats}:
            self.probe("after the setup reveal, before any plot (CG-SETUP-08/09)")
        elif d.kind == "ability":
            self.probe(f"{seat}'s ability choice pending, round {round_}", "choice")
        elif d.kind == "marshal":
            self.probe(f"marshaling, {seat} active, round {round_}", "marshal")
        elif d.kind == "defend":
            self.probe(f"challenge declared, {seat} to defend, round {round_}", "defend")

    def answer(self, seat: str, d: c.CardDecision, ds: c.CardDecisionsOut, round_: int) -> bool:
        """True when a command was accepted; False when the game moved on first."""
        me = self.clients[seat]
        command = self.choose(d, round_)
        if command is None:
            return False
        for attempt in (command, card_bot.FALLBACKS[d.kind](d)):
            try:
                me.command(self.gid, attempt, if_match=ds.version)
            except ApiProblem as e:
                if e.status == 409 and e.code == "stale_version":
                    return False
                assert e.status == 422 and attempt is command, (d.kind, e.code, str(e))
                continue
            if d.kind in ("setup", "plot"):
                self.sealed.add((d.kind, round_, seat))
            if d.kind == "claim":
                self.probe(f"after {seat}'s claim, round {round_}", "after_claim")
            return True
        return False

    def play(self, timeout_s: float = 400) -> None:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            acted = False
            for seat, me in self.clients.items():
                ds = me.card_decisions(self.gid)
                if ds.phase == "ended":
                    return
                todo = [d for d in ds.decisions if card_bot.actionable(d)]
                if not todo:
                    continue
                round_ = self.round_at(ds.version)
                self.before(seat, todo[0], round_)
                acted = self.answer(seat, todo[0], ds, round_) or acted
            if not acted:
                time.sleep(0.05)  # the worker reveals sealed setup and plots
        raise AssertionError("the joust did not end in time")


@pytest.fixture(scope="module")
def played(service) -> Played:
    base, _ = service
    with httpx.Client(base_url=base, timeout=30) as http:
        game = ProbedJoust(http, base)
        game.play()
        for _ in range(100):  # the final version (the winner declared)
            if http.get(f"/v1/games/{game.gid}").json()["phase"] == "ended":
                break
            time.sleep(0.1)
        export = http.get(f"/v1/games/{game.gid}/export").json()
    assert export["complete"] and export["seed"], "after the end the export is complete"
    hidden, hands = _hidden_per_probe(export, game.probes, game.readers)
    return Played(game.gid, game.seats, game.organizer, game.probes, export, hidden, hands)


def _leaks(played: Played, category: str) -> list[str]:
    out = []
    for probe, hidden in zip(played.probes, played.hidden):
        for name, reads in probe.reads.items():
            secret = hidden[name][category]
            for read, text in reads.items():
                seen = card_ids(text) & secret
                if seen:
                    out.append(f"{probe.label} (v{probe.first}): {name} sees {category} {sorted(seen)} via {read}")
    return out


def _probed(played: Played, category: str, readers: tuple[str, ...]) -> int:
    """How many (probe, reader) pairs had ids of ``category`` hidden: the checks were not vacuous."""
    return sum(1 for h in played.hidden for name in readers if h[name][category])


def test_CG_SETUP_05_deck_order_hidden_from_everyone_its_owner_too(played):
    """CG-SETUP-05 (CG-GEN-03): the shuffled draw deck is face down. No reader, the deck's owner
    included, finds a card of a deck it has never held or been shown, through any endpoint or stream."""
    assert _probed(played, "deck", tuple(played.seats)) == len(played.probes) * 2
    assert _probed(played, "deck", ("spectator", "organizer")) == len(played.probes) * 2
    assert _leaks(played, "deck") == []


def test_CG_SETUP_06_hands_hidden_from_the_other_seat_and_spectators(played):
    """CG-SETUP-06 (CG-GEN-03): the 7 setup cards, the mulligan's, and every card drawn later are in
    their owner's hand: the other seat, the organizer and spectators never see them; the owner does
    (its own view and decisions name its hand, so the search below would find a leaked one)."""
    assert _probed(played, "hand", ("spectator", "organizer", *played.seats)) > len(played.probes)
    assert _leaks(played, "hand") == []
    for probe, hands in zip(played.probes, played.own_hand):
        for seat in played.seats:
            assert hands[seat] <= card_ids(probe.reads[seat]["view"]), (probe.label, seat)


def test_CG_SETUP_07_facedown_setup_cards_hidden_until_the_simultaneous_reveal(played):
    """CG-SETUP-07/08: one seat's setup cards, sealed face down while the other still chooses, are
    seen by nobody else until the reveal (the count is public)."""
    sealed = [i for i, p in enumerate(played.probes) if "setup sealed" in p.label]
    assert sealed, "no probe while one seat's setup was sealed"
    assert any(played.hidden[i]["spectator"]["setup"] for i in sealed), "the sealed setup was empty"
    assert _leaks(played, "setup") == []


def _events_of(read: str, text: str) -> list[dict[str, Any]]:
    """The events of an NDJSON body, an SSE stream or an export."""
    if read == "export":
        return [e["event"] for e in json.loads(text)["events"]]
    return [doc["event"] for doc in _documents(text) if isinstance(doc, dict) and "event" in doc]


def test_CG_PHASE_01_sealed_plot_hidden_until_the_reveal(played):
    """CG-PHASE-01: the plot a seat picked in secret (and the rest of its plot deck) is seen by
    nobody else before the simultaneous reveal. Once the used plots went back to the plot deck
    (CG-PHASE-02) a chosen plot's id is public from an earlier round: there the sealed choice is
    checked where it would show, the ``cards_plot_chosen`` events (no plot, no salt) and the views
    (no ``chosen_plot``)."""
    sealed = [i for i, p in enumerate(played.probes) if "plot sealed" in p.label]
    assert sealed, "no probe while one seat's plot was sealed"
    never_shown = 0
    for i in sealed:
        probe = played.probes[i]
        sealer = probe.label.split("'")[0]
        chosen = [
            e["event"]["plot"]
            for e in played.export["events"]
            if e["event"]["type"] == "cards_plot_chosen" and e["event"]["seat_id"] == sealer and e["seq"] <= probe.first
        ][-1]
        other = next(s for s in played.seats if s != sealer)
        for name in ("spectator", "organizer", other):
            never_shown += chosen in played.hidden[i][name]["plot"]
            reads = probe.reads[name]
            for read in ("events", "sse", "export"):
                for e in _events_of(read, reads[read]):
                    if e["type"] == "cards_plot_chosen" and e["seat_id"] == sealer:
                        assert e["plot"] is None and e["salt"] is None, (probe.label, name, read)
            for read in ("public", "view") if name != "spectator" else ("public",):
                seat = next(x for x in json.loads(reads[read])["seats"] if x["seat_id"] == sealer)
                assert seat["has_chosen_plot"] and seat["chosen_plot"] is None, (probe.label, name, read)
    assert never_shown, "no sealed plot was searched for as a never-shown id"
    assert _leaks(played, "plot") == []


def test_a_hidden_search_choice_is_seen_only_by_the_chooser(played):
    """Summons / Building Orders (CG-PHASE-04 When Revealed): the cards offered from the top of the
    searcher's deck are seen by the searcher alone (its decision lists them), until one is taken and
    revealed."""
    pending = [i for i, p in enumerate(played.probes) if "ability choice pending" in p.label]
    assert pending, "no search choice happened"
    assert any(played.hidden[i]["spectator"]["choice"] for i in pending)
    for i in pending:
        chooser = played.probes[i].label.split("'")[0]
        offered = played.hidden[i]["spectator"]["choice"]
        assert offered <= card_ids(played.probes[i].reads[chooser]["decisions"])
    assert _leaks(played, "choice") == []


def test_the_probe_would_see_a_leak(played):
    """Every id the probe searches for is a card id the unredacted (complete, after the end) export
    names (but plots never chosen, named in the public deck lists alone): had any endpoint served a
    hidden field, the search would have found it."""
    complete = card_ids(json.dumps(played.export))
    for probe, hidden in zip(played.probes, played.hidden):
        for name in probe.reads:
            for category in CATEGORIES:
                missing = hidden[name][category] - complete
                if category == "plot":  # a plot never chosen is named in the (public) deck lists alone
                    missing = {x for x in missing if "-p" not in x}
                assert not missing, (probe.label, name, category, missing)
    for probe in played.probes:  # the reads are what a reader gets, not errors
        for name, reads in probe.reads.items():
            for read in ("events", "sse", "export"):
                assert "cards_game_created" in reads[read], (probe.label, name, read)
            assert [g["game_id"] for g in json.loads(reads["lobby"])] == [played.gid]
            assert json.loads(reads["public"])["version"] >= probe.first
            assert reads["watch"].startswith("<!doctype html>")
            if name in played.seats:
                assert json.loads(reads["view"])["you"] == name
                assert reads["turns"].startswith("retry:"), reads["turns"]
        at = json.loads(probe.reads["organizer"]["public_at_version"])
        assert at["version"] == probe.first, "the organizer reads the public view at any version"
    labels = " | ".join(p.label for p in played.probes)
    for what in ("hands dealt", "setup sealed", "after the setup reveal", "plot sealed", "marshaling", "to defend"):
        assert what in labels, what
