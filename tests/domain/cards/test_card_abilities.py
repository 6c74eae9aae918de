"""The characters', locations' and attachments' abilities (domain/cards/abilities/<faction>.py):
each test sets up a position (real commands, then cards arranged as a judge would) and asserts
the effect. Constant effects are read through domain/cards/current.py, the one place every rule
reads a current STR, icon or keyword from."""

from __future__ import annotations

import random

import pytest

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.abilities import triggers
from domain.cards.decisions import decisions_for
from domain.cards.emitter import Emitter
from domain.cards.game import GAME
from domain.cards.phases import dominance
from domain.cards.power import plot_values
from domain.cards.redaction import view_for
from domain.cards.state import Challenge, Placed, SetupPick
from domain.core.errors import RuleViolation

from .play import Table, envelopes, play_random, put_in_play, to_hand, to_plot_step
from .positions import (
    NAVAL,
    decline_reactions,
    first_player,
    pass_windows,
    plots,
    settle_choices,
    to_marshaling,
    without_ambush,
)

TARG = ("targaryen_sun", "lannister_rose")
WATCH = ("watch_stag", "lannister_rose")


def _table(decks: tuple[str, str] = ("stark_kraken", "lannister_rose")) -> Table:
    t = Table(decks=decks)
    to_plot_step(t)
    return t


def _attach(t: Table, seat: str, code: str, on: str) -> str:
    iid = put_in_play(t, seat, code)
    t.state.in_play[iid].attached_to = on
    return iid


def _to_seat2_challenges(t: Table) -> None:
    """Both end marshaling; seat1 ends its challenges: seat2's challenge step."""
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    if t.state.waiting == ["seat1"] and t.state.step == "challenge":
        t.seat("seat1", cmd.EndChallenges())
    assert t.state.step == "challenge" and t.state.waiting == ["seat2"]


# -- neutral -------------------------------------------------------------------------------


def test_little_bird_noble_lineage_syrios_training_grant_icons():
    t = _table(TARG)
    drogo = put_in_play(t, "seat1", "01162")  # Khal Drogo: M P
    assert not current.has_icon(t.state, drogo, "intrigue")
    _attach(t, "seat1", "01036", drogo)  # Noble Lineage: power (has it already)
    assert current.has_icon(t.state, drogo, "power") and not current.has_icon(t.state, drogo, "intrigue")
    t2 = _table(WATCH)
    sam = put_in_play(t2, "seat1", "01127")  # Samwell Tarly: I
    _attach(t2, "seat1", "01037", sam)  # Syrio's Training: military
    assert current.has_icon(t2.state, sam, "military")
    tickler = put_in_play(t2, "seat2", "01094")  # Lannisport Merchant: P
    _attach(t2, "seat2", "01034", tickler)  # Little Bird: intrigue
    assert current.has_icon(t2.state, tickler, "intrigue")


def test_milk_of_the_poppy_blanks_the_attached_characters_text():
    t = _table(TARG)
    drogo = put_in_play(t, "seat1", "01162")  # renown; one extra military challenge
    assert current.allowed_count(t.state, "seat1", "military") == 2
    _attach(t, "seat1", "01035", drogo)
    assert current.keywords(t.state, drogo) == [] and current.allowed_count(t.state, "seat1", "military") == 1


def test_the_iron_throne_counts_eight_toward_dominance_and_the_roseroad_adds_income():
    t = _table(WATCH)
    before = dominance.total(t.state, "seat1")
    put_in_play(t, "seat1", "01038")
    assert dominance.total(t.state, "seat1") == before + 8
    income = plot_values(t.state, "seat2", t.state.player("seat2").plots[0]).income
    put_in_play(t, "seat2", "01040")
    assert plot_values(t.state, "seat2", t.state.player("seat2").plots[0]).income == income + 1


# -- Greyjoy -------------------------------------------------------------------------------


def test_alannys_greyjoy_lowers_the_opponents_reserve_while_first_player():
    t = to_marshaling()  # seat1 first
    reserve = plot_values(t.state, "seat2").reserve
    put_in_play(t, "seat1", "01066")
    assert plot_values(t.state, "seat2").reserve == reserve - 1 and plot_values(t.state, "seat1").reserve == 6


def test_theon_gains_power_and_asha_stands_after_an_unopposed_win():
    t = to_marshaling()
    theon = put_in_play(t, "seat1", "01071")
    asha = put_in_play(t, "seat1", "01067")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[theon, asha]))
    assert t.state.in_play[theon].power == 1
    assert not t.state.in_play[asha].kneeling and t.state.in_play[theon].kneeling
    assert {e.code for e in out if isinstance(e, ev.CardsAbilityUsed)} == {"01071", "01067"}


def test_drowned_men_gain_strength_per_warship_location():
    t = _table()
    men = put_in_play(t, "seat1", "01073")
    assert current.strength(t.state, men) == 3
    t.state.cards["s1-99"] = "01078"  # Great Kraken (a Warship location), set up as a judge would
    t.state.in_play["s1-99"] = Placed(card="s1-99", controller="seat1")
    assert current.strength(t.state, men) == 4


# -- Lannister -----------------------------------------------------------------------------


def test_cersei_raises_intrigue_claim_and_lannisport_draws_on_an_intrigue_win():
    t = to_marshaling()
    cersei = put_in_play(t, "seat2", "01084")
    put_in_play(t, "seat2", "01098")
    hand2 = len(t.state.player("seat2").hand)
    _to_seat2_challenges(t)
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cersei]))
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand))
    assert discarded.seat_id == "seat1" and len(discarded.cards) == 2  # claim 1 + Cersei's 1
    assert len(t.state.player("seat2").hand) == hand2 + 1  # Lannisport


def test_jaime_does_not_kneel_attacking_in_military_has_renown_and_joffrey_gains_on_a_lord_killed():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144")  # a Lord
    jaime = put_in_play(t, "seat2", "01087")
    joffrey = put_in_play(t, "seat2", "01086")
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    assert not t.state.in_play[jaime].kneeling
    t.seat("seat1", cmd.DeclareDefenders(defenders=[]))
    assert ned in t.state.player("seat1").dead  # claim 1, one character: it dies
    assert t.state.in_play[joffrey].power == 1 and t.state.in_play[jaime].power == 1  # Joffrey; renown


def test_tyrion_gains_two_gold_per_intrigue_challenge_twice_a_round():
    t = to_marshaling()
    cat = put_in_play(t, "seat1", "01143")  # I P (Catelyn: her lock is tested below)
    put_in_play(t, "seat2", "01089")
    cersei = put_in_play(t, "seat2", "01084")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    gold = t.state.player("seat2").gold
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cat]))
    assert not any(isinstance(e, ev.CardsGoldGained) for e in out)  # Catelyn Stark attacks: no reactions
    assert t.state.player("seat2").gold == gold
    t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
    if t.state.step == "challenge" and t.state.waiting == ["seat1"]:
        t.seat("seat1", cmd.EndChallenges())
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cersei]))
    gained = [e for e in out if isinstance(e, ev.CardsGoldGained)]
    assert [(g.seat_id, g.gold) for g in gained] == [("seat2", 2)]


