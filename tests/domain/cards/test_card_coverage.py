"""How many cards play exactly as printed (docs/card-game.md): the report's counts, asserted."""

from __future__ import annotations

from domain.cards.catalog import CARDS, implemented

from .card_coverage import legal_codes, table


def test_the_card_coverage_report():
    report = table()
    assert "/ 219" in report
    done = [c for c in CARDS.values() if implemented(c)]
    # 8 faction cards, 8 Banners, 5 vanilla and 6 keyword-only cards
    assert len(done) == 27
    assert {c.name for c in done if c.type == "agenda"} == {
        c.name for c in CARDS.values() if c.name.startswith("Banner")
    }
    assert sum(implemented(CARDS[c]) for c in legal_codes()) == 15
