"""The timing points where the rules hand over to the triggered abilities (§13.2).

Each function runs every active ability's hook for one trigger, in a fixed order (the revealed
plots in player order, then the cards in play in the order they entered): the first player may
order simultaneous triggers at the table (CG-PHASE-04); here the order is player order
(documented in docs/card-game.md).
"""

from __future__ import annotations

from ...core.errors import RuleViolation
from .. import current
from .. import events as ev
from ..emitter import Emitter
from ..state import AbilityChoice, CardState
from .base import Ability, announce, kill_one
from .registry import ABILITIES, Hook, active, text_blank


def may_trigger(em: Emitter, seat: str) -> bool:
    """Whether ``seat`` may trigger card abilities now (reactions; forced effects always resolve)."""
    return not any(
        a.forbids_triggers(em.state, src, own, seat) for a, src, own in active(em.state, Ability.forbids_triggers)
    )


def _reactions(em: Emitter, *hooks: Hook) -> list[tuple[Ability, str, str]]:
    """The active abilities (with one of ``hooks``: :func:`.registry.active`) whose owner may
    trigger them now, listed before any resolves."""
    return [(a, src, own) for a, src, own in active(em.state, *hooks) if may_trigger(em, own)]


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
    """What follows an ability's own events since event ``start``: the killed reactions
    (:func:`killed`) for the characters it killed (Wildfire Assault), one batch per seat; a card
    it put into play that enters kneeling (:func:`entered`); the reactions to the cards it stood
    (:func:`stood`); the cards it made leave play otherwise and the STR it raised
    (:func:`followups`)."""
    for e in list(em.events[start:]):
        if em.over:
            return
        if isinstance(e, ev.CardsCharactersKilled):
            killed(em, e.seat_id, list(e.cards))
        elif isinstance(e, ev.CardsPutIntoPlay):
            entered(em, [e.card])
        elif isinstance(e, ev.CardsKneelingChanged) and not e.kneeling:
            stood(em, list(e.cards))
        else:
            _left_or_raised(em, e)


def followups(em: Emitter, start: int) -> None:
    """After an Action or an event resolved (its events since ``start``): the "killed" triggers
    (Joffrey, Robb Stark), the cards it put into play (:func:`entered`), the "leaves play" interrupts of the cards it discarded, returned or
    sacrificed (Viserys Targaryen) and the reactions to the STR it raised (Randyll Tarly)."""
    for e in list(em.events[start:]):
        if em.over:
            return
        if isinstance(e, ev.CardsCharactersKilled):
            killed(em, e.seat_id, list(e.cards))
        elif isinstance(e, ev.CardsPutIntoPlay):
            entered(em, [e.card])
        else:
            _left_or_raised(em, e)


def _left_or_raised(em: Emitter, e: ev.Event) -> None:
    if isinstance(e, ev.CardsDiscardedFromPlay | ev.CardsReturnedFromPlay | ev.CardsSacrificed):
        left_play(em, list(e.cards), None)
    elif isinstance(e, ev.CardsEffectApplied) and e.effect.strength > 0:
        strength_raised(em, e.effect.target)


def left_play(em: Emitter, cards: list[str], resume: str | None) -> None:
    """``cards`` left play (CG-UNIQUE-05): each one's own "when it leaves play" ability, resolved
    from the pile it went to (as Ser Waymar Royce's "when killed", documented), for its owner."""
    for card in cards:
        own = ABILITIES.get(em.state.cards[card])
        seat = em.state.owner(card)
        if own is not None and card not in em.state.in_play and not em.over and may_trigger(em, seat):
            own.when_leaves_play(em, card, seat, resume)


def strength_raised(em: Emitter, target: str) -> None:
    """A card effect raised ``target``'s STR (a lasting +STR): the reactions to it (Randyll Tarly)."""
    for ability, source, owner in _reactions(em, Ability.after_strength_raised):
        if em.over:
            return
        if _still_there(em, source, owner) and target in em.state.in_play:
            ability.after_strength_raised(em, source, owner, target)


def entered(em: Emitter, cards: list[str], setup: bool = False) -> None:
    """``cards`` entered play (setup, marshaling, Ambush, put into play): those whose own text says
    so enter kneeling (Sansa Stark; not while their text box is blank); then, out of ``setup``,
    their own "when it enters play" reactions (Arya Stark)."""
    kneel = []
    for card in cards:
        ability = ABILITIES.get(em.state.cards[card])
        placed = em.state.in_play.get(card)
        if ability is not None and ability.enters_play_kneeling and placed is not None and not placed.kneeling:
            if not text_blank(em.state, card):
                kneel.append(card)
    if kneel:
        em.emit(ev.CardsKneelingChanged(cards=kneel, kneeling=True, card=kneel[0]))
    if setup:
        return
    for card in cards:
        ability = ABILITIES.get(em.state.cards[card])
        placed = em.state.in_play.get(card)
        if ability is None or placed is None or em.over or text_blank(em.state, card):
            continue
        if may_trigger(em, placed.controller):
            ability.when_enters_play(em, card, placed.controller)