def test_tywin_gets_strength_per_gold_and_widows_wail_two():
    t = to_marshaling()
    tywin = put_in_play(t, "seat2", "01090")
    t.state.player("seat2").gold = 3
    assert current.strength(t.state, tywin) == 6 + 3
    _attach(t, "seat2", "01096", tywin)
    assert current.strength(t.state, tywin) == 6 + 3 + 2


def test_casterly_rock_allows_a_second_intrigue_challenge():
    t = _table()
    assert current.allowed_count(t.state, "seat2", "intrigue") == 1
    put_in_play(t, "seat2", "01097")
    assert current.allowed_count(t.state, "seat2", "intrigue") == 2


# -- Tyrell --------------------------------------------------------------------------------


def test_left_and_right_together_gain_strength_icons_and_defend_standing():
    t = to_marshaling()
    left = put_in_play(t, "seat2", "01179")
    assert current.strength(t.state, left) == 2 and not current.has_icon(t.state, left, "power")
    right = put_in_play(t, "seat2", "01184")
    assert current.strength(t.state, left) == 3 and current.has_icon(t.state, left, "power")
    assert current.has_icon(t.state, right, "intrigue") and not current.kneels_to_defend(t.state, right)
    ned = put_in_play(t, "seat1", "01144")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    t.seat("seat2", cmd.DeclareDefenders(defenders=[left]))
    assert not t.state.in_play[left].kneeling


def test_maester_lomys_makes_the_losing_attacker_discard_at_random():
    t = to_marshaling()
    cat = put_in_play(t, "seat1", "01028")  # Littlefinger: I P, STR 4 (not Catelyn: she would lock reactions)
    lomys = put_in_play(t, "seat2", "01180")  # STR 3
    margaery = put_in_play(t, "seat2", "01181")  # Margaery: STR 3
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    pass_windows(t)  # Margaery's Action opens the challenges phase's windows
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cat]))
    pass_windows(t)
    out = t.seat("seat2", cmd.DeclareDefenders(defenders=[lomys, margaery]))
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand))
    assert discarded.seat_id == "seat1" and discarded.reason == "Maester Lomys" and len(discarded.cards) == 1


def test_wardens_of_the_reach_gain_strength_per_reach_location():
    t = _table()
    wardens = put_in_play(t, "seat2", "01190")
    put_in_play(t, "seat2", "01194")  # Rose Garden: The Reach
    assert current.strength(t.state, wardens) == 3 + 1


# -- Martell, Targaryen ----------------------------------------------------------------------


def test_palace_spearman_has_intrigue_while_not_first_player():
    t = to_marshaling(seed="seed")  # seat1 first
    spear = put_in_play(t, "seat2", "01190")
    assert not current.has_icon(t.state, spear, "intrigue")  # Wardens: control, no ability of that kind
    t2 = _table(TARG)
    spearman = put_in_play(t2, "seat1", "01114")
    t2.state.first_player = "seat2"
    assert current.has_icon(t2.state, spearman, "intrigue")
    t2.state.first_player = "seat1"
    assert not current.has_icon(t2.state, spearman, "intrigue")


def test_dawn_strength_per_used_plot_and_intimidate_on_house_dayne():
    t = _table(TARG)
    edric = put_in_play(t, "seat1", "01106")
    _attach(t, "seat1", "01115", edric)
    t.state.player("seat1").used_plots = t.state.player("seat1").plots[:2]
    assert current.strength(t.state, edric) == 1 + 2 and current.has_keyword(t.state, edric, "intimidate")


def test_daenerys_weakens_attackers_drogon_and_viserion_grant_keywords():
    t = _table(TARG)
    dany = put_in_play(t, "seat1", "01160")
    assert current.keywords(t.state, dany) == ["insight"]
    put_in_play(t, "seat1", "01161")
    put_in_play(t, "seat1", "01166")
    assert set(current.keywords(t.state, dany)) == {"insight", "renown", "stealth"}
    jaime = put_in_play(t, "seat2", "01087")
    t.state.challenge = Challenge(type="military", attacker="seat2", defender="seat1", attackers=[jaime])
    assert current.strength(t.state, jaime) == 5 - 1
    t.state.in_play[dany].kneeling = True
    assert current.strength(t.state, jaime) == 5


def test_unsullied_weakens_each_defender():
    t = _table(TARG)
    unsullied = put_in_play(t, "seat1", "01171")
    jaime = put_in_play(t, "seat2", "01087")
    t.state.challenge = Challenge(
        type="military", attacker="seat1", defender="seat2", attackers=[unsullied], defenders=[jaime]
    )
    assert current.strength(t.state, jaime) == 5 - 1


def test_drogos_arakh_dothraki_only_two_strength_and_drogo_first_military_standing():
    t = to_marshaling_targ()
    drogo = put_in_play(t, "seat1", "01162")
    dany = put_in_play(t, "seat1", "01160")
    arakh = to_hand(t, "seat1", "01172")
    t.state.player("seat1").gold = 10
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=arakh, attach_to=dany))
    assert "Dothraki" in e.value.detail
    t.seat("seat1", cmd.MarshalCard(card=arakh, attach_to=drogo))
    assert current.strength(t.state, drogo) == 5 + 2
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[drogo]))
    assert not t.state.in_play[drogo].kneeling


def to_marshaling_targ() -> Table:
    t = Table(decks=TARG)
    to_plot_step(t)
    plots(t, "01002", "01024")  # A Feast for Crows (no challenge effect), Taxation
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    return t


# -- Stark, Baratheon, Night's Watch ---------------------------------------------------------


def test_eddard_stands_when_a_challenge_is_started_against_you():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144", kneeling=True)
    jaime = put_in_play(t, "seat2", "01087")
    _to_seat2_challenges(t)
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    assert any(isinstance(e, ev.CardsKneelingChanged) and e.cards == [ned] for e in out)
    assert not t.state.in_play[ned].kneeling


def test_robb_stands_your_characters_after_a_stark_character_is_killed_once_a_round():
    t = to_marshaling()
    robb = put_in_play(t, "seat1", "01146", kneeling=True)
    pup = put_in_play(t, "seat1", "01149")
    jaime = put_in_play(t, "seat2", "01087")
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    t.seat("seat1", cmd.DeclareDefenders(defenders=[]))
    t.seat("seat1", cmd.ChooseClaimVictims(characters=[pup]))
    assert pup in t.state.player("seat1").dead and not t.state.in_play[robb].kneeling
    assert f"round:{robb}" in t.state.used_abilities


def test_direwolf_pup_gains_per_other_direwolf():
    t = _table()
    pup = put_in_play(t, "seat1", "01149")
    put_in_play(t, "seat1", "01145")  # Grey Wind
    assert current.strength(t.state, pup) == 1 + 1


def test_vanguard_of_the_north_does_not_kneel_in_military_under_a_war_plot():
    t = to_marshaling(p1=NAVAL)  # Naval Superiority: a War plot
    vanguard = put_in_play(t, "seat1", "01151")
    assert not current.kneels_to_attack(t.state, vanguard, "military")
    assert current.kneels_to_attack(t.state, vanguard, "power")


