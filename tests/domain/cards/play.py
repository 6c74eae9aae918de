"""Helpers that play the card game in the domain: create, join, start, and answer decisions at
random (or by the documented default) until the game ends. No mocks: the real decide and fold."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import msgspec

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards.decisions import CardDecision, decisions_for
from domain.cards.decks import DeckChoice
from domain.cards.evolve import fold
from domain.cards.game import GAME
from domain.cards.rules import create, decide, pending_system_work
from domain.cards.state import CardState, Placed, SetupPick
from domain.core.commands import ORGANIZER, SYSTEM, Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from domain.core.context import Context, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.hashing import GENESIS

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Table:
    """A game in the domain: its events and state; ``act`` decides and folds one command."""

    def __init__(self, seed: str = "seed", decks: tuple[str, ...] = ("stark_kraken", "lannister_rose")) -> None:
        self.seed = seed
        self.now = T0
        self.taken: set[str] = set()
        """Cards a test has arranged already (``to_hand``, ``put_in_play`` never hand out one twice)."""
        body = cmd.CardsCreateBody(kind="cards", decks=[DeckChoice(name=d) for d in decks], player_count=len(decks))
        self.events = list(create(body, self.ctx()))
        self.batches: list[tuple[datetime, list[object]]] = [(self.now, list(self.events))]
        state = fold(self.events)
        assert state is not None
        self.state: CardState = state
        for name in ["ann", "bob", "cat", "dan", "eve", "fay"][: len(decks)]:
            self.act(Actor(kind="seat"), JoinGame(name=name))

    def ctx(self) -> Context:
        return Context(now=self.now, seed=self.seed, game_id="g_test")

    def act(self, actor: Actor, command: object) -> list[object]:
        self.now += timedelta(seconds=1)
        out = decide(self.state, command, actor, self.ctx())
        self.events.extend(out)
        self.batches.append((self.now, list(out)))
        fold(out, self.state)
        if pending_system_work(self.state):
            self.act(SYSTEM, ResolvePending())
        return out

    def start(self) -> None:
        self.act(ORGANIZER, StartGame())

    def seat(self, seat_id: str, command: object) -> list[object]:
        return self.act(Actor(kind="seat", seat_id=seat_id), command)

    def timeout(self) -> list[object]:
        assert self.state.deadline is not None
        self.now = max(self.now, datetime.fromisoformat(self.state.deadline.replace("Z", "+00:00")))
        return self.act(SYSTEM, ApplyTimeout(step_version=self.state.step_version))


def random_command(state: CardState, seat: str, rng: random.Random) -> object | None:
    """A random legal answer to ``seat``'s decision (None: it has none)."""
    ds = decisions_for(state, seat).decisions
    if not ds:
        return None
    d = ds[0]
    match d.kind:
        case "mulligan":
            return cmd.ChooseMulligan(mulligan=rng.random() < 0.3)
        case "setup":
            if d.submitted:
                return None
            picks: list[SetupPick] = []
            spent = 0
            limited = False
            names: set[str] = set()
            for c in rng.sample(d.cards, len(d.cards)):
                rec = state.record(c)
                if rec.type == "attachment" or rec.name in names:
                    continue
                if spent + rec.printed_cost <= 8 and not (rec.limited and limited):
                    picks.append(SetupPick(card=c))
                    spent += rec.printed_cost
                    limited = limited or rec.limited
                    names.add(rec.name)
            return cmd.ChooseSetup(cards=picks)
        case "plot":
            return None if d.submitted else cmd.ChoosePlot(plot=rng.choice(d.cards))
        case "first_player":
            return cmd.ChooseFirstPlayer(seat_id=rng.choice(d.seats))
        case "marshal":
            acted = _use_action(d, rng)
            if acted is not None:
                return acted
            if not d.cards or rng.random() < 0.2:
                return cmd.EndMarshaling()
            c = rng.choice(d.cards)
            targets = d.attach_targets.get(c)
            return cmd.MarshalCard(card=c, attach_to=rng.choice(targets) if targets else None)
        case "challenge":
            if not d.challenge_types or rng.random() < 0.15:
                return cmd.EndChallenges()
            t = rng.choice(sorted(d.challenge_types))
            pool = d.challenge_types[t]
            attackers = rng.sample(pool, rng.randint(1, min(len(pool), d.max_cards or len(pool))))
            stealth: dict[str, str] = {}
            defender = rng.choice(d.opponents[t]) if d.opponents else None  # a melee names the defender
            free = list(d.stealth_targets if defender is None else d.stealth_by_opponent[defender])
            for a in attackers:
                if current.has_keyword(state, a, "stealth") and free:
                    stealth[a] = free.pop(rng.randrange(len(free)))
            return cmd.DeclareChallenge(challenge_type=t, attackers=attackers, stealth=stealth, defender=defender)  # type: ignore[arg-type]
        case "defend":
            pool = next(iter(d.challenge_types.values()))
            most = len(pool) if d.max_cards is None else min(len(pool), d.max_cards)
            free = [c for c in pool if c not in d.must_defend]
            extra = rng.sample(free, rng.randint(0, max(0, min(len(free), most - len(d.must_defend)))))
            return cmd.DeclareDefenders(defenders=list(d.must_defend) + extra)
        case "claim":
            assert d.count is not None
            return cmd.ChooseClaimVictims(characters=rng.sample(d.cards, d.count))
        case "action":
            acted = _use_action(d, rng)
            if acted is not None:
                return acted
            if not d.cards or rng.random() < 0.5:
                return cmd.PassAction()
            c = rng.choice(d.cards)
            targets = d.attach_targets.get(c)
            return cmd.AmbushCard(card=c, attach_to=rng.choice(targets) if targets else None)
        case "intimidate":
            return cmd.ChooseIntimidate(target=rng.choice([None, *d.cards]))
        case "reaction":
            if d.events and rng.random() < 0.7:
                card = rng.choice(sorted(d.events))
                targets = d.events[card]
                return cmd.PlayEvent(card=card, target=rng.choice(targets) if targets else None)
            return cmd.Decline()
        case "save" | "cancel":
            if d.interrupts and rng.random() < 0.7:
                card = rng.choice(sorted(d.interrupts))
                return cmd.UseInterrupt(card=card, target=rng.choice(d.interrupts[card]))
            return cmd.Decline()
        case "reserve":
            assert d.count is not None
            return cmd.DiscardToReserve(cards=rng.sample(d.cards, d.count))
        case "ability":
            assert d.count is not None
            return cmd.ChooseTargets(cards=rng.sample(d.cards, min(d.count, len(d.cards))))
        case "title":
            return cmd.ChooseTitle(title=rng.choice(d.cards))
        case "regent":
            return cmd.ChooseRedirect(redirect=rng.random() < 0.5)
        case "redirect":
            return cmd.ChooseDefender(seat_id=rng.choice(d.seats))
    raise AssertionError(d.kind)


