"""Hidden information: the one place that decides what a reader sees, for events and for views.

A reader is a seat id, or None for a spectator (the organizer reads as one). Hidden, until the
game ends:

* each draw deck's order (:class:`~.events.CardsDeckShuffled`) -- from everyone, its owner too;
* each hand: the cards drawn (:class:`~.events.CardsDrawn`) -- from all but the owner;
* the facedown setup cards (:class:`~.events.CardsSetupChosen`) -- from all but the owner (the
  number of cards is public, as at the table), until :class:`~.events.CardsSetupRevealed`;
* each sealed plot (:class:`~.events.CardsPlotChosen`) -- from all but the owner, until
  :class:`~.events.CardsPlotsRevealed`;
* a melee title picked in secret (:class:`~.events.CardsTitleChosen`) -- from all but the seat
  that picked it, until :class:`~.events.CardsTitlesRevealed` (that it has picked is public; the
  titles left are passed on to the next seat to pick, as at the table: its decision lists them);
* a facedown duplicate (:class:`~.events.CardsFacedownDuplicate`: Arya Stark) -- from all but
  its owner, while it stays under the card;
* the options of a card ability's choice among hidden cards (:class:`~.events.CardsChoiceOffered`
  with ``choice.hidden``: the cards of a searched deck, a hand) and its default -- from all but
  the seat that chooses (the card it picks is revealed by what follows: it goes to hand shown,
  or into play).

:func:`redact_event` returns the very same object when nothing is hidden (the export and the
streams rely on that to list the redacted events).
"""

from __future__ import annotations

import msgspec

from . import events as ev
from .catalog import CARDS
from .power import plot_values, total_power
from .state import CardSettings, CardState, Placed, SetupPick

Reader = str | None


def redact_event(event: ev.Event, reader: Reader, *, game_over: bool = False) -> ev.Event:
    """The event as ``reader`` may see it (the same object when nothing is hidden from it)."""
    if game_over:
        return event
    match event:
        case ev.CardsDeckShuffled(order=list()):
            return msgspec.structs.replace(event, order=None)
        case ev.CardsDrawn(cards=list()) if event.seat_id != reader:
            return msgspec.structs.replace(event, cards=None)
        case ev.CardsSetupChosen(cards=list()) if event.seat_id != reader:
            return msgspec.structs.replace(event, cards=None, salt=None)
        case ev.CardsPlotChosen(plot=str()) if event.seat_id != reader:
            return msgspec.structs.replace(event, plot=None, salt=None)
        case ev.CardsTitleChosen(title=str()) if event.seat_id != reader:
            return msgspec.structs.replace(event, title=None)
        case ev.CardsFacedownDuplicate(duplicate=str()) if event.seat_id != reader:
            return msgspec.structs.replace(event, duplicate=None)
        case ev.CardsChoiceOffered() if event.choice.hidden and event.choice.seat != reader:
            return msgspec.structs.replace(event, choice=msgspec.structs.replace(event.choice, options=[], default=[]))
    return event


class CardInPlayView(msgspec.Struct):
    card: str
    code: str
    name: str
    type: str
    kneeling: bool
    power: int
    strength: int | None
    attached_to: str | None
    duplicates: list[str]
    tokens: dict[str, int]
    """Tokens on the card by kind (``betrayal``...), public."""


class CardSeatView(msgspec.Struct):
    seat_id: str
    name: str
    faction: str
    agenda: str | None
    deck_name: str
    deck_count: int
    """Cards in the draw deck (its order is hidden from everyone)."""
    hand_count: int
    hand: list[str] | None
    """Your hand's card ids (``cards`` maps them to codes); None for another seat's hand."""
    plot_deck: list[str] | None
    """Your plot deck; None for another seat's."""
    plot_deck_count: int
    revealed_plot: str | None
    used_plots: list[str]
    discard: list[str]
    dead: list[str]
    in_play: list[CardInPlayView]
    gold: int
    faction_power: int
    total_power: int
    reserve: int
    setup_count: int | None
    """How many setup cards are face down (public), or None when none are chosen."""
    setup: list[SetupPick] | None
    """Your facedown setup cards; None for another seat's."""
    has_chosen_plot: bool
    chosen_plot: str | None
    """Your sealed plot; None for another seat's."""
    challenges_made: list[str]
    mulligan: bool | None
    title: str | None = None
    """Melee: the title (code) this seat bears this round, once revealed (CG-PHASE-05)."""
    has_chosen_title: bool = False
    """Melee: the seat has picked its title in secret (public), before the reveal."""
    chosen_title: str | None = None
    """Melee: your secret title pick before the reveal; None for another seat's."""
    eliminated: bool = False


