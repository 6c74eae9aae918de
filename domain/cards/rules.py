"""The card game's ``decide(state, command, actor, ctx) -> events`` and ``create``.

``decide`` is pure: it reads the state and the context (time, seeded randomness) and returns new
events, or raises a :class:`~domain.core.errors.GameError` and returns nothing. Each command is
checked by the rule module it belongs to (:mod:`.setup`, :mod:`.phases`), then applied on a working
copy (:class:`~.emitter.Emitter`) and the game goes on (:mod:`.phases.flow`) until a seat must decide.

Timeouts (``ApplyTimeout``) apply each waiting seat's documented default (:data:`DEFAULTS`).
"""

from __future__ import annotations

from typing import get_args

from ..core.commands import Actor, ApplyTimeout, JoinGame, ResolvePending, StartGame
from ..core.context import Context, parse_rfc3339
from ..core.errors import Forbidden, NotYourTurn, RuleViolation, WrongPhase
from ..core.lobby import check_can_start, next_seat
from ..core.rng import commit_seed
from . import commands as cmd
from . import current, sealed, setup, titles, victory
from . import events as ev
from .abilities import triggers
from .abilities.base import Ability
from .abilities.registry import active
from .decks import ResolvedDeck, resolve
from .emitter import Emitter
from .phases import actions, challenges, flow, marshaling, plot, taxation
from .state import CardSettings, CardState

DEFAULTS: dict[str, str] = {
    "mulligan": "keep the 7 cards (no mulligan)",
    "setup": "no setup cards",
    "plot": "the plot of your plot deck with the lowest id",
    "first_player": "you are the first player",
    "marshal": "marshal nothing more (end marshaling)",
    "challenge": "start no more challenges",
    "defend": "no defenders (but those a card obliges to defend: must_defend)",
    "claim": "the characters with the lowest printed STR (then the lowest id) are killed",
    "intimidate": "kneel nobody",
    "action": "pass",
    "reserve": "the cards last put in your hand are discarded",
    "reaction": "decline (play no reaction)",
    "save": "decline (save nobody: the characters are killed)",
    "cancel": "decline (the event resolves)",
    "ability": "the targets the decision names in default_targets (each card's own documented default)",
    "title": "the title the decision names in default_targets (the first of cards: the lowest code)",
    "regent": "do not redirect the challenge",
    "redirect": "the first opponent of seats (the next in player order)",
}
"""What the server does for a seat that has not decided ``step`` by its deadline."""


PLAYER_COMMANDS: tuple[type, ...] = get_args(cmd.CardCommand)
"""The card game's own player commands (anything else, a clock pause among them, is ``unknown_command``)."""


def deal(seat_no: int, deck: ResolvedDeck) -> dict[str, str]:
    """The instance ids of a deck: draw cards ``s<n>-<k>`` and plots ``s<n>-p<k>``, in decklist order."""
    out: dict[str, str] = {}
    k = 0
    for e in deck.draw:
        for _ in range(e.count):
            k += 1
            out[f"s{seat_no}-{k:02d}"] = e.code
    k = 0
    for e in deck.plots:
        for _ in range(e.count):
            k += 1
            out[f"s{seat_no}-p{k}"] = e.code
    return out


def created(game_id: str, settings: CardSettings, decks: list[ResolvedDeck], commitment: str) -> ev.CardsGameCreated:
    """The creation event of these (already legal) decks: the audit re-derives it the same way."""
    return ev.CardsGameCreated(
        game_id=game_id,
        player_count=len(decks),
        settings=settings,
        seed_commitment=commitment,
        decks=[ev.SeatDeck(seat_id=f"seat{n}", deck=d, cards=deal(n, d)) for n, d in enumerate(decks, start=1)],
    )


