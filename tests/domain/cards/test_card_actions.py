"""Card Actions (CG-POOL-06) in the action windows of every phase (CG-ROUND-02): each test sets up
a position (real commands, then cards arranged as a judge would) and asserts the effect; the card
codes are those of domain/cards/abilities/<faction>.py."""

from __future__ import annotations

import pytest

from domain.cards import commands as cmd
from domain.cards import current
from domain.cards import events as ev
from domain.cards.catalog import CARDS, DECKS
from domain.cards.decisions import decisions_for
from domain.cards.phases import actions
from domain.cards.state import Challenge
from domain.core.errors import RuleViolation

from .card_coverage import deck_codes
from .play import Table, put_in_play, to_hand, to_plot_step
from .positions import plots, without_ambush

SAFE_PLOT = {"stark_kraken": "01025", "watch_stag": "01011", "targaryen_sun": "01002", "lannister_rose": "01024"}
"""A plot of each legal deck whose ability changes nothing in these positions (The Winds of Winter,
Filthy Accusations with nobody in play, A Feast for Crows, Taxation)."""


def at_marshaling(deck: str) -> Table:
    """Round 1, ``deck`` for seat1 (the first player), nobody set up: seat1's marshal step, 10 gold."""
    other = "stark_kraken" if deck == "lannister_rose" else "lannister_rose"
    t = Table(decks=(deck, other))
    to_plot_step(t)
    plots(t, SAFE_PLOT[deck], SAFE_PLOT[other])
    t.seat(t.state.waiting[0], cmd.ChooseFirstPlayer(seat_id="seat1"))
    assert t.state.step == "marshal" and t.state.active == "seat1"
    without_ambush(t)
    t.state.player("seat1").gold = 10
    return t


def deck_of(code: str) -> str:
    return next(d.id for d in DECKS.values() if d.legal and code in deck_codes(d.id))


def decision(t: Table, seat: str):
    return decisions_for(t.state, seat).decisions[0]


def in_challenge(t: Table, attacker: str, attackers: list[str], defenders: list[str], kind: str = "military") -> None:
    """A challenge under way (arranged): ``attacker``'s ``attackers`` against the other seat's ``defenders``."""
    t.state.phase = "challenges"
    t.state.challenge = Challenge(
        type=kind, attacker=attacker, defender=t.state.opponent(attacker), attackers=attackers, defenders=defenders
    )


# -- the cost reducers (marshaling actions) ------------------------------------------------

REDUCERS = {
    "01152": ("stark", "character"),  # Winterfell Steward
    "01156": ("stark", None),  # Heart Tree Grove
    "01094": ("lannister", "character"),  # Lannisport Merchant
    "01099": ("lannister", None),  # Western Fiefdom
    "01170": ("targaryen", "character"),  # Targaryen Loyalist
    "01175": ("targaryen", None),  # Illyrio's Estate
    "01110": ("martell", "character"),  # Desert Scavenger
    "01118": ("martell", None),  # Blood Orange Grove
    "01188": ("tyrell", "character"),  # Garden Caretaker
    "01194": ("tyrell", None),  # Rose Garden
    "01074": ("greyjoy", "character"),  # Iron Islands Fishmonger
    "01056": ("baratheon", "character"),  # Dragonstone Faithful
    "01059": ("baratheon", None),  # Dragonstone Port
    "01133": ("thenightswatch", "character"),  # Steward at the Wall
}


