"""How the game goes on between decisions: the phases in order (CG-ROUND-01) and the steps that
wait for a seat. After a decision, the functions here run every automatic step until a seat must
decide again, the system must reveal something sealed, or the game is over.

Action windows (CG-ROUND-02), each opened only when some player has an action
(:func:`.actions.has_action`: a card's Action, an event it may play, an Ambush), so that games
without actions go on at once; a player with no action in an open window passes at once:

* plot: after the When Revealed abilities and the used pile's return;
* draw: after the draw;
* marshaling: the active player's ``marshal`` decision is its opportunities (marshal, or use an
  action); ending marshaling is its pass: the other player then may act (and, if it does, the
  active player again, without marshaling) until both passed in a row; then the next player is
  active;
* challenges: before each challenge, after attackers, after defenders;
* dominance: after dominance is determined (and its reactions); standing: after cards stand;
  taxation: after the reserve check.
"""

from __future__ import annotations

from .. import events as ev
from .. import setup, titles, victory
from ..abilities import triggers
from ..emitter import Emitter
from ..power import plot_values
from . import actions, challenges, dominance, draw, plot, standing, taxation


def begin_round(em: Emitter) -> None:
    """CG-ROUND-01: a round begins with the plot phase: every seat chooses a plot in secret."""
    em.emit(ev.CardsRoundBegan(round=em.state.round + 1))
    em.emit(ev.CardsPhaseBegan(phase="plot"))
    em.open_step("plot", em.state.player_order())


def after_mulligans(em: Emitter) -> None:
    if not em.state.waiting:
        em.open_step("setup", em.state.player_order())


def after_setup_reveal(em: Emitter) -> None:
    setup.reveal(em)
    if not victory.check(em):
        begin_round(em)


def after_plot_reveal(em: Emitter) -> None:
    """CG-PHASE-03: the initiative winner chooses the first player."""
    plot.reveal(em)
    assert em.state.initiative_winner is not None
    em.open_step("first_player", [em.state.initiative_winner])


def begin_phase(em: Emitter, phase: str, *, ended: bool = False) -> bool:
    """The current phase ends (lasting effects acting at its end: Hear Me Roar!; forced effects on
    its end: Gold Cloaks), the next begins (CG-ROUND-01), then the forced and reaction abilities on
    its beginning. False when an effect as the phase ends waits for targets (Old Bear Mormont):
    :func:`after_choice` begins the next phase then with ``ended`` (the end's effects resolved)."""
    if not ended:
        actions.phase_ends(em)
        triggers.phase_ending(em, em.state.phase)
        if em.state.choice is not None:
            return False
    em.emit(ev.CardsPhaseBegan(phase=phase))
    triggers.phase_began(em, phase)
    return True


def after_first_player(em: Emitter) -> None:
    """CG-PHASE-04 (When Revealed, in player order; one may wait for targets), CG-PHASE-02 (used
    plots back), the draw phase (CG-PHASE-06), then marshaling."""
    done = triggers.plots_revealed(em)
    if victory.check(em) or not done:
        return
    plot.recycle(em)
    if em.state.melee:  # CG-PHASE-05, CG-SEEDFIX-12: titles after the first player and When Revealed
        titles.set_aside(em)
        ask_title(em)
        return
    after_titles(em)


def ask_title(em: Emitter) -> None:
    """CG-PHASE-05: the next seat in player order picks its title in secret; after the last pick,
    all are revealed at once and the plot phase's action window opens."""
    pickers = [seat for seat in em.state.title_order if seat not in em.state.eliminated]
    if pickers:
        em.open_step("title", [pickers[0]])
        return
    titles.reveal(em)
    after_titles(em)


def after_title(em: Emitter) -> None:
    ask_title(em)


def after_titles(em: Emitter) -> None:
    """The plot phase's action window (after When Revealed and, in a melee, the titles), then draw."""
    if not open_window(em, "plot", _first(em)):
        draw_phase(em)


def draw_phase(em: Emitter) -> None:
    """CG-PHASE-06, then the draw phase's action window, then marshaling."""
    begin_phase(em, "draw")
    draw.draw_phase(em)
    if victory.check(em):
        return
    if not open_window(em, "draw", _first(em)):
        marshaling_phase(em)


def marshaling_phase(em: Emitter) -> None:
    begin_phase(em, "marshaling")
    next_marshal(em)


def _first(em: Emitter) -> str:
    """The first player (CG-END-03: after its elimination, the player on its left)."""
    return em.state.player_order()[0]