def test_fiery_followers_stand_as_dominance_begins():
    t = Table(decks=WATCH)
    to_plot_step(t)
    plots(t, "01006", "01024")  # Building Orders (its search defaulted), Taxation
    first_player(t, t.state.waiting[0], "seat1")
    settle_choices(t)
    without_ambush(t)
    followers = put_in_play(t, "seat1", "01054", kneeling=True)
    t.seat("seat1", cmd.EndMarshaling())
    decline_reactions(t)
    out = t.seat("seat2", cmd.EndMarshaling())
    stood = next(e for e in out if isinstance(e, ev.CardsKneelingChanged))
    dom = next(e for e in out if isinstance(e, ev.CardsDominanceDetermined))
    assert stood.cards == [followers] and out.index(stood) < out.index(dom)


def test_kings_hunting_party_has_intrigue_while_an_opponent_controls_a_king():
    t = _table(WATCH)
    party = put_in_play(t, "seat1", "01055")
    assert not current.has_icon(t.state, party, "intrigue")
    t.state.cards["s2-99"] = "01048"  # Robert Baratheon (a King), set up as a judge would
    t.state.in_play["s2-99"] = Placed(card="s2-99", controller="seat2")
    assert current.has_icon(t.state, party, "intrigue")


def test_longclaw_nights_watch_only_strength_and_renown():
    t = _table(WATCH)
    sam = put_in_play(t, "seat1", "01127")
    claw = _attach(t, "seat1", "01135", sam)
    assert current.strength(t.state, sam) == 1 + 1 and current.has_keyword(t.state, sam, "renown")
    jaime = put_in_play(t, "seat2", "01087")
    assert current.attach_forbidden(t.state, claw, jaime) is not None
    assert current.attach_forbidden(t.state, claw, sam) is None


def test_ser_waymar_royce_killed_makes_the_opponent_discard_at_random():
    t = Table(decks=WATCH)
    to_plot_step(t)
    waymar = put_in_play(t, "seat1", "01128")
    jaime = put_in_play(t, "seat2", "01087")
    plots(t, "01006", "01024")  # Building Orders (its search defaulted), Taxation
    first_player(t, t.state.waiting[0], "seat1")
    settle_choices(t)
    without_ambush(t)
    t.seat("seat1", cmd.EndMarshaling())
    decline_reactions(t)
    t.seat("seat2", cmd.EndMarshaling())
    if t.state.waiting == ["seat1"]:
        t.seat("seat1", cmd.EndChallenges())
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    out = t.seat("seat1", cmd.DeclareDefenders(defenders=[]))
    assert waymar in t.state.player("seat1").dead
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand) and e.reason == "Ser Waymar Royce")
    assert discarded.seat_id == "seat2" and len(discarded.cards) == 1


def test_chamber_of_the_painted_table_kneels_to_take_a_power_after_dominance():
    t = Table(decks=WATCH)
    to_plot_step(t)
    chamber = put_in_play(t, "seat1", "01060")
    t.state.player("seat2").faction_power = 2
    plots(t, "01016", "01024")  # Marching Orders: 9 gold against Taxation's 5
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    i = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsAbilityUsed) and e.code == "01060")
    assert isinstance(out[i + 1], ev.CardsKneelingChanged) and out[i + 1].cards == [chamber]  # the cost
    moved = out[i + 2]
    assert isinstance(moved, ev.CardsPowerMoved) and (moved.from_seat, moved.to_seat) == ("seat2", "seat1")


def test_sunspear_after_losing_as_defender_raises_your_claim_of_that_type_this_phase():
    t = Table(decks=TARG)
    to_plot_step(t)
    put_in_play(t, "seat1", "01117")
    arianne = put_in_play(t, "seat1", "01160")  # Daenerys: I P (Arianne now has an Action: windows would open)
    cersei = put_in_play(t, "seat2", "01084")
    plots(t, "01002", "01024")  # A Feast for Crows (claim 1), Taxation
    first_player(t, t.state.waiting[0], "seat2")
    without_ambush(t)
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cersei]))
    t.seat("seat1", cmd.DeclareDefenders(defenders=[]))  # seat1 loses as defender: Sunspear kneels
    assert t.state.waiting == ["seat1"]  # Cersei knelt: seat2's challenges ended
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[arianne]))
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand) and e.seat_id == "seat2")
    assert len(discarded.cards) == 2  # claim 1 + Sunspear's 1


def test_rhaegal_stands_a_stormborn_after_a_win_with_one_once_per_phase():
    t = to_marshaling_targ()
    dany = put_in_play(t, "seat1", "01160")  # I P, Stormborn
    rhaegal = put_in_play(t, "seat1", "01164")  # M I
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[dany, rhaegal]))
    assert not t.state.in_play[dany].kneeling and t.state.in_play[rhaegal].kneeling
    assert f"phase:{rhaegal}" in t.state.used_abilities


def test_gold_cloaks_ambushed_are_discarded_as_that_phase_ends():
    t = to_marshaling()  # seat1 first; seat2 has Taxation's 5 gold
    ned = put_in_play(t, "seat1", "01144")
    cloaks = to_hand(t, "seat2", "01092")  # Ambush (2)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat2", cmd.PassAction())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[ned]))  # power: no kill
    t.seat("seat2", cmd.AmbushCard(card=cloaks))
    assert cloaks in t.state.in_play and f"phase:{cloaks}" in t.state.used_abilities
    while t.state.phase == "challenges":
        d = t.state.step
        if d == "defend":
            t.seat("seat2", cmd.DeclareDefenders(defenders=[]))
        elif d == "claim":
            t.timeout()
        elif d == "action":
            t.seat(t.state.waiting[0], cmd.PassAction())
        else:
            t.seat(t.state.waiting[0], cmd.EndChallenges())
    assert cloaks not in t.state.in_play and cloaks in t.state.player("seat2").discard
    ended = [e for e in t.events if isinstance(e, ev.CardsDiscardedFromPlay)]
    began = [e for e in t.events if isinstance(e, ev.CardsPhaseBegan) and e.phase == "dominance"]
    assert ended and began and t.events.index(ended[-1]) < t.events.index(began[-1])


def test_obara_sand_may_defend_a_power_challenge_while_kneeling():
    t = Table(decks=TARG)
    to_plot_step(t)
    obara = put_in_play(t, "seat1", "01108", kneeling=True)  # M only: Noble Lineage gives her power
    _attach(t, "seat1", "01036", obara)
    plots(t, "01002", "01024")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    tywin = put_in_play(t, "seat2", "01090")  # M I P
    t.state.in_play[obara].kneeling = True
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    if t.state.waiting == ["seat1"]:
        t.seat("seat1", cmd.EndChallenges())
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="power", attackers=[tywin]))
    assert t.state.step == "defend"
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.challenge_types == {"power": [obara]}
    out = t.seat("seat1", cmd.DeclareDefenders(defenders=[obara]))
    declared = next(e for e in out if isinstance(e, ev.CardsDefendersDeclared))
    assert declared.defenders == [obara]
    assert not current.defends_kneeling(t.state, obara, "military")


# -- issue 14, more cards ----------------------------------------------------------------------


