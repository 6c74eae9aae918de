"""Deck rules: what a legal joust deck is (CG-GEN-02, CG-DECK-01..03, Banners, Fealty, the restricted list).

A seat's deck is chosen at creation, either by name (a legal deck of ``decks.yaml``) or as a list.
:func:`resolve` returns the deck or raises a ``422 illegal_deck`` whose detail names the broken rule
(and whose ``rule`` is the rule id when the digest has one).
"""

from __future__ import annotations

from collections import Counter

import msgspec

from ..core.errors import RuleViolation
from .catalog import BANNERS, CARDS, DECKS, DRAW_TYPES, FACTIONS, FEALTY, RESTRICTED, DeckEntry

MIN_DRAW_CARDS = 60
PLOT_CARDS = 7
BANNER_MINIMUM = 12
FEALTY_MAX_NEUTRAL = 15


class DeckList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A submitted deck: faction, optional agenda, 7 plots and at least 60 draw cards, by card code."""

    faction: str
    plots: list[DeckEntry]
    draw: list[DeckEntry]
    agenda: str | None = None


class DeckChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's deck: ``{"name": "stark_kraken"}`` (a legal deck of decks.yaml) or ``{"deck": {...}}``."""

    name: str | None = None
    deck: DeckList | None = None


class ResolvedDeck(msgspec.Struct, frozen=True):
    """A legal deck, as the creation event records it (public: decklists are open)."""

    name: str
    faction: str
    agenda: str | None
    plots: list[DeckEntry]
    draw: list[DeckEntry]


def _illegal(seat: str, detail: str, rule: str | None) -> RuleViolation:
    return RuleViolation(f"{seat}'s deck: {detail}", rule=rule, code="illegal_deck")


def resolve(choice: DeckChoice, seat: str, melee: bool = False) -> ResolvedDeck:
    """The deck ``choice`` names or lists, checked by every deck rule; raises ``illegal_deck``."""
    if (choice.name is None) == (choice.deck is None):
        raise _illegal(seat, "give either a deck `name` or a `deck` list, not both or neither", None)
    if choice.name is not None:
        known = DECKS.get(choice.name)
        if known is None or not known.legal:
            legal = ", ".join(sorted(d for d, x in DECKS.items() if x.legal))
            raise _illegal(seat, f"no legal deck named {choice.name!r}; legal decks: {legal}", None)
        deck = ResolvedDeck(known.id, known.faction, known.agenda, list(known.plot_deck), list(known.draw_deck))
    else:
        assert choice.deck is not None
        d = choice.deck
        deck = ResolvedDeck("custom", d.faction, d.agenda, list(d.plots), list(d.draw))
    check(deck, seat, melee)
    return deck


def check(deck: ResolvedDeck, seat: str, melee: bool = False) -> None:
    """Every deck rule, in order; the first broken one is raised."""
    if deck.faction not in FACTIONS:
        raise _illegal(seat, f"{deck.faction!r} is not a faction ({', '.join(FACTIONS)})", "CG-GEN-02")
    for e in [*deck.plots, *deck.draw]:
        if e.code not in CARDS:
            raise _illegal(seat, f"no card with code {e.code!r}", "CG-GEN-02")
        if e.count < 1:
            raise _illegal(seat, f"{e.code}: a count must be at least 1", "CG-GEN-02")
    if deck.agenda is not None:
        agenda = CARDS.get(deck.agenda)
        if agenda is None or agenda.type != "agenda":
            raise _illegal(seat, f"{deck.agenda!r} is not an agenda card", "CG-GEN-02")
    _check_plots(deck, seat)
    _check_draw(deck, seat)
    _check_restricted(deck, seat, melee)
    _check_factions(deck, seat)


