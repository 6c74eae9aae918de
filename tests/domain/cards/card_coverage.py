"""Cards implemented / 219, by type, and for the four legal decks:
``.venv/bin/python -m tests.domain.cards.card_coverage`` (tests/domain/cards/test_card_coverage.py
asserts the counts). A card counts as implemented when it plays exactly as its text says
(:func:`domain.cards.abilities.registry.works`): no text beyond what the framework resolves, or
an ability in the registry."""

from __future__ import annotations

from collections import Counter

from domain.cards.abilities.registry import works
from domain.cards.catalog import CARDS, DECKS


def deck_codes(deck: str) -> set[str]:
    d = DECKS[deck]
    out = {e.code for e in [*d.plot_deck, *d.draw_deck]}
    if d.agenda:
        out.add(d.agenda)
    return out


def legal_codes() -> set[str]:
    out: set[str] = set()
    for d in DECKS.values():
        if d.legal:
            out |= deck_codes(d.id)
    return out


def table() -> str:
    total = Counter(c.type for c in CARDS.values())
    done = Counter(c.type for c in CARDS.values() if works(c.code))
    lines = [f"{'type':12} implemented / records"]
    lines += [f"{t:12} {done[t]:3} / {n}" for t, n in sorted(total.items())]
    lines.append(f"{'all':12} {sum(done.values()):3} / {len(CARDS)}")
    legal = legal_codes()
    lines.append(f"the four legal decks: {sum(works(c) for c in legal)} / {len(legal)} distinct codes implemented")
    for d in DECKS.values():
        if d.legal:
            codes = deck_codes(d.id)
            lines.append(f"  {d.id:15} {sum(works(c) for c in codes):3} / {len(codes)}")
    missing = Counter(CARDS[c].ability_kind for c in legal if not works(c))
    lines.append("missing, by ability kind: " + ", ".join(f"{k} {v}" for k, v in missing.most_common()))
    plots = sorted(c for c in legal if CARDS[c].type == "plot" and not works(c))
    lines.append("plots not implemented: " + ", ".join(f"{c} {CARDS[c].name}" for c in plots))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