def _use_action(d: CardDecision, rng: random.Random) -> object | None:
    """Sometimes a random card Action or event of the decision (None: none this time)."""
    if d.actions and rng.random() < 0.3:
        card = rng.choice(sorted(d.actions))
        targets = d.actions[card]
        return cmd.UseAction(card=card, target=rng.choice(targets) if targets else None)
    if d.events and rng.random() < 0.3:
        card = rng.choice(sorted(d.events))
        targets = d.events[card]
        return cmd.PlayEvent(card=card, target=rng.choice(targets) if targets else None)
    return None


def play_random(table: Table, rng: random.Random, max_batches: int = 5000, timeouts: float = 0.0) -> None:
    """Answer every decision at random (a share ``timeouts`` of steps left to their deadline) to the end."""
    table.start()
    for _ in range(max_batches):
        s = table.state
        if s.phase == "ended":
            return
        if rng.random() < timeouts:
            table.timeout()
            continue
        acted = False
        for seat in list(s.waiting) or s.seat_ids():
            c = random_command(s, seat, rng)
            if c is not None:
                table.seat(seat, c)
                acted = True
                break
        if not acted:
            table.timeout()
    raise AssertionError("the game did not end")


def envelopes(table: Table) -> list[Envelope]:
    """The stream as stored: each batch sealed at its own time in a hash chain."""
    out: list[Envelope] = []
    prev = GENESIS
    seq = 0
    for ts, batch in table.batches:
        for e in batch:
            seq += 1
            env = seal(seq, rfc3339(ts), GAME.schema_version, prev, msgspec.json.encode(e))
            out.append(env)
            prev = env.hash
    return out


def to_plot_step(table: Table) -> None:
    """Start, every seat keeps its hand and sets nothing up: round 1's plot step."""
    table.start()
    for seat in table.state.seat_ids():
        table.seat(seat, cmd.ChooseMulligan(mulligan=False))
    for seat in table.state.seat_ids():
        table.seat(seat, cmd.ChooseSetup(cards=[]))
    assert table.state.step == "plot"
    without_events(table)


def without_events(table: Table) -> None:
    """Event cards go to the bottom of the decks (the hands refilled from the top), so that no
    action window opens for an event in a test about something else (the event tests take theirs
    with ``to_hand``)."""
    s = table.state
    for p in s.players:
        events = [c for c in p.hand + p.deck if s.record(c).type == "event"]
        size = len(p.hand)
        p.hand = [c for c in p.hand if c not in events]
        p.deck = [c for c in p.deck if c not in events]
        while len(p.hand) < size and p.deck:
            p.hand.append(p.deck.pop(0))
        p.deck.extend(events)


def put_in_play(table: Table, seat: str, code: str, kneeling: bool = False) -> str:
    """Move a card of ``code`` from ``seat``'s deck or hand into play (a position for a test)."""
    s = table.state
    p = s.player(seat)
    iid = next(i for i in p.hand + p.deck if s.cards[i] == code and i not in table.taken)
    table.taken.add(iid)
    (p.hand if iid in p.hand else p.deck).remove(iid)
    s.in_play[iid] = Placed(card=iid, controller=seat, kneeling=kneeling)
    return iid


def to_hand(table: Table, seat: str, code: str) -> str:
    s = table.state
    p = s.player(seat)
    iid = next(i for i in p.hand + p.deck if s.cards[i] == code and i not in table.taken)
    table.taken.add(iid)
    if iid in p.deck:
        p.deck.remove(iid)
        p.hand.append(iid)
    return iid


def plots_by_code(table: Table, seat: str, code: str) -> str:
    return next(i for i in table.state.player(seat).plots if table.state.cards[i] == code)
