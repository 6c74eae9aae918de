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
from ..abilities.base import SAVES, Ability, Saver, discard_from_play, kill
from ..abilities.registry import ABILITIES, active
from ..emitter import Emitter
from ..state import CardState
from . import marshaling
from .draw import draw


def may_trigger(state: CardState, seat: str) -> bool:
    """Whether ``seat`` may trigger card abilities now (Catelyn Stark forbids it to her opponents)."""
    return not any(a.forbids_triggers(state, src, own, seat) for a, src, own in active(state, Ability.forbids_triggers))


def in_its_phase(state: CardState, card: str) -> bool:
    """An Action may be used in the phase its card names (``any``: every phase)."""
    windows = state.record(card).action_windows
    return "any" in windows or state.phase in windows


def card_actions(state: CardState, seat: str) -> dict[str, list[str]]:
    """The cards (in play or ``seat``'s revealed plot) whose Action ``seat`` may use now -> targets."""
    out: dict[str, list[str]] = {}
    if not may_trigger(state, seat):
        return out
    for ability, source, owner in active(state, Ability.action_targets):
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


def reactions_of(state: CardState, seat: str, trigger: str) -> dict[str, list[str]]:
    """The reaction events of ``seat``'s hand it may play now after ``trigger`` -> their targets."""
    out: dict[str, list[str]] = {}
    if not may_trigger(state, seat):
        return out
    gold = state.player(seat).gold
    for card in state.player(seat).hand:
        rec = state.record(card)
        ability = ABILITIES.get(rec.code)
        if rec.type != "event" or ability is None or "reaction" not in ability.kinds:
            continue
        targets = ability.reaction_targets(state, card, seat, trigger, current)
        if targets is None:
            continue
        affordable = [t for t in targets if ability.event_cost(state, card, seat, t) <= gold]
        if (not targets and ability.event_cost(state, card, seat, None) <= gold) or affordable:
            out[card] = affordable
    return out


def play_reaction(em: Emitter, seat: str, card: str, target: str | None) -> None:
    """``seat`` plays the reaction event ``card`` in the open reaction window."""
    r = em.state.reactions
    assert r is not None
    _check_target(reactions_of(em.state, seat, r.trigger), card, target, "no reaction of yours")
    ability = ABILITIES[em.state.cards[card]]
    cost = ability.event_cost(em.state, card, seat, target)
    em.emit(ev.CardsEventPlayed(seat_id=seat, card=card, code=em.state.cards[card], cost=cost, target=target))
    _cancel_or_resolve(em, seat, card, target, "reaction")


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
    """``seat`` uses the Action of ``card`` with ``target``: unless the opponent cancels it
    (Treachery), the ability pays and resolves."""
    _check_target(card_actions(em.state, seat), card, target, "no Action of yours")
    em.emit(ev.CardsActionUsed(seat_id=seat, card=card, code=em.state.cards[card], target=target, window=in_window))
    _cancel_or_resolve(em, seat, card, target, "action" if in_window else "marshal")


def play(em: Emitter, seat: str, card: str, target: str | None, in_window: bool) -> None:
    """``seat`` plays the event ``card`` from hand: pays its cost, the card goes to the discard
    pile, its effect resolves."""
    _check_target(playable_events(em.state, seat), card, target, "no event of yours that may be played")
    ability = ABILITIES[em.state.cards[card]]
    cost = ability.event_cost(em.state, card, seat, target)
    em.emit(
        ev.CardsEventPlayed(
            seat_id=seat, card=card, code=em.state.cards[card], cost=cost, target=target, window=in_window
        )
    )
    _cancel_or_resolve(em, seat, card, target, "action" if in_window else "marshal")


def _killed_triggers(em: Emitter, start: int) -> None:
    """What an ability did since event ``start``: the "killed" and "leaves play" triggers and the
    reactions to a raised STR, after it resolved (:func:`..abilities.triggers.followups`)."""
    triggers.followups(em, start)


def phase_ends(em: Emitter) -> None:
    """Lasting effects that act as the phase ends, on cards still in play: ``discard`` (Hear Me
    Roar!, no saves), ``return_to_hand`` (Waking the Dragon) or ``kill`` (Tears of Lys' poison),
    before the phase's end triggers."""
    for e in list(em.state.effects):
        if e.at_end is None or e.target not in em.state.in_play or em.over:
            continue
        if e.at_end == "kill":
            start = len(em.events)
            kill(em, em.state.in_play[e.target].controller, [e.target])
            _killed_triggers(em, start)
        elif e.at_end == "discard":
            discard_from_play(em, [e.target], e.source)
            if e.target not in em.state.in_play:
                triggers.left_play(em, [e.target], None)
        elif e.at_end == "return_to_hand":
            em.emit(ev.CardsReturnedFromPlay(cards=[e.target], card=e.source))
            triggers.left_play(em, [e.target], None)


def challenge_won(em: Emitter, winner: str) -> None:
    """Lasting effects waiting for the challenge's result: "if you win it, draw a card" (For the North!)."""
    for e in list(em.state.effects):
        if e.at_end == "draw_if_won" and e.target == winner and not em.over:
            draw(em, winner, 1, "ability")


