"""Random joust games in the domain, to a winner, with invariants checked after every batch:
every card in exactly one zone (conserved), gold and power never negative, a unique title in play
at most once per player (CG-UNIQUE-01), attachments on cards in play."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from domain.cards.state import CardState

from .play import Table, play_random

DECKS = ["stark_kraken", "watch_stag", "targaryen_sun", "lannister_rose"]


def violations(s: CardState) -> list[str]:
    out = []
    where: Counter[str] = Counter()
    for p in s.players:
        for zone in (p.deck, p.hand, p.plots, p.used_plots, p.discard, p.dead, p.removed):
            where.update(zone)
        if p.plot is not None:
            where[p.plot] += 1
        if p.gold < 0 or p.faction_power < 0:
            out.append(f"{p.seat_id}: gold {p.gold}, power {p.faction_power}")
    for placed in s.in_play.values():
        where[placed.card] += 1
        where.update(placed.duplicates)
        if placed.power < 0:
            out.append(f"{placed.card} has {placed.power} power")
        if placed.attached_to is not None and placed.attached_to not in s.in_play:
            out.append(f"{placed.card} is attached to {placed.attached_to}, not in play")
    if set(where) != set(s.cards) or any(n != 1 for n in where.values()):
        out.append(f"cards not conserved: {[c for c in s.cards if where[c] != 1][:5]}")
    for seat in s.seat_ids():
        titles = Counter(s.record(p.card).name for p in s.controlled(seat) if s.record(p.card).unique)
        out.extend(f"{seat} has {t} twice in play" for t, n in titles.items() if n > 1)
    return out


class CheckedTable(Table):
    def act(self, actor, command):  # type: ignore[no-untyped-def]
        out = super().act(actor, command)
        found = violations(self.state)
        assert not found, found
        return out


def test_100_random_jousts_end_with_a_winner_and_no_violation():
    pairings = list(itertools.permutations(DECKS, 2))
    ends: Counter[str] = Counter()
    for n in range(100):
        decks = pairings[n % len(pairings)]
        t = CheckedTable(seed=f"soak-{n}", decks=decks)
        play_random(t, random.Random(n), timeouts=0.05 if n % 2 else 0.0)
        assert t.state.phase == "ended" and t.state.winner in ("seat1", "seat2")
        ends[t.state.end_reason or ""] += 1
    assert ends["15 power"] > 50
