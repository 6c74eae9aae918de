"""A bot that plays one seat of a card game (A Game of Thrones: The Card Game, joust) through the
public API by random legal choices.

    bot = CardBot("http://127.0.0.1:8000", game_id, seat_token, seed=7)
    stats = await bot.run()            # until the game has ended

    played = await play_card_game("http://127.0.0.1:8000", ("stark_kraken", "watch_stag"), seed=1)

It only uses what any client has: ``GET /decisions`` (its own token) gives its one pending decision,
its kind and legal options (``clients.citadel_client.cards.CardDecision``); for each kind of the
card game's ``DEFAULTS`` table one small function (:data:`CHOOSERS`, named after the kind) builds a
random command from those options alone, and the bot POSTs it with an ``Idempotency-Key`` and
``If-Match`` (the version the options were read at). A command decided on the very state the options
describe should never be refused: every 422, and every 409 but ``stale_version``, counts as a refusal
(:attr:`~clients.driver.BotStats.refused`, by kind and code in ``refusals``); the bot then tries other
random choices, and at last the simplest legal answer (:data:`FALLBACKS`: keep, no setup, end
marshaling, pass...). A stale version re-reads the decision. With nothing to decide (the other
seat's turn, the worker's reveal of sealed setup and plots) it long-polls ``GET /events``.

It speaks HTTP only, through :mod:`clients.citadel_client` (its own models of the API's JSON).
``python -m clients.card_bot --games 3`` plays games against a running service.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clients.citadel_client import cards as c
from clients.citadel_client.client import CitadelClient
from clients.citadel_client.models import CommandBody
from clients.driver import WAIT_S, BotError, BotStats, SeatDriver

MAX_ATTEMPTS = 4
"""Random choices tried for one decision (after a refusal) before the fallback."""

Chooser = Callable[[c.CardDecision, random.Random], CommandBody | None]


def _subset(cards: Sequence[str], rng: random.Random, at_least: int = 0, at_most: int | None = None) -> list[str]:
    """A random subset of ``cards`` (random size, at least ``at_least``, at most ``at_most``), in random order."""
    top = len(cards) if at_most is None else min(at_most, len(cards))
    return rng.sample(list(cards), rng.randint(min(at_least, top), top))


# --- random legal choices, one per decision kind (from the decision's options only) ----------------


def mulligan(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseMulligan(mulligan=rng.random() < 0.3)


def setup(d: c.CardDecision, rng: random.Random) -> CommandBody | None:
    """Facedown setup within the decision's facts: printed costs at most ``budget`` (a further copy
    of a unique title set up is a free duplicate), at most one Limited card, each attachment on a
    character set up with it that ``attach_targets`` allows. Attachments are those ``attach_targets``
    names. Already sealed: nothing (it may be amended, but need not be)."""
    if d.submitted:
        return None
    budget = d.budget or 0
    spent = 0
    limited = False
    titles: set[str] = set()
    picks: list[c.SetupPick] = []
    characters: set[str] = set()
    order = rng.sample(d.cards, len(d.cards))
    for card in [x for x in order if x not in d.attach_targets] + [x for x in order if x in d.attach_targets]:
        if rng.random() < 0.3:
            continue
        title = d.unique_titles.get(card)
        attachment = card in d.attach_targets
        if title is not None and title in titles:
            if not attachment:  # a free duplicate under the first copy
                picks.append(c.SetupPick(card=card))
            continue
        cost = d.costs.get(card, budget + 1)
        if spent + cost > budget or (card in d.limited and limited):
            continue
        target: str | None = None
        if attachment:
            targets = [t for t in d.attach_targets[card] if t in characters]
            if not targets:
                continue
            target = rng.choice(targets)
        elif card in {t for ts in d.attach_targets.values() for t in ts}:
            characters.add(card)
        picks.append(c.SetupPick(card=card, attach_to=target))
        spent += cost
        limited = limited or card in d.limited
        if title is not None:
            titles.add(title)
    return c.ChooseSetup(cards=picks)


def plot(d: c.CardDecision, rng: random.Random) -> CommandBody | None:
    return None if d.submitted else c.ChoosePlot(plot=rng.choice(d.cards))


def first_player(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseFirstPlayer(seat_id=rng.choice(d.seats))


def _card_action_or_event(d: c.CardDecision, rng: random.Random) -> CommandBody | None:
    """A card's Action (``actions``) or an event (``events``) at random, on one of its targets (none
    when it lists none); None when the decision offers neither."""
    options = [("action", card) for card in d.actions] + [("event", card) for card in d.events]
    if not options:
        return None
    what, card = rng.choice(options)
    targets = (d.actions if what == "action" else d.events)[card]
    target = rng.choice(targets) if targets else None
    return c.UseAction(card=card, target=target) if what == "action" else c.PlayEvent(card=card, target=target)


def marshal(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """End marshaling now and then; otherwise marshal a card, or use an Action or play an event
    (when the decision offers some)."""
    if rng.random() < 0.15:
        return c.EndMarshaling()
    if (d.actions or d.events) and (not d.cards or rng.random() < 0.3):
        other = _card_action_or_event(d, rng)
        if other is not None:
            return other
    if not d.cards:
        return c.EndMarshaling()
    card = rng.choice(d.cards)
    targets = d.attach_targets.get(card)
    return c.MarshalCard(card=card, attach_to=rng.choice(targets) if targets else None)


def challenge(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """A type still open, a non-empty random set of its eligible attackers (at most ``max_cards``),
    and for some stealth attackers a different bypassed character each."""
    if not d.challenge_types or rng.random() < 0.15:
        return c.EndChallenges()
    kind = rng.choice(sorted(d.challenge_types))
    attackers = _subset(d.challenge_types[kind], rng, at_least=1, at_most=d.max_cards)
    defender = rng.choice(d.opponents[kind]) if d.opponents else None  # a melee names the defender
    free = list(d.stealth_targets if defender is None else d.stealth_by_opponent.get(defender, []))
    stealth: dict[str, str] = {}
    for a in attackers:
        if a in d.stealth_attackers and free and rng.random() < 0.7:
            stealth[a] = free.pop(rng.randrange(len(free)))
    return c.DeclareChallenge(challenge_type=kind, attackers=attackers, stealth=stealth, defender=defender)  # type: ignore[arg-type]  # a key of challenge_types


def defend(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """The characters that must defend (``must_defend``), then a random set of the other eligible
    ones, at most ``max_cards`` in all."""
    pool = next(iter(d.challenge_types.values()), [])
    must = [x for x in d.must_defend if x in pool]
    room = None if d.max_cards is None else max(0, d.max_cards - len(must))
    return c.DeclareDefenders(defenders=must + _subset([x for x in pool if x not in must], rng, at_most=room))


def claim(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseClaimVictims(characters=rng.sample(d.cards, min(d.count or 0, len(d.cards))))


def intimidate(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseIntimidate(target=rng.choice([None, *d.cards]))


def action(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """Pass half the time; otherwise Ambush a card, use an Action or play an event (as offered)."""
    if rng.random() < 0.5:
        return c.PassAction()
    if d.actions or d.events:
        if not d.cards or rng.random() < 0.5:
            other = _card_action_or_event(d, rng)
            if other is not None:
                return other
    if not d.cards:
        return c.PassAction()
    card = rng.choice(d.cards)
    targets = d.attach_targets.get(card)
    return c.AmbushCard(card=card, attach_to=rng.choice(targets) if targets else None)


def reserve(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.DiscardToReserve(cards=rng.sample(d.cards, min(d.count or 0, len(d.cards))))


def reaction(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """Often a reaction event of the decision's ``events`` (with one of its targets), else decline."""
    if d.events and rng.random() < 0.7:
        card = rng.choice(sorted(d.events))
        targets = d.events[card]
        return c.PlayEvent(card=card, target=rng.choice(targets) if targets else None)
    return c.Decline()


