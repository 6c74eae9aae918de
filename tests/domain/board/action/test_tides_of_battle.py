"""BG-TIDES-01..05: the optional Tides of Battle variant (setting ``tides_of_battle``, off by default).

Combats are set up with tests/support/combat_helpers.py (Stark attacks Lannister from winterfell
into karhold; Stark wins ties; Greyjoy holds the Blade unless the Fiefdoms track is changed). The
Tides deck of a combat is what the game's seed produces (``tides/round<R>/<N>``); to get given cards
a test picks a seed whose shuffle puts them on top and gives the game that seed before the combat,
so the engine's own shuffle deals them (tests/support/tides_positions.py).
"""

from __future__ import annotations

import typing
from collections import Counter

import pytest

from domain.board import board_data
from domain.board.action import events as aev
from domain.board.action import tides_events as tev
from domain.board.audit import audit
from domain.board.narrative import describe
from domain.board.redaction import redact_event
from domain.board.state import Settings
from domain.core.errors import RuleViolation
from tests.support.action_positions import Position, acmd, of_type
from tests.support.combat_helpers import cards, fight, north
from tests.support.forgery import as_json, envelopes, forged, index_of
from tests.support.full_games import play_full_game
from tests.support.tides_positions import STARK_BLADE, TIDES, deck_for, tides_north


def decided(sc: Position) -> aev.CombatDecided:
    return of_type(sc.events, aev.CombatDecided)[-1]


def tides_events(events) -> list:
    return [e for e in events if isinstance(e, tev.TIDES_EVENTS)]


# --- BG-TIDES-01 ---------------------------------------------------------------------------------


def test_BG_TIDES_01_the_deck_has_the_24_cards_of_the_table_and_a_combat_uses_all_of_them():
    facts = board_data.tides_cards()
    table = {  # id: (strength, swords, towers, skulls, count)
        "blank": (0, 0, 0, 0, 8),
        "sword": (1, 1, 0, 0, 4),
        "fortification": (1, 0, 1, 0, 4),
        "two": (2, 0, 0, 0, 4),
        "three": (3, 0, 0, 0, 2),
        "skull": (0, 0, 0, 1, 2),
    }
    assert {c.id: (c.strength, c.swords, c.fortifications, c.skulls, c.count) for c in facts.values()} == table
    sc = north(settings=TIDES)
    fight(sc, "eddard_stark", "the_hound")
    shuffled = of_type(sc.events, tev.TidesDeckShuffled)
    assert len(shuffled) == 1
    assert len(shuffled[0].cards) == 24
    assert Counter(shuffled[0].cards) == {card: row[4] for card, row in table.items()}
    drawn = of_type(sc.events, tev.TidesCardDrawn)
    assert [(d.house, d.card) for d in drawn] == [("stark", shuffled[0].cards[0]), ("lannister", shuffled[0].cards[1])]


# --- BG-TIDES-02 ---------------------------------------------------------------------------------


def two_combats(settings: Settings | None = TIDES) -> Position:
    """Stark marches twice in round 1: winterfell -> karhold, then white_harbor -> widows_watch."""
    sc = north(
        settings=settings,
        att={"knight": 2},
        extra={"white_harbor": ("stark", {"knight": 2}), "widows_watch": ("lannister", {"footman": 1})},
        orders={"white_harbor": "march_minus_1"},
    )
    fight(sc, "eddard_stark", "the_hound")
    while sc.state.step != "resolve_march":  # the Blade-less combat may still ask for a retreat
        d = sc.decisions()[0]
        assert d.options.kind == "choose_retreat", d
        sc.run(d.house, acmd.ChooseRetreat(area=d.options.areas[0]))
    sc.run("stark", acmd.ResolveMarch(area="white_harbor", moves={"widows_watch": {"knight": 2}}))
    cards(sc, stark="robb_stark", lannister="ser_jaime_lannister")
    return sc