def stood(em: Emitter, cards: list[str]) -> None:
    """Reactions after ``cards`` stood (Sansa Stark)."""
    for ability, source, owner in _reactions(em, Ability.after_stood):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.after_stood(em, source, owner, cards)


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
    placed = em.state.in_play.get(c.card)
    owner = placed.controller if placed is not None else em.state.owner(c.card)  # a card's controller, a plot's owner
    announce(em, ability, c.card, owner, limit=ability.choice_limit(em.state, c.card, chosen))
    start = len(em.events)
    em.answered, em.resume = c, c.resume or None  # a kill inside may wait for a save (base.kill)
    ability.resolve_choice(em, c.card, owner, chosen)
    if ability.kills_at_zero_strength:
        for target in chosen:
            if target in em.state.in_play and current.strength(em.state, target) == 0:
                kill_one(em, target)
    em.answered, em.resume = None, None
    _then_killed(em, start)
    return c


def phase_began(em: Emitter, phase: str) -> None:
    """Forced and reaction abilities as ``phase`` begins (Supporting the Faith)."""
    for ability, source, owner in list(active(em.state, Ability.phase_begins)):
        ability.phase_begins(em, source, owner, phase)


def _forced_and_reactions(em: Emitter, *hooks: Hook) -> list[tuple[Ability, str, str]]:
    """The active abilities (with one of ``hooks``: :func:`.registry.active`) that resolve now:
    forced ones always (a lock on triggering, Catelyn Stark's, stops reactions only), reactions
    when their owner may trigger them."""
    return [
        (a, src, own)
        for a, src, own in active(em.state, *hooks)
        if ("forced" in a.kinds and "reaction" not in a.kinds) or may_trigger(em, own)
    ]


def challenge_won(em: Emitter, winner: str) -> None:
    """Reactions and forced effects after a challenge is won (right after the winner and the
    unopposed bonus, §13.2: The Wall, Ser Jorah Mormont are forced)."""
    ch = em.state.challenge
    assert ch is not None
    for ability, source, owner in _forced_and_reactions(em, Ability.after_challenge_won):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.after_challenge_won(em, source, owner, ch, winner)


def dominance_won(em: Emitter, winner: str) -> None:
    """Reactions after ``winner`` won dominance (A Feast for Crows)."""
    for ability, source, owner in _reactions(em, Ability.after_dominance):
        if em.over:
            return
        ability.after_dominance(em, source, owner, winner)


def phase_ending(em: Emitter, phase: str) -> None:
    """Forced effects as ``phase`` ends, before its "this phase" limits are cleared (Gold Cloaks)."""
    for ability, source, owner in list(active(em.state, Ability.phase_ends)):
        if em.over:
            return
        if _still_there(em, source, owner):
            ability.phase_ends(em, source, owner, phase)


def ambushed(em: Emitter, card: str, seat: str) -> None:
    """``card`` entered play by Ambush: its own ability may note it (Gold Cloaks) or react (The
    Queen's Assassin, Olenna's Informant, Summer); what it kills has its killed reactions."""
    ability = ABILITIES.get(em.state.cards[card])
    if ability is not None and card in em.state.in_play:
        start = len(em.events)
        ability.after_ambushed(em, card, seat)
        _then_killed(em, start)


def challenge_declared(em: Emitter) -> None:
    """Reactions after a challenge is initiated (§13.2: Eddard Stark, Tyrion Lannister)."""
    ch = em.state.challenge
    assert ch is not None
    for ability, source, owner in _reactions(em, Ability.after_declared):
        if _still_there(em, source, owner):
            ability.after_declared(em, source, owner, ch)


def killed(em: Emitter, seat: str, cards: list[str], resume: str | None = None) -> None:
    """After ``seat``'s ``cards`` were killed: first each killed card's own "when he is killed"
    and "when he leaves play" abilities (Ser Waymar Royce, Shireen Baratheon, Viserys Targaryen;
    they resolve from the dead pile, documented; ``resume``: where the game goes on if one asks,
    :meth:`~.base.Ability.when_killed`), then the reactions of the cards still in play (Joffrey
    Baratheon, Robb Stark)."""
    for card in cards:
        own = ABILITIES.get(em.state.cards[card])
        if own is not None and not em.over and may_trigger(em, seat):
            own.when_killed(em, card, seat, resume)
    left_play(em, cards, resume)
    for ability, source, owner in _reactions(em, Ability.after_killed):
        if em.over:
            return
        if _still_there(em, source, owner):
            start = len(em.events)
            ability.after_killed(em, source, owner, cards, seat)
            _then_killed(em, start)  # Robb Stark's stand: Sansa Stark reacts


def marshaled(em: Emitter, seat: str, card: str, before: list[tuple[str, str]]) -> None:
    """After ``seat`` marshaled ``card``: a lasting reduction for the next character is spent (The
    Kingsroad); the abilities active *before* it entered record what they gave it (a
    once-per-round cost reduction uses its limit up); then the card's own
    reaction to being marshaled (Littlefinger), unless its text is blank or ``seat`` may not
    trigger abilities."""
    rec = em.state.record(card)
    if rec.type == "character" and card in em.state.in_play:  # not a duplicate: it paid a cost
        for e in current.pending_reductions(em.state, seat):
            announce(em, ABILITIES[em.state.cards[e.source]], e.source, seat, limit=f"phase:spent:{e.source}")
    for source, owner in before:
        ability = ABILITIES.get(em.state.cards[source])
        if ability is not None:
            ability.on_marshaled(em, source, owner, seat, rec)
    own = ABILITIES.get(em.state.cards[card])
    if own is not None and card in em.state.in_play and not text_blank(em.state, card) and may_trigger(em, seat):
        own.after_marshaled_self(em, card, seat)