def create(body: cmd.CardsCreateBody, ctx: Context) -> list[ev.Event]:
    """CG-GEN-01/02, CG-DECK-*: a joust (2 seats) or a melee (3 to 6) with a legal deck per seat
    (``illegal_deck`` names the rule)."""
    if not 2 <= body.player_count <= 6 or len(body.decks) != body.player_count:
        raise RuleViolation(
            "the card game is a joust (2 seats) or a melee (3 to 6 seats): player_count seats, one deck each",
            rule="CG-GEN-01",
            code="invalid_player_count",
        )
    melee = body.player_count > 2
    decks = [resolve(choice, f"seat{n}", melee) for n, choice in enumerate(body.decks, start=1)]
    return [created(ctx.game_id, body.settings, decks, commit_seed(ctx.seed))]


def decide(state: CardState, command: object, actor: Actor, ctx: Context) -> list[ev.Event]:
    """Turn a command into events, or raise. Never mutates ``state``."""
    if state.phase == "ended":
        raise WrongPhase("the game is over", code="game_over")
    match command:
        case JoinGame():
            seat = next_seat(state.phase == "lobby", sum(p.joined for p in state.players), state.player_count)
            return [ev.CardsSeatJoined(seat_id=seat, name=command.name)]
        case StartGame():
            if actor.kind != "organizer":
                raise Forbidden("only the organizer may start the game")
            check_can_start(state.phase == "lobby", sum(p.joined for p in state.players), state.player_count)
            em = Emitter(state, ctx)
            setup.start(em)
            return em.events
        case ResolvePending():
            _system_only(actor)
            return _resolve(state, ctx)
        case ApplyTimeout():
            _system_only(actor)
            return _timeout(state, command, ctx)
    if not isinstance(command, PLAYER_COMMANDS):
        raise RuleViolation(f"the card game does not understand {type(command).__name__}", code="unknown_command")
    seat = _seat(state, actor)
    em = Emitter(state, ctx)
    if isinstance(command, cmd.Concede):
        if state.phase == "lobby":
            raise WrongPhase("the game has not started", code="not_started")
        victory.concede(em, seat)
        return em.events
    _play(em, seat, command)
    return em.events


def _system_only(actor: Actor) -> None:
    if actor.kind != "system":
        raise Forbidden("only the system sends this command")


def _seat(state: CardState, actor: Actor) -> str:
    if actor.kind != "seat" or actor.seat_id is None or not state.has_seat(actor.seat_id):
        raise Forbidden("only a seat of this game may play")
    return actor.seat_id


def _expect(state: CardState, seat: str, step: str, rule: str) -> None:
    if state.phase == "lobby":
        raise WrongPhase("the game has not started", code="not_started")
    if state.step != step:
        raise WrongPhase(f"the game waits for {state.step}, not {step}", rule=rule)
    if seat not in state.waiting:
        raise NotYourTurn(f"the game does not wait for {seat} to {step}", rule=rule)


def _sealed_open(state: CardState, seat: str, step: str, rule: str) -> None:
    """A sealed step (setup, plot) may be amended until every seat is in."""
    if state.step != step:
        raise WrongPhase(f"the game waits for {state.step}, not {step}", rule=rule)
    if not state.waiting:
        raise NotYourTurn("every seat is in; the reveal is under way", rule=rule, code="choices_closed")


