"""Applying events to the state: ``evolve(state, event)`` and ``fold(events, state)``.

Bookkeeping only: every event is a fact :mod:`.rules` decided. What follows from a fact without a
choice is applied here, the same way every time: a card leaving play takes its attachments and
duplicates with it (CG-UNIQUE-05: non-Terminal attachments to their owners' hands, Terminal ones to
the discard pile, CG-KEY-08; duplicates to the discard pile; its power back to the treasury), and a
card always goes to its **owner's** piles and hand (CG-UNIQUE-04).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev
from .state import AbilityChoice, CardState, Challenge, Killing, PendingEvent, Placed, Player, Reactions, Window


def _remove(items: list[str], iids: Iterable[str]) -> None:
    for i in iids:
        items.remove(i)


def leave_play(state: CardState, iid: str, to: str) -> None:
    """``iid`` leaves play for its owner's ``to`` pile (``dead``, ``discard``, ``removed``) (CG-UNIQUE-05)."""
    placed = state.in_play.pop(iid)
    for dup in placed.duplicates:
        state.player(state.owner(dup)).discard.append(dup)
    for other in [p for p in state.in_play.values() if p.attached_to == iid]:
        state.in_play.pop(other.card)
        for dup in other.duplicates:
            state.player(state.owner(dup)).discard.append(dup)
        owner = state.player(state.owner(other.card))
        (owner.discard if state.record(other.card).has_keyword("terminal") else owner.hand).append(other.card)
    getattr(state.player(state.owner(iid)), to).append(iid)


def _place(state: CardState, seat: str, p: ev.Placement, kneeling: bool = False) -> None:
    if p.as_ == "duplicate":
        assert p.on is not None
        state.in_play[p.on].duplicates.append(p.card)
    else:
        state.in_play[p.card] = Placed(card=p.card, controller=seat, kneeling=kneeling, attached_to=p.on)


