"""The plots' abilities (domain/cards/abilities/neutral.py): each test sets up a position with real
commands, reveals the plot and asserts its effect (CG-PHASE-04 When Revealed; constant effects
through domain/cards/current.py; reactions and forced effects at their timing points, §13.2)."""

from __future__ import annotations

import random

import pytest

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.decisions import decisions_for
from domain.cards.game import GAME
from domain.cards.redaction import view_for
from domain.core.errors import RuleViolation

from .play import Table, envelopes, play_random, put_in_play, to_hand, to_plot_step
from .positions import (
    AGOT,
    CALM,
    NAVAL,
    SNEAK,
    TAXATION,
    answer_calm,
    first_player,
    plots,
    to_marshaling,
    without_ambush,
)

CLASH, FEAST, NOBLE, STORM, COPPERS = "01001", "01002", "01004", "01005", "01010"  # targaryen_sun
FORTIFIED, MARCHING = "01012", "01016"  # watch_stag
SUPPORTING = "01023"  # stark_kraken
BANNERS, HEADS = "01007", "01013"  # lannister_rose


def _table(decks: tuple[str, str] = ("stark_kraken", "lannister_rose")) -> Table:
    t = Table(decks=decks)
    to_plot_step(t)
    return t


def _reveal(t: Table, p1: str, p2: str, first: str = "seat1") -> list[object]:
    """Both plots chosen and revealed; the initiative winner makes ``first`` the first player."""
    plots(t, p1, p2)
    out = t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id=first))
    out += answer_calm(t)
    without_ambush(t)
    return out


def _used(out: list[object], code: str) -> bool:
    return any(isinstance(e, ev.CardsAbilityUsed) and e.code == code for e in out)


def _end_marshaling(t: Table) -> list[object]:
    out: list[object] = []
    while t.state.step == "marshal":
        out += t.seat(t.state.waiting[0], cmd.EndMarshaling())
    return out


def test_counting_coppers_draws_three_when_revealed_CG_PHASE_04():
    t = _table(("targaryen_sun", "lannister_rose"))
    hand = len(t.state.player("seat1").hand)
    out = _reveal(t, COPPERS, TAXATION)
    assert _used(out, COPPERS)
    assert len(t.state.player("seat1").hand) == hand + 3 + 2  # 3 by the plot, 2 in the draw phase


def test_calling_the_banners_gains_a_gold_per_opposing_character():
    t = _table()
    put_in_play(t, "seat1", "01150")
    put_in_play(t, "seat1", "01152")
    out = _reveal(t, CALM, BANNERS)
    gained = next(e for e in out if isinstance(e, ev.CardsGoldGained))
    assert (gained.seat_id, gained.gold) == ("seat2", 2)
    t.seat("seat1", cmd.EndMarshaling())
    assert t.state.player("seat2").gold == 2 + 3  # the plot's gold, then its income of 3


def _hand_of_one(t: Table, seat: str, keep: str) -> None:
    p = t.state.player(seat)
    for c in [c for c in p.hand if c != keep]:
        p.hand.remove(c)
        p.deck.append(c)


def test_heads_on_spikes_a_random_character_goes_dead_and_gives_two_power():
    t = _table()
    ned = to_hand(t, "seat1", "01144")
    _hand_of_one(t, "seat1", ned)
    out = _reveal(t, CALM, HEADS)
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand))
    assert discarded.cards == [ned] and discarded.pile == "dead"
    assert ned in t.state.player("seat1").dead and t.state.player("seat2").faction_power == 2


def test_heads_on_spikes_a_non_character_is_only_discarded():
    t = _table()
    p = t.state.player("seat1")
    other = next(c for c in p.hand + p.deck if t.state.record(c).type != "character")
    to_hand(t, "seat1", t.state.cards[other])
    card = next(c for c in p.hand if t.state.record(c).type != "character")
    _hand_of_one(t, "seat1", card)
    _reveal(t, CALM, HEADS)
    assert card in t.state.player("seat1").discard and t.state.player("seat2").faction_power == 0


