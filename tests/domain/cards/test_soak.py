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
    # melee titles (CG-PHASE-05): each borne once, none set aside, none by an eliminated seat
    borne = list(s.titles.values())
    if len(set(borne)) != len(borne) or set(borne) & set(s.titles_set_aside):
        out.append(f"titles borne twice or set aside: {s.titles} / {s.titles_set_aside}")
    if set(s.titles) & set(s.eliminated):
        out.append(f"an eliminated seat bears a title: {s.titles}")
    if s.titles and s.phase not in ("taxation", "ended") and set(s.titles) != set(s.alive()):
        out.append(f"not every seat bears a title: {s.titles}")
    return out


MELEE_SEATS = (3, 4, 5, 6)


def melee_decks(n: int) -> tuple[str, ...]:
    """The ``n``-th melee of a soak: 3 to 6 seats in turn, the four legal decks in rotation (repeated)."""
    seats = MELEE_SEATS[n % len(MELEE_SEATS)]
    return tuple(DECKS[(n + k) % len(DECKS)] for k in range(seats))


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


def test_random_melees_of_3_to_6_seats_end_with_a_winner_and_no_violation():
    """Melee (CG-GEN-01, CG-PHASE-05, CG-MELEE-*): random games of 3 to 6 seats to a winner."""
    for n in range(8):
        decks = melee_decks(n)
        t = CheckedTable(seed=f"melee-soak-{n}", decks=decks)
        play_random(t, random.Random(n), timeouts=0.05 if n % 2 else 0.0)
        assert t.state.phase == "ended" and t.state.winner in t.state.seat_ids()
