"""House Arryn's House cards in combat (MOD-DATA-01; texts from reference ``cards.yaml``). Each test
sets up a 7-player Mother of Dragons combat, plays the card and asserts what its text did: Ser Vardis
Egen, Godric Borrell, Lysa Arryn, Anya Waynwood, Robert Arryn; Bronze Yohn Royce and Harry Hardyng
fight with their printed values."""

from __future__ import annotations

import pytest

from domain.board import mod_events as mev
from domain.board.action import events as aev
from domain.board.action.decisions import AbilityOptions
from domain.board.narrative import describe
from domain.core.errors import RuleViolation
from tests.support.action_positions import acmd, of_type
from tests.support.mod_positions import SEVEN, ModPosition, mod_north

ARRYN_HAND = [
    "lysa_arryn_mod",
    "bronze_yohn_royce_mod",
    "ser_vardis_egen",
    "harry_hardyng",
    "godric_borrell",
    "anya_waynwood",
    "robert_arryn",
]
STARK_HAND = ["eddard_stark", "robb_stark", "roose_bolton", "greatjon_umber", "the_blackfish", "catelyn_stark"]


def fight(sc: ModPosition, stark_card: str, arryn_card: str, frm="winterfell", to="karhold", units=None):
    out = sc.run("stark", acmd.ResolveMarch(area=frm, moves={to: units or dict(sc.state.areas[frm].units)}))
    while sc.state.step == "declare_support":
        house = sc.state.action.combat.support_queue[0]
        out += sc.run(house, acmd.DeclareSupport(side="defender"))
    out += sc.run("stark", acmd.ChooseHouseCard(card=stark_card))
    out += sc.run("arryn", acmd.ChooseHouseCard(card=arryn_card))
    return out


def decided(events) -> aev.CombatDecided:
    (d,) = of_type(events, aev.CombatDecided)
    return d


def scene(**kw) -> ModPosition:
    kw.setdefault("hands", {"arryn": list(ARRYN_HAND), "stark": list(STARK_HAND)})
    return mod_north(**kw)


def test_MOD_DATA_01_ser_vardis_egen_against_a_card_of_printed_strength_2_or_less() -> None:
    """Ser Vardis Egen (2): against the Greatjon (printed 2, 1 sword) +1 strength and +2 fortifications:
    Arryn 1 Footman + 3 = 4 against Stark's 2 Knights + 2 = 6, and the Greatjon's sword kills nothing."""
    sc = scene(att={"knight": 2})
    d = decided(fight(sc, "greatjon_umber", "ser_vardis_egen"))
    assert d.strength == {"stark": 6, "arryn": 4} and d.winner == "stark" and d.casualties == 0


def test_MOD_DATA_01_ser_vardis_egen_not_against_a_stronger_card() -> None:
    """Ser Vardis Egen: against Robb Stark (printed 3) only his printed 2."""
    sc = scene(att={"knight": 2})
    d = decided(fight(sc, "robb_stark", "ser_vardis_egen"))
    assert d.strength == {"stark": 7, "arryn": 3}


def sea_scene(**kw) -> ModPosition:
    """Stark's 2 Ships in The Shivering Sea attack Arryn's 1 Ship in The Narrow Sea; Arryn controls
    The Eyrie and The Vale of Arryn (units) and The Fingers (a Power token): 3 adjacent land areas."""
    return mod_north(
        att={},
        dfn={},
        extra={
            "the_shivering_sea": ("stark", {"ship": 2}),
            "the_narrow_sea": ("arryn", {"ship": 1}),
            "the_eyrie": ("arryn", {"knight": 1}),
            "the_vale_of_arryn": ("arryn", {"footman": 1}),
        },
        orders={"the_shivering_sea": "march_0", "winterfell": "defense_plus_1"},
        tokens={"the_fingers": "arryn"},
        hands={"arryn": list(ARRYN_HAND), "stark": list(STARK_HAND)},
        **kw,
    )


