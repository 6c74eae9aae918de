"""Log sentences for the Westeros phase's public events (from the *redacted* event)."""

from __future__ import annotations

from .. import board_data
from ..event_base import Event
from . import events as wev

DECK_NAME = {"deck_i": "I", "deck_ii": "II", "deck_iii": "III"}
TRACK_NAME = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}


def _card(card: str) -> str:
    for deck in board_data.cards().westeros_decks.values():
        for c in deck:
            if c.id == card:
                return c.name
    for wc in board_data.cards().wildling_cards:
        if wc.id == card:
            return wc.name
    return card.replace("_", " ")


def _h(house: str | None) -> str:
    return (house or "nobody").capitalize()


def _units(units: dict[str, dict[str, int]]) -> str:
    parts = [
        f"{n} {u.replace('_', ' ')}{'s' if n > 1 else ''} in {a}"
        for a, us in sorted(units.items())
        for u, n in us.items()
    ]
    return ", ".join(parts) or "nothing"


def describe_westeros(event: Event) -> str | None:
    """A sentence per public Westeros event; None for pure bookkeeping (stage changes)."""
    match event:
        case wev.WesterosPhaseBegan():
            return f"Round {event.round}: the Westeros phase begins."
        case wev.WesterosCardDrawn():
            return f"Westeros deck {DECK_NAME.get(event.deck, event.deck)}: {_card(event.card)} is revealed."
        case wev.WesterosDeckShuffled():
            return f"Winter Is Coming: Westeros deck {DECK_NAME.get(event.deck, event.deck)} is shuffled and a new card revealed."
        case wev.WildlingThreatChanged():
            return f"The wildling threat moves from {event.previous} to {event.threat}."
        case wev.WesterosCardResolutionBegan():
            return f"{_card(event.card)} is resolved."
        case wev.WesterosEffectBegan() if event.chooser:
            return f"{_h(event.chooser)} chooses: {event.effect.replace('_', ' ')}."
        case wev.WesterosEffectBegan():
            return f"Effect: {event.effect.replace('_', ' ')}."
        case wev.WesterosCardResolved():
            return f"{_card(event.card)} goes to the bottom of Westeros deck {DECK_NAME.get(event.deck, event.deck)}."
        case wev.WesterosPhaseEnded():
            return f"Round {event.round}: the Westeros phase is over."
        case wev.UnitSelectionPending():
            return f"{_h(event.house)} must pick {event.min if event.min == event.max else f'{event.min} to {event.max}'} unit(s) ({event.reason.replace('_', ' ')})."
        case wev.WesterosChoicePending():
            return f"{_h(event.house)} must choose ({event.kind.replace('_', ' ')})."
        case wev.WesterosChoiceMade():
            what = event.choice.replace("_", " ") if event.choice else "nothing"
            how = " (by default)" if event.by_default else ""
            return f"{_h(event.house)} chose {what}{how}."
        case wev.UnitsSelected():
            return f"{_h(event.house)} picked {_units(event.units)}."
        case wev.SupplyAdjusted():
            return "Supply: " + ", ".join(f"{_h(h)} {n}" for h, n in event.supply.items()) + "."
        case wev.ReconcileRequired():
            return f"{', '.join(_h(h) for h in event.houses)} must reduce their armies to their supply."
        case wev.ArmiesReconciled():
            return f"{_h(event.house)} destroyed {_units(event.units)} to fit its supply."
        case wev.MusteringBegan():
            return f"Mustering: {', '.join(_h(h) for h in event.houses)}, in turn order."
        case wev.HouseMustered():
            return f"{_h(event.house)} mustered in {', '.join(event.areas) or 'no area'}."
        case wev.BiddingBegan():
            what = f"the {TRACK_NAME.get(event.track or '', event.track)} track" if event.track else "the Night's Watch"
            return f"Bidding for {what} begins."
        case wev.BidSubmitted():
            return f"{_h(event.house)} sealed its bid."
        case wev.BidsRevealed():
            return "Bids revealed: " + ", ".join(f"{_h(h)} {n}" for h, n in event.bids.items()) + "."
        case wev.BidTieBroken():
            return f"{_h(event.chooser)} (Iron Throne) placed {_h(event.house)} next on the {TRACK_NAME.get(event.track, event.track)} track."
        case wev.BiddingEnded():
            return f"The {TRACK_NAME.get(event.track, event.track)} track is settled."
        case wev.OrdersForbidden():
            return f"This round no {', '.join(o.replace('_', ' ') for o in event.orders)} orders may be placed."
        case wev.WildlingAttackBegan():
            return f"The wildlings attack with strength {event.strength}."
        case wev.WildlingAttackDecided():
            who = "the Night's Watch holds" if event.nights_watch_won else "the wildlings break through"
            return f"The Night's Watch musters {event.total} against {event.strength}: {who}."
        case wev.WildlingCardDrawn():
            return f"Wildling card: {_card(event.card)}."
        case wev.WildlingBidderChosen():
            by = f" (tie broken by {_h(event.chooser)})" if event.chooser else ""
            return f"{_h(event.house)} is the {event.role} bidder{by}."
        case wev.WildlingEffectQueued():
            return f"The wildling card acts on {', '.join(_h(h) for h in event.houses) or 'nobody'}."
        case wev.WildlingEffectStarted():
            return f"{_h(event.house)} takes the {event.role.replace('_', ' ')} effect."
        case wev.WildlingAttackEnded():
            return "The wildling attack is over; the card goes to the bottom of the wildling deck."
        case wev.GameEnded():
            why = "with seven castles and strongholds" if event.reason == "seven_castles" else "after the last round"
            return f"The game is over: {_h(event.winner)} wins {why}."
    return None