def after_choice(em: Emitter, resume: str) -> None:
    """An ability's targets were chosen: the game goes on where the ability interrupted it
    (``AbilityChoice.resume``): ``""`` the plot phase's When Revealed abilities; ``marshal`` the
    active player's marshaling (after a marshal reaction: Yoren, or an action used while
    marshaling); ``window`` the action window it was used in; ``challenge_won`` the claim after
    the reactions to a challenge's win (Rattleshirt's Raiders); ``declared`` the window after
    attackers (Dornish Paramour); ``challenges_end`` the dominance phase (Old Bear Mormont);
    ``dominance_won`` the dominance phase's window, then standing (Aeron Damphair); ``claim``
    the keywords after a military claim's kills (Shireen Baratheon, Viserys Targaryen);
    ``dominance_end`` the standing phase, after the effects as the dominance phase ends (Varys);
    ``reaction`` the reaction window (a save asked against a reaction event's kill)."""
    if victory.check(em) or em.state.choice is not None:  # the resolution asks again (a save)
        return
    if resume == "challenge_won":
        ch = em.state.challenge
        assert ch is not None and ch.winner is not None
        challenge_won_effects(em, ch.winner)
    elif resume in ("marshal", "window"):
        after_action(em, resume)
    elif resume == "reaction":
        reaction_turn(em)
    elif resume == "declared":
        after_declaration(em)
    elif resume == "challenges_end":
        end_of_round(em, ended=True)
    elif resume == "dominance_won":
        after_dominance(em)
    elif resume == "dominance_end":
        standing_phase(em, ended=True)
    elif resume == "claim":
        ch = em.state.challenge
        assert ch is not None
        after_claim(em, ch.attacker)
    else:
        assert em.state.phase == "plot"
        after_first_player(em)


def after_action(em: Emitter, step: str) -> None:
    """An action resolved (unless it waits for a choice): the window goes on, or the active player
    marshals on."""
    if victory.check(em) or em.state.step in ("ability", "cancel") and em.state.waiting:
        return
    if step == "marshal":
        assert em.state.active is not None
        em.open_step("marshal", [em.state.active])
    else:
        window_turn(em)


def after_cancel(em: Emitter, resume: str) -> None:
    """The opponent cancelled (or let resolve) a pending event: the game goes on where it was played."""
    if resume == "reaction":
        reaction_turn(em)
    else:
        after_action(em, resume)


def marshaling_ended(em: Emitter, seat: str) -> None:
    """CG-PHASE-08: once the active player ends marshaling, the window for every player, then the next."""
    if not open_window(em, "marshaling", seat, passed=seat):
        next_marshal(em)


def next_marshal(em: Emitter) -> None:
    """CG-PHASE-08: the next active player collects its income and marshals; then challenges."""
    s = em.state
    left = [seat for seat in s.player_order() if seat not in s.done]
    if not left:
        begin_phase(em, "challenges")
        next_challenger(em)
        return
    seat = left[0]
    em.emit(ev.CardsIncomeCollected(seat_id=seat, gold=max(0, plot_values(s, seat).income)))
    if open_reactions(em, "income"):  # §13.2: after income (A Meager Contribution)
        return
    em.open_step("marshal", [seat])


def next_challenger(em: Emitter) -> None:
    """CG-PHASE-12/13: the next active player may start challenges; then dominance."""
    s = em.state
    left = [seat for seat in s.player_order() if seat not in s.done]
    if not left:
        end_of_round(em)
        return
    seat = left[0]
    if not challenges.open_types(s, seat):
        em.emit(ev.CardsChallengesEnded(seat_id=seat))
        next_challenger(em)
        return
    ask_challenge(em, seat)


def ask_challenge(em: Emitter, seat: str) -> None:
    """CG-PHASE-13: the action window before a challenge, then the active player's choice."""
    if not open_window(em, "before_challenge", seat):
        em.open_step("challenge", [seat])


def open_window(em: Emitter, kind: str, active: str, passed: str | None = None) -> bool:
    """CG-ROUND-02: open an action window when some player has an action; True when opened. The
    first player acts first; when ``passed`` has just passed (ending its marshaling), the next
    player does, and ``passed`` counts as one pass in a row."""
    s = em.state
    if em.over or not any(actions.has_action(s, seat) for seat in s.player_order()):
        return False
    first = s.next_seat(passed) if passed is not None else _first(em)
    em.emit(ev.CardsWindowOpened(window=kind, first=first, active=active, passed=int(passed is not None)))
    window_turn(em)
    return True