def test_BG_TIDES_02_a_new_deck_of_all_24_cards_is_shuffled_from_the_seed_before_every_combat():
    sc = two_combats()
    shuffles = of_type(sc.events, tev.TidesDeckShuffled)
    assert [s.number for s in shuffles] == [1, 2]
    for s in shuffles:
        assert s.cards == deck_for(sc.ctx.seed, s.number)  # the game's seed, recorded in the event
        assert Counter(s.cards) == Counter(board_data.tides_deck())  # the first combat's draws are back
    assert shuffles[0].cards != shuffles[1].cards
    names = [type(e).__name__ for e in sc.events]
    began = [i for i, n in enumerate(names) if n == "CombatBegan"]
    shuffled = [i for i, n in enumerate(names) if n == "TidesDeckShuffled"]
    assert began[0] < shuffled[0] < began[1] < shuffled[1]


def test_BG_TIDES_02_the_variant_is_off_by_default():
    assert Settings().tides_of_battle is False
    sc = two_combats(settings=None)
    assert len(of_type(sc.events, aev.CombatDecided)) == 2
    assert tides_events(sc.events) == []
    assert sc.state.action is None or sc.state.action.tides_shuffles == 0


# --- BG-TIDES-03 ---------------------------------------------------------------------------------


def test_BG_TIDES_03_cards_drawn_after_the_house_cards_revealed_and_their_strength_added():
    # Stark 2 (knight) + Eddard 4 + blank 0 = 6; Lannister 1 (footman) + Gregor 3 + three 3 = 7.
    sc = tides_north("blank", "three")
    fight(sc, "eddard_stark", "ser_gregor_clegane")
    d = decided(sc)
    assert d.strength == {"stark": 6, "lannister": 7} and d.winner == "lannister"
    names = [type(e).__name__ for e in sc.events]
    assert (
        names.index("HouseCardsRevealed")
        < names.index("TidesDeckShuffled")
        < names.index("TidesCardDrawn")
        < names.index("TidesCardsRevealed")
        < names.index("CombatDecided")
    )
    assert of_type(sc.events, tev.TidesCardsRevealed)[0].cards == {"stark": "blank", "lannister": "three"}


@pytest.mark.parametrize(
    "stark_card, lannister_card, casualties",
    [("blank", "blank", 2), ("sword", "blank", 3), ("blank", "fortification", 1), ("sword", "fortification", 2)],
)
def test_BG_TIDES_03_tides_swords_and_towers_count_with_the_house_cards(stark_card, lannister_card, casualties):
    # Eddard Stark: 2 swords; Ser Kevan Lannister (defending): no icons. Stark wins every case.
    sc = tides_north(stark_card, lannister_card, dfn={"footman": 3})
    fight(sc, "eddard_stark", "ser_kevan_lannister")
    d = decided(sc)
    assert d.winner == "stark" and d.casualties == casualties
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-COMBAT-15"]
    assert sum(sum(e.units.values()) for e in lost) == casualties


def test_BG_TIDES_03_the_blade_holder_may_redraw_before_the_reveal_and_then_has_no_plus_one():
    sc = tides_north("blank", "two", "three", tracks=STARK_BLADE)
    fight(sc, "eddard_stark", "the_hound")
    d = sc.decision()
    assert (d.house, sc.state.step) == ("stark", "use_blade")
    assert d.options.tides_redraw and d.options.tides_card == "blank"
    assert d.options.strength == {"stark": 6, "lannister": 3}  # no Tides strength before the reveal
    assert not of_type(sc.events, tev.TidesCardsRevealed)
    out = sc.run("stark", acmd.UseBlade(use=True))
    redrawn = of_type(out, tev.TidesCardRedrawn)
    assert [(r.house, r.discarded, r.card) for r in redrawn] == [("stark", "blank", "three")]
    assert of_type(out, tev.TidesCardsRevealed)[0].cards == {"stark": "three", "lannister": "two"}
    assert not of_type(sc.events, aev.BladeUsed)  # the Blade went on the redraw, not on +1
    assert decided(sc).strength == {"stark": 9, "lannister": 5}
    assert sc.state.blade_used or sc.state.action is None


