"""Bookkeeping for the Action phase's events. No rules: each event says exactly what changed."""

from __future__ import annotations

from ..event_base import Event
from ..state import AreaState, BoardState, PlacedOrder
from . import events as aev
from . import tides_events as tev
from .state import ActionState, Combat, PendingAbility, PortCapture, RetreatLosses, TidesDraw


def _add(d: dict[str, int], units: dict[str, int], sign: int = 1) -> None:
    for u, n in units.items():
        v = d.get(u, 0) + sign * n
        if v:
            d[u] = v
        else:
            d.pop(u, None)


def _remove_units(state: BoardState, area: str, units: dict[str, int], routed: dict[str, int]) -> None:
    a = state.areas[area]
    _add(a.units, units, -1)
    if routed:
        r = state.action.routed.setdefault(area, {}) if state.action else {}
        _add(r, routed, -1)
        if state.action and not r:
            state.action.routed.pop(area, None)
    if not any(a.units.values()):
        a.units = {}
        a.house = None


def _place_units(state: BoardState, house: str, area: str, units: dict[str, int], routed: dict[str, int]) -> None:
    a = state.areas[area]
    a.house = house
    _add(a.units, units)
    if routed and state.action is not None:
        _add(state.action.routed.setdefault(area, {}), routed)


def _phase(state: BoardState, event: Event) -> ActionState:
    """``state.action``: a valid stream has it from ``ActionPhaseBegan`` to ``ActionPhaseEnded``."""
    if state.action is None:
        raise AssertionError(f"{type(event).__name__} outside the Action phase")
    return state.action


def _combat(state: BoardState, event: Event) -> Combat:
    """The combat in progress: a valid stream has one from ``CombatBegan`` to ``CombatEnded``."""
    c = _phase(state, event).combat
    if c is None:
        raise AssertionError(f"{type(event).__name__} outside a combat")
    return c