def saves_of(state: CardState, seat: str, victims: list[str]) -> dict[str, list[str]]:
    """``seat``'s save interrupts for its ``victims`` now: the saving card -> the victims it may save."""
    return {source: targets for _, source, targets in save_interrupts(state, seat, victims, False)}


def save_interrupts(state: CardState, seat: str, victims: list[str], discard: bool) -> list[Saver]:
    """``seat``'s save interrupts for its ``victims`` about to be killed (``discard``: discarded
    from play, Bodyguard only) now, as (ability, saving card, victims it may save)."""
    out: list[Saver] = []
    if not may_trigger(state, seat):
        return out
    for ability, source, owner in active(state, Ability.save_targets):
        if owner != seat or "interrupt" not in ability.kinds or (discard and not ability.saves_from_discard):
            continue
        targets = ability.save_targets(state, source, owner, victims)
        if targets:
            out.append((ability, source, list(targets)))
    return out


SAVES.append(save_interrupts)  # the abilities' kills find the saves here (base.kill)


def use_save(em: Emitter, seat: str, card: str, target: str | None) -> None:
    """``seat`` saves ``target`` from the pending kills with ``card``'s interrupt (its cost paid)."""
    k = em.state.killing
    assert k is not None
    _check_target(saves_of(em.state, seat, k.victims), card, target, "no save of yours")
    assert target is not None
    ability = ABILITIES[em.state.cards[card]]
    em.emit(ev.CardsSaved(seat_id=seat, card=card, saved=target))
    ability.save(em, card, seat, target)


def cancels_of(state: CardState, seat: str, event: str) -> dict[str, list[str]]:
    """``seat``'s cancels of the opponent's ``event``: a card in play or an event of its hand -> [event]."""
    out: dict[str, list[str]] = {}
    if not may_trigger(state, seat):
        return out
    sources = [(a, src) for a, src, own in active(state, Ability.cancels) if own == seat]
    sources += [(ABILITIES[state.cards[c]], c) for c in state.player(seat).hand if state.cards[c] in ABILITIES]
    for ability, source in sources:
        if "interrupt" in ability.kinds and ability.cancels(state, source, seat, event):
            out[source] = [event]
    return out


def _cancel_or_resolve(em: Emitter, seat: str, card: str, target: str | None, resume: str) -> None:
    """CG-POOL-06: an event's or a card Action's effects may be cancelled as they would start (The
    Hand's Judgment, Bran Stark: events; Treachery: Actions of characters, locations,
    attachments): the opponent holding a cancel is asked first (the ``cancel`` step); else the
    effects resolve. In a melee the first opponent in player order from the player's left holding a
    cancel is asked (documented: only that one)."""
    holders = [o for o in em.state.opponents(seat) if cancels_of(em.state, o, card)]
    if holders:
        opponent = holders[0]
        em.emit(ev.CardsCancelOffered(seat_id=opponent, player=seat, card=card, target=target, resume=resume))
        em.open_step("cancel", [opponent])
        return
    resolve_event(em, seat, card, target, resume)


def resolve_event(em: Emitter, seat: str, card: str, target: str | None, resume: str) -> None:
    """The effects of the played event ``card`` (or the costs and effects of the card Action of
    ``card``, initiated and not cancelled); ``resume`` (``action``, ``marshal``, ``reaction``):
    where the game goes on, should a kill in it wait for a save (``em.resume``)."""
    start = len(em.events)
    em.resume = "window" if resume == "action" else resume
    ABILITIES[em.state.cards[card]].action(em, card, seat, target, current)
    em.resume = None
    _killed_triggers(em, start)


def use_cancel(em: Emitter, seat: str, card: str, target: str | None) -> None:
    """``seat`` cancels the pending event with ``card`` (its cost paid after the cancel is written)."""
    pending = em.state.pending_event
    assert pending is not None
    _check_target(cancels_of(em.state, seat, pending.card), card, target, "no cancel of yours")
    # a card Action: its costs stay paid (review 2), written after the cancel (which opens the batch)
    costs = action_costs(em, pending.seat, pending.card, pending.target) if pending.card in em.state.in_play else []
    em.emit(ev.CardsEventCancelled(seat_id=seat, card=card, cancelled=pending.card))
    for e in costs:
        em.emit(e)
    ABILITIES[em.state.cards[card]].pay_cancel(em, card, seat, pending.card)


def action_costs(em: Emitter, seat: str, card: str, target: str | None) -> list[ev.Event]:
    """The costs of ``seat``'s card Action of ``card`` with ``target``: the events its ability
    emits up to and including its use (:func:`..abilities.base.announce`, which also writes its
    limit). Every Action pays its costs (kneel, sacrifice, gold, a discard) before it announces
    itself, so this prefix is what a cancel leaves paid (review 2: costs paid for a cancelled
    ability stay paid). Worked out on a scratch copy of the state; only the prefix is kept."""
    scratch = Emitter(em.state, em.ctx)
    ABILITIES[em.state.cards[card]].action(scratch, card, seat, target, current)
    out: list[ev.Event] = []
    for e in scratch.events:
        out.append(e)
        if isinstance(e, ev.CardsAbilityUsed):
            break
    return out