def test_a_game_of_thrones_no_military_or_power_before_an_intrigue_win_CG_PHASE_12():
    t = to_marshaling(p2=AGOT)
    ned = put_in_play(t, "seat1", "01144")  # M P
    cat = put_in_play(t, "seat1", "01143")  # I P
    _end_marshaling(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert set(d.challenge_types) == {"intrigue"}
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[ned]))
    assert e.value.rule == "CG-PHASE-12" and "A Game of Thrones" in e.value.detail
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[cat]))  # unopposed: won
    assert t.state.step == "challenge"
    assert set(decisions_for(t.state, "seat1").decisions[0].challenge_types) == {"military", "power"}


def test_sneak_attack_allows_one_challenge_only():
    t = to_marshaling(p2=SNEAK)
    jaime = put_in_play(t, "seat2", "01087")  # M I
    tywin = put_in_play(t, "seat2", "01090")  # M I P
    _end_marshaling(t)  # seat1 has no character: its challenges end at once
    assert t.state.waiting == ["seat2"]
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    assert any(isinstance(e, ev.CardsChallengesEnded) and e.seat_id == "seat2" for e in out)
    declared = [e for e in t.events if isinstance(e, ev.CardsChallengeDeclared) and e.seat_id == "seat2"]
    assert len(declared) == 1 and tywin not in declared[0].attackers  # Tywin could still have attacked


def test_a_storm_of_swords_allows_a_second_military_challenge():
    t = _table(("targaryen_sun", "lannister_rose"))
    drogon = put_in_play(t, "seat1", "01161")
    warrior = put_in_play(t, "seat1", "01168")
    _reveal(t, STORM, TAXATION)
    _end_marshaling(t)
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[drogon]))
    assert "military" in decisions_for(t.state, "seat1").decisions[0].challenge_types
    t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[warrior]))
    assert t.state.player("seat1").challenges_made == ["military", "military"]


def test_supporting_the_faith_returns_all_gold_as_the_challenges_phase_begins():
    t = _table()
    _reveal(t, SUPPORTING, TAXATION)
    out = _end_marshaling(t)
    i = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsAbilityUsed) and e.code == SUPPORTING)
    returned = out[i + 1]
    assert isinstance(returned, ev.CardsGoldReturned) and returned.gold == {"seat1": 6, "seat2": 5}
    assert all(p.gold == 0 for p in t.state.players)


def test_naval_superiority_makes_a_kingdom_plots_base_gold_zero():
    t = _table()
    _reveal(t, NAVAL, BANNERS)  # Calling the Banners is a Kingdom plot; Naval Superiority is not
    income = [e for e in t.events if isinstance(e, ev.CardsIncomeCollected)]
    assert (income[-1].seat_id, income[-1].gold) == ("seat1", 2)
    t.seat("seat1", cmd.EndMarshaling())
    income = [e for e in t.events if isinstance(e, ev.CardsIncomeCollected)]
    assert (income[-1].seat_id, income[-1].gold) == ("seat2", 0)


def test_taxation_allows_a_second_limited_card_not_a_third_CG_PHASE_10():
    t = to_marshaling(p2=TAXATION)
    t.seat("seat1", cmd.EndMarshaling())
    for code in ("01040", "01099"):  # The Roseroad, Western Fiefdom: Limited, cost 0
        t.seat("seat2", cmd.MarshalCard(card=to_hand(t, "seat2", code)))
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.MarshalCard(card=to_hand(t, "seat2", "01194")))  # Rose Garden
    assert e.value.rule == "CG-PHASE-10"


def test_marching_orders_forbids_locations_and_attachments():
    t = _table(("watch_stag", "lannister_rose"))
    _reveal(t, MARCHING, TAXATION)
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01039")))  # The Kingsroad
    assert "Marching Orders" in e.value.detail
    bastard = to_hand(t, "seat1", "01053")
    t.seat("seat1", cmd.MarshalCard(card=bastard))
    assert bastard in t.state.in_play