def window_turn(em: Emitter) -> None:
    """CG-ROUND-02: the window closes once every player passed in a row; otherwise the next
    player may act (one with nothing to do passes at once)."""
    w = em.state.window
    assert w is not None
    while w.passes < len(em.state.player_order()):
        if actions.has_action(em.state, w.turn):
            em.open_step("action", [w.turn])
            return
        em.emit(ev.CardsActionPassed(seat_id=w.turn))
        w = em.state.window
        assert w is not None
    em.emit(ev.CardsWindowClosed(window=w.kind))
    match w.kind:
        case "before_challenge":
            em.open_step("challenge", [w.active])
        case "after_attackers":
            ask_defenders(em)
        case "after_defenders":
            resolve_challenge(em)
        case "plot":
            draw_phase(em)
        case "draw":
            marshaling_phase(em)
        case "marshaling":
            next_marshal(em)
        case "dominance":
            standing_phase(em)
        case "standing":
            taxation_phase(em)
        case _:
            begin_round(em)


def challenge_initiated(em: Emitter) -> None:
    """A challenge was just initiated: in a melee the Crown Regent's bearer may force a redirect
    first (CG-MELEE-05); then the reactions to its initiation and the window after attackers."""
    bearer = titles.regent_bearer(em.state) if em.state.melee else None
    if bearer is not None:
        em.open_step("regent", [bearer])
        return
    after_initiation(em)


def after_redirect(em: Emitter, redirect: bool) -> None:
    """The bearer answered: the attacker picks the new defender, or the challenge goes on."""
    ch = em.state.challenge
    assert ch is not None
    if redirect:
        em.open_step("redirect", [ch.attacker])
        return
    after_initiation(em)


def after_initiation(em: Emitter) -> None:
    """The reactions to a challenge's initiation (CG-CHAL-04: Eddard Stark...), then the window."""
    triggers.challenge_declared(em)
    if em.state.choice is None:  # else a reaction asks for targets first (after_choice)
        after_declaration(em)


def after_declaration(em: Emitter) -> None:
    """CG-CHAL-04: the action window after attackers, then the defenders."""
    ch = em.state.challenge
    assert ch is not None
    if not open_window(em, "after_attackers", ch.attacker):
        ask_defenders(em)


def ask_defenders(em: Emitter) -> None:
    """CG-CHAL-03: the defender declares defenders (none asked when it has no eligible character)."""
    ch = em.state.challenge
    assert ch is not None
    if challenges.eligible(em.state, ch.defender, ch.type, exclude=ch.bypassed, defending=True):
        em.open_step("defend", [ch.defender])
        return
    em.emit(ev.CardsDefendersDeclared(seat_id=ch.defender, defenders=[]))
    after_defenders(em)


def after_defenders(em: Emitter) -> None:
    """CG-CHAL-04: the action window after defenders, then the challenge is resolved."""
    if victory.check(em):
        return
    ch = em.state.challenge
    assert ch is not None
    if not open_window(em, "after_defenders", ch.attacker):
        resolve_challenge(em)


def resolve_challenge(em: Emitter) -> None:
    """CG-CHAL-05: the winner; then the reactions to the result (the cards' own, then a reaction
    window for the events of the hands), then claim."""
    winner = challenges.resolve(em)
    if victory.check(em):  # CG-END-01: the unopposed bonus may win before claim
        return
    if winner is not None:
        triggers.challenge_won(em, winner)  # §13.2: reactions right after the winner is known
        if victory.check(em) or em.state.choice is not None:  # a reaction waits for targets
            return
    challenge_won_effects(em, winner)


def challenge_won_effects(em: Emitter, winner: str | None) -> None:
    """After the reactions to a challenge's win: the lasting effects waiting for its result, then
    the claim and the keywords."""
    if winner is not None:
        actions.challenge_won(em, winner)
        if victory.check(em):
            return
        if open_reactions(em, "challenge_won"):
            return
    claim_step(em)


def open_reactions(em: Emitter, trigger: str) -> bool:
    """CG-POOL-06: a reaction window after ``trigger`` when some seat may play a reaction event
    (first player first); True when opened."""
    seats = [seat for seat in em.state.player_order() if actions.reactions_of(em.state, seat, trigger)]
    if not seats:
        return False
    em.emit(ev.CardsReactionsOpened(trigger=trigger, seats=seats))
    reaction_turn(em)
    return True


def reaction_turn(em: Emitter) -> None:
    """The next seat of the reaction window is asked while it has a reaction (it may play several);
    once every seat declined, the game goes on after the trigger (``challenge_won``: the claim;
    ``income``: the active player's marshaling)."""
    if victory.check(em) or em.state.step in ("ability", "cancel") and em.state.waiting:
        return
    r = em.state.reactions
    assert r is not None
    while r.seats:
        seat = r.seats[0]
        if actions.reactions_of(em.state, seat, r.trigger):
            em.open_step("reaction", [seat])
            return
        em.emit(ev.CardsReactionDeclined(seat_id=seat))
        r = em.state.reactions
        assert r is not None
    em.emit(ev.CardsReactionsClosed(trigger=r.trigger))
    if r.trigger == "income":  # the active player marshals once the reactions to its income are done
        assert em.state.active is not None
        em.open_step("marshal", [em.state.active])
        return
    claim_step(em)


