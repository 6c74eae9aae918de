"""Melee rounds among 3 to 6 seats: player order, challenges against a chosen opponent and their
claim (CG-PHASE-12), rival bonus (CG-MELEE-03, CG-SEEDFIX-09), support restriction (CG-MELEE-04),
the title abilities (CG-MELEE-05, CG-SEEDFIX-14), dominance among N, the end (CG-END-01/03)."""

from __future__ import annotations

import random

import pytest

from domain.cards import commands as cmd
from domain.cards import events as ev
from domain.cards import titles
from domain.cards.decisions import decisions_for
from domain.cards.emitter import Emitter
from domain.cards.phases import dominance
from domain.cards.phases.draw import draw_phase
from domain.cards.power import plot_values
from domain.cards.victory import check
from domain.core.errors import RuleViolation

from .melee_positions import COURTESAN, JAIME, TUMBLE, to_challenges, to_marshaling
from .play import Table, put_in_play, random_command
from .positions import pass_windows
from .test_soak import violations

DECKS_4 = ("stark_kraken", "lannister_rose", "targaryen_sun", "watch_stag")

HAND, COIN, LAWS, SHIPS, WHISPERS, REGENT = (
    titles.HAND,
    titles.COIN,
    titles.LAWS,
    titles.SHIPS,
    titles.WHISPERS,
    titles.REGENT,
)


def _of(out: list[object], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in out if isinstance(e, kind)]


def _resolved(out: list[object]) -> ev.CardsChallengeResolved:
    return _of(out, ev.CardsChallengeResolved)[0]


def _defend(t: Table, defenders: list[str]) -> list[object]:
    """The defender declares ``defenders`` (or is not asked when it has no eligible one)."""
    out: list[object] = []
    if t.state.step == "regent":  # a Crown Regent lets the challenge stand
        t.seat(t.state.waiting[0], cmd.ChooseRedirect(redirect=False))
    if t.state.step == "action":
        pass_windows(t)
    if t.state.step == "defend":
        out += t.seat(t.state.waiting[0], cmd.DeclareDefenders(defenders=defenders))
    return out


def _declare(t: Table, seat: str, kind: str, attackers: list[str], defender: str) -> list[object]:
    return t.seat(seat, cmd.DeclareChallenge(challenge_type=kind, attackers=attackers, defender=defender))  # type: ignore[arg-type]


def _settle(t: Table) -> None:
    """Windows passed, reactions declined, claims and intimidates defaulted until a challenge step."""
    while t.state.step not in ("challenge", "ended") and t.state.phase == "challenges":
        if t.state.step == "action":
            pass_windows(t)
        else:
            t.timeout()


def test_CG_PHASE_08_marshaling_in_player_order_among_four():
    t = to_marshaling(4, first="seat3")
    to_challenges(t, expect=False)
    incomes = [e.seat_id for e in _of(t.events, ev.CardsIncomeCollected)]
    assert incomes == ["seat3", "seat4", "seat1", "seat2"]


def test_CG_PHASE_12_the_attacker_picks_the_defending_opponent_and_the_claim_goes_against_it():
    t = to_marshaling(3)
    t.state.player("seat3").faction_power = 3
    t.state.player("seat2").faction_power = 3
    k = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.opponents == {"military": ["seat2", "seat3"], "power": ["seat2", "seat3"]}
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[k]))
    assert e.value.code == "defender_required"
    with pytest.raises(RuleViolation) as e:
        _declare(t, "seat1", "power", [k], "seat1")
    assert e.value.code == "not_an_opponent"
    out = _declare(t, "seat1", "power", [k], "seat3")
    assert _of(out, ev.CardsChallengeDeclared)[0].defender == "seat3"
    out += _defend(t, [])
    r = _resolved(t.events)
    assert (r.defender, r.winner, r.unopposed) == ("seat3", "seat1", True)
    moved = _of(t.events, ev.CardsPowerMoved)
    assert [(m.from_seat, m.to_seat, m.amount) for m in moved] == [("seat3", "seat1", 2)]  # Winds: claim 2
    assert t.state.player("seat2").faction_power == 3  # the other opponent is untouched