def test_MOD_DATA_01_godric_borrell_defending_a_sea_area() -> None:
    """Godric Borrell (1): defending a sea area, +1 per adjacent land area Arryn controls (3 here):
    1 Ship + 1 + 3 = 5 against 2 Ships + Robb Stark's 3 = 5; the tie goes to Arryn (higher on
    Fiefdoms)."""
    sc = sea_scene()
    d = decided(fight(sc, "robb_stark", "godric_borrell", frm="the_shivering_sea", to="the_narrow_sea"))
    assert d.strength == {"stark": 5, "arryn": 5} and d.winner == "arryn"


def test_MOD_DATA_01_godric_borrell_only_when_defending_at_sea() -> None:
    """Godric Borrell: defending a land area his text gives nothing (Karhold: 1 Footman + 1)."""
    sc = scene(tokens={"the_fingers": "arryn"})
    d = decided(fight(sc, "robb_stark", "godric_borrell"))
    assert d.strength["arryn"] == 2


def test_MOD_DATA_01_lysa_arryn_returns_to_hand_after_a_defended_win() -> None:
    """Lysa Arryn (4): Arryn defends Karhold with a Defense order and wins; it may take her back to its
    hand instead of discarding her (here it does)."""
    sc = scene(att={"footman": 1}, dfn={"knight": 1}, defense="defense_plus_1")
    events = fight(sc, "catelyn_stark", "lysa_arryn_mod")
    assert decided(events).winner == "arryn"
    assert sc.state.step == "house_card_ability"
    opts = sc.decision("arryn").options
    assert isinstance(opts, AbilityOptions) and opts.choices == ["return_to_hand"] and opts.may_skip
    sc.run("arryn", acmd.ChooseAbility(choice="return_to_hand"))
    hs = sc.state.houses["arryn"]
    assert "lysa_arryn_mod" in hs.hand and "lysa_arryn_mod" not in hs.discards


def test_MOD_DATA_01_lysa_arryn_declined_stays_discarded() -> None:
    sc = scene(att={"footman": 1}, dfn={"knight": 1}, defense="defense_plus_1")
    fight(sc, "catelyn_stark", "lysa_arryn_mod")
    sc.run("arryn", acmd.ChooseAbility(choice=None))
    assert "lysa_arryn_mod" in sc.state.houses["arryn"].discards


def test_MOD_DATA_01_lysa_arryn_without_a_defense_order_is_discarded() -> None:
    """Lysa Arryn: no Defense order in the contested area, no choice; she is discarded."""
    sc = scene(att={"footman": 1}, dfn={"knight": 1})
    events = fight(sc, "catelyn_stark", "lysa_arryn_mod")
    assert decided(events).winner == "arryn"
    assert not of_type(events, aev.AbilityChoicePending)
    assert "lysa_arryn_mod" in sc.state.houses["arryn"].discards


def test_MOD_DATA_01_anya_waynwood_rewards_arryn_and_its_supporters() -> None:
    """Anya Waynwood (1): Arryn wins with Greyjoy's support: Arryn and Greyjoy gain 3 Power each;
    Stark, the loser, and Tyrell, who supported nobody, gain nothing."""
    sc = scene(
        att={"footman": 1},
        dfn={"knight": 1},
        extra={"castle_black": ("greyjoy", {"footman": 1}), "widows_watch": ("tyrell", {"footman": 1})},
        orders={"castle_black": "support_0"},
        power={h: 5 for h in SEVEN},
    )
    events = fight(sc, "catelyn_stark", "anya_waynwood")
    assert decided(events).winner == "arryn"
    gained = {(e.house, e.amount) for e in of_type(events, aev.PowerGained) if e.reason == "anya_waynwood"}
    assert gained == {("arryn", 3), ("greyjoy", 3)}
    assert {h: sc.state.houses[h].power for h in ("arryn", "greyjoy", "stark", "tyrell")} == {
        "arryn": 8,
        "greyjoy": 8,
        "stark": 5,
        "tyrell": 5,
    }