@pytest.mark.parametrize("code", sorted(REDUCERS))
def test_CG_POOL_06_marshaling_action_kneel_the_next_card_of_its_faction_costs_1_less(code):
    faction, kind = REDUCERS[code]
    t = at_marshaling(deck_of(code))
    reducer = put_in_play(t, "seat1", code)
    p = t.state.player("seat1")
    fits = [
        c
        for c in p.hand + p.deck
        if c not in t.taken
        and CARDS[t.state.cards[c]].faction == faction
        and CARDS[t.state.cards[c]].type == (kind or "character")
        and CARDS[t.state.cards[c]].printed_cost >= 1
        and not CARDS[t.state.cards[c]].unique
        and not CARDS[t.state.cards[c]].limited
        and t.state.cards[c] != code
    ]
    first, second = to_hand(t, "seat1", t.state.cards[fits[0]]), to_hand(t, "seat1", t.state.cards[fits[1]])
    d = decision(t, "seat1")
    assert d.actions == {reducer: []} and "use_action" in d.commands
    out = t.seat("seat1", cmd.UseAction(card=reducer))
    assert isinstance(out[0], ev.CardsActionUsed) and t.state.in_play[reducer].kneeling
    assert t.state.step == "marshal" and decision(t, "seat1").actions == {}  # knelt: no second use
    out = t.seat("seat1", cmd.MarshalCard(card=first))
    marshaled = next(e for e in out if isinstance(e, ev.CardsMarshaled))
    assert marshaled.cost == t.state.record(first).printed_cost - 1
    out = t.seat("seat1", cmd.MarshalCard(card=second))
    marshaled = next(e for e in out if isinstance(e, ev.CardsMarshaled))
    assert marshaled.cost == t.state.record(second).printed_cost  # only the next one


def test_CG_POOL_06_a_marshaling_action_is_not_offered_outside_its_phase():
    t = at_marshaling("stark_kraken")
    steward = put_in_play(t, "seat1", "01152")
    t.state.phase = "challenges"
    assert actions.card_actions(t.state, "seat1") == {}
    t.state.phase = "marshaling"
    assert actions.card_actions(t.state, "seat1") == {steward: []}


def test_an_action_cannot_be_used_without_its_cost_or_target():
    t = at_marshaling("stark_kraken")
    steward = put_in_play(t, "seat1", "01152", kneeling=True)
    with pytest.raises(RuleViolation) as e:
        t.seat("seat1", cmd.UseAction(card=steward))
    assert e.value.rule == "CG-POOL-06"
    with pytest.raises(RuleViolation):
        t.seat("seat1", cmd.UseAction(card=steward, target="s1-01"))


# -- action windows of the other phases ----------------------------------------------------


def test_CG_ROUND_02_the_dominance_window_opens_for_messenger_raven_01130_and_closes_on_passes():
    t = at_marshaling("watch_stag")
    raven = put_in_play(t, "seat1", "01130")
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    while t.state.step == "challenge":
        t.seat(t.state.waiting[0], cmd.EndChallenges())
    # no window before dominance: Messenger Raven is a dominance action
    assert [e.window for e in t.events if isinstance(e, ev.CardsWindowOpened)] == ["dominance"]
    assert t.state.phase == "dominance" and t.state.step == "action" and t.state.waiting == ["seat1"]
    assert t.state.window is not None and t.state.window.kind == "dominance"
    d = decision(t, "seat1")
    assert d.actions == {raven: []} and d.default == "pass"
    hand = len(t.state.player("seat1").hand)
    out = t.seat("seat1", cmd.UseAction(card=raven))
    assert raven in t.state.player("seat1").hand and raven not in t.state.in_play
    assert len(t.state.player("seat1").hand) == hand + 2  # the Raven and a card drawn
    # seat2 and seat1 have nothing more: both pass in a row, the window closes, standing follows
    assert [type(e) for e in out if isinstance(e, ev.CardsActionPassed | ev.CardsWindowClosed)] == [
        ev.CardsActionPassed,
        ev.CardsActionPassed,
        ev.CardsWindowClosed,
    ]
    assert t.state.round == 2 or t.state.phase != "dominance"


def test_CG_ROUND_02_no_window_opens_when_nobody_has_an_action():
    t = at_marshaling("stark_kraken")
    t.seat("seat1", cmd.EndMarshaling())
    out = t.seat("seat2", cmd.EndMarshaling())
    assert not any(isinstance(e, ev.CardsWindowOpened) for e in out)


