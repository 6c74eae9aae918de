"""Card data and deck rules: the 219 records typed, the four legal decks, and a clear
``illegal_deck`` naming the broken rule (CG-GEN-02, CG-DECK-01..03, Banners, Fealty, restricted list)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.cards.catalog import CARDS, DECKS, CardRecord, DeckEntry
from domain.cards.decks import DeckChoice, DeckList, resolve
from domain.core.errors import RuleViolation


def test_all_219_core_set_records_are_typed():
    assert len(CARDS) == 219
    assert all(isinstance(c, CardRecord) for c in CARDS.values())
    by_type = Counter(c.type for c in CARDS.values())
    assert by_type == {
        "character": 101,
        "event": 29,
        "plot": 26,
        "location": 26,
        "attachment": 14,
        "agenda": 9,
        "faction": 8,
        "title": 6,
    }
    assert CARDS["01141"].name == "Arya Stark" and CARDS["01141"].icons is not None


def _list(name: str) -> DeckList:
    d = DECKS[name]
    return DeckList(faction=d.faction, agenda=d.agenda, plots=list(d.plot_deck), draw=list(d.draw_deck))


def _refused(deck: DeckList) -> RuleViolation:
    with pytest.raises(RuleViolation) as e:
        resolve(DeckChoice(deck=deck), "seat1")
    assert e.value.code == "illegal_deck"
    return e.value


@pytest.mark.parametrize("name", ["stark_kraken", "watch_stag", "targaryen_sun", "lannister_rose"])
def test_the_four_legal_decks_resolve_by_name_and_as_lists(name):
    assert resolve(DeckChoice(name=name), "seat1").faction == DECKS[name].faction
    assert resolve(DeckChoice(deck=_list(name)), "seat1").name == "custom"


def test_an_intro_deck_is_not_a_legal_choice():
    with pytest.raises(RuleViolation) as e:
        resolve(DeckChoice(name="intro_stark_kraken"), "seat1")
    assert "legal decks" in e.value.detail


def test_CG_DECK_01_exactly_seven_plots():
    d = _list("stark_kraken")
    e = _refused(DeckList(faction=d.faction, agenda=d.agenda, plots=d.plots[:6], draw=d.draw))
    assert e.rule == "CG-DECK-01" and "exactly 7" in e.detail


def test_CG_DECK_01_only_one_plot_doubled_and_limit_1_plots_never():
    d = _list("stark_kraken")
    two_doubled = [DeckEntry(code=d.plots[0].code, count=2), DeckEntry(code=d.plots[1].code, count=2), *d.plots[2:5]]
    assert _refused(DeckList(faction="stark", agenda=d.agenda, plots=two_doubled, draw=d.draw)).rule == "CG-DECK-01"
    # Calm Over Westeros (01008) has Plot Deck Limit 1
    limited = [DeckEntry(code="01008", count=2), *[p for p in d.plots if p.code != "01008"][:5]]
    e = _refused(DeckList(faction="stark", agenda=d.agenda, plots=limited, draw=d.draw))
    assert e.rule == "CG-DECK-01" and "deck limit" in e.detail


def test_CG_DECK_02_at_least_60_draw_cards_and_3_copies():
    d = _list("stark_kraken")
    e = _refused(DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=d.draw[1:]))
    assert e.rule == "CG-DECK-02" and "at least 60" in e.detail
    four = [DeckEntry(code=x.code, count=4 if x.code == "01141" else x.count) for x in d.draw]
    e = _refused(DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=four))
    assert e.rule == "CG-DECK-02" and "Arya Stark x4" in e.detail


def test_CG_DECK_02_other_factions_need_their_banner_with_12_cards():
    d = _list("stark_kraken")
    e = _refused(DeckList(faction="stark", agenda=None, plots=d.plots, draw=d.draw))
    assert e.rule == "CG-DECK-02" and "without its Banner" in e.detail
    fewer = [x for x in d.draw if CARDS[x.code].faction != "greyjoy"][:] + [
        x for x in d.draw if CARDS[x.code].faction == "greyjoy"
    ][:11]
    fewer += [DeckEntry(code="01040", count=1)] if sum(x.count for x in fewer) < 60 else []
    e = _refused(DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=fewer))
    assert "Banner needs at least 12" in e.detail or "at least 60" in e.detail


def test_CG_DECK_03_loyal_cards_stay_with_their_faction():
    d = _list("stark_kraken")
    # Balon Greyjoy (01068) is loyal to Greyjoy: the Banner of the Kraken does not let him in
    assert CARDS["01068"].loyal
    e = _refused(
        DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=[*d.draw, DeckEntry(code="01068", count=1)])
    )
    assert e.rule == "CG-DECK-03" and "loyal" in e.detail


def test_fealty_allows_at_most_15_neutral_cards():
    d = _list("stark_kraken")
    stark = sorted(
        c.code
        for c in CARDS.values()
        if c.faction == "stark" and c.type in ("character", "location", "attachment", "event")
    )
    neutral = sorted(
        c.code for c in CARDS.values() if c.faction == "neutral" and c.type in ("character", "location", "attachment")
    )
    plots = d.plots
    ok = [DeckEntry(code=c, count=3) for c in stark] + [DeckEntry(code=neutral[0], count=3)]
    assert resolve(DeckChoice(deck=DeckList(faction="stark", agenda="01027", plots=plots, draw=ok)), "seat1")
    many = [DeckEntry(code=c, count=2) for c in stark] + [DeckEntry(code=c, count=3) for c in neutral[:8]]
    e = _refused(DeckList(faction="stark", agenda="01027", plots=plots, draw=many))
    assert e.rule == "CG-DECK-02" and "Fealty allows at most 15" in e.detail


def test_the_joust_restricted_list_allows_one_restricted_card_and_no_banned_card():
    d = _list("stark_kraken")
    assert any(x.code == "01146" for x in d.draw)  # Robb Stark: restricted in joust, and allowed alone
    both = DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=[*d.draw, DeckEntry(code="01162", count=1)])
    e = _refused(both)  # Khal Drogo is restricted too
    assert "restricted list" in e.detail and "Khal Drogo" in e.detail and "Robb Stark" in e.detail
    banned = DeckList(faction="stark", agenda=d.agenda, plots=d.plots, draw=[*d.draw, DeckEntry(code="01119", count=1)])
    assert "banned" in _refused(banned).detail