def test_BG_TIDES_03_a_blade_kept_at_the_redraw_may_still_give_plus_one_after_the_reveal():
    sc = tides_north("blank", "two", "three", tracks=STARK_BLADE)
    fight(sc, "eddard_stark", "the_hound")
    out = sc.run("stark", acmd.UseBlade(use=False))
    assert of_type(out, tev.TidesRedrawDeclined)
    assert of_type(out, tev.TidesCardsRevealed)[0].cards == {"stark": "blank", "lannister": "two"}
    d = sc.decision()
    assert (d.house, sc.state.step, d.options.tides_redraw) == ("stark", "use_blade", False)
    assert d.options.strength == {"stark": 6, "lannister": 5}  # now with the revealed Tides strength
    sc.run("stark", acmd.UseBlade(use=True))
    assert of_type(sc.events, aev.BladeUsed)
    assert decided(sc).strength == {"stark": 7, "lannister": 5}


def test_BG_TIDES_03_the_redraw_is_declined_at_the_deadline():
    sc = tides_north("blank", "two", "three", tracks=STARK_BLADE)
    fight(sc, "eddard_stark", "the_hound")
    out = sc.timeout()
    assert [e.by_default for e in of_type(out, tev.TidesRedrawDeclined)] == [True]
    assert of_type(out, tev.TidesCardsRevealed)[0].cards["stark"] == "blank"


# --- BG-TIDES-04 ---------------------------------------------------------------------------------


def test_BG_TIDES_04_a_skull_makes_the_winner_destroy_a_unit_and_towers_do_not_cancel_it():
    """BG-SEEDFIX-16: seed 000 says the loser suffers a loss per skull on *its own* card; the rule
    is that a skull hurts the *opponent* of the house whose card shows it, whoever wins -- here the
    winner loses a unit to the loser's skull."""
    # Stark 3 + Eddard 4 = 7 beats Lannister 1 + The Hound 2 = 3; The Hound's 2 towers cancel Eddard's
    # 2 swords, but not Lannister's skull: the winning attacker chooses one of its units to lose.
    sc = tides_north("blank", "skull", att={"knight": 1, "footman": 1}, dfn={"footman": 1})
    fight(sc, "eddard_stark", "the_hound")
    assert decided(sc).winner == "stark" and decided(sc).casualties == 0
    d = sc.decision()
    assert (d.house, sc.state.step) == ("stark", "choose_casualties")
    assert (d.options.count, d.options.units) == (1, {"knight": 1, "footman": 1})
    out = sc.run("stark", acmd.ChooseCasualties(units=acmd.UnitCounts(footman=1)))
    lost = [e for e in of_type(out, aev.UnitsDestroyed) if e.reason == "BG-TIDES-04"]
    assert [(e.house, e.area, e.units, e.combat_units) for e in lost] == [("stark", "winterfell", {"footman": 1}, True)]
    assert sc.state.areas["karhold"].units == {"knight": 1}  # only the knight marched in