def evolve_action(state: BoardState, event: Event) -> BoardState:
    """Apply one Action-phase event to ``state`` (mutates and returns it)."""
    # Units may leave the board outside a combat too; only a combat's own units update it.
    in_combat = state.action.combat if state.action else None
    match event:
        case aev.ActionPhaseBegan():
            state.action = ActionState(routed={a: dict(u) for a, u in state.scenario_routed.items()})
            state.scenario_routed = {}
        case aev.OrderTurnBegan():
            act = _phase(state, event)
            act.order_type = event.order_type
            act.current_house = event.house
        case aev.OrderRemoved():
            state.orders.pop(event.area, None)
        case aev.OrderPlaced():
            state.orders[event.area] = PlacedOrder(house=event.house, order=event.order)
        case aev.RaidResolved() | aev.MarchDeclared() | aev.ConsolidatedPower() | aev.CasualtiesChosen():
            pass
        case aev.PowerGained():
            state.houses[event.house].power += event.amount
        case aev.PowerSpent():
            state.houses[event.house].power -= event.amount
        case aev.PowerTokenPlaced():
            state.houses[event.house].power -= 1
            state.areas[event.area].power_token = event.house
        case aev.PowerTokenRemoved():
            state.areas[event.area].power_token = None
        case aev.UnitsMoved():
            _remove_units(state, event.from_area, event.units, event.routed)
            _place_units(state, event.house, event.to_area, event.units, event.routed)
        case aev.UnitsDestroyed():
            _remove_units(state, event.area, event.units, event.routed)
            if event.combat_units and in_combat is not None:
                _add(in_combat.units, event.units, -1)
        case aev.UnitsPlaced():
            _place_units(state, event.house, event.area, event.units, {})
        case aev.UnitUpgraded():
            a = state.areas[event.area]
            _add(a.units, {event.from_unit: 1}, -1)
            _add(a.units, {event.to_unit: 1})
            if event.combat_units and in_combat is not None:
                _add(in_combat.units, {event.from_unit: 1}, -1)
                _add(in_combat.units, {event.to_unit: 1})
        case aev.UnitsRouted():
            _add(_phase(state, event).routed.setdefault(event.area, {}), event.units)
            if in_combat is not None and event.house == in_combat.loser:
                in_combat.retreated_to = event.area
        case aev.GarrisonRemoved():
            state.areas[event.area].garrison = 0
        case aev.NeutralForceRemoved():
            state.areas[event.area].neutral = 0
        case aev.CombatBegan():
            _phase(state, event).combat = Combat(
                attacker=event.attacker,
                defender=event.defender,
                area=event.area,
                from_area=event.from_area,
                march_order=event.march_order,
                units=dict(event.units),
                support_queue=list(event.support_queue),
            )
        case aev.CombatStageBegan():
            _combat(state, event).stage = event.stage
        case aev.SupportDeclared():
            c = _combat(state, event)
            c.support[event.house] = event.side
            if event.house in c.support_queue:
                c.support_queue.remove(event.house)
        case aev.HouseCardChosen():
            c = _combat(state, event)
            if event.card is None:
                c.no_card.append(event.house)
            else:
                c.cards[event.house] = event.card
            if event.salt is not None:
                c.salts[event.house] = event.salt
        case aev.HouseCardsRevealed():
            _combat(state, event).revealed = True
        case aev.HouseCardCancelled():
            c = _combat(state, event)
            c.cards.pop(event.house, None)
            c.cancelled[event.house] = event.card
            c.revealed = False
        case aev.HouseCardReplacedAtRandom():
            c = _combat(state, event)
            c.cards[event.house] = event.card
            c.revealed = True
        case aev.AbilityChoicePending():
            _combat(state, event).ability = PendingAbility(
                house=event.house, card=event.card, choices=list(event.choices), may_skip=event.may_skip
            )
        case aev.AbilityResolved():
            c = _combat(state, event)
            c.ability = None
            c.done.append(f"{event.house}:{event.card}")
            if event.choice is not None:
                c.choices[f"{event.house}:{event.card}"] = event.choice
        case aev.HouseCardSwapped():
            _combat(state, event).cards[event.house] = event.card
        case aev.InfluenceTrackChanged():
            setattr(state.tracks, event.track, list(event.order))
        case aev.BladeUsed():
            state.blade_used = True
            _combat(state, event).blade = event.house
        case aev.BladeDeclined():
            _combat(state, event).done.append(f"{event.house}:blade")
        case aev.CombatDecided():
            c = _combat(state, event)
            c.strength = dict(event.strength)
            c.winner = event.winner
            c.loser = event.loser
            c.casualties = event.casualties
            c.played = dict(c.cards)
        case aev.HouseCardsDiscarded():
            hs = state.houses[event.house]
            for card in event.cards:
                if card in hs.hand:
                    hs.hand.remove(card)
                hs.discards.append(card)
        case aev.HouseCardsReturned():
            hs = state.houses[event.house]
            for card in event.cards:
                if card in hs.discards:
                    hs.discards.remove(card)
                hs.hand.append(card)
        case aev.RetreatPending():
            c = _combat(state, event)
            c.retreat_chooser = event.chooser
            c.retreat_options = list(event.options)
        case aev.RetreatChosen():
            c = _combat(state, event)
            c.retreat_chooser = None
            c.retreat_options = []
        case aev.RetreatLossesPending():
            _combat(state, event).retreat_losses = RetreatLosses(
                house=event.house, area=event.area, count=event.count, units=dict(event.units)
            )
        case aev.RetreatLossesChosen():
            _combat(state, event).retreat_losses = None
        case aev.PortCapturePending():
            _phase(state, event).port_captures.append(PortCapture(house=event.house, port=event.port, max=event.max))
        case aev.PortShipsReplaced():
            act = _phase(state, event)
            act.port_captures = [p for p in act.port_captures if p.port != event.port]
        case aev.CombatEnded():
            _phase(state, event).combat = None
        case aev.ActionPhaseEnded():
            for area in event.removed_orders:
                state.orders.pop(area, None)
            state.orders = {}
            state.action = None
            state.raven_used = False
            state.blade_used = False
        case _ if isinstance(event, tev.TIDES_EVENTS):
            _evolve_tides(state, event)
        case _:
            raise ValueError(f"unhandled action event {event!r}")
    return state


def _tides(state: BoardState, event: Event) -> TidesDraw:
    t = _combat(state, event).tides
    if t is None:
        raise AssertionError(f"{type(event).__name__} before the Tides of Battle deck was shuffled")
    return t


def _evolve_tides(state: BoardState, event: Event) -> None:
    """The Tides of Battle events (BG-TIDES-*): the drawn card is the top of the recorded deck."""
    match event:
        case tev.TidesDeckShuffled():
            _phase(state, event).tides_shuffles = event.number
            _combat(state, event).tides = TidesDraw(deck=list(event.cards or []))
        case tev.TidesCardDrawn():
            t = _tides(state, event)
            top = t.deck.pop(0) if t.deck else None
            t.drawn[event.house] = event.card or top or ""
        case tev.TidesCardRedrawn():
            t = _tides(state, event)
            top = t.deck.pop(0) if t.deck else None
            t.drawn[event.house] = event.card or top or ""
            t.redraw_decided = True
            state.blade_used = True
            _combat(state, event).done.append(f"{event.house}:blade")
        case tev.TidesRedrawDeclined():
            _tides(state, event).redraw_decided = True
        case tev.TidesCardsRevealed():
            _tides(state, event).revealed = True
        case tev.TidesSkullsPending():
            t = _tides(state, event)
            t.skull_house = event.house
            t.skull_count = event.count
        case tev.TidesSkullsResolved():
            t = _tides(state, event)
            t.skull_house = None
            t.skull_count = 0
            t.skulls_done.append(event.house)


__all__ = ["evolve_action", "AreaState"]
