"""Components (BG-COMP-01, BG-COMP-02, BG-COMP-06) and the Westeros decks at setup (BG-SETUP-04).

Expected counts are written out from the rules digest (section 1 and 3), not read from the domain's
data files.
"""

from __future__ import annotations

from collections import Counter

from domain.board import board_data
from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import events as aev
from domain.board.decider import decide
from domain.board.orders import owned_tokens
from domain.board.power import pool
from domain.board.redaction import redact_event, view_for
from domain.board.victory import victory_points
from tests.support.action_positions import acmd, of_type
from tests.support.board_builders import ORGANIZER, lobby_game, make_ctx, started_game
from tests.support.combat_helpers import cards, north

BASE_HOUSES = {"stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"}


def test_BG_COMP_01_the_six_houses_of_the_base_game():
    assert set(board_data.setup().houses) == BASE_HOUSES
    assert set(board_data.cards().house_cards) == BASE_HOUSES
    assert set(started_game(6).state.houses_in_play) == BASE_HOUSES


def test_BG_COMP_02_what_each_house_has():
    """7 House cards, 15 Order tokens, 20 Power tokens, and one Supply, Victory and Garrison token and
    3 Influence tokens (one per track) on the board."""
    s = started_game(6).state
    for house in BASE_HOUSES:
        hs = s.houses[house]
        assert len(board_data.cards().house_cards[house]) == 7 and len(hs.hand) == 7
        assert sum(owned_tokens().values()) == 15
        assert hs.power + pool(s, house) == 20  # every Power token is available or in the Pool
        assert board_data.setup().power_tokens_per_house == 20
        # Its Supply and Victory tokens stand on their tracks (BG-SETUP-12 values).
        assert hs.supply == (1 if house == "stark" else 2)
        assert victory_points(s, house) == (2 if house == "stark" else 1)
        placed = [t for t in ("iron_throne", "fiefdoms", "kings_court") if house in getattr(s.tracks, t)]
        assert placed == ["iron_throne", "fiefdoms", "kings_court"]  # 3 Influence tokens
        home = board_data.setup().houses[house].home_area
        garrisons = [a for a, x in s.areas.items() if x.garrison and board_data.areas()[a].home_of == house]
        assert garrisons == [home]  # its one Garrison token


def test_BG_COMP_06_a_losing_attackers_siege_engine_cannot_retreat():
    """Stark attacks Lannister's castle (moat_cailin) with a knight and a Siege Engine and loses: the
    Siege Engine is destroyed, the knight retreats home."""
    sc = north(
        att={"knight": 1, "siege_engine": 1},
        extra={"moat_cailin": ("lannister", {"knight": 2, "footman": 1})},
        no_blade=True,
    )
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"moat_cailin": {"knight": 1, "siege_engine": 1}}))
    cards(sc, stark="catelyn_stark", lannister="the_hound")  # 2+4 vs 5+2: Lannister wins
    d = of_type(sc.events, aev.CombatDecided)[-1]
    assert d.winner == "lannister", d
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.house == "stark"]
    assert [(e.units, e.reason) for e in lost] == [({"siege_engine": 1}, "BG-COMBAT-14")]
    assert sc.state.areas["winterfell"].units == {"knight": 1}


def test_BG_COMP_06_a_losing_defenders_siege_engine_is_destroyed_the_rest_retreat():
    sc = north(att={"knight": 2}, dfn={"footman": 1, "siege_engine": 1}, no_blade=True)
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 2}}))
    cards(sc, stark="catelyn_stark", lannister="the_hound")  # 4+0 vs 1+0+2: Stark wins, no swords
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.house == "lannister"]
    assert [(e.units, e.reason) for e in lost] == [({"siege_engine": 1}, "BG-COMBAT-14")]
    assert sc.state.areas["castle_black"].units == {"footman": 1}  # the only legal retreat


def test_BG_SETUP_04_each_westeros_deck_is_shuffled_separately_and_face_down():
    deck_cards = {
        d: Counter(c.id for c in board_data.cards().westeros_decks[d] for _ in range(c.count))
        for d in ("deck_i", "deck_ii", "deck_iii")
    }
    orders: dict[str, set[tuple[str, ...]]] = {d: set() for d in deck_cards}
    for i in range(8):
        game = lobby_game(6, seed=f"decks-{i}")
        started = decide(game.state, cmd.StartGame(), ORGANIZER, make_ctx(seed=f"decks-{i}"))[0]
        assert isinstance(started, ev.GameStarted)
        for d, cs in started.westeros_decks.items():
            assert Counter(cs) == deck_cards[d]  # each deck holds only its own 10 cards
            orders[d].add(tuple(cs))
        # Face down: the order reaches no seat and no spectator.
        for reader in (None, *BASE_HOUSES):
            assert redact_event(started, reader).westeros_decks is None
    assert all(len(o) > 1 for o in orders.values())  # every deck is shuffled
    view = view_for(started_game(6).state, "stark")
    assert not hasattr(view, "westeros_decks")