def test_CG_ROUND_02_CG_PHASE_08_the_marshaling_window_seal_of_the_hand_01032():
    """Ending marshaling is the active player's pass: the other player may then act; the window
    after seat2's marshaling offers seat1 its Seal of the Hand (an any-phase Action)."""
    t = at_marshaling("stark_kraken")
    ned = put_in_play(t, "seat1", "01144", kneeling=True)  # Eddard Stark: a Lord
    seal = put_in_play(t, "seat1", "01032")
    t.state.in_play[seal].attached_to = ned
    assert decision(t, "seat1").actions == {seal: []}  # an opportunity of seat1's marshaling
    out = t.seat("seat1", cmd.EndMarshaling())
    opened = next(e for e in out if isinstance(e, ev.CardsWindowOpened))
    assert (opened.window, opened.first, opened.passed) == ("marshaling", "seat2", 1)
    assert t.state.step == "marshal" and t.state.waiting == ["seat2"]  # seat2 had no action: closed
    out = t.seat("seat2", cmd.EndMarshaling())
    assert t.state.step == "action" and t.state.waiting == ["seat1"] and t.state.window is not None
    assert t.state.window.kind == "marshaling"
    out = t.seat("seat1", cmd.UseAction(card=seal))
    assert not t.state.in_play[ned].kneeling and t.state.in_play[seal].kneeling
    assert t.state.phase == "challenges"  # seat2 passed, seat1 had nothing more: the window closed


# -- the other Actions, one test per card --------------------------------------------------


def test_grey_wind_01145_kneels_to_kill_a_character_of_STR_1_or_less():
    t = at_marshaling("stark_kraken")
    wind = put_in_play(t, "seat1", "01145")
    weak = put_in_play(t, "seat2", "01094")  # Lannisport Merchant: STR 1
    strong = put_in_play(t, "seat2", "01090")  # Tywin: STR 4+
    in_challenge(t, "seat1", [], [])
    targets = actions.card_actions(t.state, "seat1")[wind]
    assert weak in targets and strong not in targets
    t.state.step, t.state.waiting = "marshal", ["seat1"]
    t.state.active = "seat1"
    t.seat("seat1", cmd.UseAction(card=wind, target=weak))
    assert weak in t.state.player("seat2").dead and t.state.in_play[wind].kneeling