def test_fortified_position_blanks_every_characters_keywords():
    t = _table(("watch_stag", "lannister_rose"))
    davos = put_in_play(t, "seat1", "01050")  # stealth
    jaime = put_in_play(t, "seat2", "01087")
    assert current.has_keyword(t.state, davos, "stealth")
    _reveal(t, FORTIFIED, TAXATION)
    assert current.keywords(t.state, davos) == []
    _end_marshaling(t)
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareChallenge(challenge_type="military", attackers=[davos], stealth={davos: jaime}))
    assert e.value.rule == "CG-CHAL-02"


def test_a_noble_cause_makes_the_first_lord_or_lady_two_cheaper_once():
    t = _table(("targaryen_sun", "lannister_rose"))
    _reveal(t, NOBLE, TAXATION)
    out = t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01163")))  # Magister Illyrio, Lord, 5
    assert next(e for e in out if isinstance(e, ev.CardsMarshaled)).cost == 3 and _used(out, NOBLE)
    out = t.seat("seat1", cmd.MarshalCard(card=to_hand(t, "seat1", "01106")))  # Edric Dayne, Lord, 2
    assert next(e for e in out if isinstance(e, ev.CardsMarshaled)).cost == 2
    assert t.state.player("seat1").gold == 0


def test_a_clash_of_kings_takes_a_power_after_a_power_challenge_win():
    t = _table(("targaryen_sun", "lannister_rose"))
    drogo = put_in_play(t, "seat1", "01162")  # Khal Drogo: M P, renown
    t.state.player("seat2").faction_power = 3
    _reveal(t, CLASH, TAXATION)
    _end_marshaling(t)
    out = t.seat("seat1", cmd.DeclareChallenge(challenge_type="power", attackers=[drogo]))
    assert _used(out, CLASH)
    moved = [e for e in out if isinstance(e, ev.CardsPowerMoved)]
    assert [(m.from_seat, m.to_seat, m.amount) for m in moved] == [("seat2", "seat1", 1)] * 2  # the plot, the claim
    i = next(i for i, e in enumerate(out) if isinstance(e, ev.CardsAbilityUsed))
    assert isinstance(out[i - 1], ev.CardsPowerGained) and out[i - 1].reason == "unopposed"  # right after the win


def test_a_feast_for_crows_gains_two_power_on_winning_dominance():
    t = _table(("targaryen_sun", "lannister_rose"))
    _reveal(t, FEAST, TAXATION)
    out = _end_marshaling(t)  # no characters: no challenges; dominance 6 gold against 5
    assert _used(out, FEAST)
    assert t.state.player("seat1").faction_power == 1 + 2


def test_a_game_where_plot_abilities_fired_audits_clean():
    """Every ability's outcome (Heads on Spikes' random card among them) is re-derived by the audit."""
    for seed in range(6):
        t = Table(seed=f"abilities-{seed}", decks=("targaryen_sun", "lannister_rose"))
        play_random(t, random.Random(seed))
        if any(isinstance(e, ev.CardsAbilityUsed) for e in t.events):
            break
    else:
        raise AssertionError("no ability fired in six random games")
    envs = envelopes(t)
    report = GAME.audit(envs, t.seed)
    assert report.problems == [] and report.rules_ok and report.game_over and report.rederived_through == len(envs)


def test_filthy_accusations_asks_for_a_target_and_kneels_it_CG_PHASE_04():
    t = _table(("watch_stag", "lannister_rose"))
    mine = put_in_play(t, "seat1", "01053")
    jaime = put_in_play(t, "seat2", "01087")
    plots(t, "01011", TAXATION)
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.step == "ability" and t.state.waiting == ["seat1"]
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and d.commands == ["choose_targets"] and d.count == 1
    assert set(d.cards) == {mine, jaime} and d.default_targets == [jaime] and d.prompt
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.ChooseTargets(cards=["s1-p1"]))
    t.seat("seat1", cmd.ChooseTargets(cards=[mine]))
    assert t.state.in_play[mine].kneeling and not t.state.in_play[jaime].kneeling
    assert t.state.phase == "marshaling"  # the round went on: draw, then marshaling