def evolve(state: CardState | None, event: ev.Event) -> CardState:
    """Apply one event. Mutates and returns ``state`` (a fresh one for ``CardsGameCreated``)."""
    if isinstance(event, ev.CardsGameCreated):
        cards: dict[str, str] = {}
        players = []
        for d in event.decks:
            cards.update(d.cards)
            players.append(
                Player(
                    seat_id=d.seat_id,
                    deck_name=d.deck.name,
                    faction=d.deck.faction,
                    agenda=d.deck.agenda,
                    deck=[i for i in d.cards if "-p" not in i],
                    plots=[i for i in d.cards if "-p" in i],
                )
            )
        return CardState(
            game_id=event.game_id,
            version=0,
            player_count=event.player_count,
            settings=event.settings,
            seed_commitment=event.seed_commitment,
            cards=cards,
            players=players,
        )
    assert state is not None, "a card game's stream starts with cards_game_created"
    match event:
        case ev.CardsSeatJoined():
            p = state.player(event.seat_id)
            p.name, p.joined = event.name, True
        case ev.CardsGameStarted():
            state.first_player = event.first_player
            state.phase = "setup"
        case ev.CardsDeckShuffled():
            p = state.player(event.seat_id)
            p.shuffles = event.number
            if event.order is not None:
                p.deck = list(event.order)
        case ev.CardsDrawn():
            p = state.player(event.seat_id)
            drawn, p.deck = p.deck[: event.count], p.deck[event.count :]
            p.hand.extend(drawn)
        case ev.CardsStepOpened():
            state.step = event.step  # type: ignore[assignment]  # written by the rules from Step values
            state.waiting = list(event.seats)
            state.deadline = event.deadline
            state.step_version = state.version + 1  # this event's own version (fold counts it next)
            if event.step in ("marshal", "challenge"):
                state.active = event.seats[0]
        case ev.CardsMulliganChosen():
            p = state.player(event.seat_id)
            p.mulligan = event.mulligan
            if event.mulligan:
                p.deck.extend(p.hand)
                p.hand = []
            state.waiting.remove(event.seat_id)
        case ev.CardsSetupChosen():
            p = state.player(event.seat_id)
            p.setup = list(event.cards) if event.cards is not None else []
            p.sealed_salt = event.salt
            if event.seat_id in state.waiting:
                state.waiting.remove(event.seat_id)
        case ev.CardsSetupRevealed():
            for seat, placements in event.placed.items():
                p = state.player(seat)
                for pl in placements:
                    p.hand.remove(pl.card)
                    _place(state, seat, pl)
                p.setup, p.sealed_salt = None, None
            state.deadline = None
        case ev.CardsRoundBegan():
            state.round = event.round
            for p in state.players:
                p.limited_used = False
                p.limited_count = 0
                p.challenges_made = []
            state.used_abilities = [k for k in state.used_abilities if not k.startswith("round:")]
            state.effects = []
            state.choices_made = {}
            state.melee_log = []
        case ev.CardsPhaseBegan():
            state.phase = event.phase  # type: ignore[assignment]  # written by the rules from Phase values
            state.active, state.done, state.waiting, state.deadline = None, [], [], None
            state.challenge = None
            state.effects = [e for e in state.effects if e.until == "round"]
            state.used_abilities = [k for k in state.used_abilities if not k.startswith("phase:")]
            for p in state.players:
                p.challenges_won = []
                p.lost_defending = 0
        case ev.CardsPlotChosen():
            p = state.player(event.seat_id)
            p.chosen_plot = event.plot if event.plot is not None else ""
            p.sealed_salt = event.salt
            if event.seat_id in state.waiting:
                state.waiting.remove(event.seat_id)
        case ev.CardsPlotsRevealed():
            for seat, plot in event.plots.items():
                p = state.player(seat)
                if p.plot is not None:
                    p.used_plots.append(p.plot)
                p.plots.remove(plot)
                p.plot, p.chosen_plot, p.sealed_salt = plot, None, None
            state.initiative_winner = event.winner
            state.deadline = None
        case ev.CardsFirstPlayerChosen():
            state.first_player = event.first_player
            state.waiting = []
        case ev.CardsPlotsRecycled():
            p = state.player(event.seat_id)
            _remove(p.used_plots, event.plots)
            p.plots.extend(event.plots)
        case ev.CardsIncomeCollected():
            state.player(event.seat_id).gold += event.gold
            state.active = event.seat_id
        case ev.CardsMarshaled():
            p = state.player(event.seat_id)
            p.hand.remove(event.card)
            p.gold -= event.cost
            if state.record(event.card).limited and event.placed.as_ != "duplicate":
                p.limited_used = True
                p.limited_count += 1
            _place(state, event.seat_id, event.placed)
        case ev.CardsMarshalingEnded() | ev.CardsChallengesEnded():
            state.done.append(event.seat_id)
            state.active = None
            state.waiting = []
        case ev.CardsChallengeDeclared():
            state.player(event.seat_id).challenges_made.append(event.challenge_type)
            if state.melee:
                state.melee_log.append(f"challenge:{event.seat_id}:{event.challenge_type}:{event.defender}")
            for a in event.attackers:
                if a not in event.standing:
                    state.in_play[a].kneeling = True
            state.active = event.seat_id
            state.challenge = _challenge(event)
            state.effects = [e for e in state.effects if e.until != "challenge"]
            state.used_abilities = [k for k in state.used_abilities if not k.startswith("challenge:")]
            state.waiting = []
        case ev.CardsDefendersDeclared():
            assert state.challenge is not None
            for defender in event.defenders:
                if defender not in event.standing:
                    state.in_play[defender].kneeling = True
            state.challenge.defenders = list(event.defenders)
            state.waiting = []
        case ev.CardsPowerGained():
            if event.card is None:
                state.player(event.seat_id).faction_power += event.amount
            else:
                state.in_play[event.card].power += event.amount
        case ev.CardsPowerMoved():
            state.player(event.from_seat).faction_power -= event.amount
            state.player(event.to_seat).faction_power += event.amount
        case ev.CardsClaimVictimsChosen():
            state.waiting = []
        case ev.CardsRemovedFromGame():
            for c in event.cards:
                leave_play(state, c, "removed")
        case ev.CardsFacedownDuplicate():
            assert event.duplicate is not None
            state.player(event.seat_id).deck.remove(event.duplicate)
            state.in_play[event.card].duplicates.append(event.duplicate)
            state.in_play[event.card].facedown.append(event.duplicate)
        case ev.CardsDuplicateDiscarded():
            placed = state.in_play[event.saved]
            placed.duplicates.remove(event.duplicate)
            if event.duplicate in placed.facedown:
                placed.facedown.remove(event.duplicate)
            state.player(state.owner(event.duplicate)).discard.append(event.duplicate)
        case ev.CardsCharactersKilled():
            for c in event.cards:
                leave_play(state, c, "dead")
        case ev.CardsDiscardedFromHand():
            p = state.player(event.seat_id)
            _remove(p.hand, event.cards)
            (p.dead if event.pile == "dead" else p.discard).extend(event.cards)
        case ev.CardsAbilityUsed():
            if event.limit is not None:
                state.used_abilities.append(event.limit)
        case ev.CardsChoiceOffered():
            state.choice = ev_choice(event)
        case ev.CardsChoiceMade():
            state.choice = None
            state.waiting = []
            state.choices_made[f"{event.card}/{event.seat_id}"] = list(event.chosen)
        case ev.CardsTokensPlaced():
            tokens = state.in_play[event.card].tokens
            tokens[event.token] = tokens.get(event.token, 0) + event.amount
        case ev.CardsTakenFromDeck():
            p = state.player(event.seat_id)
            _remove(p.deck, event.cards)
            p.hand.extend(event.cards)
        case ev.CardsPutIntoPlay():
            p = state.player(state.owner(event.card))
            getattr(p, event.from_pile).remove(event.card)
            _place(state, event.seat_id, event.placed)
        case ev.CardsDiscardedFromPlay():
            for c in event.cards:
                leave_play(state, c, "discard")
        case ev.CardsReturnedToHand():
            p = state.player(event.seat_id)
            _remove(getattr(p, event.from_pile), event.cards)
            p.hand.extend(event.cards)
        case ev.CardsPowerRemoved():
            if event.card is None:
                state.player(event.seat_id).faction_power -= event.amount
            else:
                state.in_play[event.card].power -= event.amount
        case ev.CardsReturnedToDeck():
            p = state.player(event.seat_id)
            _remove(p.dead if event.from_pile == "dead" else p.discard, event.cards)
            p.deck.extend(event.cards)
        case ev.CardsKneelingChanged():
            for c in event.cards:
                state.in_play[c].kneeling = event.kneeling
        case ev.CardsGoldGained():
            state.player(event.seat_id).gold += event.gold
        case ev.CardsDiscardedFromDeck():
            p = state.player(event.seat_id)
            _remove(p.deck, event.cards)
            p.discard.extend(event.cards)
        case ev.CardsIntimidated():
            if event.target is not None:
                state.in_play[event.target].kneeling = True
            state.waiting = []
        case ev.CardsWindowOpened():
            state.window = Window(kind=event.window, turn=event.first, active=event.active, passes=event.passed)
        case ev.CardsActionPassed():
            assert state.window is not None
            state.window.passes += 1
            state.window.turn = state.next_seat(event.seat_id)
            state.waiting = []
        case ev.CardsAmbushed():
            assert state.window is not None
            p = state.player(event.seat_id)
            p.hand.remove(event.card)
            p.gold -= event.cost
            _place(state, event.seat_id, event.placed)
            state.window.passes = 0
            state.window.turn = state.next_seat(event.seat_id)
            state.waiting = []
        case ev.CardsWindowClosed():
            state.window = None
        case ev.CardsActionUsed():
            _opportunity_taken(state, event.seat_id, event.window)
        case ev.CardsEventPlayed():
            p = state.player(event.seat_id)
            p.hand.remove(event.card)
            p.gold -= event.cost
            p.discard.append(event.card)
            _opportunity_taken(state, event.seat_id, event.window)
        case ev.CardsEffectApplied():
            state.effects.append(event.effect)
        case ev.CardsReturnedFromPlay():
            for c in event.cards:
                leave_play(state, c, "hand")
        case ev.CardsSacrificed():
            for c in event.cards:
                leave_play(state, c, "discard")
        case ev.CardsFactionKnelt():
            state.player(event.seat_id).faction_kneeling = True
        case ev.CardsReactionsOpened():
            state.reactions = Reactions(trigger=event.trigger, seats=list(event.seats))
        case ev.CardsReactionDeclined():
            assert state.reactions is not None
            state.reactions.seats.remove(event.seat_id)
            state.waiting = []
        case ev.CardsKillsPending():
            state.killing = Killing(seat=event.seat_id, victims=list(event.victims))
        case ev.CardsSaved():
            if state.killing is not None and event.saved in state.killing.victims:
                state.killing.victims.remove(event.saved)
            state.waiting = []
        case ev.CardsCancelOffered():
            state.pending_event = PendingEvent(
                seat=event.player, card=event.card, target=event.target, resume=event.resume
            )
        case ev.CardsEventCancelled() | ev.CardsCancelDeclined():
            state.pending_event = None
            state.waiting = []
        case ev.CardsSaveDeclined():
            state.killing = None
            state.waiting = []
        case ev.CardsReactionsClosed():
            state.reactions = None
        case ev.CardsTopCardRevealed():
            pass  # a fact for the log: the card stays on top of the deck
        case ev.CardsControlTaken():
            state.in_play[event.target].controller = event.seat_id
        case ev.CardsChallengeResolved():
            if state.challenge is not None:
                state.challenge.winner, state.challenge.unopposed = event.winner, event.unopposed
                state.challenge.margin = abs(event.attacker_strength - event.defender_strength)
            if event.winner is not None:
                state.player(event.winner).challenges_won.append(event.challenge_type)
                if event.winner == event.attacker:
                    state.player(event.defender).lost_defending += 1
        case ev.CardsPlayerEliminated():
            if state.melee:
                _eliminate(state, event.seat_id)
        case ev.CardsTitlesSetAside():
            state.titles_set_aside = list(event.set_aside)
            state.title_order = list(event.pickers)
            for p in state.players:
                p.title_pick = None
        case ev.CardsTitleChosen():
            state.player(event.seat_id).title_pick = event.title
            state.title_order.remove(event.seat_id)
            state.waiting = []
        case ev.CardsTitlesRevealed():
            state.titles = dict(event.titles)
            for p in state.players:
                p.title_pick = None
        case ev.CardsTitlesReturned():
            state.titles = {}
            state.titles_set_aside = []
        case ev.CardsRivalBonus():
            state.player(event.seat_id).faction_power += 1
            state.melee_log.append(f"rival:{event.seat_id}:{event.rival}")
        case ev.CardsRedirectChosen():
            if event.redirect:
                state.melee_log.append("regent")
            state.waiting = []
        case ev.CardsChallengeRedirected():
            assert state.challenge is not None
            state.challenge.defender = event.defender
            state.challenge.bypassed = []
            state.challenge.stealth = {}
            state.waiting = []
        case ev.CardsDominanceDetermined():
            pass  # facts for the log and the audit: what follows from them is an event of its own
        case ev.CardsStood():
            for placed in state.in_play.values():
                placed.kneeling = False
            for p in state.players:
                p.faction_kneeling = False
        case ev.CardsGoldReturned():
            for p in state.players:
                p.gold = 0
        case ev.CardsReserveDiscarded():
            p = state.player(event.seat_id)
            _remove(p.hand, event.cards)
            p.discard.extend(event.cards)
            if event.seat_id in state.waiting:
                state.waiting.remove(event.seat_id)
        case ev.CardsGameEnded():
            state.phase = "ended"
            state.step = "ended"
            state.winner = event.winner
            state.end_reason = event.reason
            state.deadline = None
            state.waiting = []
        case _:
            raise ValueError(f"unhandled event {event!r}")
    return state