def save(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """Often an interrupt of the decision's ``interrupts`` (save: a card -> the characters it may save;
    cancel: a card -> the event it may cancel), else decline."""
    if d.interrupts and rng.random() < 0.7:
        card = rng.choice(sorted(d.interrupts))
        return c.UseInterrupt(card=card, target=rng.choice(d.interrupts[card]))
    return c.Decline()


def ability(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseTargets(cards=rng.sample(d.cards, min(d.count or 0, len(d.cards))))


def title(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """Melee: a random title among those offered."""
    return c.ChooseTitle(title=rng.choice(d.cards))


def regent(d: c.CardDecision, rng: random.Random) -> CommandBody:
    """Melee, Crown Regent: force a redirect half the time."""
    return c.ChooseRedirect(redirect=rng.random() < 0.5)


def redirect(d: c.CardDecision, rng: random.Random) -> CommandBody:
    return c.ChooseDefender(seat_id=rng.choice(d.seats))


CHOOSERS: dict[str, Chooser] = {
    "mulligan": mulligan,
    "setup": setup,
    "plot": plot,
    "first_player": first_player,
    "marshal": marshal,
    "challenge": challenge,
    "defend": defend,
    "claim": claim,
    "intimidate": intimidate,
    "action": action,
    "reserve": reserve,
    "reaction": reaction,
    "save": save,
    "cancel": save,
    "ability": ability,
    "title": title,
    "regent": regent,
    "redirect": redirect,
}
"""Decision kind -> a random legal command from its options (None: nothing to send)."""

FALLBACKS: dict[str, Callable[[c.CardDecision], CommandBody]] = {
    "mulligan": lambda d: c.ChooseMulligan(mulligan=False),
    "setup": lambda d: c.ChooseSetup(cards=[]),
    "plot": lambda d: c.ChoosePlot(plot=d.cards[0]),
    "first_player": lambda d: c.ChooseFirstPlayer(seat_id=d.seat_id),
    "marshal": lambda d: c.EndMarshaling(),
    "challenge": lambda d: c.EndChallenges(),
    "defend": lambda d: c.DeclareDefenders(defenders=list(d.must_defend)),
    "claim": lambda d: c.ChooseClaimVictims(characters=d.cards[: d.count or 0]),
    "intimidate": lambda d: c.ChooseIntimidate(),
    "action": lambda d: c.PassAction(),
    "reserve": lambda d: c.DiscardToReserve(cards=d.cards[len(d.cards) - (d.count or 0) :]),
    "reaction": lambda d: c.Decline(),
    "save": lambda d: c.Decline(),
    "cancel": lambda d: c.Decline(),
    "ability": lambda d: c.ChooseTargets(cards=list(d.default_targets)),
    "title": lambda d: c.ChooseTitle(title=d.default_targets[0] if d.default_targets else d.cards[0]),
    "regent": lambda d: c.ChooseRedirect(redirect=False),
    "redirect": lambda d: c.ChooseDefender(seat_id=d.seats[0]),
}
"""Decision kind -> the simplest legal answer (what the deadline would do)."""


def random_command(d: c.CardDecision, rng: random.Random) -> CommandBody | None:
    chooser = CHOOSERS.get(d.kind)
    if chooser is None:
        raise BotError(f"the card bot knows no decision kind {d.kind!r} (commands {d.commands})")
    return chooser(d, rng)


def actionable(d: c.CardDecision) -> bool:
    """A sealed setup or plot stays listed (it may be amended) but needs nothing more."""
    return not (d.kind in ("setup", "plot") and d.submitted)


# --- the bot ------------------------------------------------------------------------------------


class CardBot(SeatDriver[c.CardDecision, CommandBody]):
    """Plays the seat of ``token`` in the card game ``game_id`` until the game has ended (the loop:
    :class:`clients.driver.SeatDriver`)."""

    max_attempts = MAX_ATTEMPTS
    key_prefix = "cardbot"
    max_connections = 2

    async def read_decisions(self) -> c.CardDecisionsOut:
        return await self.api.card_decisions(self.game_id)

    def kind(self, d: c.CardDecision) -> str:
        return d.kind

    def actionable(self, d: c.CardDecision) -> bool:
        return actionable(d)

    def random_command(self, d: c.CardDecision) -> CommandBody | None:
        return random_command(d, self.rng)

    def fallback_command(self, d: c.CardDecision) -> CommandBody:
        return FALLBACKS[d.kind](d)


# --- a whole game --------------------------------------------------------------------------------


@dataclass
class PlayedCardGame:
    game_id: str
    organizer_token: str
    decks: tuple[str, ...]
    version: int
    """The final version."""
    seats: dict[str, str]
    """seat id -> token."""
    winner: str | None
    end_reason: str | None
    round: int
    seconds: float
    stats: BotStats


async def play_card_game(
    base: str,
    decks: Sequence[str] = ("stark_kraken", "lannister_rose"),
    seed: int | str = 0,
    settings: dict[str, Any] | None = None,
    *,
    wait_s: int = WAIT_S,
) -> PlayedCardGame:
    """Create a joust with these two decks (a melee with 3 to 6), join every seat, start it and run
    one :class:`CardBot` per seat until the game has ended."""
    t0 = time.perf_counter()
    names = tuple(decks)
    async with CitadelClient(base, timeout=wait_s + 30, max_connections=max(4, 2 * len(names))) as api:
        created = await api.create_card_game(list(names), settings or {})
        game_id, organizer = created.game_id, created.organizer_token
        seats: dict[str, str] = {}
        for name in (f"bot {n}" for n in range(1, len(names) + 1)):
            seat = await api.join(game_id, name)
            seats[seat.seat_id] = seat.token
        await api.with_token(organizer).start(game_id)
        bots = [
            CardBot(base, game_id, token, f"{seed}/{seat}", client=api, wait_s=wait_s) for seat, token in seats.items()
        ]
        async with asyncio.TaskGroup() as tg:  # one failure cancels the other
            for bot in bots:
                tg.create_task(bot.run())
        stats = BotStats()
        for bot in bots:
            stats.add(bot.stats)
        view = await api.card_view(game_id, min_version=max(bot.version for bot in bots))
        return PlayedCardGame(
            game_id=game_id,
            organizer_token=organizer,
            decks=names,
            version=view.version,
            seats=seats,
            winner=view.winner,
            end_reason=view.end_reason,
            round=view.round,
            seconds=time.perf_counter() - t0,
            stats=stats,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description="Random card-game bots (joust or melee) against a running service.")
    ap.add_argument("--base", default="http://127.0.0.1:8000")
    ap.add_argument(
        "--decks", nargs="+", default=list(c.LEGAL_DECKS[:2]), metavar="DECK", help="2 decks: a joust; 3 to 6: a melee"
    )
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", default="0")
    args = ap.parse_args()
    for i in range(args.games):
        g = asyncio.run(play_card_game(args.base, args.decks, f"{args.seed}-{i}", {"decision_timeout_s": 3600}))
        print(
            f"game {g.game_id} ended: {g.winner} won ({g.end_reason}) in round {g.round}, {g.stats.accepted} commands, "
            f"{g.stats.refused} refused, {g.seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