def test_confiscation_discards_an_attachment_and_its_default_is_the_opponents_dearest():
    t = _table()
    jaime = put_in_play(t, "seat2", "01087")
    wail = put_in_play(t, "seat2", "01096")
    t.state.in_play[wail].attached_to = jaime
    plots(t, "01009", TAXATION)
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.step == "ability"
    out = t.timeout()
    made = next(e for e in out if isinstance(e, ev.CardsChoiceMade))
    assert made.by_default and made.chosen == [wail]
    assert wail not in t.state.in_play and wail in t.state.player("seat2").discard


def test_without_a_target_a_choice_plot_resolves_with_nothing():
    t = _table(("watch_stag", "lannister_rose"))
    plots(t, "01011", TAXATION)  # no character in play
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.phase == "marshaling"


def test_a_game_with_ability_choices_made_and_defaulted_audits_clean():
    """choose_targets is read back from cards_choice_made by the audit; a defaulted choice is a timeout."""
    for seed in range(8):
        t = Table(seed=f"choices-{seed}", decks=("stark_kraken", "watch_stag"))
        play_random(t, random.Random(seed), timeouts=0.1)
        if any(isinstance(e, ev.CardsChoiceMade) for e in t.events):
            break
    else:
        raise AssertionError("no ability choice in eight random games")
    envs = envelopes(t)
    report = GAME.audit(envs, t.seed)
    assert report.problems == [] and report.rules_ok and report.game_over and report.rederived_through == len(envs)


def test_rebuilding_shuffles_three_chosen_discards_back_into_the_deck():
    t = _table()
    p = t.state.player("seat1")
    pile = p.deck[-5:]
    del p.deck[-5:]
    p.discard.extend(pile)
    deck = len(p.deck)
    plots(t, "01019", TAXATION)
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "ability" and d.cards == pile and d.count == 3 and d.default_targets == pile[-3:]
    out = t.seat("seat1", cmd.ChooseTargets(cards=pile[:3]))
    assert isinstance(
        out[out.index(next(e for e in out if isinstance(e, ev.CardsReturnedToDeck))) + 1], ev.CardsDeckShuffled
    )
    p = t.state.player("seat1")
    assert p.discard == pile[3:] and len(p.deck) == deck + 3 - 2  # 3 back, then 2 drawn in the draw phase


# -- choices among hidden cards, choices of every player (issue 14) ------------------------

SUMMONS_, BUILDING, REINFORCEMENTS_ = "01022", "01006", "01020"
CALM_, JOUSTING, MARCHED, WILDFIRE_ = "01008", "01014", "01015", "01026"


def _top(t: Table, seat: str, cards: list[str], fill_with_no: tuple[str, ...]) -> None:
    """Arrange ``seat``'s deck: ``cards`` first, then cards of none of the types ``fill_with_no``
    up to the 10th, the rest after."""
    p = t.state.player(seat)
    rest = [c for c in p.deck if c not in cards]
    filler = [c for c in rest if t.state.record(c).type not in fill_with_no][: 10 - len(cards)]
    p.deck = cards + filler + [c for c in rest if c not in filler]


def _hidden_from_others(t: Table, out: list[object], options: list[str]) -> None:
    """The choice's options reach its chooser (seat1) only: not seat2 nor a spectator, in the
    event, the decisions or the view; the chooser sees them and their codes."""
    offered = next(e for e in out if isinstance(e, ev.CardsChoiceOffered))
    assert offered.choice.hidden and offered.choice.options == options
    assert GAME.redact_event(offered, "seat1") is offered
    for reader in ("seat2", None):
        seen = GAME.redact_event(offered, reader)
        assert isinstance(seen, ev.CardsChoiceOffered)
        assert seen.choice.options == [] and seen.choice.default == [] and seen.choice.seat == "seat1"
        assert decisions_for(t.state, reader).decisions == []
        assert not set(options) & set(view_for(t.state, reader).cards)
    mine = decisions_for(t.state, "seat1").decisions[0]
    assert mine.kind == "ability" and mine.cards == options
    assert set(options) <= set(view_for(t.state, "seat1").cards)


