"""Where the attacking units stand during a combat: one documented model for clients (issue 9;
``CombatView`` in domain/board/action/view.py, docs/api-conventions.md "Where attacking units stand
during a combat"). They stay in their March's area (``from_area``) until the combat ends, the combat
view lists them (``units``), their losses are recorded there (BG-COMBAT-15), and only a winning
attacker's survivors move into the embattled area (BG-COMBAT-24)."""

from __future__ import annotations

from domain.board.action import events as aev
from domain.board.redaction import view_for
from tests.support.action_positions import acmd, of_type
from tests.support.combat_helpers import cards, north


def attack_with_one_knight():
    sc = north(att={"knight": 2, "footman": 1}, dfn={"footman": 1, "knight": 1})
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 1}}))
    return sc


def test_the_combat_view_shows_the_attackers_in_their_march_area_for_every_reader():
    sc = attack_with_one_knight()
    for reader in ("stark", "lannister", "greyjoy", None):
        v = view_for(sc.state, reader)
        c = v.action.combat
        assert (c.area, c.from_area, c.units) == ("karhold", "winterfell", {"knight": 1})
        assert v.areas["winterfell"].units == {"knight": 2, "footman": 1}  # the attacker among them
        assert v.areas["karhold"].house == "lannister" and v.areas["karhold"].units == {"footman": 1, "knight": 1}


def test_BG_COMBAT_15_an_attacking_units_loss_is_recorded_in_its_march_area():
    sc = attack_with_one_knight()
    out = cards(sc, stark="ser_rodrick_cassel", lannister="ser_gregor_clegane")  # Stark loses, 1 casualty
    [lost] = [e for e in of_type(out, aev.UnitsDestroyed) if e.house == "stark"]
    assert (lost.area, lost.units, lost.combat_units) == ("winterfell", {"knight": 1}, True)
    assert not [e for e in of_type(out, aev.UnitsMoved) if e.house == "stark"]  # never entered karhold
    v = view_for(sc.state, None)
    assert v.areas["winterfell"].units == {"knight": 1, "footman": 1}
    assert v.areas["karhold"].units == {"footman": 1, "knight": 1}


def test_BG_COMBAT_24_only_a_winning_attackers_survivors_move_into_the_embattled_area():
    sc = north(att={"knight": 2}, dfn={"footman": 1})
    sc.run("stark", acmd.ResolveMarch(area="winterfell", moves={"karhold": {"knight": 2}}))
    during = view_for(sc.state, "lannister")
    assert during.action.combat.units == {"knight": 2} and during.areas["winterfell"].units == {"knight": 2}
    assert during.areas["karhold"].units == {"footman": 1}
    out = cards(sc, stark="eddard_stark", lannister="the_hound")  # Stark wins
    [moved] = [e for e in of_type(out, aev.UnitsMoved) if e.house == "stark"]
    assert (moved.from_area, moved.to_area, moved.units, moved.reason) == (
        "winterfell",
        "karhold",
        {"knight": 2},
        "BG-COMBAT-24",
    )
    after = view_for(sc.state, None)
    assert after.areas["karhold"].units == {"knight": 2} and after.areas["winterfell"].units == {}
    assert after.action is None or after.action.combat is None  # the combat is over
