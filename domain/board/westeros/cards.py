"""What each Westeros card does (BG-WCARD-01..16).

A card becomes an *effect* when its resolution begins: most cards are one effect; A Throne of Blades
(Iron Throne holder), Dark Wings, Dark Words (Messenger Raven holder) and Put to the Sword (Valyrian
Steel Blade holder) first ask their holder which. :func:`run` performs one step of the effect; the
card is resolved once nothing of it is pending any more.
"""

from __future__ import annotations

from .. import board_data, power
from ..control import controlled_areas
from ..emitter import Emitter
from ..state import BoardState
from ..tracks import track_order
from . import bidding, mustering, reconcile, wildlings
from . import events as wev
from .evolve import westeros_of
from .steps import open_step

#: Cards that are one effect. Winter Is Coming never resolves: it is replaced at the reveal.
SIMPLE = {
    "supply": "supply",
    "mustering": "mustering",
    "clash_of_kings": "clash_of_kings",
    "game_of_thrones": "game_of_thrones",
    "wildlings_attack": "wildlings_attack",
    "last_days_of_summer": "nothing",
    "sea_of_storms": "forbid_raid",
    "rains_of_autumn": "forbid_march_plus_1",
    "feast_for_crows": "forbid_consolidate_power",
    "web_of_lies": "forbid_support",
    "storm_of_swords": "forbid_defense",
}

#: BG-WCARD-10..15: what each restriction forbids (order types, or the special March +1 token).
FORBIDS = {
    "forbid_raid": ["raid"],
    "forbid_march_plus_1": ["march_plus_1_special"],
    "forbid_consolidate_power": ["consolidate_power"],
    "forbid_support": ["support"],
    "forbid_defense": ["defense"],
}

#: Cards whose holder chooses the effect: (who, options, default).
CHOOSERS = {
    "a_throne_of_blades": ("iron_throne", ["supply", "mustering", "nothing"], "nothing"),
    "dark_wings_dark_words": ("kings_court", ["clash_of_kings", "game_of_thrones", "nothing"], "nothing"),
    "put_to_the_sword": ("fiefdoms", ["forbid_defense", "forbid_march_plus_1", "nothing"], "nothing"),
}

RULE = {
    "supply": "BG-WCARD-01",
    "mustering": "BG-WCARD-02",
    "a_throne_of_blades": "BG-WCARD-03",
    "winter_is_coming": "BG-WCARD-04",
    "last_days_of_summer": "BG-WCARD-05",
    "game_of_thrones": "BG-WCARD-06",
    "clash_of_kings": "BG-WCARD-07",
    "dark_wings_dark_words": "BG-WCARD-08",
    "wildlings_attack": "BG-WCARD-09",
    "put_to_the_sword": "BG-WCARD-10",
    "sea_of_storms": "BG-WCARD-11",
    "rains_of_autumn": "BG-WCARD-12",
    "feast_for_crows": "BG-WCARD-13",
    "web_of_lies": "BG-WCARD-14",
    "storm_of_swords": "BG-WCARD-15",
}


def holder(state: BoardState, track: str) -> str:
    """BG-COK-01: the Iron Throne / Messenger Raven / Valyrian Steel Blade holder."""
    # the Blade holder is Fiefdoms position 1 (BoardState.blade_holder); never a vassal (MOD-VASSAL-21)
    return state.top_player(track_order(state, track))


def begin(em: Emitter, deck: str, card: str) -> None:
    """The card's resolution begins: its effect, or its holder's choice of effect."""
    em.emit(wev.WesterosCardResolutionBegan(deck=deck, card=card))
    if card in CHOOSERS:
        track, options, default = CHOOSERS[card]
        em.emit(
            wev.WesterosChoicePending(
                house=holder(em.state, track), kind=card, options=options, default=default, context=deck
            )
        )
        open_step(em, "westeros_choice")
        return
    em.emit(wev.WesterosEffectBegan(deck=deck, effect=SIMPLE[card], reason=RULE[card]))


def chosen(em: Emitter, house: str, card: str, choice: str) -> None:
    """The holder chose the effect of A Throne of Blades, Dark Wings, Dark Words or Put to the Sword."""
    w = westeros_of(em.state)
    assert w.current is not None, "a card's holder chooses while that card is being resolved"
    em.emit(wev.WesterosEffectBegan(deck=w.current, effect=choice, reason=RULE[card], chooser=house))


def game_of_thrones_income(state: BoardState, house: str) -> int:
    """BG-WCARD-06: 1 per crown in the land areas the house controls, plus 1 per port holding its
    Ships while no other house has Ships in that port's sea area."""
    facts = board_data.areas_for(state.settings.expansion)
    crowns = sum(facts[a].power for a in controlled_areas(state, house) if facts[a].kind == "land")
    ports = 0
    for a in board_data.areas_for(state.settings.expansion).values():
        if a.kind != "port":
            continue
        p = state.areas[a.id]
        if p.house != house or not p.units.get("ship"):
            continue
        assert a.port_of is not None, f"{a.id} is a port"
        sea = state.areas[a.port_of.sea]
        if sea.house not in (None, house) and sea.units.get("ship"):
            continue
        ports += 1
    return crowns + ports


def run(em: Emitter) -> None:
    """One step of the current card's effect."""
    s = em.state
    w = westeros_of(s)
    deck = w.current
    assert deck is not None, "advance runs a card only while one is being resolved"
    effect, card = w.effect, w.revealed[deck]
    if w.stage == "start":
        em.emit(wev.WesterosStageBegan(stage="running"))
        if effect == "supply":
            reconcile.adjust_all(em, "BG-WCARD-01")
        elif effect == "mustering":
            mustering.begin(em, reason="BG-WCARD-02")
        elif effect == "game_of_thrones":
            for h in em.state.turn_order():
                power.gain(em, h, game_of_thrones_income(em.state, h), "BG-WCARD-06")
        elif effect == "wildlings_attack":
            wildlings.begin_attack(em, s.wildling_threat, s.turn_order(), "BG-WCARD-09")
        elif effect in FORBIDS:
            em.emit(wev.OrdersForbidden(orders=FORBIDS[effect], reason=RULE[card]))
        return
    if effect == "clash_of_kings":
        if w.bidding is not None:
            bidding.settle(em)
            return
        left = [t for t in bidding.TRACKS if t not in w.tracks_done]
        if left:
            bidding.begin_track(em, left[0])
            return
    em.emit(wev.WesterosCardResolved(deck=deck, card=card))