def claim_step(em: Emitter) -> None:
    """CG-CHAL-07: the claim of the challenge just resolved, then its keywords."""
    ch = em.state.challenge
    assert ch is not None
    winner = ch.winner
    waits = challenges.apply_claim(em, winner)
    if victory.check(em):
        return
    ch = em.state.challenge
    assert ch is not None
    if waits:
        victims = [p.card for p in em.state.characters(ch.defender)]
        if len(victims) > challenges.claim_size(em.state):
            em.open_step("claim", [ch.defender])
        else:
            claim_kill(em, ch.defender, victims)  # no more characters than the claim: all die
        return
    after_claim(em, winner)


def claim_kill(em: Emitter, seat: str, victims: list[str]) -> None:
    """The military claim's victims are about to be killed: their controller may save some first
    (the ``save`` decision, asked only when it has a save), then the rest die (CG-CHAL-07)."""
    if actions.saves_of(em.state, seat, victims):
        em.emit(ev.CardsKillsPending(seat_id=seat, victims=victims))
        em.open_step("save", [seat])
        return
    finish_kill(em, seat, victims)


def save_turn(em: Emitter) -> None:
    """After a save: asked again while a save is left, else the kills happen."""
    k = em.state.killing
    assert k is not None
    if k.victims and actions.saves_of(em.state, k.seat, k.victims):
        em.open_step("save", [k.seat])
        return
    seat, victims = k.seat, list(k.victims)
    em.emit(ev.CardsSaveDeclined(seat_id=seat))
    finish_kill(em, seat, victims)


def finish_kill(em: Emitter, seat: str, victims: list[str]) -> None:
    ch = em.state.challenge
    assert ch is not None
    challenges.kill(em, seat, victims)
    if em.state.choice is not None:  # a "when killed" interrupt asks (Shireen Baratheon): after_choice
        return
    after_claim(em, ch.attacker)


def after_claim(em: Emitter, winner: str | None) -> None:
    """CG-CHAL-08: keywords after claim; then the active player's next challenge. (A claim chosen
    in a later batch is the attacker's: only an attacker's win has a claim.)"""
    if victory.check(em):
        return
    if winner is not None:
        challenges.keywords(em, winner)
        if victory.check(em):
            return
        ch = em.state.challenge
        if ch is not None and winner == ch.attacker and challenges.intimidate_targets(em.state):
            em.open_step("intimidate", [winner])
            return
    next_challenge(em)


def next_challenge(em: Emitter) -> None:
    """The active player's next challenge, or the end of its challenges (CG-PHASE-12/13)."""
    ch = em.state.challenge
    assert ch is not None
    if challenges.open_types(em.state, ch.attacker):
        ask_challenge(em, ch.attacker)
        return
    em.emit(ev.CardsChallengesEnded(seat_id=ch.attacker))
    next_challenger(em)


def end_of_round(em: Emitter, *, ended: bool = False) -> None:
    """Dominance (CG-PHASE-14/15), then its action window (none before it). ``ended``: the
    challenges phase's end effects resolved already (Old Bear Mormont's choice)."""
    if not begin_phase(em, "dominance", ended=ended):
        return
    winner = dominance.determine(em)
    if victory.check(em):
        return
    if winner is not None:
        triggers.dominance_won(em, winner)
        if victory.check(em) or em.state.choice is not None:  # a reaction waits for targets
            return
    after_dominance(em)


def after_dominance(em: Emitter) -> None:
    """After the reactions to dominance: its action window, then standing."""
    if not open_window(em, "dominance", _first(em)):
        standing_phase(em)


def standing_phase(em: Emitter, *, ended: bool = False) -> None:
    """Standing (CG-PHASE-16), then its action window. ``ended``: the dominance phase's end
    effects resolved already (Varys's choice, :func:`after_choice`)."""
    if not begin_phase(em, "standing", ended=ended):
        return
    standing.stand_all(em)
    if not open_window(em, "standing", _first(em)):
        taxation_phase(em)


def taxation_phase(em: Emitter) -> None:
    """Taxation (CG-PHASE-17/18): gold returns, the reserve check, then its action window."""
    begin_phase(em, "taxation")
    taxation.return_gold(em)
    over = [seat for seat in em.state.player_order() if taxation.over_reserve(em.state, seat)]
    if over:
        em.open_step("reserve", over)
        return
    after_taxation(em)


def after_taxation(em: Emitter) -> None:
    """CG-PHASE-19: in a melee the titles return to the pool, then taxation's action window."""
    titles.return_all(em)
    if not open_window(em, "taxation", _first(em)):
        begin_round(em)


def after_reserve(em: Emitter) -> None:
    if not em.state.waiting:
        after_taxation(em)