def test_CG_PHASE_12_one_challenge_of_each_type_each_against_any_opponent():
    t = to_marshaling(3)
    k1, k2 = put_in_play(t, "seat1", TUMBLE), put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "military", [k1], "seat2")
    _defend(t, [])
    _settle(t)
    assert t.state.step == "challenge" and t.state.active == "seat1"
    with pytest.raises(RuleViolation) as e:
        _declare(t, "seat1", "military", [k2], "seat3")
    assert e.value.rule == "CG-PHASE-12"
    _declare(t, "seat1", "power", [k2], "seat3")
    _defend(t, [])
    assert [c.defender for c in _of(t.events, ev.CardsChallengeDeclared)] == ["seat2", "seat3"]


def test_CG_MELEE_04_no_challenge_against_the_player_whose_title_yours_supports():
    # the Hand of the King supports the Master of Laws
    t = to_marshaling(3, titles={"seat1": HAND, "seat2": LAWS, "seat3": REGENT})
    k = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.opponents["power"] == ["seat3"] and d.opponents["military"] == ["seat3"]
    with pytest.raises(RuleViolation) as e:
        _declare(t, "seat1", "military", [k], "seat2")
    assert (e.value.code, e.value.rule) == ("supported_title", "CG-MELEE-04")
    assert not t.state.player("seat1").challenges_made  # nothing changed
    _declare(t, "seat1", "military", [k], "seat3")


def test_CG_MELEE_03_CG_SEEDFIX_09_rival_bonus_once_per_rival_opponent_per_round_before_claim():
    # Master of Coin's rivals: the Hand of the King (seat2) and the Master of Whispers (seat3)
    t = to_marshaling(3, titles={"seat1": COIN, "seat2": HAND, "seat3": WHISPERS})
    t.state.player("seat2").faction_power = 5
    k1 = put_in_play(t, "seat1", TUMBLE)
    k2 = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "power", [k1], "seat2")
    _defend(t, [])
    kinds = [type(e) for e in t.events]
    bonus = _of(t.events, ev.CardsRivalBonus)
    assert [(b.seat_id, b.rival) for b in bonus] == [("seat1", "seat2")]
    # step 4.2.3: after the result, with the unopposed bonus, before the claim moves power
    i = kinds.index(ev.CardsRivalBonus)
    assert kinds.index(ev.CardsChallengeResolved) < i < kinds.index(ev.CardsPowerMoved)
    _settle(t)
    # a second win against the same rival this round: no second bonus
    _declare(t, "seat1", "military", [k2], "seat2")
    _defend(t, [])
    _settle(t)
    assert len(_of(t.events, ev.CardsRivalBonus)) == 1
    # power: 2 unopposed wins + 1 rival bonus + 2 moved by the power claim (Winds: claim 2)
    assert t.state.player("seat1").faction_power == 5


def test_CG_MELEE_03_a_defender_gains_the_rival_bonus_too_and_each_rival_opponent_counts():
    # seat2 (Hand of the King) defends against seat1 (Master of Coin, its rival) and wins
    t = to_marshaling(3, first="seat1", titles={"seat1": COIN, "seat2": HAND, "seat3": WHISPERS})
    k = put_in_play(t, "seat1", TUMBLE)
    jaime = put_in_play(t, "seat2", JAIME)
    k3 = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "military", [k], "seat2")
    _defend(t, [jaime])
    assert _resolved(t.events).winner == "seat2"
    assert [(b.seat_id, b.rival) for b in _of(t.events, ev.CardsRivalBonus)] == [("seat2", "seat1")]
    _settle(t)
    # seat1 then wins against its other rival, seat3: a bonus for that rival opponent
    _declare(t, "seat1", "power", [k3], "seat3")
    _defend(t, [])
    assert [(b.seat_id, b.rival) for b in _of(t.events, ev.CardsRivalBonus)][-1] == ("seat1", "seat3")


def test_CG_MELEE_03_no_bonus_against_a_non_rival():
    t = to_marshaling(3, titles={"seat1": COIN, "seat2": LAWS, "seat3": REGENT})  # Laws supports Coin
    k = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "power", [k], "seat3")
    _defend(t, [])
    assert _resolved(t.events).winner == "seat1" and not _of(t.events, ev.CardsRivalBonus)


