"""Card abilities whose "opponent" means something else in a melee (CG-GEN-01, CG-PHASE-12): each
opponent (Ser Waymar Royce, King's Hunting Party, Selyse Baratheon), the losing opponent of the
challenge (A Clash of Kings), the challenges against you only (The Sword in the Darkness), the
opponent holding a cancel (The Hand's Judgment). docs/card-game.md lists the cards not checked."""

from __future__ import annotations

from domain.cards import current
from domain.cards import events as ev
from domain.cards.abilities.registry import ABILITIES
from domain.cards.emitter import Emitter
from domain.cards.phases import challenges
from domain.cards.phases.actions import _cancel_or_resolve
from domain.cards.state import Challenge, Placed

from .melee_positions import TUMBLE, to_challenges, to_marshaling
from .play import Table, put_in_play, to_hand, to_plot_step


def _melee(decks: tuple[str, ...]) -> Table:
    t = Table(seed="melee-cards", decks=decks)
    to_plot_step(t)
    return t


def test_ser_waymar_royce_killed_each_opponent_discards_at_random_in_a_melee():
    t = _melee(("watch_stag", "lannister_rose", "stark_kraken"))
    waymar = put_in_play(t, "seat1", "01128")
    em = Emitter(t.state, t.ctx())
    ABILITIES["01128"].when_killed(em, waymar, "seat1", None)
    discards = [e for e in em.events if isinstance(e, ev.CardsDiscardedFromHand)]
    assert [(e.seat_id, len(e.cards)) for e in discards] == [("seat2", 1), ("seat3", 1)]
    hand2 = t.state.player("seat2").hand
    purpose = f"waymar/{t.state.round}/{waymar}/seat2"
    assert discards[0].cards[0] == hand2[t.ctx().rng(purpose).below(len(hand2))]


def test_kings_hunting_party_has_intrigue_while_any_opponent_controls_a_king_in_a_melee():
    t = _melee(("watch_stag", "lannister_rose", "stark_kraken"))
    party = put_in_play(t, "seat1", "01055")
    assert not current.has_icon(t.state, party, "intrigue")
    t.state.cards["s3-99"] = "01048"  # Robert Baratheon (a King) for seat3, set up as a judge would
    t.state.in_play["s3-99"] = Placed(card="s3-99", controller="seat3")
    assert current.has_icon(t.state, party, "intrigue")


def test_a_clash_of_kings_takes_power_from_the_losing_opponent_of_the_challenge():
    t = _melee(("targaryen_sun", "lannister_rose", "stark_kraken"))
    plot = next(i for i in t.state.player("seat1").plots if t.state.cards[i] == "01001")
    t.state.player("seat1").plot = plot
    t.state.player("seat3").faction_power = 2
    t.state.player("seat2").faction_power = 2
    t.state.challenge = Challenge(type="power", attacker="seat1", defender="seat3", attackers=[], winner="seat1")
    em = Emitter(t.state, t.ctx())
    ch = em.state.challenge
    assert ch is not None
    ABILITIES["01001"].after_challenge_won(em, plot, "seat1", ch, "seat1")
    moved = [e for e in em.events if isinstance(e, ev.CardsPowerMoved)]
    assert [(m.from_seat, m.to_seat) for m in moved] == [("seat3", "seat1")]


def test_the_sword_in_the_darkness_forbids_challenges_against_you_only_in_a_melee():
    t = to_marshaling(3)
    k = put_in_play(t, "seat1", TUMBLE)
    to_challenges(t)
    sword = "s3-sword"
    t.state.cards[sword] = "01140"
    em = Emitter(t.state, t.ctx())
    ABILITIES["01140"].action(em, sword, "seat3", None, current)  # seat3 won as the defender against seat1
    t.state = em.state
    assert current.start_forbidden(t.state, "seat1", "power") is None  # other opponents: allowed
    assert challenges.opponents_for(t.state, "seat1", "power") == ["seat2"]
    assert k in challenges.eligible(t.state, "seat1", "power")


