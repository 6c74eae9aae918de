"""Log sentences for the Action phase's public events (the log shows the redacted event)."""

from __future__ import annotations

from ..event_base import Event
from . import events as aev
from . import tides_events as tev


def _h(house: str | None) -> str:
    return (house or "nobody").capitalize()


def _units(units: dict[str, int]) -> str:
    parts = [f"{n} {u.replace('_', ' ')}{'s' if n > 1 else ''}" for u, n in units.items() if n]
    return ", ".join(parts) or "no units"


def _card(card: str) -> str:
    return card.replace("_", " ").title()


def _area(area: str | None) -> str:
    return (area or "-").replace("_", " ").title()


def describe_action(event: Event) -> str | None:
    """One sentence per event a spectator should read; bookkeeping events get none."""
    match event:
        case aev.ActionPhaseBegan():
            return "The Action phase began: raids, then marches, then Consolidate Power."
        case aev.RaidResolved():
            if event.target_area is None:
                return f"{_h(event.house)}'s raid from {_area(event.area)} removed nothing."
            return f"{_h(event.house)} raided from {_area(event.area)}, removing the {event.target_order} order in {_area(event.target_area)}."
        case aev.MarchDeclared():
            if not event.moves:
                return f"{_h(event.house)}'s march from {_area(event.area)} moved nothing."
            dests = "; ".join(f"{_units(u)} to {_area(d)}" for d, u in event.moves.items())
            token = " and left a Power token behind" if event.leave_power_token else ""
            return f"{_h(event.house)} marched from {_area(event.area)}: {dests}{token}."
        case aev.CombatBegan():
            against = f"{_h(event.defender)}" if event.defender else "the neutral force"
            return f"Combat in {_area(event.area)}: {_h(event.attacker)} attacks {against} with {_units(event.units)}."
        case aev.SupportDeclared():
            side = "no one" if event.side == "none" else f"the {event.side}"
            return f"{_h(event.house)} supports {side}."
        case aev.HouseCardsRevealed():
            shown = ", ".join(
                f"{_h(h)} {c.replace('_', ' ').title() if c else '(no card)'}" for h, c in event.cards.items()
            )
            return f"House cards revealed: {shown}."
        case aev.HouseCardReplacedAtRandom():
            return (
                f"{_h(event.by)}'s Jaqen H'ghar cancelled {_h(event.house)}'s {_card(event.cancelled)}; "
                f"{_h(event.house)} now fights with {_card(event.card)}, drawn at random from its hand."
            )
        case aev.AbilityResolved() if event.card == "bronn" and event.choice is not None:
            return f"{_h(event.house)}'s opponent discarded 2 Power: Bronn's strength is 0."
        case aev.InfluenceTrackChanged() if event.reason == "varys":
            return f"Varys: {_h(event.order[0])} moved to the top of the Fiefdoms track."
        case tev.TidesDeckShuffled():
            return "The Tides of Battle deck was shuffled; each combatant draws one card in secret."
        case tev.TidesCardRedrawn():
            return f"{_h(event.house)} used the Valyrian Steel Blade to draw another Tides of Battle card."
        case tev.TidesCardsRevealed():
            shown = ", ".join(f"{_h(h)} {c.replace('_', ' ')}" for h, c in event.cards.items())
            return f"Tides of Battle cards revealed: {shown}."
        case tev.TidesSkullsResolved() if event.prevented_by:
            saved = event.prevented_by.replace("_", " ").title()
            return f"{saved} saved {_h(event.house)} from {event.skulls} Tides of Battle skull(s)."
        case aev.BladeUsed():
            return f"{_h(event.house)} used the Valyrian Steel Blade (+1)."
        case aev.CombatDecided():
            score = " to ".join(str(event.strength[h]) for h in (event.winner, event.loser) if h in event.strength)
            return (
                f"{_h(event.winner)} won the combat against {_h(event.loser)} ({score}); {event.casualties} casualties."
            )
        case aev.RetreatChosen():
            return f"{_h(event.house)} retreated to {_area(event.area)}."
        case aev.UnitsDestroyed():
            return f"{_h(event.house)} lost {_units(event.units)} in {_area(event.area)} ({event.reason})."
        case aev.ConsolidatedPower():
            what = "mustered" if event.mustered else "consolidated power"
            return f"{_h(event.house)} {what} in {_area(event.area)}."
        case aev.UnitsPlaced():
            return f"{_h(event.house)} placed {_units(event.units)} in {_area(event.area)}."
        case aev.NeutralForceRemoved():
            return f"The neutral force in {_area(event.area)} was defeated."
        case aev.GarrisonRemoved():
            return f"The garrison of {_area(event.area)} was removed."
        case aev.PortShipsReplaced():
            return f"{_h(event.house)} put {event.count} ship(s) in {_area(event.port)}."
        case aev.ActionPhaseEnded():
            return "The Action phase ended: the remaining orders were removed and routed units stood up."
    return None