def test_CG_MELEE_05_title_strength_in_challenges_of_its_type_with_a_participant():
    # Master of Ships: +1 STR on its side in military challenges; not in power ones
    t = to_marshaling(3, titles={"seat1": SHIPS, "seat2": REGENT, "seat3": COIN})
    k = put_in_play(t, "seat1", TUMBLE)
    k2 = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "military", [k], "seat3")
    _defend(t, [])
    assert _resolved(t.events).attacker_strength == 3
    _settle(t)
    _declare(t, "seat1", "power", [k2], "seat3")
    _defend(t, [])
    assert _of(t.events, ev.CardsChallengeResolved)[-1].attacker_strength == 2


def test_CG_MELEE_05_a_defending_title_adds_strength_only_with_a_participating_character():
    t = to_marshaling(4, first="seat2", titles={"seat1": REGENT, "seat2": COIN, "seat3": LAWS, "seat4": WHISPERS})
    jaime = put_in_play(t, "seat2", JAIME)  # STR 5, intrigue
    court = put_in_play(t, "seat4", COURTESAN)  # STR 2, intrigue
    jaime2 = put_in_play(t, "seat2", COURTESAN)
    to_challenges(t)
    _declare(t, "seat2", "intrigue", [jaime], "seat4")
    _defend(t, [court])
    r = _resolved(t.events)
    assert (r.attacker_strength, r.defender_strength) == (5, 3)  # Master of Whispers +1 with Courtesan
    _settle(t)
    _declare(t, "seat2", "power", [jaime2], "seat4")
    _defend(t, [])  # no defender: Whispers adds nothing (and it is not an intrigue challenge)
    r = _of(t.events, ev.CardsChallengeResolved)[-1]
    assert (r.attacker_strength, r.defender_strength) == (2, 0)