def test_a_cancel_is_offered_to_the_first_opponent_holding_one_in_a_melee():
    t = to_marshaling(4)
    for seat in ("seat2", "seat4"):  # no copy of The Hand's Judgment in seat2's hand
        p = t.state.player(seat)
        for c in [c for c in p.hand if t.state.cards[c] == "01045"]:
            p.hand.remove(c)
            p.deck.append(c)
    judgment = to_hand(t, "seat4", "01045")  # The Hand's Judgment (X: the event's cost)
    t.state.player("seat4").gold = 5
    event = to_hand(t, "seat1", "01159")  # Winter Is Coming
    em = Emitter(t.state, t.ctx())
    _cancel_or_resolve(em, "seat1", event, None, "action")
    offered = [e for e in em.events if isinstance(e, ev.CardsCancelOffered)]
    assert [(o.seat_id, o.card) for o in offered] == [("seat4", event)] and em.state.waiting == ["seat4"]
    assert judgment in em.state.player("seat4").hand


def test_calling_the_banners_picks_the_opponent_with_the_most_characters_in_a_melee():
    t = _melee(("lannister_rose", "stark_kraken", "lannister_rose"))
    put_in_play(t, "seat2", TUMBLE)
    for c in ("01087", "01088", "01094"):
        put_in_play(t, "seat3", c)
    plot = next(i for i in t.state.player("seat1").plots if t.state.cards[i] == "01007")
    em = Emitter(t.state, t.ctx())
    ABILITIES["01007"].when_revealed(em, plot, "seat1")
    gained = [e for e in em.events if isinstance(e, ev.CardsGoldGained)]
    assert [(g.seat_id, g.gold) for g in gained] == [("seat1", 3)]  # seat3's 3 characters, not seat2's 1


def test_take_the_black_and_the_things_i_do_for_love_target_every_opponents_characters():
    t = _melee(("watch_stag", "lannister_rose", "stark_kraken"))
    tickler = put_in_play(t, "seat2", "01088")  # The Tickler: a target only if non-unique
    knight = put_in_play(t, "seat3", TUMBLE)  # non-unique, cost 2
    targets = ABILITIES["01139"].action_targets(t.state, "s1-black", "seat1", current)
    assert targets is not None and knight in targets
    assert (tickler in targets) == (not t.state.record(tickler).unique)


def test_the_tickler_names_the_opponent_whose_deck_it_mills_in_a_melee():
    t = _melee(("lannister_rose", "stark_kraken", "watch_stag"))
    tickler = put_in_play(t, "seat1", "01088")
    assert ABILITIES["01088"].action_targets(t.state, tickler, "seat1", current) == ["seat2", "seat3"]
    top = t.state.player("seat3").deck[0]
    em = Emitter(t.state, t.ctx())
    ABILITIES["01088"].action(em, tickler, "seat1", "seat3", current)
    milled = [e for e in em.events if isinstance(e, ev.CardsDiscardedFromDeck)]
    assert [(e.seat_id, e.cards) for e in milled] == [("seat3", [top])]


def test_vanguard_lancer_offers_every_opponents_power_in_a_melee():
    t = _melee(("watch_stag", "lannister_rose", "stark_kraken"))
    lancer = put_in_play(t, "seat1", "01057")
    t.state.player("seat3").faction_power = 2
    knight = put_in_play(t, "seat3", TUMBLE)
    t.state.in_play[knight].power = 1
    em = Emitter(t.state, t.ctx())
    ABILITIES["01057"].after_marshaled_self(em, lancer, "seat1")
    choice = em.state.choice
    assert choice is not None and choice.options == ["seat3", knight] and choice.default == ["seat3"]


def test_CG_MELEE_06_influence_tokens_are_the_named_tokens_of_the_cards_with_no_rule_of_their_own():
    """Ser Jorah Mormont's betrayal tokens in a melee: placed by his own text only, kept by kind on
    the card, and nothing else (titles, rivals, dominance) reads or adds them."""
    t = _melee(("targaryen_sun", "lannister_rose", "stark_kraken"))
    jorah = put_in_play(t, "seat1", "01165")
    t.state.titles = {"seat1": "01209", "seat2": "01208", "seat3": "01210"}  # Coin, Hand (a rival), Laws
    for n in (1, 2):
        t.state.challenge = Challenge(type="power", attacker="seat1", defender="seat2", attackers=[jorah])
        em = Emitter(t.state, t.ctx())
        ch = em.state.challenge
        assert ch is not None
        ABILITIES["01165"].after_challenge_won(em, jorah, "seat1", ch, "seat1")
        t.state = em.state
        assert t.state.in_play[jorah].tokens == {"betrayal": n}
    placed = [e for e in em.events if isinstance(e, ev.CardsTokensPlaced)]
    assert [(e.token, e.amount) for e in placed] == [("betrayal", 1)]
    assert all(not p.tokens for c, p in t.state.in_play.items() if c != jorah)