def _play(em: Emitter, seat: str, command: object) -> None:
    s = em.state
    match command:
        case cmd.ChooseMulligan():
            _expect(s, seat, "mulligan", "CG-SETUP-06")
            setup.mulligan(em, seat, command.mulligan)
            flow.after_mulligans(em)
        case cmd.ChooseSetup():
            _sealed_open(s, seat, "setup", "CG-SETUP-07")
            setup.check_setup(s, seat, list(command.cards))
            sealed.seal_setup(em, seat, list(command.cards))
        case cmd.ChoosePlot():
            _sealed_open(s, seat, "plot", "CG-PHASE-01")
            plot.check_plot(s, seat, command.plot)
            sealed.seal_plot(em, seat, command.plot)
        case cmd.ChooseFirstPlayer():
            _expect(s, seat, "first_player", "CG-PHASE-03")
            if command.seat_id not in s.alive():
                raise RuleViolation(f"{command.seat_id} is not a seat of this game", rule="CG-PHASE-03")
            em.emit(ev.CardsFirstPlayerChosen(seat_id=seat, first_player=command.seat_id))
            flow.after_first_player(em)
        case cmd.MarshalCard():
            _expect(s, seat, "marshal", "CG-PHASE-08")
            placed, cost = marshaling.placement(s, seat, command.card, command.attach_to)
            before = [(source, owner) for _, source, owner in active(s, Ability.on_marshaled)]
            em.emit(
                ev.CardsMarshaled(seat_id=seat, card=command.card, code=s.cards[command.card], cost=cost, placed=placed)
            )
            triggers.entered(em, [command.card])
            triggers.marshaled(em, seat, command.card, before)
            if em.state.choice is None:  # else a reaction asks for targets first (flow.after_choice)
                em.open_step("marshal", [seat])
        case cmd.EndMarshaling():
            _expect(s, seat, "marshal", "CG-PHASE-08")
            em.emit(ev.CardsMarshalingEnded(seat_id=seat))
            flow.marshaling_ended(em, seat)
        case cmd.DeclareChallenge():
            _expect(s, seat, "challenge", "CG-PHASE-12")
            stealth = dict(command.stealth)
            defender = challenges.check_defender(s, seat, command.challenge_type, command.defender)
            challenges.check_declaration(s, seat, command.challenge_type, list(command.attackers), stealth, defender)
            em.emit(
                ev.CardsChallengeDeclared(
                    seat_id=seat,
                    challenge_type=command.challenge_type,
                    defender=defender,
                    attackers=list(command.attackers),
                    stealth=stealth,
                    standing=[
                        a for a in command.attackers if not current.kneels_to_attack(s, a, command.challenge_type)
                    ],
                )
            )
            flow.challenge_initiated(em)
        case cmd.ChooseRedirect():
            _expect(s, seat, "regent", "CG-MELEE-05")
            em.emit(ev.CardsRedirectChosen(seat_id=seat, redirect=command.redirect))
            flow.after_redirect(em, command.redirect)
        case cmd.ChooseDefender():
            _expect(s, seat, "redirect", "CG-MELEE-05")
            titles.check_redirect(s, command.seat_id)
            em.emit(ev.CardsChallengeRedirected(seat_id=seat, defender=command.seat_id))
            flow.after_initiation(em)
        case cmd.EndChallenges():
            _expect(s, seat, "challenge", "CG-PHASE-13")
            em.emit(ev.CardsChallengesEnded(seat_id=seat))
            flow.next_challenger(em)
        case cmd.DeclareDefenders():
            _expect(s, seat, "defend", "CG-CHAL-03")
            challenges.check_defenders(s, seat, list(command.defenders))
            em.emit(
                ev.CardsDefendersDeclared(
                    seat_id=seat,
                    defenders=list(command.defenders),
                    standing=[d for d in command.defenders if not current.kneels_to_defend(s, d)],
                )
            )
            flow.after_defenders(em)
        case cmd.ChooseClaimVictims():
            _expect(s, seat, "claim", "CG-CHAL-07")
            challenges.check_victims(s, seat, list(command.characters))
            _victims(em, seat, list(command.characters), by_default=False)
        case cmd.ChooseIntimidate():
            _expect(s, seat, "intimidate", "CG-KEY-04")
            challenges.check_intimidate(s, command.target)
            em.emit(ev.CardsIntimidated(seat_id=seat, target=command.target))
            flow.next_challenge(em)
        case cmd.AmbushCard():
            _expect(s, seat, "action", "CG-KEY-06")
            placed, cost = marshaling.placement(s, seat, command.card, command.attach_to, ambush=True, x=command.x)
            em.emit(
                ev.CardsAmbushed(seat_id=seat, card=command.card, code=s.cards[command.card], cost=cost, placed=placed)
            )
            triggers.entered(em, [command.card])
            triggers.ambushed(em, command.card, seat)
            if em.state.choice is None:  # else a reaction asks for targets first (flow.after_choice)
                flow.window_turn(em)
        case cmd.UseAction():
            step = _opportunity(s, seat)
            actions.use(em, seat, command.card, command.target, in_window=step == "action")
            flow.after_action(em, step)
        case cmd.PlayEvent() if s.step == "reaction":
            _expect(s, seat, "reaction", "CG-POOL-06")
            actions.play_reaction(em, seat, command.card, command.target)
            flow.reaction_turn(em)
        case cmd.Decline() if s.step == "cancel":
            _expect(s, seat, "cancel", "CG-POOL-06")
            _cancel_declined(em, seat, by_default=False)
        case cmd.UseInterrupt() if s.step == "cancel":
            _expect(s, seat, "cancel", "CG-POOL-06")
            assert s.pending_event is not None
            resume = s.pending_event.resume
            actions.use_cancel(em, seat, command.card, command.target)
            flow.after_cancel(em, resume)
        case cmd.Decline() if s.step == "save":
            _expect(s, seat, "save", "CG-POOL-06")
            assert s.killing is not None
            victims = list(s.killing.victims)
            em.emit(ev.CardsSaveDeclined(seat_id=seat))
            flow.finish_kill(em, seat, victims)
        case cmd.Decline():
            _expect(s, seat, "reaction", "CG-POOL-06")
            em.emit(ev.CardsReactionDeclined(seat_id=seat))
            flow.reaction_turn(em)
        case cmd.UseInterrupt():
            _expect(s, seat, "save", "CG-POOL-06")
            actions.use_save(em, seat, command.card, command.target)
            flow.save_turn(em)
        case cmd.PlayEvent():
            step = _opportunity(s, seat)
            actions.play(em, seat, command.card, command.target, in_window=step == "action")
            flow.after_action(em, step)
        case cmd.PassAction():
            _expect(s, seat, "action", "CG-ROUND-02")
            em.emit(ev.CardsActionPassed(seat_id=seat))
            flow.window_turn(em)
        case cmd.ChooseTargets():
            _expect(s, seat, "ability", "CG-PHASE-04")
            triggers.check_choice(s, list(command.cards))
            answered = triggers.resolve_choice(em, list(command.cards), by_default=False)
            flow.after_choice(em, answered.resume)
        case cmd.ChooseTitle():
            _expect(s, seat, "title", "CG-PHASE-05")
            titles.check_pick(s, seat, command.title)
            titles.pick(em, seat, command.title, by_default=False)
            flow.after_title(em)
        case cmd.DiscardToReserve():
            _expect(s, seat, "reserve", "CG-PHASE-18")
            taxation.check_discards(s, seat, list(command.cards))
            em.emit(ev.CardsReserveDiscarded(seat_id=seat, cards=list(command.cards)))
            flow.after_reserve(em)
        case _:
            raise RuleViolation(f"the card game does not understand {type(command).__name__}", code="unknown_command")


