"""The game log: one human sentence per public event (describe the *redacted* event)."""

from __future__ import annotations

from . import events as ev
from .catalog import CARDS


def _name(code: str) -> str:
    c = CARDS.get(code)
    return c.name if c else code


def describe(event: ev.Event) -> str | None:
    """A sentence for the public log, or None if the event is not worth a line."""
    match event:
        case ev.CardsGameCreated():
            decks = " vs ".join(f"{d.seat_id} {d.deck.name} ({d.deck.faction})" for d in event.decks)
            kind = "A joust" if event.player_count == 2 else f"A {event.player_count}-player melee"
            return f"{kind} was created: {decks} (seed commitment {event.seed_commitment[:12]}...)."
        case ev.CardsSeatJoined():
            return f"{event.name} took {event.seat_id}."
        case ev.CardsGameStarted():
            return f"The game started; {event.first_player} is the first player (drawn at random)."
        case ev.CardsMulliganChosen():
            what = "took a mulligan" if event.mulligan else "kept its hand"
            return f"{event.seat_id} {what}{' by default' if event.by_default else ''}."
        case ev.CardsSetupChosen():
            return f"{event.seat_id} put {event.count} setup card(s) face down."
        case ev.CardsSetupRevealed():
            parts = [f"{s}: {', '.join(_name(p.code) for p in ps) or 'nothing'}" for s, ps in event.placed.items()]
            return "Setup revealed (" + "; ".join(parts) + ")."
        case ev.CardsRoundBegan():
            return f"Round {event.round} begins."
        case ev.CardsPlotsRevealed():
            plots = ", ".join(f"{s} reveals {p}" for s, p in event.plots.items())
            return f"Plots revealed: {plots}; {event.winner} wins initiative."
        case ev.CardsFirstPlayerChosen():
            return f"{event.seat_id} chose {event.first_player} as first player."
        case ev.CardsMarshaled():
            on = f" on {event.placed.on}" if event.placed.on else ""
            return f"{event.seat_id} marshaled {_name(event.code)} as {event.placed.as_}{on} for {event.cost} gold."
        case ev.CardsChallengeDeclared():
            return (
                f"{event.seat_id} starts a {event.challenge_type} challenge against {event.defender} "
                f"with {', '.join(event.attackers)}."
            )
        case ev.CardsDefendersDeclared():
            return f"{event.seat_id} defends with {', '.join(event.defenders) or 'nobody'}."
        case ev.CardsChallengeResolved():
            who = event.winner or "nobody"
            return (
                f"The {event.challenge_type} challenge: {event.attacker_strength} vs {event.defender_strength}, "
                f"{who} wins{' unopposed' if event.unopposed else ''}."
            )
        case ev.CardsPowerGained():
            return f"{event.seat_id} gains {event.amount} power ({event.reason})."
        case ev.CardsPowerMoved():
            return f"{event.amount} power moves from {event.from_seat} to {event.to_seat}."
        case ev.CardsAbilityUsed():
            return f"{event.seat_id}'s {_name(event.code)}: {event.text}"
        case ev.CardsReturnedToDeck():
            return f"{event.seat_id} shuffles {', '.join(event.cards)} back into its deck."
        case ev.CardsReturnedToHand():
            return f"{event.seat_id} takes {', '.join(event.cards)} back from its {event.from_pile} pile to hand."
        case ev.CardsPowerRemoved():
            where = event.card or "its faction card"
            return f"{event.seat_id} loses {event.amount} power from {where}."
        case ev.CardsTokensPlaced():
            return f"{event.card} gets {event.amount} {event.token} token(s)."
        case ev.CardsTakenFromDeck():
            return f"{event.seat_id} reveals {', '.join(event.cards)} from its deck and takes it into hand."
        case ev.CardsPutIntoPlay():
            return f"{event.seat_id} puts {_name(event.code)} into play from its {event.from_pile}."
        case ev.CardsGoldGained():
            return f"{event.seat_id} gains {event.gold} gold."
        case ev.CardsCharactersKilled():
            return f"{event.seat_id}'s {', '.join(event.cards)} killed."
        case ev.CardsDiscardedFromHand():
            to = " to the dead pile" if event.pile == "dead" else ""
            return f"{event.seat_id} discards {', '.join(event.cards)}{to} ({event.reason})."
        case ev.CardsDiscardedFromDeck():
            return f"{event.seat_id} discards {', '.join(event.cards)} from its deck ({event.reason})."
        case ev.CardsAmbushed():
            on = f" on {event.placed.on}" if event.placed.on else ""
            return f"{event.seat_id} ambushed {_name(event.code)} as {event.placed.as_}{on} for {event.cost} gold."
        case ev.CardsIntimidated():
            return f"{event.seat_id} intimidates: {event.target or 'nobody'} kneels."
        case ev.CardsDominanceDetermined():
            return f"Dominance: {event.totals}; {event.winner or 'nobody'} wins it."
        case ev.CardsPlayerEliminated():
            return f"{event.seat_id} is eliminated: {event.reason}."
        case ev.CardsTitlesSetAside():
            aside = ", ".join(_name(t) for t in event.set_aside) or "none"
            return f"Titles set aside at random: {aside}; {', '.join(event.pickers)} pick in this order."
        case ev.CardsTitleChosen():
            return f"{event.seat_id} picked a title in secret{' by default' if event.by_default else ''}."
        case ev.CardsTitlesRevealed():
            return "Titles: " + "; ".join(f"{s} {_name(t)}" for s, t in event.titles.items()) + "."
        case ev.CardsTitlesReturned():
            return "The titles return to the pool."
        case ev.CardsRedirectChosen():
            what = "forces a redirect of the challenge" if event.redirect else "lets the challenge stand"
            return f"{event.seat_id} (Crown Regent) {what}{' by default' if event.by_default else ''}."
        case ev.CardsChallengeRedirected():
            return f"{event.seat_id} redirects its challenge to {event.defender}."
        case ev.CardsRivalBonus():
            return f"{event.seat_id} gains 1 power: a win against its rival {event.rival}."
        case ev.CardsGameEnded():
            return f"The game is over: {event.winner} wins ({event.reason})."
    return None
