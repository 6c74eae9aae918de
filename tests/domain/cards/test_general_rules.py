"""General rules of the card game (card-game.md §1-§2) that no single phase owns: the golden rule
and the shared treasury. Each test sets up a position and asserts the outcome."""

from __future__ import annotations

from domain.cards import commands as cmd
from domain.cards import events as ev

from .play import Table, put_in_play, to_plot_step
from .positions import CALM, PLAIN, to_marshaling


def _seat2_challenges(t: Table) -> None:
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    if t.state.waiting == ["seat1"] and t.state.step == "challenge":
        t.seat("seat1", cmd.EndChallenges())
    assert t.state.step == "challenge" and t.state.waiting == ["seat2"]


def test_card_text_beats_the_rules_an_attacker_that_does_not_kneel_CG_GEN_07():
    """CG-GEN-07: the rules kneel every attacker (CG-CHAL-02); Ser Jaime's text says he does not
    kneel as a military attacker, and the card wins. The other attacker kneels as the rules say."""
    t = to_marshaling()
    jaime = put_in_play(t, "seat2", "01087")  # Ser Jaime Lannister: does not kneel attacking in military
    burned = put_in_play(t, "seat2", "01091")  # Burned Men: M, keywords only
    _seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime, burned]))
    assert not t.state.in_play[jaime].kneeling  # the card's text
    assert t.state.in_play[burned].kneeling  # the rule


def test_cannot_beats_can_catelyn_stops_tyrions_reaction_CG_GEN_07():
    """CG-GEN-07: "cannot" is absolute. Tyrion *can* gain 2 gold when an intrigue challenge is
    initiated; while Catelyn Stark participates, her opponents *cannot* trigger card abilities: no
    gold. Once she no longer participates, the same reaction resolves."""
    t = to_marshaling()
    cat = put_in_play(t, "seat1", "01143")  # Catelyn Stark
    put_in_play(t, "seat2", "01089")  # Tyrion Lannister
    cersei = put_in_play(t, "seat2", "01084")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    gold = t.state.player("seat2").gold
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cat]))
    assert not any(isinstance(e, ev.CardsGoldGained) for e in out)
    assert t.state.player("seat2").gold == gold
    t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
    if t.state.step == "challenge" and t.state.waiting == ["seat1"]:
        t.seat("seat1", cmd.EndChallenges())
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cersei]))
    assert [(e.seat_id, e.gold) for e in out if isinstance(e, ev.CardsGoldGained)] == [("seat2", 2)]


def test_gold_and_power_start_in_the_treasury_and_income_comes_from_it_CG_SETUP_04():
    """CG-SETUP-04: gold and power tokens start in the shared treasury: after setup no player holds
    gold or power; the marshaling phase's income is taken from the treasury (the plot's gold value
    lands in the player's pool, nobody else loses any)."""
    t = Table()
    to_plot_step(t)
    for p in t.state.players:
        assert p.gold == 0 and p.faction_power == 0
    t2 = to_marshaling(p1=CALM, p2=PLAIN)
    me, them = t2.state.player("seat1"), t2.state.player("seat2")
    assert me.gold == 5  # Calm Over Westeros: income 5, from the treasury
    assert them.gold == 0  # seat2 collects when its own marshaling turn comes