def test_MOD_DATA_01_anya_waynwood_gives_nothing_on_a_loss() -> None:
    sc = scene(att={"knight": 2}, power={h: 5 for h in SEVEN})
    events = fight(sc, "eddard_stark", "anya_waynwood")
    assert decided(events).winner == "stark"
    assert not [e for e in of_type(events, aev.PowerGained) if e.reason == "anya_waynwood"]


def _robert_after_combat(sc: ModPosition) -> list:
    """Play Robert Arryn defending Karhold and answer every decision until his text is offered."""
    events = fight(sc, "eddard_stark", "robert_arryn")
    while sc.state.step != "house_card_ability" and sc.state.action.combat is not None:
        events += sc.timeout()
    return events


def test_MOD_DATA_01_robert_arryn_removes_himself_and_the_lowest_discard() -> None:
    """Robert Arryn (0): defending, after combat Arryn may remove him and the lowest-strength card of
    Stark's discard pile (Catelyn Stark, 0, below The Blackfish, 1) from the game."""
    sc = scene(discards={"stark": ["the_blackfish", "catelyn_stark"]})
    sc.state.houses["stark"].hand = ["eddard_stark", "robb_stark"]
    _robert_after_combat(sc)
    opts = sc.decision("arryn").options
    assert isinstance(opts, AbilityOptions) and opts.choices == ["catelyn_stark"] and opts.may_skip
    with pytest.raises(RuleViolation):
        sc.run("arryn", acmd.ChooseAbility(choice="the_blackfish"))
    events = sc.run("arryn", acmd.ChooseAbility(choice="catelyn_stark"))
    removed = {(e.house, tuple(e.cards)) for e in of_type(events, mev.HouseCardsRemovedFromGame)}
    assert removed == {("arryn", ("robert_arryn",)), ("stark", ("catelyn_stark",))}
    arryn, stark = sc.state.houses["arryn"], sc.state.houses["stark"]
    assert "robert_arryn" not in arryn.hand + arryn.discards
    assert "catelyn_stark" not in stark.hand + stark.discards
    assert arryn.removed == ["robert_arryn"] and stark.removed == ["catelyn_stark"]
    assert "the_blackfish" in stark.discards and "eddard_stark" in stark.discards
    lines = [describe(e) for e in of_type(events, mev.HouseCardsRemovedFromGame)]
    assert "Stark's Catelyn Stark left the game (Robert Arryn)." in lines


def test_MOD_DATA_01_robert_arryn_attacking_has_no_text() -> None:
    """Robert Arryn: only when defending; attacking, he is simply discarded."""
    sc = mod_north(
        a="arryn",
        d="stark",
        att={"knight": 1},
        dfn={"footman": 1},
        hands={"arryn": list(ARRYN_HAND), "stark": list(STARK_HAND)},
        discards={"stark": ["catelyn_stark"]},
    )
    sc.run("arryn", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 1}}))
    sc.run("arryn", acmd.ChooseHouseCard(card="robert_arryn"))
    events = sc.run("stark", acmd.ChooseHouseCard(card="eddard_stark"))
    while sc.state.action is not None and sc.state.action.combat is not None:
        events += sc.timeout()
    assert not [e for e in of_type(events, aev.AbilityChoicePending) if e.card == "robert_arryn"]
    assert "robert_arryn" in sc.state.houses["arryn"].discards


@pytest.mark.parametrize(("card", "strength", "casualties"), [("bronze_yohn_royce_mod", 3, 0), ("harry_hardyng", 2, 2)])
def test_MOD_DATA_01_cards_without_text_use_their_printed_values(card: str, strength: int, casualties: int) -> None:
    """Bronze Yohn Royce (3, 1 sword, 2 fortifications) and Harry Hardyng (2, 1 sword): against Eddard
    Stark (4, 2 swords) Yohn's 2 fortifications cancel both swords, Harry's none."""
    sc = scene(att={"knight": 2})
    d = decided(fight(sc, "eddard_stark", card))
    assert d.strength == {"stark": 8, "arryn": 1 + strength}
    assert d.casualties == casualties
