"""How the game goes on between decisions: the phases in order (CG-ROUND-01) and the steps that
wait for a seat. After a decision, the functions here run every automatic step until a seat must
decide again, the system must reveal something sealed, or the game is over.

Action windows (CG-ROUND-02): the challenges phase's three windows (before each challenge, after
attackers, after defenders) open when some player has an action, which without card abilities
means an Ambush (CG-KEY-06); a player with no action in an open window passes at once. The other
phases' windows are not opened: nobody could act in them yet (docs/card-game.md).
"""

from __future__ import annotations

from .. import events as ev
from .. import setup, victory
from ..abilities import triggers
from ..emitter import Emitter
from ..power import plot_values
from ..state import AbilityChoice
from . import challenges, dominance, draw, marshaling, plot, standing, taxation


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


def begin_phase(em: Emitter, phase: str) -> bool:
    """The current phase ends (forced effects on its end: Gold Cloaks), the next begins
    (CG-ROUND-01), then the forced and reaction abilities on its beginning. False when an effect
    as the phase ends waits for targets (Old Bear Mormont): the phase has not ended yet, and
    :func:`after_choice` begins it again (the effects that resolved do not repeat)."""
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
    begin_phase(em, "draw")
    draw.draw_phase(em)
    if victory.check(em):
        return
    begin_phase(em, "marshaling")
    next_marshal(em)


def after_choice(em: Emitter, answered: AbilityChoice) -> None:
    """An ability's targets were chosen: the game goes on where the ability interrupted it
    (``answered.resume``): the plot phase's When Revealed abilities, the active player's
    marshaling after a marshal reaction (Yoren), or the claim after the reactions to a challenge's
    win (Rattleshirt's Raiders)."""
    if victory.check(em):
        return
    if answered.resume == "marshal":
        assert em.state.active is not None
        em.open_step("marshal", [em.state.active])
    elif answered.resume == "challenge_won":
        ch = em.state.challenge
        assert ch is not None and ch.winner is not None
        after_won_reactions(em, ch.winner)
    elif answered.resume == "declared":
        after_declaration(em)
    elif answered.resume == "challenges_end":
        end_of_round(em)
    elif answered.resume == "window":
        window_turn(em)
    elif answered.resume == "dominance_won":
        after_dominance(em)
    else:
        assert em.state.phase == "plot"
        after_first_player(em)


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


def open_window(em: Emitter, kind: str, active: str) -> bool:
    """CG-ROUND-02: open an action window when some player has an action; True when opened."""
    s = em.state
    if not any(marshaling.ambushable(s, seat) for seat in s.seat_ids()):
        return False
    first = s.first_player or s.player_order()[0]
    em.emit(ev.CardsWindowOpened(window=kind, first=first, active=active))
    window_turn(em)
    return True


def window_turn(em: Emitter) -> None:
    """CG-ROUND-02: the window closes once every player passed in a row; otherwise the next
    player may act (one with nothing to do passes at once)."""
    w = em.state.window
    assert w is not None
    while w.passes < len(em.state.seat_ids()):
        if marshaling.ambushable(em.state, w.turn):
            em.open_step("action", [w.turn])
            return
        em.emit(ev.CardsActionPassed(seat_id=w.turn))
        w = em.state.window
        assert w is not None
    em.emit(ev.CardsWindowClosed(window=w.kind))
    if w.kind == "before_challenge":
        em.open_step("challenge", [w.active])
    elif w.kind == "after_attackers":
        ask_defenders(em)
    else:
        resolve_challenge(em)


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
    winner = challenges.resolve(em)
    if victory.check(em):  # CG-END-01: the unopposed bonus may win before claim
        return
    if winner is not None:
        triggers.challenge_won(em, winner)  # §13.2: reactions right after the winner is known
        if victory.check(em) or em.state.choice is not None:  # a reaction waits for targets
            return
    after_won_reactions(em, winner)


def after_won_reactions(em: Emitter, winner: str | None) -> None:
    """CG-CHAL-07: the claim (the defender may have to choose victims), then the keywords."""
    waits = challenges.apply_claim(em, winner)
    if victory.check(em):
        return
    ch = em.state.challenge
    assert ch is not None
    if waits:
        em.open_step("claim", [ch.defender])
        return
    after_claim(em, winner)


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


def end_of_round(em: Emitter) -> None:
    """Dominance (CG-PHASE-14/15), standing (CG-PHASE-16), taxation (CG-PHASE-17/18)."""
    if not begin_phase(em, "dominance"):
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
    """Standing (CG-PHASE-16), taxation (CG-PHASE-17/18), then the next round."""
    begin_phase(em, "standing")
    standing.stand_all(em)
    begin_phase(em, "taxation")
    taxation.return_gold(em)
    over = [seat for seat in em.state.player_order() if taxation.over_reserve(em.state, seat)]
    if over:
        em.open_step("reserve", over)
        return
    begin_round(em)


def after_reserve(em: Emitter) -> None:
    if not em.state.waiting:
        begin_round(em)