def test_summons_searches_the_top_ten_for_a_character_seen_by_its_owner_only_CG_PHASE_04():
    t = _table()
    deck = t.state.player("seat1").deck
    chars = [c for c in deck if t.state.record(c).type == "character"]
    deep = chars[2]
    _top(t, "seat1", chars[:2], ("character",))
    t.state.player("seat1").deck.remove(deep)
    t.state.player("seat1").deck.append(deep)  # the 3rd character lies below the top 10
    plots(t, SUMMONS_, TAXATION)
    out = t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.step == "ability" and t.state.waiting == ["seat1"]
    _hidden_from_others(t, out, sorted(chars[:2]))
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.ChooseTargets(cards=[deep]))
    out = t.seat("seat1", cmd.ChooseTargets(cards=[chars[1]]))
    taken = next(e for e in out if isinstance(e, ev.CardsTakenFromDeck))
    assert taken.cards == [chars[1]] and taken.seat_id == "seat1"
    assert GAME.redact_event(taken, None) is taken  # the card found is revealed
    assert isinstance(out[out.index(taken) + 1], ev.CardsDeckShuffled)
    assert chars[1] in t.state.player("seat1").hand and t.state.phase == "marshaling"


def test_building_orders_takes_a_location_or_attachment_and_its_default_is_the_dearest():
    t = _table(("watch_stag", "lannister_rose"))
    deck = t.state.player("seat1").deck
    found = [c for c in deck if t.state.record(c).type in ("location", "attachment")][:3]
    _top(t, "seat1", found, ("location", "attachment"))
    plots(t, BUILDING, TAXATION)
    out = t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    _hidden_from_others(t, out, sorted(found))
    dearest = sorted(found, key=lambda c: (-t.state.record(c).printed_cost, c))[0]
    assert decisions_for(t.state, "seat1").decisions[0].default_targets == [dearest]
    out = t.timeout()
    assert next(e for e in out if isinstance(e, ev.CardsChoiceMade)).by_default
    assert dearest in t.state.player("seat1").hand


def test_summons_without_a_character_in_the_top_ten_only_shuffles():
    t = _table()
    _top(t, "seat1", [], ("character",))
    plots(t, SUMMONS_, TAXATION)
    out = t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert _used(out, SUMMONS_) and not any(isinstance(e, ev.CardsChoiceOffered) for e in out)
    assert any(isinstance(e, ev.CardsDeckShuffled) and e.seat_id == "seat1" for e in out)


def test_reinforcements_puts_a_cheap_character_into_play_from_hand_or_discard_CG_PHASE_04():
    t = _table()
    p = t.state.player("seat2")
    for c in [c for c in p.hand if t.state.record(c).type == "character"]:
        p.hand.remove(c)
        p.deck.append(c)
    tyrion = to_hand(t, "seat2", "01089")  # printed cost 5: may enter
    tywin = to_hand(t, "seat2", "01090")  # printed cost 7: may not
    lender = next(c for c in p.deck if t.state.cards[c] == "01093")  # Lannisport Moneylender, cost 2
    p.deck.remove(lender)
    p.discard.append(lender)
    plots(t, CALM, REINFORCEMENTS_)  # seat1 wins initiative (3 against 0)
    out = first_player(t, "seat1", "seat1")  # Calm Over Westeros answered, then Reinforcements asks
    offered = next(e for e in out if isinstance(e, ev.CardsChoiceOffered) and e.choice.seat == "seat2")
    assert offered.choice.hidden and sorted(offered.choice.options) == sorted([tyrion, lender])
    assert tywin not in offered.choice.options and offered.choice.default == [tyrion]
    for reader in ("seat1", None):
        seen = GAME.redact_event(offered, reader)
        assert isinstance(seen, ev.CardsChoiceOffered) and seen.choice.options == []
    assert decisions_for(t.state, "seat1").decisions == []
    out = t.seat("seat2", cmd.ChooseTargets(cards=[lender]))
    put = next(e for e in out if isinstance(e, ev.CardsPutIntoPlay))
    assert (put.card, put.from_pile, put.by) == (lender, "discard", t.state.player("seat2").plot)
    assert t.state.in_play[lender].controller == "seat2" and lender not in t.state.player("seat2").discard
    assert not t.state.in_play[lender].kneeling and t.state.phase == "marshaling"