def _opportunity(state: CardState, seat: str) -> str:
    """An action is an opportunity of an action window (the ``action`` step), or of the active
    player's marshaling (the ``marshal`` step, CG-PHASE-08). Returns the step."""
    if state.phase == "lobby":
        raise WrongPhase("the game has not started", code="not_started")
    if state.step not in ("action", "marshal"):
        raise WrongPhase(f"the game waits for {state.step}, not an action", rule="CG-ROUND-02")
    if seat not in state.waiting:
        raise NotYourTurn(f"the game does not wait for {seat} to act", rule="CG-ROUND-02")
    return state.step


def _cancel_declined(em: Emitter, seat: str, by_default: bool) -> None:
    """No cancel: the pending event resolves, then the game goes on where it was played."""
    pending = em.state.pending_event
    assert pending is not None
    em.emit(ev.CardsCancelDeclined(seat_id=seat, by_default=by_default))
    actions.resolve_event(em, pending.seat, pending.card, pending.target, pending.resume)
    flow.after_cancel(em, pending.resume)


def _victims(em: Emitter, seat: str, victims: list[str], by_default: bool) -> None:
    em.emit(ev.CardsClaimVictimsChosen(seat_id=seat, characters=victims, by_default=by_default))
    flow.claim_kill(em, seat, victims)


def pending_system_work(state: CardState) -> bool:
    """Every sealed choice of the setup or plot step is in: the system reveals them."""
    return state.phase != "ended" and state.step in ("setup", "plot") and not state.waiting