def test_CG_MELEE_05_the_hand_of_the_king_has_a_second_power_challenge_against_another_opponent():
    t = to_marshaling(3, titles={"seat1": HAND, "seat2": REGENT, "seat3": COIN})
    k1, k2 = put_in_play(t, "seat1", TUMBLE), put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "power", [k1], "seat2")
    _defend(t, [])
    assert _resolved(t.events).attacker_strength == 3  # +1 STR in power challenges
    _settle(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.opponents["power"] == ["seat3"]
    with pytest.raises(RuleViolation) as e:
        _declare(t, "seat1", "power", [k2], "seat2")
    assert (e.value.code, e.value.rule) == ("same_opponent", "CG-MELEE-05")
    _declare(t, "seat1", "power", [k2], "seat3")
    assert t.state.player("seat1").challenges_made == ["power", "power"]


def test_CG_MELEE_05_master_of_ships_claims_one_more_in_military_against_a_rival():
    # Ships' rivals: Laws, Hand. Against seat2 (Laws) the claim is 2, against seat3 (Coin) 1.
    t = to_marshaling(3, titles={"seat1": SHIPS, "seat2": LAWS, "seat3": COIN})
    k = put_in_play(t, "seat1", TUMBLE)
    victims = [put_in_play(t, "seat2", c) for c in (COURTESAN, JAIME, "01088", "01094")]
    to_challenges(t)
    _declare(t, "seat1", "military", [k], "seat2")
    _defend(t, [])
    _settle_until_claim(t)
    assert t.state.step == "claim" and decisions_for(t.state, "seat2").decisions[0].count == 3  # Winds 2, +1
    t.seat("seat2", cmd.ChooseClaimVictims(characters=victims[:3]))
    assert set(_of(t.events, ev.CardsCharactersKilled)[-1].cards) == set(victims[:3])


def test_CG_MELEE_05_master_of_ships_claims_as_printed_against_a_non_rival():
    t = to_marshaling(3, titles={"seat1": SHIPS, "seat2": COIN, "seat3": LAWS})  # Coin is not a rival
    k = put_in_play(t, "seat1", TUMBLE)
    for c in (COURTESAN, JAIME, "01088", "01094"):
        put_in_play(t, "seat2", c)
    to_challenges(t)
    _declare(t, "seat1", "military", [k], "seat2")
    _defend(t, [])
    _settle_until_claim(t)
    assert t.state.step == "claim" and decisions_for(t.state, "seat2").decisions[0].count == 2


def _settle_until_claim(t: Table) -> None:
    while t.state.step in ("action", "reaction"):
        if t.state.step == "action":
            pass_windows(t)
        else:
            t.seat(t.state.waiting[0], cmd.Decline())


def test_CG_MELEE_05_master_of_whispers_applies_intrigue_claim_to_every_other_opponent():
    t = to_marshaling(3, first="seat2", titles={"seat1": REGENT, "seat2": WHISPERS, "seat3": COIN})
    jaime = put_in_play(t, "seat2", JAIME)
    to_challenges(t)
    hands = {s: len(t.state.player(s).hand) for s in ("seat1", "seat3")}
    _declare(t, "seat2", "intrigue", [jaime], "seat1")
    _defend(t, [])
    _settle(t)
    discards = [e for e in _of(t.events, ev.CardsDiscardedFromHand) if e.reason == "intrigue claim"]
    assert [e.seat_id for e in discards] == ["seat1", "seat3"]  # the defender, then every other opponent
    assert all(len(e.cards) == 1 for e in discards)  # Taxation: claim 1
    assert {s: len(t.state.player(s).hand) for s in hands} == {s: n - 1 for s, n in hands.items()}


def test_CG_MELEE_05_coin_income_laws_draw_and_reserve_regent_dominance():
    t = to_marshaling(3, first="seat1", titles={"seat1": REGENT, "seat2": COIN, "seat3": LAWS})
    to_challenges(t, expect=False)
    income = {e.seat_id: e.gold for e in _of(t.events, ev.CardsIncomeCollected)}
    assert income["seat2"] == 5 + 2  # Taxation 5, Master of Coin +2
    assert income["seat3"] == 3  # The Winds of Winter 3
    assert plot_values(t.state, "seat3").reserve == 5 + 1  # Master of Laws
    assert plot_values(t.state, "seat1").reserve == 5
    assert dominance.total(t.state, "seat1") == t.state.player("seat1").gold + 2  # Crown Regent, no character
    # the draw phase: the Master of Laws draws 3
    em = Emitter(t.state, t.ctx())
    draw_phase(em)
    drawn = {e.seat_id: e.count for e in em.events if isinstance(e, ev.CardsDrawn)}
    assert drawn == {"seat1": 2, "seat2": 2, "seat3": 3}


def test_CG_PHASE_15_dominance_among_three():
    t = to_marshaling(3, titles={"seat1": COIN, "seat2": LAWS, "seat3": REGENT})
    for s in ("seat1", "seat2", "seat3"):
        t.state.player(s).gold = 0
    put_in_play(t, "seat2", JAIME)
    em = Emitter(t.state, t.ctx())
    winner = dominance.determine(em)
    totals = _of(em.events, ev.CardsDominanceDetermined)[0].totals
    assert totals == {"seat1": 0, "seat2": 5, "seat3": 2} and winner == "seat2"


def test_CG_END_01_15_power_wins_a_melee_and_CG_END_03_a_decked_player_is_eliminated_the_game_goes_on():
    t = to_marshaling(3)
    k = put_in_play(t, "seat2", JAIME)
    p3 = t.state.player("seat3")
    p3.discard.extend(p3.deck)
    p3.deck = []
    em = Emitter(t.state, t.ctx())
    assert not check(em)  # seat3 is out, seat1 and seat2 play on
    assert [(e.seat_id) for e in _of(em.events, ev.CardsPlayerEliminated)] == ["seat3"]
    s = em.state
    assert s.eliminated == ["seat3"] and s.player_order() == ["seat1", "seat2"] and s.opponents("seat1") == ["seat2"]
    s.player("seat2").faction_power = 14
    s.in_play[k].power = 1
    em = Emitter(s, t.ctx())
    assert check(em) and em.state.winner == "seat2" and em.state.end_reason == "15 power"


def test_CG_END_03_the_last_player_left_wins_a_melee():
    t = to_marshaling(3)
    for s in ("seat2", "seat3"):
        p = t.state.player(s)
        p.discard.extend(p.deck)
        p.deck = []
    em = Emitter(t.state, t.ctx())
    assert check(em) and em.state.winner == "seat1"
    assert [e.seat_id for e in _of(em.events, ev.CardsPlayerEliminated)] == ["seat2", "seat3"]


def test_CG_MELEE_05_the_crown_regent_forces_a_redirect_once_per_round_before_reactions():
    t = to_marshaling(3, titles={"seat1": COIN, "seat2": LAWS, "seat3": REGENT})
    t.state.player("seat2").faction_power = 4
    t.state.player("seat3").faction_power = 4
    k1, k2 = put_in_play(t, "seat1", TUMBLE), put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "power", [k1], "seat3")
    # the bearer is asked first, before anything else of the challenge
    assert t.state.step == "regent" and t.state.waiting == ["seat3"]
    d = decisions_for(t.state, "seat3").decisions[0]
    assert d.kind == "regent" and d.seats == ["seat2"] and d.commands == ["choose_redirect"]
    t.seat("seat3", cmd.ChooseRedirect(redirect=True))
    assert t.state.step == "redirect" and t.state.waiting == ["seat1"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.seats == ["seat2"]
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.ChooseDefender(seat_id="seat3"))  # not the original defender
    assert (e.value.code, e.value.rule) == ("not_an_opponent", "CG-MELEE-05")
    t.seat("seat1", cmd.ChooseDefender(seat_id="seat2"))
    assert t.state.challenge is not None and t.state.challenge.defender == "seat2"
    _defend(t, [])
    r = _resolved(t.events)
    assert (r.defender, r.winner) == ("seat2", "seat1")
    moved = _of(t.events, ev.CardsPowerMoved)[-1]
    assert (moved.from_seat, moved.to_seat) == ("seat2", "seat1")  # the claim goes against the new defender
    # it still counts as initiated against seat3
    assert "challenge:seat1:power:seat3" in t.state.melee_log
    _settle(t)
    # once per round: the next challenge is not offered for a redirect
    _declare(t, "seat1", "military", [k2], "seat3")
    assert t.state.step != "regent"


