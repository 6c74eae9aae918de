"""How many cards play exactly as their text says (docs/card-game.md): the report's counts, asserted."""

from __future__ import annotations

from domain.cards.abilities.registry import ABILITIES, works
from domain.cards.catalog import CARDS, implemented

from .card_coverage import legal_codes, table


def test_the_card_coverage_report():
    report = table()
    assert "/ 219" in report
    printed = [c for c in CARDS.values() if implemented(c)]
    # 8 faction cards, 8 Banners, 5 vanilla and 6 keyword-only cards play as printed
    assert len(printed) == 27
    assert {c.name for c in printed if c.type == "agenda"} == {
        c.name for c in CARDS.values() if c.name.startswith("Banner")
    }
    # every registered ability is a real card, and none of them is a card that plays as printed
    assert all(code in CARDS and not implemented(CARDS[code]) for code in ABILITIES)
    # the 6 melee titles work through domain/cards/titles.py (CG-MELEE-05)
    titles = [c.code for c in CARDS.values() if c.type == "title"]
    assert len(titles) == 6 and all(works(t) for t in titles)
    assert sum(works(c.code) for c in CARDS.values()) == 27 + 6 + sum(a.complete for a in ABILITIES.values())
    assert f"the four legal decks: {sum(works(c) for c in legal_codes())} / 172" in report
    # every card of the four legal decks plays as its text says (none only partly built)
    assert "the four legal decks: 172 / 172" in report
    assert all(works(c) for c in legal_codes()) and not any(not a.complete for a in ABILITIES.values())
