"""Mother of Dragons without Targaryen, general rules and the setup rules that depend on Targaryen
being absent (rule digest ``mother-of-dragons.md`` §1-§2). Expected values are written out from the
digest and ``reference/board/map_essos.yaml``, not read from the domain's data files."""

from __future__ import annotations

from domain.board.orders import SEA_ORDER_TOKENS, VASSAL_TOKENS, owned_tokens

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