def test_CG_MELEE_05_a_declined_redirect_leaves_the_challenge_and_the_once_per_round():
    t = to_marshaling(3, titles={"seat1": COIN, "seat2": LAWS, "seat3": REGENT})
    k1, k2 = put_in_play(t, "seat1", TUMBLE), put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    _declare(t, "seat1", "power", [k1], "seat2")
    out = t.timeout()  # the bearer's default: no redirect
    assert _of(out, ev.CardsRedirectChosen)[0].by_default and not _of(out, ev.CardsRedirectChosen)[0].redirect
    _defend(t, [])
    assert _resolved(t.events).defender == "seat2"
    _settle(t)
    _declare(t, "seat1", "military", [k2], "seat2")
    assert t.state.step == "regent"  # not used yet this round


def test_CG_END_03_random_melees_go_on_after_eliminations_to_a_winner():
    """A seat's deck is cut to 0-3 cards as round 2 begins (a judge's position): it is eliminated
    when it draws from the empty deck, whatever the game is doing; the others play on to a winner."""
    for i in range(6):
        t = Table(seed=f"elim-{i}", decks=DECKS_4[: 3 + i % 2])
        rng = random.Random(i)
        t.start()
        cut = False
        for _ in range(6000):
            s = t.state
            if s.phase == "ended":
                break
            if not cut and s.round == 2:
                for seat in ("seat2", "seat3") if i % 3 == 0 else ("seat3",):
                    p = s.player(seat)
                    keep = rng.randint(0, 3)
                    p.discard.extend(p.deck[keep:])
                    del p.deck[keep:]
                cut = True
            command = next(
                ((seat, c) for seat in list(s.waiting) or s.seat_ids() if (c := random_command(s, seat, rng))), None
            )
            if command is None:
                t.timeout()
            else:
                t.seat(*command)
            assert not violations(t.state)
        assert t.state.phase == "ended" and t.state.winner not in t.state.eliminated
        assert "seat3" in t.state.eliminated


def test_CG_END_04_a_melee_concession_eliminates_and_the_last_one_left_wins():
    t = to_marshaling(3, first="seat1")  # seat1 marshals: the game waits for it
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.Concede())
    assert (e.value.code, e.value.rule) == ("melee_concede_waiting", "CG-END-04")
    assert t.state.eliminated == []
    out = t.seat("seat3", cmd.Concede())
    assert [x.seat_id for x in _of(out, ev.CardsPlayerEliminated)] == ["seat3"] and t.state.phase != "ended"
    assert t.state.player_order() == ["seat1", "seat2"]
    out = t.seat("seat1", cmd.Concede())  # only one other left: it wins at once
    assert _of(out, ev.CardsGameEnded)[0].winner == "seat2" and t.state.phase == "ended"