def test_littlefinger_draws_two_when_marshaled_and_adds_one_income():
    t = to_marshaling()  # seat1 first: Calm Over Westeros, income 5
    income = plot_values(t.state, "seat1").income
    lf = to_hand(t, "seat1", "01028")
    hand = len(t.state.player("seat1").hand)
    out = t.seat("seat1", cmd.MarshalCard(card=lf))
    assert any(isinstance(e, ev.CardsAbilityUsed) and e.code == "01028" for e in out)
    assert len(t.state.player("seat1").hand) == hand - 1 + 2
    assert plot_values(t.state, "seat1").income == income + 1


def test_jon_snow_standing_counts_as_attacking_beside_another_nights_watch_attacker():
    t = Table(decks=WATCH)
    to_plot_step(t)
    jon = put_in_play(t, "seat1", "01124")  # STR 4, I only
    waymar = put_in_play(t, "seat1", "01128")  # Night's Watch, M P, STR 2
    jaime = put_in_play(t, "seat2", "01087")  # STR 4
    plots(t, "01016", "01024")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[waymar]))
    assert current.participating(t.state, jon) == "attacking" and not t.state.in_play[jon].kneeling
    out = t.seat("seat2", cmd.DeclareDefenders(defenders=[jaime]))
    resolved = next(e for e in out if isinstance(e, ev.CardsChallengeResolved))
    both = current.strength(t.state, waymar) + current.strength(t.state, jon)
    assert (resolved.attacker_strength, resolved.winner) == (both, "seat1")  # Waymar and Jon
    assert resolved.defender_strength == current.strength(t.state, jaime) < both


def test_jon_snow_kneeling_does_not_count():
    t = Table(decks=WATCH)
    to_plot_step(t)
    jon = put_in_play(t, "seat1", "01124", kneeling=True)
    waymar = put_in_play(t, "seat1", "01128")
    t.state.challenge = Challenge(type="military", attacker="seat1", defender="seat2", attackers=[waymar])
    assert current.attackers(t.state) == [waymar] and current.participating(t.state, jon) is None
    t.state.in_play[jon].kneeling = False
    assert current.attackers(t.state) == [waymar, jon]
    t.state.challenge = Challenge(type="power", attacker="seat1", defender="seat2", attackers=[jon])
    assert current.attackers(t.state) == [jon]  # declared himself: counted once


def test_the_knight_of_flowers_attacking_alone_allows_one_defender_CG_CHAL_03():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144")
    knight = put_in_play(t, "seat1", "01150")
    kof = put_in_play(t, "seat2", "01185")
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[kof]))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.max_cards == 1 and set(d.challenge_types["military"]) == {ned, knight}
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareDefenders(defenders=[ned, knight]))
    assert e.value.rule == "CG-CHAL-03"
    t.seat("seat1", cmd.DeclareDefenders(defenders=[ned]))
    assert t.state.challenge is not None and t.state.challenge.defenders == [ned]


def test_the_knight_of_flowers_with_another_attacker_sets_no_limit():
    t = to_marshaling()
    put_in_play(t, "seat1", "01144")
    put_in_play(t, "seat1", "01150")
    kof = put_in_play(t, "seat2", "01185")
    jaime = put_in_play(t, "seat2", "01087")
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[kof, jaime]))
    assert decisions_for(t.state, "seat1").decisions[0].max_cards is None


def _passing(t: Table, seat: str, command: object) -> list[object]:
    """``seat`` sends ``command``; then every open action window is passed (the hands' events open
    them): the events of it all."""
    out = t.seat(seat, command)
    while t.state.step == "action":
        out += t.seat(t.state.waiting[0], cmd.PassAction())
    return out


def test_benjen_stark_rangers_are_not_bypassed_and_killed_he_gains_two_and_goes_into_the_deck_CG_CHAL_02():
    t = Table(decks=("lannister_rose", "watch_stag"))
    to_plot_step(t)
    benjen = put_in_play(t, "seat2", "01122")  # a Ranger
    hunter = put_in_play(t, "seat2", "01131")  # Old Forest Hunter, a Ranger
    builder = put_in_play(t, "seat2", "01134")  # not a Ranger
    assert not current.bypassable(t.state, benjen) and not current.bypassable(t.state, hunter)
    assert current.bypassable(t.state, builder)
    for c in [hunter, builder]:  # their Actions would open windows
        del t.state.in_play[c]
        t.state.player("seat2").discard.append(c)
    plots(t, "01024", "01016")  # Taxation, Marching Orders
    first_player(t, t.state.waiting[0], "seat1")
    pass_windows(t)
    without_ambush(t)
    jaime = put_in_play(t, "seat1", "01087")
    _passing(t, "seat1", cmd.EndMarshaling())
    _passing(t, "seat2", cmd.EndMarshaling())
    out = _passing(t, "seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    out += _passing(t, "seat2", cmd.DeclareDefenders(defenders=[]))
    i = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsCharactersKilled))
    assert out[i].cards == [benjen]
    gained = next(e for e in out[i:] if isinstance(e, ev.CardsPowerGained) and e.reason == "Benjen Stark")
    assert gained.seat_id == "seat2" and gained.amount == 2
    back = next(e for e in out[i:] if isinstance(e, ev.CardsReturnedToDeck))
    assert back.from_pile == "dead" and back.cards == [benjen]
    assert isinstance(out[out.index(back) + 1], ev.CardsDeckShuffled)
    p = t.state.player("seat2")
    assert benjen in p.deck and benjen not in p.dead and p.faction_power == 2


def test_the_wall_gives_nights_watch_strength_kneels_after_an_unopposed_loss_and_gains_two_at_the_end():
    t = Table(decks=("lannister_rose", "watch_stag"))
    to_plot_step(t)
    wall = put_in_play(t, "seat2", "01137")
    builder = put_in_play(t, "seat2", "01134")  # Night's Watch, STR 4, P
    jaime = put_in_play(t, "seat1", "01087")
    assert current.strength(t.state, builder) == 4 + 1 and current.strength(t.state, jaime) == 5  # only yours
    plots(t, "01024", "01016")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    _passing(t, "seat1", cmd.EndMarshaling())
    _passing(t, "seat2", cmd.EndMarshaling())
    out = _passing(t, "seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[jaime]))  # builder: no I
    assert next(e for e in out if isinstance(e, ev.CardsChallengeResolved)).unopposed
    assert t.state.in_play[wall].kneeling  # forced
    out = []
    while t.state.phase == "challenges":
        out += _passing(t, t.state.waiting[0], cmd.EndChallenges())
    assert any(isinstance(e, ev.CardsPhaseBegan) and e.phase == "dominance" for e in out)
    assert not any(isinstance(e, ev.CardsPowerGained) and e.reason == "The Wall" for e in out)  # knelt


def test_the_wall_standing_kneels_to_gain_two_power_as_the_challenges_phase_ends():
    t = Table(decks=("lannister_rose", "watch_stag"))
    to_plot_step(t)
    wall = put_in_play(t, "seat2", "01137")
    plots(t, "01024", "01016")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())  # nobody has a character: the phase ends at once
    used = next(e for e in out if isinstance(e, ev.CardsAbilityUsed) and e.code == "01137")
    i = out.index(used)
    knelt, gained = out[i + 1], out[i + 2]
    assert isinstance(knelt, ev.CardsKneelingChanged) and knelt.cards == [wall] and knelt.kneeling
    assert isinstance(gained, ev.CardsPowerGained) and (gained.seat_id, gained.amount) == ("seat2", 2)
    began = [e for e in out[i:] if isinstance(e, ev.CardsPhaseBegan)]
    assert began[0].phase == "dominance"  # as the challenges phase ended


