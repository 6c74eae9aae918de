"""The timing points where the rules hand over to the triggered abilities (§13.2).

Each function runs every active ability's hook for one trigger, in a fixed order (the revealed
plots in player order, then the cards in play in the order they entered): the first player may
order simultaneous triggers at the table (CG-PHASE-04); here the order is player order
(documented in docs/card-game.md).
"""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import events as ev
from ..emitter import Emitter
from ..state import AbilityChoice, CardState
from .base import Ability, announce
from .registry import ABILITIES, active, text_blank


def may_trigger(em: Emitter, seat: str) -> bool:
    """Whether ``seat`` may trigger card abilities now (reactions; forced effects always resolve)."""
    return not any(a.forbids_triggers(em.state, src, own, seat) for a, src, own in active(em.state))


def _reactions(em: Emitter) -> list[tuple[Ability, str, str]]:
    """The active abilities whose owner may trigger them now, listed before any resolves."""
    return [(a, src, own) for a, src, own in active(em.state) if may_trigger(em, own)]


def _still_there(em: Emitter, source: str, owner: str) -> bool:
    return source in em.state.in_play or source == em.state.player(owner).plot


def plots_revealed(em: Emitter) -> bool:
    """CG-PHASE-04: after the first player is chosen, each revealed plot's When Revealed ability,
    in player order. A plot resolved this round carries the limit ``round:<plot>``, so this runs
    again after a choice and skips what is done. False when an ability waits for targets (the
    ``ability`` step is open)."""
    for seat in em.state.player_order():
        plot = em.state.player(seat).plot
        ability = ABILITIES.get(em.state.cards[plot]) if plot is not None else None
        if ability is None or plot is None or em.over or "when_revealed" not in ability.kinds:
            continue
        if f"round:{plot}" in em.state.used_abilities:
            continue
        choice = ability.choice(em.state, plot, seat)
        if choice is not None and choice.options:
            em.emit(ev.CardsChoiceOffered(choice=choice))
            em.open_step("ability", [choice.seat])
            return False
        announce(em, ability, plot, seat, limit=f"round:{plot}")
        start = len(em.events)
        ability.when_revealed(em, plot, seat)
        _then_killed(em, start)
    return True


def _then_killed(em: Emitter, start: int) -> None:
    """The killed reactions (:func:`killed`) for the characters an ability killed since event
    ``start`` (Wildfire Assault), one batch per seat, after the ability resolved."""
    for e in em.events[start:]:
        if isinstance(e, ev.CardsCharactersKilled) and not em.over:
            killed(em, e.seat_id, list(e.cards))


def check_choice(state: CardState, chosen: list[str]) -> None:
    """The targets are distinct options, exactly ``count`` of them (fewer only if fewer exist)."""
    c = state.choice
    assert c is not None
    need = min(c.count, len(c.options))
    if len(set(chosen)) != len(chosen) or len(chosen) != need or not set(chosen) <= set(c.options):
        raise RuleViolation(f"choose exactly {need} different targets among {c.options}", rule="CG-PHASE-04")


def resolve_choice(em: Emitter, chosen: list[str], by_default: bool) -> AbilityChoice:
    """The choice is made: the ability resolves with it (its limit used up). An ability every
    player chooses for only records the answer (``state.choices_made``): it resolves once the
    last player answered (:func:`plots_revealed`)."""
    c = em.state.choice
    assert c is not None
    ability = ABILITIES[em.state.cards[c.card]]
    em.emit(ev.CardsChoiceMade(seat_id=c.seat, card=c.card, chosen=chosen, by_default=by_default))
    if ability.every_player_chooses:
        return c
    announce(em, ability, c.card, c.seat, limit=ability.choice_limit(c.card))
    start = len(em.events)
    ability.resolve_choice(em, c.card, c.seat, chosen)
    _then_killed(em, start)
    return c


def phase_began(em: Emitter, phase: str) -> None:
    """Forced and reaction abilities as ``phase`` begins (Supporting the Faith)."""
    for ability, source, owner in list(active(em.state)):
        ability.phase_begins(em, source, owner, phase)


def challenge_won(em: Emitter, winner: str) -> None:
    """Reactions after a challenge is won (right after the winner and the unopposed bonus, §13.2)."""
    ch = em.state.challenge
    assert ch is not None
    for ability, source, owner in _reactions(em):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.after_challenge_won(em, source, owner, ch, winner)


def dominance_won(em: Emitter, winner: str) -> None:
    """Reactions after ``winner`` won dominance (A Feast for Crows)."""
    for ability, source, owner in _reactions(em):
        if em.over:
            return
        ability.after_dominance(em, source, owner, winner)


def phase_ending(em: Emitter, phase: str) -> None:
    """Forced effects as ``phase`` ends, before its "this phase" limits are cleared (Gold Cloaks)."""
    for ability, source, owner in list(active(em.state)):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.phase_ends(em, source, owner, phase)


def ambushed(em: Emitter, card: str, seat: str) -> None:
    """``card`` entered play by Ambush: its own ability may note it (Gold Cloaks)."""
    ability = ABILITIES.get(em.state.cards[card])
    if ability is not None and card in em.state.in_play:
        ability.after_ambushed(em, card, seat)


def challenge_declared(em: Emitter) -> None:
    """Reactions after a challenge is initiated (§13.2: Eddard Stark, Tyrion Lannister)."""
    ch = em.state.challenge
    assert ch is not None
    for ability, source, owner in _reactions(em):
        if _still_there(em, source, owner):
            ability.after_declared(em, source, owner, ch)


def killed(em: Emitter, seat: str, cards: list[str]) -> None:
    """After ``seat``'s ``cards`` were killed: first each killed card's own "when he is killed"
    ability (Ser Waymar Royce; it resolves from the dead pile, documented), then the reactions of
    the cards still in play (Joffrey Baratheon, Robb Stark)."""
    for card in cards:
        own = ABILITIES.get(em.state.cards[card])
        if own is not None and not em.over and may_trigger(em, seat):
            own.when_killed(em, card, seat)
    for ability, source, owner in _reactions(em):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.after_killed(em, source, owner, cards, seat)


def marshaled(em: Emitter, seat: str, card: str, before: list[tuple[str, str]]) -> None:
    """After ``seat`` marshaled ``card``: the abilities active *before* it entered record what
    they gave it (a once-per-round cost reduction uses its limit up); then the card's own
    reaction to being marshaled (Littlefinger), unless its text is blank or ``seat`` may not
    trigger abilities."""
    rec = em.state.record(card)
    for source, owner in before:
        ability = ABILITIES.get(em.state.cards[source])
        if ability is not None:
            ability.on_marshaled(em, source, owner, seat, rec)
    own = ABILITIES.get(em.state.cards[card])
    if own is not None and card in em.state.in_play and not text_blank(em.state, card) and may_trigger(em, seat):
        own.after_marshaled_self(em, card, seat)