class CardChallengeView(msgspec.Struct):
    type: str
    attacker: str
    defender: str
    attackers: list[str]
    defenders: list[str]
    bypassed: list[str]


class CardGameView(msgspec.Struct):
    game_id: str
    version: int
    phase: str
    step: str
    round: int
    deadline: str | None
    step_version: int
    player_count: int
    settings: CardSettings
    seed_commitment: str
    first_player: str | None
    active: str | None
    waiting_for: list[str]
    seats: list[CardSeatView]
    challenge: CardChallengeView | None
    cards: dict[str, str]
    """Card id -> card code, for the cards this reader may see (in play, piles, revealed plots, own hand)."""
    winner: str | None
    end_reason: str | None
    you: str | None
    """The reader's seat id, or None for a spectator."""
    titles_set_aside: list[str] = []
    """Melee: the titles set aside at random this round (public)."""


def _visible(state: CardState, reader: Reader, over: bool) -> dict[str, str]:
    if over:
        return dict(state.cards)
    seen: set[str] = set(state.in_play)
    for placed in state.in_play.values():
        mine = state.owner(placed.card) == reader
        seen.update(d for d in placed.duplicates if mine or d not in placed.facedown)
    for p in state.players:
        seen.update(p.discard + p.dead + p.used_plots + p.removed + ([p.plot] if p.plot else []))
        if p.seat_id == reader:
            seen.update(p.hand + p.plots + ([p.chosen_plot] if p.chosen_plot else []))
    if state.choice is not None and state.choice.seat == reader:
        seen.update(c for c in state.choice.options if c in state.cards)  # a searched deck's cards
    return {c: state.cards[c] for c in sorted(seen)}


def _placed(state: CardState, placed: Placed) -> CardInPlayView:
    rec = CARDS[state.cards[placed.card]]
    return CardInPlayView(
        card=placed.card,
        code=rec.code,
        name=rec.name,
        type=rec.type,
        kneeling=placed.kneeling,
        power=placed.power,
        strength=rec.strength,
        attached_to=placed.attached_to,
        duplicates=list(placed.duplicates),
        tokens=dict(placed.tokens),
    )


def view_for(state: CardState, reader: Reader) -> CardGameView:
    """The state as ``reader`` may see it (the same function hides what the events hide)."""
    over = state.phase == "ended"
    seats = []
    for p in state.players:
        own = over or p.seat_id == reader
        seats.append(
            CardSeatView(
                seat_id=p.seat_id,
                name=p.name,
                faction=p.faction,
                agenda=p.agenda,
                deck_name=p.deck_name,
                deck_count=len(p.deck),
                hand_count=len(p.hand),
                hand=list(p.hand) if own else None,
                plot_deck=list(p.plots) if own else None,
                plot_deck_count=len(p.plots),
                revealed_plot=p.plot,
                used_plots=list(p.used_plots),
                discard=list(p.discard),
                dead=list(p.dead),
                in_play=[_placed(state, x) for x in state.in_play.values() if x.controller == p.seat_id],
                gold=p.gold,
                faction_power=p.faction_power,
                total_power=total_power(state, p.seat_id),
                reserve=plot_values(state, p.seat_id).reserve,
                setup_count=len(p.setup) if p.setup is not None else None,
                setup=list(p.setup) if own and p.setup is not None else None,
                has_chosen_plot=p.chosen_plot is not None,
                chosen_plot=p.chosen_plot if own else None,
                challenges_made=list(p.challenges_made),
                mulligan=p.mulligan,
                title=state.titles.get(p.seat_id),
                has_chosen_title=p.title_pick is not None,
                chosen_title=p.title_pick if own else None,
                eliminated=p.seat_id in state.eliminated,
            )
        )
    ch = state.challenge
    return CardGameView(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        step=state.step,
        round=state.round,
        deadline=state.deadline,
        step_version=state.step_version,
        player_count=state.player_count,
        settings=state.settings,
        seed_commitment=state.seed_commitment,
        first_player=state.first_player,
        active=state.active,
        waiting_for=list(state.waiting),
        seats=seats,
        challenge=CardChallengeView(
            type=ch.type,
            attacker=ch.attacker,
            defender=ch.defender,
            attackers=list(ch.attackers),
            defenders=list(ch.defenders),
            bypassed=list(ch.bypassed),
        )
        if ch is not None
        else None,
        cards=_visible(state, reader, over),
        winner=state.winner,
        end_reason=state.end_reason,
        you=reader if reader is not None and state.has_seat(reader) else None,
        titles_set_aside=list(state.titles_set_aside),
    )