def test_gates_of_winterfell_01154_reveals_the_top_card_and_draws_a_stark_card():
    t = at_marshaling("stark_kraken")
    gates = put_in_play(t, "seat1", "01154")
    p = t.state.player("seat1")
    stark = next(c for c in p.deck if t.state.record(c).faction == "stark" and c not in t.taken)
    p.deck.remove(stark)
    p.deck.insert(0, stark)
    in_challenge(t, "seat1", [], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    out = t.seat("seat1", cmd.UseAction(card=gates))
    assert any(isinstance(e, ev.CardsTopCardRevealed) and e.card == stark for e in out)
    assert stark in p.hand or stark in t.state.player("seat1").hand


def test_the_tickler_01088_discards_the_top_card_and_a_copy_in_play():
    t = at_marshaling("lannister_rose")
    tickler = put_in_play(t, "seat1", "01088")
    opp = t.state.player("seat2")
    top = opp.deck[0]
    copy = next(
        (c for c in opp.deck[1:] if t.state.record(c).name == t.state.record(top).name),
        None,
    )
    t.state.phase = "dominance"
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    if copy is not None and t.state.record(copy).type in ("character", "location"):
        put_in_play(t, "seat2", t.state.cards[copy])
    out = t.seat("seat1", cmd.UseAction(card=tickler))
    assert top in t.state.player("seat2").discard
    if copy is not None and t.state.record(copy).type in ("character", "location"):
        assert any(isinstance(e, ev.CardsDiscardedFromPlay) for e in out)


def test_magister_illyrio_01163_pays_2_gold_to_stand_a_character_once_per_phase():
    t = at_marshaling("targaryen_sun")
    illyrio = put_in_play(t, "seat1", "01163")
    drogo = put_in_play(t, "seat1", "01162", kneeling=True)
    assert decision(t, "seat1").actions == {illyrio: [drogo]}
    t.seat("seat1", cmd.UseAction(card=illyrio, target=drogo))
    assert not t.state.in_play[drogo].kneeling and t.state.player("seat1").gold == 8
    t.state.in_play[drogo].kneeling = True
    assert decision(t, "seat1").actions == {}  # once per phase


def test_handmaiden_01169_is_sacrificed_to_stand_a_lady():
    t = at_marshaling("targaryen_sun")
    maid = put_in_play(t, "seat1", "01169")
    dany = put_in_play(t, "seat1", "01160", kneeling=True)  # Daenerys Targaryen: a Lady
    t.seat("seat1", cmd.UseAction(card=maid, target=dany))
    assert maid in t.state.player("seat1").discard and not t.state.in_play[dany].kneeling


def test_edric_dayne_01106_pays_1_gold_for_an_icon_until_the_phase_ends():
    t = at_marshaling("targaryen_sun")
    edric = put_in_play(t, "seat1", "01106")
    lacks = decision(t, "seat1").actions[edric]
    assert lacks and all(not current.has_icon(t.state, edric, x) for x in lacks)
    t.seat("seat1", cmd.UseAction(card=edric, target=lacks[0]))
    assert current.has_icon(t.state, edric, lacks[0]) and t.state.player("seat1").gold == 9
    t.seat("seat1", cmd.EndMarshaling())
    t.seat("seat2", cmd.EndMarshaling())
    assert t.state.window is not None and t.state.window.kind == "marshaling"  # Edric may act again
    t.seat("seat1", cmd.PassAction())
    assert t.state.phase != "marshaling" and not current.has_icon(t.state, edric, lacks[0])


def test_arianne_martell_01104_puts_a_character_into_play_and_returns_to_hand():
    t = at_marshaling("targaryen_sun")
    arianne = put_in_play(t, "seat1", "01104")
    p = t.state.player("seat1")
    cheap = next(
        c
        for c in p.deck
        if t.state.record(c).type == "character" and t.state.record(c).printed_cost <= 5 and c not in t.taken
    )
    to_hand(t, "seat1", t.state.cards[cheap])
    target = next(c for c in t.state.player("seat1").hand if c == cheap or t.state.cards[c] == t.state.cards[cheap])
    assert target in decision(t, "seat1").actions[arianne]
    t.seat("seat1", cmd.UseAction(card=arianne, target=target))
    assert target in t.state.in_play and arianne in t.state.player("seat1").hand
    assert t.state.player("seat1").gold == 10  # put into play: no cost


def test_margaery_tyrell_01181_kneels_to_give_3_STR_until_the_phase_ends():
    t = at_marshaling("lannister_rose")
    margaery = put_in_play(t, "seat1", "01181")
    tywin = put_in_play(t, "seat1", "01090")
    before = current.strength(t.state, tywin)
    in_challenge(t, "seat1", [tywin], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=margaery, target=tywin))
    assert current.strength(t.state, tywin) == before + 3 and t.state.in_play[margaery].kneeling


def test_heartsbane_01191_kneels_for_3_STR_while_its_bearer_is_in_a_challenge():
    t = at_marshaling("lannister_rose")
    left = put_in_play(t, "seat1", "01183")  # Randyll Tarly, a Tyrell character
    bane = put_in_play(t, "seat1", "01191")
    t.state.in_play[bane].attached_to = left
    assert actions.card_actions(t.state, "seat1") == {}  # not in a challenge
    in_challenge(t, "seat1", [left], [])
    before = current.strength(t.state, left)
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=bane))
    assert current.strength(t.state, left) == before + 3


