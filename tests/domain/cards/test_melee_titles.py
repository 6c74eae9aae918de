"""Melee titles: the picks (CG-PHASE-05, CG-SEEDFIX-12, CG-MELEE-02), their return (CG-PHASE-19),
their relations (CG-MELEE-01) and that a pick is secret until the reveal (redaction)."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards import titles
from domain.cards.catalog import CARDS
from domain.cards.decisions import decisions_for
from domain.cards.redaction import redact_event, view_for
from domain.core.errors import RuleViolation

from .melee_positions import default_titles, melee, reveal_plots, to_titles
from .play import Table, to_plot_step
from .positions import first_player, plots


def _of(out: list[object], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in out if isinstance(e, kind)]


def test_CG_PHASE_05_titles_set_aside_at_random_and_picked_in_player_order_CG_SEEDFIX_12():
    t = to_titles(3, first="seat3")
    aside = _of(t.events, ev.CardsTitlesSetAside)
    assert len(aside) == 1
    e = aside[0]
    # CG-SEEDFIX-12: after the first player is chosen (and the When Revealed abilities)
    kinds = [type(x) for x in t.events]
    assert kinds.index(ev.CardsFirstPlayerChosen) < kinds.index(ev.CardsTitlesSetAside)
    # the set-aside titles are the seed's shuffle of the 6 titles, 2 of them with 3 players
    order = t.ctx().rng(titles.purpose(1)).shuffled(list(titles.TITLES))
    assert e.order == order and e.set_aside == order[:2] and len(e.set_aside) == 2
    assert e.pickers == ["seat3", "seat1", "seat2"]
    # the first player picks first, among the 4 titles not set aside
    assert t.state.waiting == ["seat3"]
    d = decisions_for(t.state, "seat3").decisions[0]
    assert d.kind == "title" and d.commands == ["choose_title"]
    assert sorted(d.cards) == sorted(x for x in titles.TITLES if x not in e.set_aside)
    assert d.default_targets == [min(d.cards)]
    assert not decisions_for(t.state, "seat1").decisions
    with pytest.raises(RuleViolation) as err:
        t.seat("seat3", cmd.ChooseTitle(title=e.set_aside[0]))
    assert err.value.code == "title_unavailable" and err.value.rule == "CG-PHASE-05"
    first_pick = d.cards[-1]
    t.seat("seat3", cmd.ChooseTitle(title=first_pick))
    # then the next player in player order, among the titles left
    assert t.state.waiting == ["seat1"]
    d1 = decisions_for(t.state, "seat1").decisions[0]
    assert first_pick not in d1.cards and len(d1.cards) == 3
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.ChooseTitle(title=first_pick))
    t.seat("seat1", cmd.ChooseTitle(title=d1.cards[0]))
    # the last one at its deadline: the default (the lowest code left)
    d2 = decisions_for(t.state, "seat2").decisions[0]
    out = t.timeout()
    picked = _of(out, ev.CardsTitleChosen)
    assert picked[0].seat_id == "seat2" and picked[0].by_default and picked[0].title == min(d2.cards)
    revealed = _of(out, ev.CardsTitlesRevealed)
    assert revealed[0].titles == {"seat3": first_pick, "seat1": d1.cards[0], "seat2": min(d2.cards)}
    assert t.state.titles == revealed[0].titles
    assert t.state.phase in ("plot", "draw", "marshaling")


@pytest.mark.parametrize(("players", "aside"), [(3, 2), (4, 1), (5, 1), (6, 0)])
def test_CG_PHASE_05_how_many_titles_are_set_aside(players: int, aside: int):
    t = to_titles(players)
    (e,) = _of(t.events, ev.CardsTitlesSetAside)
    assert len(e.set_aside) == aside and titles.set_aside_count(players) == aside
    default_titles(t)
    assert len(t.state.titles) == players and len(set(t.state.titles.values())) == players
    assert not set(t.state.titles.values()) & set(e.set_aside)


def test_CG_PHASE_05_a_joust_has_no_titles():
    t = Table()
    to_plot_step(t)
    plots(t)
    first_player(t, t.state.waiting[0], "seat1")
    assert not _of(t.events, ev.CardsTitlesSetAside) and t.state.titles == {}


def _to_round(t: Table, n: int, step: str) -> None:
    """Every decision left to its deadline until round ``n`` waits for ``step``."""
    for _ in range(2000):
        if t.state.round == n and t.state.step == step:
            return
        t.timeout()
    raise AssertionError("not reached")


def test_CG_PHASE_19_titles_return_in_taxation_before_its_window_and_CG_MELEE_02_again_next_round():
    t = to_titles(3)
    default_titles(t)
    held = dict(t.state.titles)
    _to_round(t, 2, "title")
    kinds = [type(x) for x in t.events]
    returned = kinds.index(ev.CardsTitlesReturned)
    # in the taxation phase, after the reserve check / gold returned, before any window and the next round
    phases = [x.phase for x in t.events[:returned] if isinstance(x, ev.CardsPhaseBegan)]
    assert phases[-1] == "taxation"
    assert kinds.index(ev.CardsGoldReturned) < returned
    later = t.events[returned:]
    assert not any(isinstance(x, ev.CardsWindowOpened) and x.window != "taxation" for x in later[:3])
    windows = [i for i, x in enumerate(t.events) if isinstance(x, ev.CardsWindowOpened) and x.window == "taxation"]
    assert all(i > returned for i in windows)
    assert t.events[returned].titles == held  # type: ignore[attr-defined]
    # CG-MELEE-02: in round 2 every title not set aside may be taken, last round's too
    (e2,) = [x for x in _of(t.events, ev.CardsTitlesSetAside) if x.round == 2]
    d = decisions_for(t.state, t.state.waiting[0]).decisions[0]
    assert sorted(d.cards) == sorted(x for x in titles.TITLES if x not in e2.set_aside)
    mine = held.get(t.state.waiting[0])
    if mine is not None and mine in d.cards:
        t.seat(t.state.waiting[0], cmd.ChooseTitle(title=mine))


def test_CG_MELEE_01_title_relations_from_the_card_data():
    by_name = {CARDS[c].name: c for c in titles.TITLES}
    table = {
        "Hand of the King": ("Master of Laws", {"Master of Coin", "Master of Ships"}),
        "Master of Coin": ("Master of Ships", {"Hand of the King", "Master of Whispers"}),
        "Master of Laws": ("Master of Coin", {"Master of Whispers", "Master of Ships"}),
        "Master of Ships": ("Master of Whispers", {"Master of Laws", "Hand of the King"}),
        "Master of Whispers": ("Hand of the King", {"Master of Laws", "Master of Coin"}),
    }
    assert all(CARDS[c].type == "title" for c in titles.TITLES) and len(by_name) == 6
    for name, (supported, rivals) in table.items():
        code = by_name[name]
        assert [o for o in by_name if titles.supports(code, by_name[o])] == [supported]
        assert {o for o in by_name if titles.rivals(code, by_name[o])} == rivals
    regent = by_name["Crown Regent"]
    assert not any(titles.supports(regent, c) or titles.rivals(regent, c) for c in titles.TITLES)


def test_CG_PHASE_05_a_secret_title_pick_is_hidden_from_other_seats_and_spectators_until_the_reveal():
    t = to_titles(3, first="seat1")
    d = decisions_for(t.state, "seat1").decisions[0]
    out = t.seat("seat1", cmd.ChooseTitle(title=d.cards[0]))
    (chosen,) = _of(out, ev.CardsTitleChosen)
    assert redact_event(chosen, "seat1") == chosen
    for reader in ("seat2", "seat3", None):
        hidden = redact_event(chosen, reader)
        assert isinstance(hidden, ev.CardsTitleChosen) and hidden.title is None and hidden.seat_id == "seat1"
        seat1 = view_for(t.state, reader).seats[0]
        assert seat1.has_chosen_title and seat1.chosen_title is None and seat1.title is None
        assert not decisions_for(t.state, reader).decisions or reader == "seat2"
    assert view_for(t.state, "seat1").seats[0].chosen_title == d.cards[0]
    # seat2 picks now: only seat2 has the decision; a spectator has none
    assert decisions_for(t.state, "seat2").decisions[0].kind == "title"
    assert not decisions_for(t.state, None).decisions and not decisions_for(t.state, "seat3").decisions
    # after the reveal (everyone picked), the titles are public
    default_titles(t)
    revealed = _of(t.events, ev.CardsTitlesRevealed)[0]
    assert redact_event(revealed, None) == revealed
    assert view_for(t.state, None).seats[0].title == d.cards[0]


def test_the_plot_reveal_and_initiative_among_three_CG_PHASE_03():
    t = melee(3)
    reveal_plots(t)
    (r,) = _of(t.events, ev.CardsPlotsRevealed)
    assert r.initiative == {"seat1": 4, "seat2": 6, "seat3": 4} and r.winner == "seat2"
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.kind == "first_player" and d.seats == ["seat1", "seat2", "seat3"]
    t.seat("seat2", cmd.ChooseFirstPlayer(seat_id="seat3"))
    assert t.state.player_order() == ["seat3", "seat1", "seat2"]