def test_reinforcements_from_hand_by_default_and_a_unique_copy_enters_as_a_duplicate_CG_UNIQUE_03():
    t = _table()
    p = t.state.player("seat2")
    for c in [c for c in p.hand if t.state.record(c).type == "character"]:
        p.hand.remove(c)
        p.deck.append(c)
    cersei = put_in_play(t, "seat2", "01084")
    copy = to_hand(t, "seat2", "01084")
    plots(t, CALM, REINFORCEMENTS_)
    first_player(t, "seat1", "seat1")
    assert decisions_for(t.state, "seat2").decisions[0].default_targets == [copy]
    out = t.timeout()
    put = next(e for e in out if isinstance(e, ev.CardsPutIntoPlay))
    assert put.from_pile == "hand" and put.placed.as_ == "duplicate" and put.placed.on == cersei
    assert t.state.in_play[cersei].duplicates == [copy] and copy not in t.state.player("seat2").hand


def test_calm_over_westeros_lowers_the_claim_against_you_in_the_type_chosen_CG_CHAL_07():
    t = _table()
    ned = put_in_play(t, "seat1", "01144")
    knight = put_in_play(t, "seat1", "01150")
    jaime = put_in_play(t, "seat2", "01087")  # M I, does not kneel attacking in military
    plots(t, CALM_, TAXATION)
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.cards == ["military", "intrigue", "power"] and d.default_targets == ["military"]
    t.seat("seat1", cmd.ChooseTargets(cards=["military"]))
    without_ambush(t)
    _end_marshaling(t)
    t.seat("seat1", cmd.EndChallenges())
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime]))
    out += t.seat("seat1", cmd.DeclareDefenders(defenders=[]))
    assert next(e for e in out if isinstance(e, ev.CardsChallengeResolved)).winner == "seat2"
    assert not any(isinstance(e, ev.CardsCharactersKilled) for e in out)  # claim 1 - 1 = 0
    assert ned in t.state.in_play and knight in t.state.in_play
    out = t.seat("seat2", cmd.DeclareChallenge(challenge_type="intrigue", attackers=[jaime]))  # seat1: no defender
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromHand))
    assert discarded.seat_id == "seat1" and len(discarded.cards) == 1  # another type: the full claim


def test_marched_to_the_wall_every_player_discards_a_character_of_their_choice():
    t = _table(("watch_stag", "lannister_rose"))
    bastard = put_in_play(t, "seat1", "01053")
    sam = put_in_play(t, "seat1", "01127")
    jaime = put_in_play(t, "seat2", "01087")
    tywin = put_in_play(t, "seat2", "01090")
    plots(t, MARCHED, TAXATION)  # initiative 8 against 6: seat1 chooses the first player
    t.seat("seat1", cmd.ChooseFirstPlayer(seat_id="seat2"))
    assert t.state.step == "ability" and t.state.waiting == ["seat2"]  # in player order
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.cards == sorted([jaime, tywin]) and d.default_targets == [jaime]  # the lowest printed cost
    assert decisions_for(t.state, "seat1").decisions == []
    out = t.seat("seat2", cmd.ChooseTargets(cards=[tywin]))
    assert not any(isinstance(e, ev.CardsDiscardedFromPlay) for e in out)  # together, once all chose
    assert t.state.waiting == ["seat1"] and decisions_for(t.state, "seat1").decisions[0].cards == sorted([bastard, sam])
    out = t.seat("seat1", cmd.ChooseTargets(cards=[sam]))
    discarded = next(e for e in out if isinstance(e, ev.CardsDiscardedFromPlay))
    assert discarded.cards == [tywin, sam] and _used(out, MARCHED)
    assert tywin in t.state.player("seat2").discard and sam in t.state.player("seat1").discard
    assert set(t.state.in_play) >= {jaime, bastard} and t.state.phase == "marshaling"