def test_the_wolfswood_gives_direwolves_in_hand_ambush_at_their_printed_cost_CG_KEY_06():
    t = to_marshaling()  # seat1: stark_kraken
    put_in_play(t, "seat1", "01144")  # a challenge is possible: the window before it opens
    pup = to_hand(t, "seat1", "01149")  # Direwolf Pup, cost 2, no printed Ambush
    assert current.ambush_cost(t.state, pup) is None
    put_in_play(t, "seat1", "01155")
    assert current.ambush_cost(t.state, pup) == 2
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    assert t.state.step == "action" and t.state.waiting == ["seat1"]
    assert decisions_for(t.state, "seat1").decisions[0].cards == [pup]
    out = t.seat("seat1", cmd.AmbushCard(card=pup))
    assert next(e for e in out if isinstance(e, ev.CardsAmbushed)).cost == 2 and pup in t.state.in_play


def test_bodyguard_goes_on_a_lord_or_lady_only_CG_KEY_09():
    t = to_marshaling(p2="01024")
    t.seat("seat1", cmd.EndMarshaling())
    tywin = put_in_play(t, "seat2", "01090")  # a Lord
    cloaks = put_in_play(t, "seat2", "01092")  # not
    guard = to_hand(t, "seat2", "01033")
    assert decisions_for(t.state, "seat2").decisions[0].attach_targets[guard] == [tywin]
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.MarshalCard(card=guard, attach_to=cloaks))
    assert e.value.rule == "CG-KEY-09" and "Lord or Lady" in e.value.detail
    t.seat("seat2", cmd.MarshalCard(card=guard, attach_to=tywin))
    assert t.state.in_play[guard].attached_to == tywin


def test_ghost_bypassed_character_cannot_defend_for_the_rest_of_the_phase_CG_CHAL_02():
    t = Table(decks=WATCH)
    to_plot_step(t)
    ghost = put_in_play(t, "seat1", "01123")  # M, stealth
    bastard = put_in_play(t, "seat1", "01053")  # M P
    jaime = put_in_play(t, "seat2", "01087")  # M I
    tywin = put_in_play(t, "seat2", "01090")  # M I P
    plots(t, "01016", "01024")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ghost], stealth={ghost: tywin}))
    t.seat("seat2", cmd.DeclareDefenders(defenders=[jaime]))
    assert current.defending_forbidden(t.state, tywin) and not t.state.in_play[tywin].kneeling
    assert not current.defending_forbidden(t.state, jaime)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[bastard]))
    declared = next(e for e in out if isinstance(e, ev.CardsDefendersDeclared))
    assert declared.defenders == [] and not declared.by_default  # Tywin (P) could not be asked to defend
    t.state.phase = "dominance"  # a new phase (as a judge would set it) clears the limit
    t.state.used_abilities = []
    assert not current.defending_forbidden(t.state, tywin)


# -- reactions that ask for targets outside the plot phase (flow.after_choice resumes) ----------


def _watch_marshaling() -> Table:
    """watch_stag (Marching Orders, 9 gold) against lannister_rose (Taxation): seat1 marshals first."""
    t = Table(decks=WATCH)
    to_plot_step(t)
    plots(t, "01016", "01024")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]
    return t


def test_melisandre_kneels_a_character_after_you_marshal_an_rhllor_card_once_a_round_CG_PHASE_11():
    t = _watch_marshaling()
    mel = put_in_play(t, "seat1", "01047")
    jaime = put_in_play(t, "seat2", "01087")
    tywin = put_in_play(t, "seat2", "01090")
    selyse = to_hand(t, "seat1", "01049")  # Selyse Baratheon: R'hllor
    t.seat("seat1", cmd.MarshalCard(card=selyse))
    assert t.state.step == "ability" and t.state.waiting == ["seat1"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert set(d.cards) == {mel, selyse, jaime, tywin} and d.default_targets == [tywin]  # highest printed STR
    t.seat("seat1", cmd.ChooseTargets(cards=[jaime]))
    assert t.state.in_play[jaime].kneeling and f"round:{mel}" in t.state.used_abilities
    assert t.state.step == "marshal" and t.state.waiting == ["seat1"]  # marshaling goes on
    out = t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01053")))  # not R'hllor
    assert t.state.step == "marshal" and not any(isinstance(e, ev.CardsChoiceOffered) for e in out)


def test_vanguard_lancer_removes_a_power_from_an_opponents_character_or_faction_card():
    t = _watch_marshaling()
    jaime = put_in_play(t, "seat2", "01087")
    t.state.in_play[jaime].power = 2
    t.state.player("seat2").faction_power = 3
    t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01057")))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == ["seat2", jaime] and d.default_targets == ["seat2"]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[jaime]))
    removed = next(e for e in out if isinstance(e, ev.CardsPowerRemoved))
    assert (removed.seat_id, removed.card, removed.amount) == ("seat2", jaime, 1)
    assert t.state.in_play[jaime].power == 1 and t.state.player("seat2").faction_power == 3
    assert t.state.step == "marshal"


def test_vanguard_lancer_with_no_power_to_remove_asks_nothing():
    t = _watch_marshaling()
    put_in_play(t, "seat2", "01087")
    out = t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01057")))
    assert t.state.step == "marshal" and not any(isinstance(e, ev.CardsChoiceOffered) for e in out)


def test_yoren_puts_a_cheap_character_of_the_opponents_discard_pile_into_play_under_your_control():
    t = _watch_marshaling()
    p2 = t.state.player("seat2")
    lender = next(c for c in p2.deck if t.state.cards[c] == "01093")  # cost 2
    tywin = next(c for c in p2.deck if t.state.cards[c] == "01090")  # cost 7
    for c in (lender, tywin):
        p2.deck.remove(c)
        p2.discard.append(c)
    t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01129")))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == [lender] and d.default_targets == [lender]
    out = t.timeout()
    put = next(e for e in out if isinstance(e, ev.CardsPutIntoPlay))
    assert (put.seat_id, put.card, put.from_pile) == ("seat1", lender, "discard")
    assert t.state.in_play[lender].controller == "seat1" and t.state.owner(lender) == "seat2"
    assert lender not in p2.discard and t.state.step == "marshal"


def test_ser_davos_killed_goes_back_to_hand_instead_of_the_dead_pile():
    t = Table(decks=WATCH)
    to_plot_step(t)
    davos = put_in_play(t, "seat1", "01050")
    jaime = put_in_play(t, "seat2", "01087")
    plots(t, "01016", "01024")
    first_player(t, t.state.waiting[0], "seat1")
    without_ambush(t)
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    out = t.seat("seat1", cmd.DeclareDefenders(defenders=[]))
    assert next(e for e in out if isinstance(e, ev.CardsCharactersKilled)).cards == [davos]
    back = next(e for e in out if isinstance(e, ev.CardsReturnedToHand))
    assert (back.seat_id, back.cards, back.from_pile) == ("seat1", [davos], "dead")
    assert davos in t.state.player("seat1").hand and davos not in t.state.player("seat1").dead


def test_rattleshirts_raiders_discard_an_attachment_of_the_loser_before_claim():
    t = to_marshaling()
    raiders = put_in_play(t, "seat1", "01030")  # M, STR 3
    jaime = put_in_play(t, "seat2", "01087", kneeling=True)
    wail = _attach(t, "seat2", "01096", jaime)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[raiders]))  # no defender
    assert t.state.step == "ability" and not any(isinstance(e, ev.CardsCharactersKilled) for e in out)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == [wail] and d.default_targets == [wail]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[wail]))
    discarded = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsDiscardedFromPlay))
    killed = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsCharactersKilled))
    assert discarded < killed  # then the claim: Jaime, seat2's only character, dies
    assert wail in t.state.player("seat2").discard and jaime in t.state.player("seat2").dead


