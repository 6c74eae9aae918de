"""Actions (CG-POOL-06) and what a player may do in an action window (CG-ROUND-02).

An **Action** is used by a player in an action window of any phase (the windows are opened by
:mod:`.flow`; a phase-named action only in that phase, read from the card's ``action_windows``:
``any``, ``marshaling``, ``challenges``, ``dominance``). A player's opportunities are:

* a card's Action: a card it controls in play, or its revealed plot, whose ability offers
  targets now (:meth:`~..abilities.base.Ability.action_targets`; costs such as kneeling and
  limits once per phase/round are the ability's own conditions);
* an **event** from its hand with an Action, for its gold cost (then to its discard pile);
* an **Ambush** (CG-KEY-06), in the challenges phase only.

Targets are chosen as the action is initiated (the ``target`` of ``use_action``/``play_event``:
one card or one challenge type from the options the decision lists). No action is offered to a
player whom an opponent's card forbids to trigger abilities (Catelyn Stark).
"""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import current
from .. import events as ev
from ..abilities import triggers
from ..abilities.registry import ABILITIES, active
from ..emitter import Emitter
from ..state import CardState
from . import marshaling
from .draw import draw


def may_trigger(state: CardState, seat: str) -> bool:
    """Whether ``seat`` may trigger card abilities now (Catelyn Stark forbids it to her opponents)."""
    return not any(a.forbids_triggers(state, src, own, seat) for a, src, own in active(state))


def in_its_phase(state: CardState, card: str) -> bool:
    """An Action may be used in the phase its card names (``any``: every phase)."""
    windows = state.record(card).action_windows
    return "any" in windows or state.phase in windows


def card_actions(state: CardState, seat: str) -> dict[str, list[str]]:
    """The cards (in play or ``seat``'s revealed plot) whose Action ``seat`` may use now -> targets."""
    out: dict[str, list[str]] = {}
    if not may_trigger(state, seat):
        return out
    for ability, source, owner in active(state):
        if owner != seat or "action" not in ability.kinds or not in_its_phase(state, source):
            continue
        targets = ability.action_targets(state, source, owner, current)
        if targets is not None:
            out[source] = list(targets)
    return out


def playable_events(state: CardState, seat: str) -> dict[str, list[str]]:
    """The action events of ``seat``'s hand it may play now (and afford) -> their targets."""
    out: dict[str, list[str]] = {}
    if not may_trigger(state, seat):
        return out
    gold = state.player(seat).gold
    for card in state.player(seat).hand:
        rec = state.record(card)
        ability = ABILITIES.get(rec.code)
        if rec.type != "event" or ability is None or "action" not in ability.kinds or not in_its_phase(state, card):
            continue
        targets = ability.action_targets(state, card, seat, current)
        if targets is None:
            continue
        if not targets:
            if ability.event_cost(state, card, seat, None) <= gold:
                out[card] = []
            continue
        affordable = [t for t in targets if ability.event_cost(state, card, seat, t) <= gold]
        if affordable:
            out[card] = affordable
    return out


def ambushes(state: CardState, seat: str) -> dict[str, list[str]]:
    """Ambush is a challenges-phase action (CG-KEY-06)."""
    return marshaling.ambushable(state, seat) if state.phase == "challenges" else {}


def has_action(state: CardState, seat: str) -> bool:
    """Whether ``seat`` has an opportunity now (an action window is opened only then)."""
    return bool(ambushes(state, seat) or card_actions(state, seat) or playable_events(state, seat))


def _check_target(options: dict[str, list[str]], card: str, target: str | None, what: str) -> None:
    if card not in options:
        raise RuleViolation(f"{card}: {what} cannot be used now", rule="CG-POOL-06")
    targets = options[card]
    if targets and target not in targets:
        raise RuleViolation(f"{card}: choose a target among {targets}", rule="CG-POOL-06")
    if not targets and target is not None:
        raise RuleViolation(f"{card}: this takes no target", rule="CG-POOL-06")


def use(em: Emitter, seat: str, card: str, target: str | None, in_window: bool) -> None:
    """``seat`` uses the Action of ``card`` with ``target``: the ability pays and resolves."""
    _check_target(card_actions(em.state, seat), card, target, "no Action of yours")
    ability = ABILITIES[em.state.cards[card]]
    start = len(em.events)
    em.emit(ev.CardsActionUsed(seat_id=seat, card=card, code=em.state.cards[card], target=target, window=in_window))
    ability.action(em, card, seat, target, current)
    _killed_triggers(em, start)


def play(em: Emitter, seat: str, card: str, target: str | None, in_window: bool) -> None:
    """``seat`` plays the event ``card`` from hand: pays its cost, the card goes to the discard
    pile, its effect resolves."""
    _check_target(playable_events(em.state, seat), card, target, "no event of yours that may be played")
    ability = ABILITIES[em.state.cards[card]]
    cost = ability.event_cost(em.state, card, seat, target)
    start = len(em.events)
    em.emit(
        ev.CardsEventPlayed(
            seat_id=seat, card=card, code=em.state.cards[card], cost=cost, target=target, window=in_window
        )
    )
    ability.action(em, card, seat, target, current)
    _killed_triggers(em, start)


def _killed_triggers(em: Emitter, start: int) -> None:
    """Characters an ability killed: the "killed" triggers after it resolved (Joffrey, Robb Stark)."""
    for e in list(em.events[start:]):
        if isinstance(e, ev.CardsCharactersKilled) and not em.over:
            triggers.killed(em, e.seat_id, list(e.cards))


def phase_ends(em: Emitter) -> None:
    """Lasting effects that act as the phase ends, on cards still in play: ``discard`` (Hear Me
    Roar!, no saves) or ``return_to_hand`` (Waking the Dragon), before the phase's end triggers."""
    for e in list(em.state.effects):
        if e.at_end is None or e.target not in em.state.in_play:
            continue
        if e.at_end == "discard":
            em.emit(ev.CardsDiscardedFromPlay(cards=[e.target], card=e.source))
        elif e.at_end == "return_to_hand":
            em.emit(ev.CardsReturnedFromPlay(cards=[e.target], card=e.source))


def challenge_won(em: Emitter, winner: str) -> None:
    """Lasting effects waiting for the challenge's result: "if you win it, draw a card" (For the North!)."""
    for e in list(em.state.effects):
        if e.at_end == "draw_if_won" and e.target == winner and not em.over:
            draw(em, winner, 1, "ability")
