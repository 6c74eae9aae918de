"""Cards implemented / 219, by type, and for the four legal decks:
``.venv/bin/python -m tests.domain.cards.card_coverage`` (the test below asserts the counts)."""

from __future__ import annotations

from collections import Counter

from domain.cards.catalog import CARDS, DECKS, implemented


def legal_codes() -> set[str]:
    out: set[str] = set()
    for d in DECKS.values():
        if d.legal:
            out.update(e.code for e in [*d.plot_deck, *d.draw_deck])
            if d.agenda:
                out.add(d.agenda)
    return out


def table() -> str:
    total, done = Counter(c.type for c in CARDS.values()), Counter(c.type for c in CARDS.values() if implemented(c))
    lines = [f"{'type':12} implemented / records"]
    lines += [f"{t:12} {done[t]:3} / {n}" for t, n in sorted(total.items())]
    lines.append(f"{'all':12} {sum(done.values()):3} / {len(CARDS)}")
    legal = legal_codes()
    n = sum(implemented(CARDS[c]) for c in legal)
    lines.append(f"the four legal decks: {n} / {len(legal)} distinct codes implemented")
    missing = Counter(CARDS[c].ability_kind for c in legal if not implemented(CARDS[c]))
    lines.append("missing, by ability kind: " + ", ".join(f"{k} {v}" for k, v in missing.most_common()))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