def _check_plots(deck: ResolvedDeck, seat: str) -> None:
    """CG-DECK-01: exactly 7 plots; one title may be doubled; a Plot Deck Limit 1 plot never is."""
    for e in deck.plots:
        if CARDS[e.code].type != "plot":
            raise _illegal(seat, f"{CARDS[e.code].name} ({e.code}) is not a plot card", "CG-DECK-01")
    counts = _by_title(deck.plots)
    n = sum(counts.values())
    if n != PLOT_CARDS:
        raise _illegal(seat, f"a plot deck holds exactly {PLOT_CARDS} plots, not {n}", "CG-DECK-01")
    doubled = [t for t, k in counts.items() if k > 1]
    if len(doubled) > 1:
        raise _illegal(seat, f"only one plot may be doubled, not {', '.join(sorted(doubled))}", "CG-DECK-01")
    for e in deck.plots:
        c = CARDS[e.code]
        if counts[c.name] > c.deck_limit:
            raise _illegal(seat, f"{c.name} x{counts[c.name]} is over its deck limit of {c.deck_limit}", "CG-DECK-01")


def _check_draw(deck: ResolvedDeck, seat: str) -> None:
    """CG-DECK-02: at least 60 draw cards, at most 3 copies by title (or the card's deck limit)."""
    for e in deck.draw:
        if CARDS[e.code].type not in DRAW_TYPES:
            raise _illegal(seat, f"{CARDS[e.code].name} ({e.code}) is not a draw card", "CG-DECK-02")
    n = sum(e.count for e in deck.draw)
    if n < MIN_DRAW_CARDS:
        raise _illegal(seat, f"a draw deck holds at least {MIN_DRAW_CARDS} cards, not {n}", "CG-DECK-02")
    counts = _by_title(deck.draw)
    for e in deck.draw:
        c = CARDS[e.code]
        if counts[c.name] > c.deck_limit:
            raise _illegal(seat, f"{c.name} x{counts[c.name]} is over its deck limit of {c.deck_limit}", "CG-DECK-02")


def _check_factions(deck: ResolvedDeck, seat: str) -> None:
    """CG-DECK-02/03: own faction and neutral only; a Banner lets in non-loyal cards of its faction
    (then at least 12 of them); loyal cards stay with their faction; Fealty: at most 15 neutrals."""
    banner = BANNERS.get(deck.agenda or "")
    for e in [*deck.plots, *deck.draw]:
        c = CARDS[e.code]
        if c.faction in (deck.faction, "neutral"):
            continue
        if banner == c.faction and c.type != "plot":
            if c.loyal:
                raise _illegal(
                    seat, f"{c.name} is loyal to {c.faction}: only {c.faction} decks may use it", "CG-DECK-03"
                )
            continue
        raise _illegal(
            seat,
            f"{c.name} is a {c.faction} card; a {deck.faction} deck without its Banner may not use it",
            "CG-DECK-02",
        )
    if banner is not None:
        nb = sum(e.count for e in deck.draw if CARDS[e.code].faction == banner)
        if nb < BANNER_MINIMUM:
            raise _illegal(seat, f"a Banner needs at least {BANNER_MINIMUM} {banner} cards, not {nb}", "CG-DECK-02")
    if deck.agenda == FEALTY:
        nn = sum(e.count for e in deck.draw if CARDS[e.code].faction == "neutral")
        if nn > FEALTY_MAX_NEUTRAL:
            raise _illegal(seat, f"Fealty allows at most {FEALTY_MAX_NEUTRAL} neutral cards, not {nn}", "CG-DECK-02")


def _check_restricted(deck: ResolvedDeck, seat: str, melee: bool = False) -> None:
    """The joust restricted list (organised play): at most one restricted title; no banned card.
    A melee checks the banned card only: three of the four legal decks, which ``decks.yaml``'s melee
    setups seat together, break the melee restricted list (documented in docs/card-game.md)."""
    codes = {e.code for e in [*deck.plots, *deck.draw]} | ({deck.agenda} if deck.agenda else set())
    banned = sorted(CARDS[c].name for c in codes if c in RESTRICTED.banned)
    if banned:
        raise _illegal(seat, f"banned card(s): {', '.join(banned)}", None)
    if melee:
        return
    restricted = sorted({CARDS[c].name for c in codes if c in RESTRICTED.joust})
    if len(restricted) > 1:
        raise _illegal(seat, f"the joust restricted list allows one of {', '.join(restricted)}, not all", None)


def _by_title(entries: list[DeckEntry]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for e in entries:
        counts[CARDS[e.code].name] += e.count
    return counts