def _resolve(state: CardState, ctx: Context) -> list[ev.Event]:
    if not pending_system_work(state):
        raise WrongPhase("nothing waits for the system", code="nothing_pending")
    em = Emitter(state, ctx)
    _reveal(em)
    return em.events


def _reveal(em: Emitter) -> None:
    if em.state.step == "setup":
        flow.after_setup_reveal(em)
    else:
        flow.after_plot_reveal(em)


def _timeout(state: CardState, command: ApplyTimeout, ctx: Context) -> list[ev.Event]:
    """Every waiting seat's documented default (:data:`DEFAULTS`), then the game goes on."""
    if state.step_version != command.step_version or state.deadline is None or pending_system_work(state):
        raise WrongPhase("the step this timeout was for is over", code="timeout_void")
    if parse_rfc3339(state.deadline) > ctx.now:
        raise WrongPhase("the deadline has not passed yet", code="timeout_early")
    em = Emitter(state, ctx)
    s = em.state
    step = s.step
    for seat in list(s.waiting):
        match step:
            case "mulligan":
                setup.mulligan(em, seat, False, by_default=True)
            case "setup":
                sealed.seal_setup(em, seat, [], by_default=True)
            case "plot":
                sealed.seal_plot(em, seat, plot.default_plot(s, seat), by_default=True)
            case "first_player":
                em.emit(ev.CardsFirstPlayerChosen(seat_id=seat, first_player=seat, by_default=True))
                flow.after_first_player(em)
            case "marshal":
                em.emit(ev.CardsMarshalingEnded(seat_id=seat, by_default=True))
                flow.marshaling_ended(em, seat)
            case "challenge":
                em.emit(ev.CardsChallengesEnded(seat_id=seat, by_default=True))
                flow.next_challenger(em)
            case "defend":
                must = challenges.must_defend(em.state, seat)  # Dornish Paramour's choice, else none
                em.emit(
                    ev.CardsDefendersDeclared(
                        seat_id=seat,
                        defenders=must,
                        by_default=True,
                        standing=[d for d in must if not current.kneels_to_defend(em.state, d)],
                    )
                )
                flow.after_defenders(em)
            case "claim":
                _victims(em, seat, challenges.default_victims(em.state, seat), by_default=True)
            case "intimidate":
                em.emit(ev.CardsIntimidated(seat_id=seat, target=None, by_default=True))
                flow.next_challenge(em)
            case "ability":
                assert s.choice is not None
                answered = triggers.resolve_choice(em, list(s.choice.default), by_default=True)
                flow.after_choice(em, answered.resume)
            case "action":
                em.emit(ev.CardsActionPassed(seat_id=seat, by_default=True))
                flow.window_turn(em)
            case "reaction":
                em.emit(ev.CardsReactionDeclined(seat_id=seat, by_default=True))
                flow.reaction_turn(em)
            case "cancel":
                _cancel_declined(em, seat, by_default=True)
            case "save":
                assert s.killing is not None
                victims = list(s.killing.victims)
                em.emit(ev.CardsSaveDeclined(seat_id=seat, by_default=True))
                flow.finish_kill(em, seat, victims)
            case "title":
                titles.pick(em, seat, titles.default_pick(em.state, seat), by_default=True)
                flow.after_title(em)
            case "regent":
                em.emit(ev.CardsRedirectChosen(seat_id=seat, redirect=False, by_default=True))
                flow.after_redirect(em, False)
            case "redirect":
                target = titles.redirect_options(em.state)[0]
                em.emit(ev.CardsChallengeRedirected(seat_id=seat, defender=target, by_default=True))
                flow.after_initiation(em)
            case "reserve":
                em.emit(
                    ev.CardsReserveDiscarded(
                        seat_id=seat, cards=taxation.default_discards(em.state, seat), by_default=True
                    )
                )
    if step == "mulligan":
        flow.after_mulligans(em)
    elif step == "reserve":
        flow.after_reserve(em)
    elif step in ("setup", "plot"):
        _reveal(em)
    return em.events
