"""Bookkeeping for the Westeros phase's events. No rules: each event says exactly what changed."""

from __future__ import annotations

from ..event_base import Event
from ..state import BoardState
from . import events as wev
from .state import Bidding, PendingChoice, PendingSelection, PortCapture, WesterosState, WildlingAttack


def open_bidding(w: WesterosState | None) -> Bidding | None:
    """The bidding still sealed: Clash of Kings', or the innermost wildling attack's."""
    if w is None:
        return None
    if w.bidding is not None and not w.bidding.revealed:
        return w.bidding
    if w.attacks and w.attacks[-1].bidding is not None and not w.attacks[-1].bidding.revealed:
        return w.attacks[-1].bidding
    return None


def westeros_of(state: BoardState) -> WesterosState:
    """The Westeros phase's working data; raises if no Westeros phase is running.

    Only for code that runs inside the phase (its events, decisions and rules), where
    ``state.westeros`` is set by ``WesterosPhaseBegan`` and cleared by ``WesterosPhaseEnded``.
    """
    w = state.westeros
    if w is None:
        raise ValueError(f"no Westeros phase is running (phase {state.phase!r}, step {state.step!r})")
    return w


def evolve_westeros(state: BoardState, event: Event) -> BoardState:
    """Apply one Westeros-phase event to ``state`` (mutates and returns it)."""
    match event:
        case wev.WesterosPhaseBegan():
            state.westeros = WesterosState()
            state.forbidden_order_types = []
        case wev.WildlingThreatChanged():
            state.wildling_threat = event.threat
        case wev.WesterosPhaseEnded():
            state.westeros = None
        case wev.OrdersForbidden():
            for o in event.orders:
                if o not in state.forbidden_order_types:
                    state.forbidden_order_types.append(o)
        case wev.GameEnded():
            state.phase = "ended"
            state.step = "game_over"
            state.deadline = None
            state.winner = event.winner
        case _:
            # Every other event belongs inside a running Westeros phase.
            _evolve_in_phase(state, westeros_of(state), event)
    return state


def _evolve_in_phase(state: BoardState, w: WesterosState, event: Event) -> None:
    """The events that change the running phase's working data ``w`` (``state.westeros``)."""
    match event:
        case wev.WesterosCardDrawn():
            deck = state.westeros_decks[event.deck]
            if deck and deck[0] == event.card:
                deck.pop(0)
            elif event.card in deck:
                deck.remove(event.card)
            w.revealed[event.deck] = event.card
        case wev.WesterosDeckShuffled():
            if event.cards is not None:
                state.westeros_decks[event.deck] = list(event.cards)
            w.revealed.pop(event.deck, None)
        case wev.WesterosCardResolutionBegan():
            w.current = event.deck
            w.effect = None
            w.stage = ""
        case wev.WesterosEffectBegan():
            w.effect = event.effect
            w.stage = "start"
        case wev.WesterosStageBegan():
            w.stage = event.stage
        case wev.WesterosCardResolved():
            state.westeros_decks[event.deck].append(event.card)
            w.resolved.append(event.deck)
            w.current = None
            w.effect = None
            w.stage = ""
            w.tracks_done = []
        case wev.WesterosChoicePending():
            if event.kind == "port_ships":
                w.port_captures = [p for p in w.port_captures if p.port != event.context]
            w.choice = PendingChoice(
                house=event.house,
                kind=event.kind,
                options=list(event.options),
                may_skip=event.may_skip,
                default=event.default,
                context=event.context,
            )
        case wev.PortCaptureQueued():
            w.port_captures.append(PortCapture(house=event.house, port=event.port, removed=event.removed))
        case wev.WesterosChoiceMade():
            w.choice = None
        case wev.UnitSelectionPending():
            w.selection = PendingSelection(
                house=event.house,
                kind=event.kind,
                min=event.min,
                max=event.max,
                units={a: dict(u) for a, u in event.units.items()},
                same_area=event.same_area,
                then_replace=event.then_replace,
                reason=event.reason,
            )
        case wev.UnitsSelected():
            w.selection = None
        case wev.SupplyAdjusted():
            for house, value in event.supply.items():
                state.houses[house].supply = value
        case wev.ReconcileRequired():
            w.reconcile = list(event.houses)
            w.reconcile_sequential = event.sequential
        case wev.ArmiesReconciled():
            if event.house in w.reconcile:
                w.reconcile.remove(event.house)
        case wev.MusteringBegan():
            w.musterers = list(event.houses)
            w.muster_max_areas = event.max_areas
            w.muster_reason = event.reason
        case wev.HouseMustered():
            if event.house in w.musterers:
                w.musterers.remove(event.house)
        case wev.BiddingBegan():
            b = Bidding(kind=event.kind, houses=list(event.houses), track=event.track)
            if event.kind == "wildlings":
                w.attacks[-1].bidding = b
            else:
                w.bidding = b
        case wev.BidSubmitted():
            sealed = open_bidding(w)
            assert sealed is not None, "a bid is submitted only while a bidding is open"
            sealed.sealed[event.house] = event.amount or 0
            if event.salt is not None:
                sealed.salts[event.house] = event.salt
        case wev.BidsRevealed():
            revealed = w.attacks[-1].bidding if event.kind == "wildlings" else w.bidding
            assert revealed is not None, "bids are revealed only after BiddingBegan"
            revealed.sealed = dict(event.bids)
            revealed.revealed = True
        case wev.BidTieBroken():
            assert w.bidding is not None, "a Clash of Kings tie is broken only while its bidding runs"
            w.bidding.placed.append(event.house)
        case wev.BiddingEnded():
            w.bidding = None
            w.tracks_done.append(event.track)
        case wev.WildlingAttackBegan():
            w.attacks.append(
                WildlingAttack(
                    strength=event.strength,
                    houses=list(event.houses),
                    reason=event.reason,
                    adjust_threat=event.adjust_threat,
                )
            )
        case wev.WildlingAttackStageBegan():
            w.attacks[-1].stage = event.stage
        case wev.WildlingAttackDecided():
            a = w.attacks[-1]
            a.total = event.total
            a.nights_watch_won = event.nights_watch_won
        case wev.WildlingCardDrawn():
            if state.wildling_deck and state.wildling_deck[0] == event.card:
                state.wildling_deck.pop(0)
            elif event.card in state.wildling_deck:
                state.wildling_deck.remove(event.card)
            w.attacks[-1].card = event.card
        case wev.WildlingBidderChosen():
            w.attacks[-1].target = event.house
        case wev.WildlingEffectQueued():
            w.attacks[-1].queue = list(event.houses)
            w.attacks[-1].started = False
        case wev.WildlingEffectStarted():
            w.attacks[-1].started = True
        case wev.WildlingEffectDone():
            a = w.attacks[-1]
            if a.queue and a.queue[0] == event.house:
                a.queue.pop(0)
            a.started = False
        case wev.WildlingAttackEnded():
            if event.card is not None:
                state.wildling_deck.append(event.card)
            w.attacks.pop()
        case _:
            raise ValueError(f"unhandled westeros event {event!r}")