def test_BG_TIDES_04_a_skull_costs_the_loser_one_more_unit_after_the_sword_casualties():
    sc = tides_north("skull", "blank", dfn={"footman": 3})
    fight(sc, "eddard_stark", "the_hound")  # 2 swords - 2 towers: no sword casualties
    assert decided(sc).winner == "stark" and decided(sc).casualties == 0
    lost = [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-TIDES-04"]
    assert [(e.house, e.units) for e in lost] == [("lannister", {"footman": 1})]
    retreated = of_type(sc.events, aev.UnitsMoved)
    assert any(m.house == "lannister" and m.units == {"footman": 2} for m in retreated)


def test_BG_TIDES_04_choose_exactly_the_skull_count():
    sc = tides_north("blank", "skull", att={"knight": 1, "footman": 1})
    fight(sc, "eddard_stark", "the_hound")
    with pytest.raises(RuleViolation) as err:
        sc.run("stark", acmd.ChooseCasualties(units=acmd.UnitCounts(footman=1, knight=1)))
    assert err.value.rule == "BG-TIDES-04"


def test_BG_TIDES_04_the_blackfish_prevents_skull_losses():
    # Stark 3 + The Blackfish 1 = 4 beats Lannister 1 + The Hound 2 = 3; Lannister's skull is void.
    sc = tides_north("blank", "skull", att={"knight": 1, "footman": 1})
    fight(sc, "the_blackfish", "the_hound")
    assert decided(sc).winner == "stark"
    resolved = of_type(sc.events, tev.TidesSkullsResolved)
    assert [(r.house, r.units, r.prevented_by) for r in resolved] == [("stark", {}, "the_blackfish")]
    assert not [e for e in of_type(sc.events, aev.UnitsDestroyed) if e.reason == "BG-TIDES-04"]
    assert sc.state.areas["karhold"].units == {"knight": 1, "footman": 1}
    assert "The Blackfish saved Stark" in describe(resolved[0])


# --- BG-TIDES-05 ---------------------------------------------------------------------------------


def test_BG_TIDES_05_no_tides_cards_against_a_neutral_force():
    sc = Position(6, settings=TIDES).setup(
        {"crackclaw_point": ("baratheon", {"knight": 2}), "blackwater": ("baratheon", {"footman": 1})},
        {"crackclaw_point": "march_plus_1_special", "blackwater": "support_0"},
        neutral={"kings_landing": 5},
    )
    sc.begin()
    sc.run("baratheon", acmd.ResolveMarch(area="crackclaw_point", moves={"kings_landing": {"knight": 2}}))
    assert of_type(sc.events, aev.NeutralForceRemoved)  # 4 + 1 + 1 = 6 >= 5, no card involved
    assert tides_events(sc.events) == []


def test_BG_TIDES_05_a_combat_between_two_houses_uses_them_in_the_same_game():
    sc = north(settings=TIDES, extra={"crackclaw_point": ("baratheon", {"knight": 2})}, neutral={"kings_landing": 3})
    fight(sc, "eddard_stark", "the_hound")
    assert len(of_type(sc.events, tev.TidesDeckShuffled)) == 1


# --- the offline verifier (BG-TIDES-02) ----------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_BG_TIDES_02_a_complete_tides_game_refolds_and_the_verifier_rederives_every_deck(players):
    for rng_seed in range(10):  # random play fights rarely: the first game with a few combats
        game = play_full_game(players, seed=f"tides-{players}-{rng_seed}", rng_seed=rng_seed, settings=TIDES)
        shuffles = of_type(game.events, tev.TidesDeckShuffled)
        if len(shuffles) >= 3:
            break
    assert game.state.winner and game.same_as_refold()
    assert shuffles and len(of_type(game.events, tev.TidesCardsRevealed)) == len(shuffles)
    for e in game.events:
        for reader in [*game.state.houses_in_play, None]:
            describe(redact_event(e, reader))
    events = as_json(game.envelopes())
    report = audit(envelopes(events), seed=game.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(events)

    # Every hash recomputed, yet the re-derivation (the seed's shuffle, the deck's top card) finds
    # a deck that is not the seed's (two cards swapped), a draw that is not its top, and a combat
    # between two houses fought without the cards (every Tides event left out).
    i = index_of(events, "tides_deck_shuffled")

    def swap_two(evs):
        cards_ = evs[i]["event"]["cards"]
        j = next(k for k in range(1, 24) if cards_[k] != cards_[0])
        cards_[0], cards_[j] = cards_[j], cards_[0]

    _diverges_at(forged(events, swap_two), game.ctx.seed, i + 1, '"type":"tides_deck_shuffled"')
    d = index_of(events, "tides_card_drawn")
    other = next(c for c in board_data.tides_cards() if c != events[d]["event"]["card"])
    _diverges_at(
        forged(events, lambda evs: evs[d]["event"].update(card=other)),
        game.ctx.seed,
        d + 1,
        '"type":"tides_card_drawn"',
    )
    tides_types = {t.__struct_config__.tag for t in typing.get_args(tev.TIDES_EVENTS)}

    def drop_tides(evs):
        evs[:] = [e for e in evs if e["event"]["type"] not in tides_types]
        for n, e in enumerate(evs, 1):
            e["seq"] = n

    _diverges_at(forged(events, drop_tides), game.ctx.seed, i + 1, '"type":"tides_deck_shuffled"')


def _diverges_at(events, seed, at: int, fragment: str) -> None:
    bad = audit(envelopes(events), seed=seed)
    assert bad.chain_ok and not bad.rules_ok and bad.divergence is not None, bad.problems
    assert bad.divergence.startswith(f"event {at}") and fragment in bad.divergence, bad.divergence