def _eliminate(state: CardState, seat: str) -> None:
    """CG-END-03 (Melee): the cards the seat owns in play are removed from the game, those it
    controls but does not own are discarded; its title returns to the pool."""
    state.eliminated.append(seat)
    before = set(state.in_play)
    for iid, placed in list(state.in_play.items()):
        if iid not in state.in_play:  # left with its host already
            continue
        if state.owner(iid) == seat:
            leave_play(state, iid, "removed")
        elif placed.controller == seat:
            leave_play(state, iid, "discard")
    gone = before - set(state.in_play)
    if state.choice is not None:  # a pending choice no longer offers the cards that left play
        state.choice.options = [c for c in state.choice.options if c not in gone]
        state.choice.default = [c for c in state.choice.default if c not in gone]
    if state.killing is not None:
        state.killing.victims = [c for c in state.killing.victims if c not in gone]
    state.titles.pop(seat, None)
    # a decision it was asked stays pending: its answer or its deadline's default moves the game on


def _opportunity_taken(state: CardState, seat: str, in_window: bool) -> None:
    """An action taken as an opportunity of the open window: the passes in a row start again and
    the next player may act (CG-ROUND-02)."""
    state.waiting = []
    if in_window and state.window is not None:
        state.window.passes = 0
        state.window.turn = state.next_seat(seat)


def ev_choice(event: ev.CardsChoiceOffered) -> AbilityChoice:
    c = event.choice
    return AbilityChoice(
        seat=c.seat,
        card=c.card,
        options=list(c.options),
        count=c.count,
        prompt=c.prompt,
        default=list(c.default),
        hidden=c.hidden,
        resume=c.resume,
    )


def _challenge(event: ev.CardsChallengeDeclared) -> Challenge:
    return Challenge(
        type=event.challenge_type,
        attacker=event.seat_id,
        defender=event.defender,
        attackers=list(event.attackers),
        bypassed=list(event.stealth.values()),
        stealth=dict(event.stealth),
    )


def fold(events: Iterable[ev.Event], state: CardState | None = None) -> CardState | None:
    """The state after ``events`` (``version`` counts the events applied)."""
    for e in events:
        state = evolve(state, e)
        state.version += 1
    return state