def test_throwing_axe_ironborn_only_sacrificed_to_kill_a_defender_after_a_win_CG_KEY_09():
    t = to_marshaling()
    crew = put_in_play(t, "seat1", "01072")  # Black Wind's Crew: Ironborn, M, STR 3
    ned = put_in_play(t, "seat1", "01144")  # not Ironborn
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    axe = to_hand(t, "seat1", "01077")
    assert current.attach_forbidden(t.state, axe, ned) and current.attach_forbidden(t.state, axe, crew) is None
    t.state.player("seat1").hand.remove(axe)
    t.state.in_play[axe] = Placed(card=axe, controller="seat1", attached_to=crew)
    cloaks = put_in_play(t, "seat2", "01092")  # M, STR 3
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[crew]))
    out = t.seat("seat2", cmd.DeclareDefenders(defenders=[cloaks]))  # 3 against 3: the attacker wins
    assert next(e for e in out if isinstance(e, ev.CardsChallengeResolved)).winner == "seat1"
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and d.cards == [cloaks]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[cloaks]))
    assert axe in t.state.player("seat1").discard and cloaks in t.state.player("seat2").dead
    assert tywin in t.state.player("seat2").dead  # then the claim: the last character dies


def test_games_with_marshal_and_challenge_reactions_asking_targets_audit_clean():
    """Melisandre's, Vanguard Lancer's, Yoren's, Rattleshirt's Raiders' and Throwing Axe's choices
    are re-derived by the audit (read back from cards_choice_made)."""
    wanted = {"01047", "01057", "01129", "01030", "01077"}
    seen: set[str] = set()
    for seed in range(40):
        t = Table(seed=f"reactions-{seed}", decks=("stark_kraken", "watch_stag"))
        play_random(t, random.Random(seed), timeouts=0.1)
        envs = envelopes(t)
        report = GAME.audit(envs, t.seed)
        assert report.problems == [] and report.rules_ok and report.rederived_through == len(envs)
        seen |= {t.state.cards[e.card] for e in t.events if isinstance(e, ev.CardsChoiceMade)} & wanted
        if seen & {"01030", "01077"} and seen & {"01047", "01057", "01129"}:
            break
    assert seen & {"01030", "01077"} and seen & {"01047", "01057", "01129"}, seen


def _ambush_window(code: str) -> tuple[Table, str]:
    """seat1 (first, a character) and seat2 end marshaling; seat2 holds ``code`` (Ambush 4) and 5
    gold: the window before seat1's first challenge waits for seat2."""
    t = to_marshaling()
    put_in_play(t, "seat1", "01144")
    card = to_hand(t, "seat2", code)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    assert t.state.step == "action" and t.state.waiting == ["seat2"]
    return t, card


def test_the_queens_assassin_ambushed_with_more_cards_makes_the_opponent_kill_a_character_CG_KEY_06():
    t, assassin = _ambush_window("01095")
    ned = next(c for c in t.state.in_play if t.state.cards[c] == "01144")
    knight = put_in_play(t, "seat1", "01150")
    p1 = t.state.player("seat1")
    p1.deck.extend(p1.hand[1:])
    del p1.hand[1:]  # seat1 holds 1 card, seat2 more
    t.seat("seat2", cmd.AmbushCard(card=assassin))
    assert t.state.step == "ability" and t.state.waiting == ["seat1"]  # the opponent chooses
    d = decisions_for(t.state, "seat1").decisions[0]
    assert set(d.cards) == {ned, knight} and d.default_targets == [knight]  # the lowest printed STR
    out = t.seat("seat1", cmd.ChooseTargets(cards=[ned]))
    used = next(e for e in out if isinstance(e, ev.CardsAbilityUsed))
    assert (used.code, used.seat_id) == ("01095", "seat2")
    assert ned in p1.dead and knight in t.state.in_play
    assert any(isinstance(e, ev.CardsWindowClosed) for e in out)  # the window went on: both passed


def test_the_queens_assassin_with_no_more_cards_does_nothing():
    t, assassin = _ambush_window("01095")
    p2 = t.state.player("seat2")
    rest = [c for c in p2.hand if c != assassin]
    p2.deck.extend(rest[1:])
    p2.hand = [rest[0], assassin]  # seat2 will hold 1 card after the Ambush: fewer than seat1
    out = t.seat("seat2", cmd.AmbushCard(card=assassin))
    assert not any(isinstance(e, ev.CardsChoiceOffered) for e in out) and t.state.step != "ability"


def test_olennas_informant_ambushed_in_the_challenges_phase_names_an_extra_challenge():
    t, informant = _ambush_window("01189")
    assert current.allowed_count(t.state, "seat2", "intrigue") == 1
    t.seat("seat2", cmd.AmbushCard(card=informant))
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.cards == ["military", "intrigue", "power"] and d.default_targets == ["military"]
    t.seat("seat2", cmd.ChooseTargets(cards=["intrigue"]))
    assert current.allowed_count(t.state, "seat2", "intrigue") == 2
    assert current.allowed_count(t.state, "seat2", "military") == 1


def test_summer_marshaled_returns_a_weak_stark_character_and_gives_bran_insight():
    t = to_marshaling()
    bran = put_in_play(t, "seat1", "01142")
    assert not current.has_keyword(t.state, bran, "insight")
    p1 = t.state.player("seat1")
    pup = to_hand(t, "seat1", "01149")  # STR 1, Stark
    cat = to_hand(t, "seat1", "01143")  # STR 4: too strong
    p1.hand.remove(pup)
    p1.dead.append(pup)
    p1.hand.remove(cat)
    p1.discard.append(cat)
    t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01148")))
    assert current.has_keyword(t.state, bran, "insight")
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == [pup] and d.default_targets == [pup]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[pup]))
    back = next(e for e in out if isinstance(e, ev.CardsReturnedToHand))
    assert back.from_pile == "dead" and pup in p1.hand and t.state.step == "marshal"