def test_lordsport_shipwright_01075_kneels_a_cheap_location():
    t = at_marshaling("stark_kraken")
    wright = put_in_play(t, "seat1", "01075")
    roseroad = put_in_play(t, "seat2", "01040")  # The Roseroad: cost 1
    assert roseroad in decision(t, "seat1").actions[wright]
    t.seat("seat1", cmd.UseAction(card=wright, target=roseroad))
    assert t.state.in_play[roseroad].kneeling and t.state.in_play[wright].kneeling


def test_iron_fleet_scout_01079_gives_a_participating_greyjoy_character_STR():
    t = at_marshaling("stark_kraken")
    scout = put_in_play(t, "seat1", "01079")
    theon = put_in_play(t, "seat1", "01071")
    in_challenge(t, "seat1", [theon], [])
    before = current.strength(t.state, theon)
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=scout, target=theon))
    assert current.strength(t.state, theon) == before + 2  # seat1 is the first player


def test_maester_cressen_01046_discards_a_condition_attachment():
    t = at_marshaling("watch_stag")
    cressen = put_in_play(t, "seat1", "01046")
    sam = put_in_play(t, "seat1", "01127")
    bird = put_in_play(t, "seat2", "01034")  # Little Bird: a Condition
    t.state.in_play[bird].attached_to = sam
    t.seat("seat1", cmd.UseAction(card=cressen, target=bird))
    assert bird not in t.state.in_play and bird in t.state.player("seat2").discard


def test_selyse_baratheon_01049_pays_1_gold_for_an_intrigue_icon():
    t = at_marshaling("watch_stag")
    selyse = put_in_play(t, "seat1", "01049")
    faithful = put_in_play(t, "seat1", "01056")  # Dragonstone Faithful: no intrigue icon
    assert not current.has_icon(t.state, faithful, "intrigue")
    in_challenge(t, "seat1", [], [])
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=selyse, target=faithful))
    assert current.has_icon(t.state, faithful, "intrigue") and t.state.player("seat1").gold == 9


def test_old_forest_hunter_01131_discards_a_card_for_1_gold_once_per_phase():
    t = at_marshaling("watch_stag")
    hunter = put_in_play(t, "seat1", "01131")
    card = t.state.player("seat1").hand[0]
    t.seat("seat1", cmd.UseAction(card=hunter, target=card))
    assert card in t.state.player("seat1").discard and t.state.player("seat1").gold == 11
    assert hunter not in decision(t, "seat1").actions


def test_veteran_builder_01134_is_sacrificed_to_stand_a_location():
    t = at_marshaling("watch_stag")
    builder = put_in_play(t, "seat1", "01134")
    black = put_in_play(t, "seat1", "01136", kneeling=True)
    t.seat("seat1", cmd.UseAction(card=builder, target=black))
    assert builder in t.state.player("seat1").discard and not t.state.in_play[black].kneeling


def test_castle_black_01136_stands_a_defending_nights_watch_character_with_2_STR():
    t = at_marshaling("watch_stag")
    black = put_in_play(t, "seat1", "01136")
    sam = put_in_play(t, "seat1", "01127", kneeling=True)
    in_challenge(t, "seat2", [], [sam])
    before = current.strength(t.state, sam)
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=black, target=sam))
    assert not t.state.in_play[sam].kneeling and current.strength(t.state, sam) == before + 2


def test_wildling_horde_01031_kneels_the_faction_card_for_2_STR():
    t = at_marshaling("stark_kraken")
    horde = put_in_play(t, "seat1", "01031")
    in_challenge(t, "seat1", [horde], [])
    before = current.strength(t.state, horde)
    t.state.step, t.state.waiting, t.state.active = "marshal", ["seat1"], "seat1"
    t.seat("seat1", cmd.UseAction(card=horde, target=horde))
    assert current.strength(t.state, horde) == before + 2 and t.state.player("seat1").faction_kneeling
    assert actions.card_actions(t.state, "seat1") == {}  # the faction card knelt already
