"""BG-VIC-01 timing (rule digest, Review 2 "BG-VIC-01 timing"): the seven-castle check runs after every
change of control, not at the end of a batch of events. A house that reaches 7 in the middle of a
multi-house effect wins at once, even if a later step of the same effect would take a castle back."""

from __future__ import annotations

import pytest

from domain.board.action import commands as acmd
from domain.board.action import events as aev
from domain.board.victory import seven_castles, victory_points
from tests.support.action_positions import Position
from tests.support.westeros_positions import of_type, westeros, wev

#: Stark holds five castles with Power tokens and Harrenhal with two footmen: six.
STARK_TOKENS = {a: "stark" for a in ("white_harbor", "moat_cailin", "flints_finger", "seagard", "riverrun")}


@pytest.mark.parametrize(
    ("card", "harrenhal"),
    [("mammoth_riders", 2), ("the_horde_descends", 1)],
    ids=["mammoth_riders", "the_horde_descends"],
)
def test_BG_VIC_01_a_house_reaching_seven_in_the_middle_of_a_wildling_penalty_wins_at_once(card, harrenhal):
    """A wildling victory resolved house by house (BG-WILD-03): Lannister (lowest bidder) must destroy
    its only unit, the footman holding Winterfell, so Winterfell is Stark's again: seven. Stark's own
    penalty comes later in the same batch (Mammoth Riders: destroy 2, The Horde Descends: destroy 1 --
    every Harrenhal footman, leaving six). Stark has already won: the game ends at the seventh castle,
    before Stark's step."""
    units = {
        "harrenhal": ("stark", {"footman": harrenhal}),
        "winterfell": ("lannister", {"footman": 1}),
    }
    sc = westeros(
        6,
        ("last_days_of_summer", "last_days_of_summer", "wildlings_attack"),
        units=units,
        tokens=STARK_TOKENS,
        wildling=[card],
        threat=4,
    )
    assert victory_points(sc.state, "stark") == 6
    sc.begin_westeros()
    out = sc.bids({h: (0 if h == "lannister" else 1) for h in sc.state.houses_in_play})
    ended = out[-1]
    assert isinstance(ended, wev.GameEnded) and (ended.winner, ended.reason) == ("stark", "seven_castles")
    assert ended.standings[0].castles == 7
    # the effect stopped at the seventh castle: Stark's own penalty never ran
    destroyed = of_type(out, aev.UnitsDestroyed)
    assert [(e.house, e.area) for e in destroyed] == [("lannister", "winterfell")]
    assert sc.state.areas["harrenhal"].units == {"footman": harrenhal}
    assert sc.state.phase == "ended" and sc.state.winner == "stark" and sc.decisions() == []
    assert seven_castles(sc.state)


def test_BG_VIC_01_leaving_a_power_token_is_part_of_the_march_not_a_moment_without_control():
    """A March whose units all leave an area with a Power token left behind (BG-MARCH-06) is one
    change of control: the area never passes through "empty" on the way. Here Lannister leaves
    Winterfell (Stark's home) with a token: Stark would have seven castles if Winterfell went back to
    it for a moment, but it never does, and the game goes on."""
    sc = Position(6).setup(
        {"harrenhal": ("stark", {"footman": 1}), "winterfell": ("lannister", {"footman": 1})},
        {"winterfell": "march_0"},
        tokens=STARK_TOKENS,
        power={"lannister": 3},
    )
    sc.begin()
    assert victory_points(sc.state, "stark") == 6
    out = sc.run(
        "lannister",
        acmd.ResolveMarch(area="winterfell", moves={"castle_black": {"footman": 1}}, leave_power_token=True),
    )
    assert of_type(out, wev.GameEnded) == []
    assert sc.state.areas["winterfell"].power_token == "lannister" and victory_points(sc.state, "stark") == 6


def test_BG_VIC_01_inside_a_combat_control_of_the_embattled_area_is_settled_when_it_ends():
    """BG-VIC-01 with BG-COMBAT-24: Stark takes Lannisport (Lannister's home) from Greyjoy. Greyjoy's
    retreat leaves the area empty for a moment before Stark's army moves in; the home area does not
    count as Lannister's in between (the combat decides who holds it, and Stark does). Lannister, with
    six other castles, does not win; the check runs when the combat ends."""
    lannister_tokens = {
        a: "lannister"
        for a in ("harrenhal", "crackclaw_point", "moat_cailin", "flints_finger", "seagard", "white_harbor")
    }
    sc = Position(6).setup(
        {
            "riverrun": ("stark", {"knight": 2}),
            "lannisport": ("greyjoy", {"footman": 1}),
            "searoad_marches": ("tyrell", {"footman": 1}),
        },
        {"riverrun": "march_0"},
        tokens=lannister_tokens,
        garrisons={},
    )
    sc.state.blade_used = True
    sc.begin()
    assert victory_points(sc.state, "lannister") == 6
    sc.run("stark", acmd.ResolveMarch(area="riverrun", moves={"lannisport": {"knight": 2}}))
    sc.run("stark", acmd.ChooseHouseCard(card="robb_stark"))
    out = sc.run("greyjoy", acmd.ChooseHouseCard(card="theon_greyjoy"))
    if sc.state.step == "choose_retreat":  # Robb Stark: the winner picks the (only) area
        out = sc.run("stark", acmd.ChooseRetreat(area=sc.decision("stark").options.areas[0]))
    moved = [e for e in of_type(out, aev.UnitsMoved) if e.from_area == "lannisport"]
    assert moved and of_type(out, aev.CombatEnded)  # the retreat and the move-in, in this batch
    assert sc.state.areas["lannisport"].house == "stark"
    assert of_type(out, wev.GameEnded) == [] and sc.state.phase != "ended"
    assert victory_points(sc.state, "lannister") == 6