def test_ice_stark_only_two_strength_and_sacrificed_to_kill_after_a_military_win():
    t = to_marshaling()
    ned = put_in_play(t, "seat1", "01144")
    ice = _attach(t, "seat1", "01153", ned)
    assert current.strength(t.state, ned) == t.state.record(ned).str_ + 2
    jaime = put_in_play(t, "seat2", "01087", kneeling=True)
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))  # no defender
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and set(d.cards) == {jaime, tywin} and d.default_targets == [tywin]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[jaime]))
    assert ice in t.state.player("seat1").discard and jaime in t.state.player("seat2").dead
    killed = [e for e in out if isinstance(e, ev.CardsCharactersKilled)]
    assert [k.cards for k in killed] == [[jaime], [tywin]]  # Ice, then the claim


def test_aeron_damphair_brings_an_ironborn_back_from_the_dead_pile_after_winning_dominance_CG_PHASE_11():
    t = to_marshaling()
    put_in_play(t, "seat1", "01065")  # STR 3: seat1 wins dominance, 5 gold + 3 against 5
    p1 = t.state.player("seat1")
    theon = to_hand(t, "seat1", "01071")
    p1.hand.remove(theon)
    p1.dead.append(theon)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "challenge":
        t.seat(t.state.waiting[0], cmd.EndChallenges())
    assert t.state.step == "ability" and t.state.phase == "dominance"
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == [theon]
    out = t.seat("seat1", cmd.ChooseTargets(cards=[theon]))
    put = next(e for e in out if isinstance(e, ev.CardsPutIntoPlay))
    assert put.from_pile == "dead" and theon in t.state.in_play and theon not in p1.dead
    assert any(isinstance(e, ev.CardsPhaseBegan) and e.phase == "standing" for e in out)


def test_games_with_ambush_and_dominance_reactions_asking_targets_audit_clean():
    """The Queen's Assassin's, Olenna's Informant's and Aeron Damphair's choices are re-derived by the audit."""
    wanted = {"01095", "01189", "01065", "01148", "01153"}
    seen: set[str] = set()
    for seed in range(40):
        t = Table(seed=f"windows-{seed}", decks=("stark_kraken", "lannister_rose"))
        play_random(t, random.Random(seed), timeouts=0.1)
        envs = envelopes(t)
        report = GAME.audit(envs, t.seed)
        assert report.problems == [] and report.rules_ok and report.rederived_through == len(envs)
        seen |= {t.state.cards[e.card] for e in t.events if isinstance(e, ev.CardsChoiceMade)} & wanted
        if seen & {"01095", "01189"} and len(seen) >= 2:
            break
    assert seen & {"01095", "01189"} and len(seen) >= 2, seen


def _targ_challenges(first: str = "seat1") -> Table:
    """targaryen_sun (A Storm of Swords) against lannister_rose (Taxation), after marshaling."""
    t = Table(decks=TARG)
    to_plot_step(t)
    plots(t, "01005", "01024")
    first_player(t, t.state.waiting[0], first)
    without_ambush(t)
    return t


def test_ser_jorah_gets_a_betrayal_token_per_win_and_is_sacrificed_at_three():
    t = _targ_challenges()
    jorah = put_in_play(t, "seat1", "01165")
    put_in_play(t, "seat1", "01161")  # Drogon: another military attacker keeps the challenge step open
    t.state.in_play[jorah].tokens = {"betrayal": 1}
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[jorah]))  # unopposed
    placed = next(e for e in out if isinstance(e, ev.CardsTokensPlaced))
    assert (placed.card, placed.token, placed.amount) == (jorah, "betrayal", 1)
    assert t.state.in_play[jorah].tokens == {"betrayal": 2}
    assert view_for(t.state, "seat2").seats[0].in_play[0].tokens == {"betrayal": 2}  # public
    assert t.state.step == "challenge" and t.state.waiting == ["seat1"]
    t.state.in_play[jorah].kneeling = False  # stood, as a judge would set it
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[jorah]))  # A Storm of Swords
    assert next(e for e in out if isinstance(e, ev.CardsDiscardedFromPlay)).cards == [jorah]
    assert jorah not in t.state.in_play and jorah in t.state.player("seat1").discard


def test_the_wall_and_jorah_are_forced_even_under_catelyns_lock():
    t = to_marshaling()
    cat = put_in_play(t, "seat1", "01143")
    t.state.challenge = Challenge(type="intrigue", attacker="seat1", defender="seat2", attackers=[cat])
    assert not triggers.may_trigger(Emitter(t.state, t.ctx()), "seat2")
    forced = [a.code for a, _, own in triggers._forced_and_reactions(Emitter(t.state, t.ctx())) if own == "seat2"]
    assert forced == []  # nothing of seat2's in play yet
    jorah = "s2-99"
    t.state.cards[jorah] = "01165"
    t.state.in_play[jorah] = Placed(card=jorah, controller="seat2")
    forced = [a.code for a, _, own in triggers._forced_and_reactions(Emitter(t.state, t.ctx())) if own == "seat2"]
    assert forced == ["01165"]


def test_maester_caleotte_after_a_loss_makes_a_character_lose_an_icon_until_the_phase_ends():
    t = _targ_challenges(first="seat2")
    caleotte = put_in_play(t, "seat1", "01107")  # I P, STR 2
    warrior = put_in_play(t, "seat1", "01168")  # M
    tyrion = put_in_play(t, "seat2", "01089")  # I P, STR 4
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[tyrion]))
    t.seat("seat1", cmd.DeclareDefenders(defenders=[caleotte]))  # 2 against 4: seat1 loses
    assert t.state.step == "ability" and t.state.waiting == ["seat1"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert f"{tyrion}:power" in d.cards and f"{warrior}:military" in d.cards
    assert d.default_targets == [f"{tyrion}:intrigue"]
    t.seat("seat1", cmd.ChooseTargets(cards=[f"{tyrion}:power"]))
    assert not current.has_icon(t.state, tyrion, "power") and current.has_icon(t.state, tyrion, "intrigue")
    assert f"phase:{caleotte}/{tyrion}:power" in t.state.used_abilities
    t.state.used_abilities = []  # as the phase ends
    assert current.has_icon(t.state, tyrion, "power")


def test_dornish_paramour_declared_chooses_a_character_that_must_defend_if_able_CG_CHAL_03():
    t = _targ_challenges()
    paramour = put_in_play(t, "seat1", "01111")  # I, STR 3
    tyrion = put_in_play(t, "seat2", "01089")  # I P
    cersei = put_in_play(t, "seat2", "01084")  # I P
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[paramour]))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and set(d.cards) == {tyrion, cersei}
    t.seat("seat1", cmd.ChooseTargets(cards=[cersei]))
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.kind == "defend" and d.must_defend == [cersei]
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.DeclareDefenders(defenders=[tyrion]))
    assert e.value.rule == "CG-CHAL-03" and cersei in e.value.detail
    out = t.timeout()  # the default declares the obliged defender
    declared = next(e for e in out if isinstance(e, ev.CardsDefendersDeclared))
    assert declared.by_default and declared.defenders == [cersei]


