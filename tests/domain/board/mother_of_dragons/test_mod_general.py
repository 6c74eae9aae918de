"""Mother of Dragons without Targaryen, general rules and the setup rules that depend on Targaryen
being absent (rule digest ``mother-of-dragons.md`` §1-§2). Expected values are written out from the
digest and ``reference/board/map_essos.yaml``, not read from the domain's data files."""

from __future__ import annotations

from domain.board import board_data
from domain.board.orders import SEA_ORDER_TOKENS, VASSAL_TOKENS, owned_tokens
from tests.support.board_builders import started_game

from .test_mod_setup import mod_game

ESSOS = {
    "braavos",
    "myr",
    "norvos",
    "pentos",
    "the_disputed_lands",
    "the_rhoyne",
    "volantis",
    "port_of_braavos",
    "port_of_pentos",
    "port_of_volantis",
    "bay_of_pentos",
    "braavosian_coastlands",
    "sea_of_myrth",
    "the_orange_shore",
}


def test_MOD_GEN_01_arryn_joins_and_vassals_fill_the_houses_nobody_plays() -> None:
    """MOD-GEN-01: the expansion's new house Arryn is in the game; with fewer players than houses,
    the houses nobody chose are vassals (no Targaryen in part 1: seven houses)."""
    state = mod_game(["arryn", "stark", "lannister"])
    assert "arryn" in state.houses_in_play and "targaryen" not in state.houses_in_play
    assert sorted(state.vassals) == ["baratheon", "greyjoy", "martell", "tyrell"]
    assert {s.house for s in state.seats} == {"arryn", "stark", "lannister"}


def test_MOD_GEN_02_each_house_owns_three_sea_order_tokens_and_each_vassal_set_four() -> None:
    """MOD-GEN-02: 24 Sea Order tokens for 8 houses (3 each: Sea March -1, Sea Support, Iron Bank)
    and 16 Vassal Order tokens (4 sets of 4)."""
    assert len(SEA_ORDER_TOKENS) * 8 == 24
    assert sum(n for t, n in owned_tokens("mother_of_dragons").items() if t in SEA_ORDER_TOKENS) == 3
    assert len(VASSAL_TOKENS) * 4 == 16


def test_MOD_GEN_04_without_targaryen_no_essos_and_no_iron_bank() -> None:
    """MOD-GEN-04: every part is used unless a rule says otherwise; Essos and the Iron Bank only
    with Targaryen. Without it the board has the Westeros overlays (the Eyrie) and no Essos area."""
    state = mod_game(["arryn", "stark", "lannister", "greyjoy"])
    assert not ESSOS & set(state.areas)
    assert {"the_eyrie", "port_of_the_eyrie"} <= set(state.areas)  # the overlay is used
    assert len(state.vassal_house_deck) == 7  # the vassal system is used: the 7 Vassal House cards


ARRYN_CARDS = {
    "lysa_arryn_mod",
    "bronze_yohn_royce_mod",
    "ser_vardis_egen",
    "harry_hardyng",
    "godric_borrell",
    "anya_waynwood",
    "robert_arryn",
}
"""Reference ``cards.yaml``: ``house_cards.arryn`` (``deck: mother_of_dragons``)."""
VASSAL_CARDS = {"varys", "syrio_forel", "jaqen_h_ghar", "janos_slynt", "jon_connington", "beric_dondarrion", "bronn"}
"""Reference ``cards.yaml``: ``vassal_house_cards``."""


def test_MOD_GEN_05_expansion_cards_are_kept_apart_from_the_base_game() -> None:
    """MOD-GEN-05: the expansion's cards carry the MoD icon, which tells them apart. Our data marks
    every one of them by where it lives: House Arryn's 7 and the 7 Vassal House cards are the
    expansion's facts (``mother_of_dragons.json``), none is among the base game's House cards
    (``cards.json``), and a base game never deals one; combat still reads all of them."""
    mod = board_data.mother_of_dragons()
    assert {c.id for c in mod.arryn_house_cards} == ARRYN_CARDS
    assert {c.id for c in mod.vassal_house_cards} == VASSAL_CARDS
    base = set(board_data.all_house_cards())
    assert len(base) == 42 and not base & (ARRYN_CARDS | VASSAL_CARDS)
    assert "arryn" not in board_data.cards().house_cards
    assert (ARRYN_CARDS | VASSAL_CARDS) <= set(board_data.every_house_card())
    state = started_game(6).state
    assert state is not None
    dealt = {card for hs in state.houses.values() for card in (*hs.hand, *hs.discards)}
    assert dealt == base and not state.vassal_house_deck


def test_MOD_SETUP_06_three_westeros_decks_and_no_deck_four_without_targaryen() -> None:
    """MOD-SETUP-06: decks I, II and III are shuffled; deck IV only if Targaryen is played."""
    state = mod_game(["arryn", "stark", "lannister"])
    assert sorted(state.westeros_decks) == ["deck_i", "deck_ii", "deck_iii"]
    assert [len(state.westeros_decks[d]) for d in ("deck_i", "deck_ii", "deck_iii")] == [10, 10, 10]


def test_MOD_SETUP_07_round_one_and_no_dragon_strength_without_targaryen() -> None:
    """MOD-SETUP-07: the round token starts on 1 (Dragon Strength tokens come only with Targaryen,
    part 2)."""
    state = mod_game(["arryn", "stark", "lannister"])
    assert state.round == 1
