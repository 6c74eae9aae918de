"""The game log: one human sentence per public event (spectator's view of the event)."""

from __future__ import annotations

from . import clock_events as cev
from . import events as ev
from . import judge_events as jev
from . import mod_events as mev
from . import presence_events as pev
from .action import events as aev
from .action.narrative import describe_action
from .westeros import events as wev
from .westeros.narrative import describe_westeros


def describe(event: ev.Event) -> str | None:
    """A sentence for the public log, from the *redacted* (public) event; None if not worth a line."""
    match event:
        case ev.GameCreated():
            return f"A {event.player_count}-player game was created (seed commitment {event.seed_commitment[:12]}...)."
        case ev.ScenarioLoaded():
            where = {
                "planning": "the Planning phase",
                "action": "the Action phase",
                "raven": "the Messenger Raven decision",
                "westeros": "the Westeros phase",
                "muster": "a mustering in the Westeros phase",
                "combat": "a combat's House card choice",
                "retreat": "a combat's retreat",
            }[event.scenario.start_at]
            return f"The game was set up from a described position (round {event.scenario.round}); it opens on {where}."
        case ev.SeatJoined():
            return f"{event.name} took {event.seat_id}."
        case ev.GameStarted() if not event.houses:  # MOD-SETUP-01: no house dealt, the seats choose them
            return "The game started: the seats choose their houses in turn. The decks were shuffled."
        case ev.GameStarted():
            dealt = ", ".join(f"{seat} plays {house.capitalize()}" for seat, house in event.houses.items())
            return f"The game started: {dealt}. The decks were shuffled."
        case mev.HouseChoiceOrdered():  # MOD-SETUP-01
            then = f"; then {', '.join(event.order[1:])}" if len(event.order) > 1 else ""
            return f"{event.first_seat} was drawn to choose a house first{then}."
        case mev.HouseChosen():  # MOD-SETUP-01
            how = " (by default, at the deadline)" if event.by_default else ""
            return f"{event.seat_id} chose {event.house.capitalize()}{how}."
        case ev.StepBegan():
            return f"Round {event.round}: {event.phase} phase, {event.step.replace('_', ' ')}."
        case ev.OrdersSubmitted():
            how = " (by default, at the deadline)" if event.by_default else ""
            return f"{event.house.capitalize()} placed its orders face down{how}."
        case ev.OrdersRevealed():
            n = sum(len(o) for o in event.orders.values())
            return f"All {n} orders were revealed."
        case ev.RavenOrderReplaced():
            return f"{event.house.capitalize()} used the Messenger Raven to replace its order in {event.area} ({event.old_order} -> {event.new_order})."
        case ev.RavenWildlingPeeked():
            return f"{event.house.capitalize()} used the Messenger Raven to look at the top wildling card."
        case ev.RavenWildlingPlaced():
            where = "at the bottom of" if event.to_bottom else "on top of"
            return f"{event.house.capitalize()} left the card {where} the wildling deck."
        case ev.RavenPassed():
            return f"{event.house.capitalize()} did not use the Messenger Raven."
        case mev.PowerGifted():  # MOD-GIFT-01/03
            capped = (
                f" (of {event.requested} offered: all {event.to.capitalize()} had left in the Pool)"
                if event.amount != event.requested
                else ""
            )
            return f"{event.house.capitalize()} gave {event.amount} Power to {event.to.capitalize()}{capped}."
        case mev.PlayerLeft(missed_deadlines=int() as missed) if missed:  # the timeout policy
            return (
                f"The player of {event.house.capitalize()} missed {missed} deadlines in a row and is out of the "
                f"game; {event.house.capitalize()} is now a vassal."
            )
        case mev.PlayerLeft():  # MOD-FLEX-01/02
            return (
                f"The player of {event.house.capitalize()} left the game; {event.house.capitalize()} is now a vassal."
            )
        case pev.MissedDeadlinesCleared():
            return f"{event.house.capitalize()} is playing again after {event.missed} missed deadlines in a row."
        case ev.DecisionTimedOut(left=True):
            return (
                f"{', '.join(h.capitalize() for h in event.houses)}: the player left; what it had pending at "
                f"{event.step.replace('_', ' ')} got its default."
            )
        case mev.HouseCardsRemovedFromGame():  # Robert Arryn (MOD-DATA-01)
            names = ", ".join(k.replace("_", " ").title() for k in event.cards)
            return f"{event.house.capitalize()}'s {names} left the game ({event.reason.replace('_', ' ').title()})."
        case ev.DecisionTimedOut():
            return (
                f"Time ran out at {event.step.replace('_', ' ')} for {', '.join(h.capitalize() for h in event.houses)}."
            )
        case cev.ClocksPaused():
            return f"The clocks were paused by the {event.by}: {event.reason}"
        case cev.ClocksResumed():
            return f"The clocks were resumed by the {event.by} after {event.paused_ms / 1000:.1f} s: {event.reason}"
        case cev.ClockCharged(out_of_time=True):
            return f"{event.house.capitalize()}'s time bank ran out: its decisions now get their defaults at once."
        case jev.JudgePowerSet():
            return f"The judge set {event.house.capitalize()}'s Power from {event.previous} to {event.power}: {event.reason}"
        case jev.JudgeUnitRestored():
            return f"The judge restored a {event.unit.replace('_', ' ')} of {event.house.capitalize()} in {event.area}: {event.reason}"
        case jev.SeatReplaced():
            return f"The judge gave {event.seat_id} to {event.name}: {event.reason}"
        case jev.JudgeRolledBack() if event.author == jev.CONSENT_AUTHOR:
            return (
                f"With every opponent's consent, {event.undone_seat}'s last command was undone "
                f"(back to version {event.version}): {event.reason}"
            )
        case jev.JudgeRolledBack():
            undo = f", undoing {event.undone_seat}'s last command" if event.undone_seat else ""
            return f"The judge rolled the game back to version {event.version}{undo}: {event.reason}"
        case jev.UndoRequested():
            return f"{event.house.capitalize()} asks to undo its last command (back to version {event.version}): {event.reason}"
        case jev.UndoAnswered():
            return f"{event.house.capitalize()} {'consents to' if event.consent else 'refuses'} the undo."
        case jev.UndoExpired():
            return f"{event.seat_id}'s undo request expired unanswered: refused, nothing is undone."
        case _ if isinstance(event, wev.WESTEROS_EVENTS):
            return describe_westeros(event)
        case _ if isinstance(event, aev.ACTION_EVENTS):
            return describe_action(event)
    return None