def test_plaza_of_punishment_minus_two_strength_and_kills_at_zero_after_a_power_win():
    t = _targ_challenges()
    plaza = put_in_play(t, "seat1", "01173")
    drogon = put_in_play(t, "seat1", "01161")  # M
    raider = put_in_play(t, "seat1", "01162")  # Khal Drogo: M P
    lender = put_in_play(t, "seat2", "01093", kneeling=True)  # STR 2, no attachment
    jaime = put_in_play(t, "seat2", "01087", kneeling=True)  # STR 5
    _attach(t, "seat2", "01096", jaime)  # Widow's Wail: Jaime has an attachment
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[raider]))  # unopposed
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and jaime not in d.cards and lender in d.cards and d.default_targets == [lender]
    assert drogon in d.cards  # any character without attachments
    out = t.seat("seat1", cmd.ChooseTargets(cards=[lender]))
    assert t.state.in_play[plaza].kneeling  # the cost
    killed = next(e for e in out if isinstance(e, ev.CardsCharactersKilled))
    assert killed.cards == [lender] and lender in t.state.player("seat2").dead  # 2 - 2 = 0


def test_plaza_of_punishment_on_a_stronger_character_only_weakens_it_this_phase():
    t = _targ_challenges()
    put_in_play(t, "seat1", "01173")
    drogo = put_in_play(t, "seat1", "01162")
    put_in_play(t, "seat1", "01161")  # Drogon: a military challenge left keeps the phase going
    tywin = put_in_play(t, "seat2", "01090", kneeling=True)
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[drogo]))
    before = current.strength(t.state, tywin)
    t.seat("seat1", cmd.ChooseTargets(cards=[tywin]))
    assert t.state.phase == "challenges" and tywin in t.state.in_play
    assert current.strength(t.state, tywin) == before - 2


def _watch_defends() -> tuple[Table, str, str]:
    """watch_stag (seat1: Old Bear Mormont, The Wall) against lannister_rose (seat2: Jaime), seat2 first."""
    t = Table(decks=WATCH)
    to_plot_step(t)
    bear = put_in_play(t, "seat1", "01126")  # M P, STR 6 (+1 by The Wall)
    put_in_play(t, "seat1", "01137")
    jaime = put_in_play(t, "seat2", "01087")  # M I, STR 5
    plots(t, "01016", "01024")
    first_player(t, t.state.waiting[0], "seat2")
    without_ambush(t)
    t.seat("seat2", cmd.EndMarshaling())
    t.seat("seat1", cmd.EndMarshaling())
    return t, bear, jaime


def test_old_bear_mormont_defends_standing_with_the_wall_and_puts_a_watch_card_into_play_CG_PHASE_11():
    t, bear, jaime = _watch_defends()
    builder = to_hand(t, "seat1", "01134")  # Veteran Builder, Night's Watch
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    t.seat("seat1", cmd.DeclareDefenders(defenders=[bear]))  # 7 against 5: seat1 wins
    assert not t.state.in_play[bear].kneeling
    while t.state.step == "challenge":
        t.seat(t.state.waiting[0], cmd.EndChallenges())
    assert t.state.step == "ability" and t.state.phase == "challenges"  # as the phase ends
    offered = next(e for e in reversed(t.events) if isinstance(e, ev.CardsChoiceOffered))
    assert offered.choice.hidden and builder in offered.choice.options
    seen = GAME.redact_event(offered, "seat2")
    assert isinstance(seen, ev.CardsChoiceOffered) and seen.choice.options == []
    out = t.seat("seat1", cmd.ChooseTargets(cards=[builder]))
    put = next(e for e in out if isinstance(e, ev.CardsPutIntoPlay))
    assert (put.card, put.from_pile) == (builder, "hand") and builder in t.state.in_play
    began = [e.phase for e in out if isinstance(e, ev.CardsPhaseBegan)]
    assert (
        began[0] == "dominance" and sum(1 for e in out if isinstance(e, ev.CardsAbilityUsed) and e.code == "01126") == 1
    )


def test_old_bear_mormont_after_losing_as_defender_puts_nothing_into_play():
    t, bear, jaime = _watch_defends()
    to_hand(t, "seat1", "01134")
    bastard = put_in_play(t, "seat1", "01053")
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    out = t.seat("seat1", cmd.DeclareDefenders(defenders=[]))  # seat1 loses as the defender
    out += t.seat("seat1", cmd.ChooseClaimVictims(characters=[bastard]))
    assert t.state.player("seat1").lost_defending == 1 and bear in t.state.in_play
    while t.state.step == "challenge":
        out += t.seat(t.state.waiting[0], cmd.EndChallenges())
    assert not any(isinstance(e, ev.CardsChoiceOffered) for e in out)
    assert any(isinstance(e, ev.CardsPhaseBegan) and e.phase == "dominance" for e in out)


def test_sansa_stark_enters_play_kneeling_and_gains_a_power_when_she_stands_once_a_round():
    t = to_marshaling()
    sansa = to_hand(t, "seat1", "01147")
    out = t.seat("seat1", cmd.MarshalCard(card=sansa))
    knelt = next(e for e in out if isinstance(e, ev.CardsKneelingChanged))
    assert knelt.cards == [sansa] and knelt.kneeling and t.state.in_play[sansa].kneeling
    power = t.state.player("seat1").faction_power
    out = t.seat("seat1", cmd.EndMarshaling())
    out += t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "challenge":
        out += t.seat(t.state.waiting[0], cmd.EndChallenges())
    i = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsStood))
    gained = [e for e in out[i:] if isinstance(e, ev.CardsPowerGained) and e.reason == "Sansa Stark"]
    assert len(gained) == 1 and gained[0].seat_id == "seat1"
    assert t.state.player("seat1").faction_power >= power + 1 and f"round:{sansa}" in t.state.used_abilities


def test_sansa_stark_set_up_enters_kneeling_CG_SETUP_08():
    t = Table()
    t.start()
    for seat in t.state.seat_ids():
        t.seat(seat, cmd.ChooseMulligan(mulligan=False))
    sansa = to_hand(t, "seat1", "01147")
    t.seat("seat1", cmd.ChooseSetup(cards=[SetupPick(card=sansa)]))
    t.seat("seat2", cmd.ChooseSetup(cards=[]))
    assert sansa in t.state.in_play and t.state.in_play[sansa].kneeling


def test_sansa_stark_stood_by_robb_stark_gains_a_power():
    t = to_marshaling()
    robb = put_in_play(t, "seat1", "01146")
    sansa = put_in_play(t, "seat1", "01147", kneeling=True)
    knight = put_in_play(t, "seat1", "01150")  # a Stark character to be killed
    jaime = put_in_play(t, "seat2", "01087")
    for c in (robb, knight):
        t.state.in_play[c].kneeling = True
    _to_seat2_challenges(t)
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    assert t.state.step == "claim"  # nobody of seat1's stands to defend
    out = t.seat("seat1", cmd.ChooseClaimVictims(characters=[knight]))
    assert any(isinstance(e, ev.CardsAbilityUsed) and e.code == "01146" for e in out)  # Robb stands them
    assert any(isinstance(e, ev.CardsPowerGained) and e.reason == "Sansa Stark" for e in out)
    assert not t.state.in_play[sansa].kneeling