def test_marched_to_the_wall_does_not_ask_a_player_with_one_character():
    t = _table(("watch_stag", "lannister_rose"))
    jaime = put_in_play(t, "seat2", "01087")
    plots(t, MARCHED, TAXATION)
    out = t.seat("seat1", cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert next(e for e in out if isinstance(e, ev.CardsDiscardedFromPlay)).cards == [jaime]
    assert t.state.phase == "marshaling"


def test_wildfire_assault_kills_all_but_three_chosen_no_duplicate_saves_and_reactions_follow():
    t = _table()
    robb = put_in_play(t, "seat1", "01146")  # after a Stark character of yours is killed, stand yours
    ned = put_in_play(t, "seat1", "01144")
    t.state.in_play[ned].duplicates.append(to_hand(t, "seat1", "01144"))
    t.state.player("seat1").hand.remove(t.state.in_play[ned].duplicates[0])
    cat = put_in_play(t, "seat1", "01143", kneeling=True)
    pup = put_in_play(t, "seat1", "01149")
    knight = put_in_play(t, "seat1", "01150")
    jaime = put_in_play(t, "seat2", "01087")
    plots(t, CALM, WILDFIRE_)  # initiative 3 against 7: seat2 chooses the first player
    t.seat("seat2", cmd.ChooseFirstPlayer(seat_id="seat1"))
    answer_calm(t)
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.count == 3 and d.cards == sorted([robb, ned, cat, pup, knight])
    assert d.default_targets == [ned, robb, cat]  # the highest printed STR
    out = t.seat("seat1", cmd.ChooseTargets(cards=[robb, cat, knight]))  # seat2 (one character) is not asked
    killed = next(e for e in out if isinstance(e, ev.CardsCharactersKilled))
    assert killed.seat_id == "seat1" and sorted(killed.cards) == sorted([ned, pup])
    assert not any(isinstance(e, ev.CardsDuplicateDiscarded) for e in out)  # it cannot be saved
    assert ned in t.state.player("seat1").dead and jaime in t.state.in_play
    assert _used(out, "01146") and not t.state.in_play[cat].kneeling  # Robb Stark stood them


def test_jousting_contest_one_attacker_and_one_defender_per_challenge_CG_CHAL_01_CG_CHAL_03():
    t = _table(("watch_stag", "lannister_rose"))
    bastard = put_in_play(t, "seat1", "01053")
    builder = put_in_play(t, "seat1", "01128")  # Ser Waymar Royce: M
    jaime = put_in_play(t, "seat2", "01087")
    tywin = put_in_play(t, "seat2", "01090")
    plots(t, JOUSTING, TAXATION)
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat2"))
    without_ambush(t)
    _end_marshaling(t)
    d = decisions_for(t.state, "seat2").decisions[0]
    assert d.kind == "challenge" and d.max_cards == 1
    with pytest.raises(RuleViolation) as e:
        t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[jaime, tywin]))
    assert e.value.rule == "CG-CHAL-01"
    t.seat("seat2", cmd.DeclareChallenge(challenge_type="military", attackers=[tywin]))
    d = decisions_for(t.state, "seat1").decisions[0]
    assert d.kind == "defend" and d.max_cards == 1
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.DeclareDefenders(defenders=[bastard, builder]))
    assert e.value.rule == "CG-CHAL-03"
    t.seat("seat1", cmd.DeclareDefenders(defenders=[builder]))
    assert t.state.challenge is not None and t.state.challenge.defenders == [builder]


def test_games_with_hidden_and_every_player_choices_audit_clean():
    """The search, Reinforcements' and every player's choices are re-derived by the audit."""
    kinds: set[str] = set()
    for seed in range(12):
        t = Table(seed=f"hidden-{seed}", decks=("watch_stag", "lannister_rose"))
        play_random(t, random.Random(seed), timeouts=0.1)
        codes = {t.state.cards[e.card] for e in t.events if isinstance(e, ev.CardsChoiceMade)}
        envs = envelopes(t)
        report = GAME.audit(envs, t.seed)
        assert report.problems == [] and report.rules_ok and report.rederived_through == len(envs)
        kinds |= codes
        if {BUILDING, REINFORCEMENTS_} <= kinds and kinds & {MARCHED, WILDFIRE_}:
            break
    assert {BUILDING, REINFORCEMENTS_} <= kinds and kinds & {MARCHED, WILDFIRE_}
