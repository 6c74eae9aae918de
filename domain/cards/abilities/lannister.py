"""Lannister cards' abilities (the lannister_rose deck's Lannister half)."""

from __future__ import annotations

from .. import events as ev
from ..catalog import CARDS
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..phases.draw import draw
from ..state import AbilityChoice, CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    PrintedOnly,
    Query,
    announce,
    ask,
    bearer,
    characters_in_play,
    discard_from_play,
    kill_one,
    kneel,
    lasting,
    limit_free,
    opponents_characters,
    participates,
    pick_opponent,
    prompt,
    standing,
)


class CerseiLannister(Ability):
    """Cersei Lannister: while she attacks in an intrigue challenge, your plot claim is 1 higher."""

    code = "01084"
    kinds = ("constant",)

    def claim_modifier(self, state: CardState, source: str, owner: str, challenge: Challenge) -> int:
        return 1 if challenge.type == "intrigue" and source in challenge.attackers else 0


class JoffreyBaratheon(Ability):
    """Joffrey Baratheon: after any Lord or Lady character is killed, he gains 1 power (up to 3 times a round)."""

    code = "01086"
    kinds = ("reaction",)

    def after_killed(self, em: Emitter, source: str, owner: str, killed: list[str], seat: str) -> None:
        for card in killed:
            if {"Lord", "Lady"} & set(em.state.record(card).traits):
                key = limit_free(em.state, f"round:{source}", 3)
                if key is None:
                    return
                announce(em, self, source, owner, limit=key)
                em.emit(ev.CardsPowerGained(seat_id=owner, amount=1, reason="Joffrey Baratheon", card=source))


class SerJaimeLannister(Ability):
    """Ser Jaime Lannister: does not kneel when declared as a military attacker; has renown while in a military challenge."""

    code = "01087"
    kinds = ("constant",)

    def kneels_to_attack(self, state: CardState, source: str, owner: str, attacker: str, challenge: str) -> bool:
        return challenge != "military"

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        ch = state.challenge
        if target == source and ch is not None and ch.type == "military" and participates(state, source):
            return ("renown",)
        return ()


class TyrionLannister(Ability):
    """Tyrion Lannister: gain 2 gold each time an intrigue challenge is initiated (twice per round)."""

    code = "01089"
    kinds = ("reaction",)

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        if challenge.type != "intrigue":
            return
        key = limit_free(em.state, f"round:{source}", 2)
        if key is not None:
            announce(em, self, source, owner, limit=key)
            em.emit(ev.CardsGoldGained(seat_id=owner, gold=2, card=source))


class TywinLannister(Ability):
    """Tywin Lannister: +1 STR for each gold in your gold pool (his +2 income is a printed modifier)."""

    code = "01090"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return state.player(owner).gold if target == source else 0


class GoldCloaks(Ability):
    """Gold Cloaks: forced, when a phase in which it was ambushed into play ends, discard it from play (no saves).

    Entering by Ambush writes the limit key ``phase:<card>``; the phase's end discards the card
    while the key is there (it is cleared as the next phase begins)."""

    code = "01092"
    kinds = ("forced",)

    def after_ambushed(self, em: Emitter, source: str, owner: str) -> None:
        announce(em, self, source, owner, limit=f"phase:{source}")

    def phase_ends(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        if f"phase:{source}" in em.state.used_abilities:
            em.emit(ev.CardsDiscardedFromPlay(cards=[source], card=source))


class TheQueensAssassin(Ability):
    """The Queen's Assassin: Ambush (4). After it enters play by Ambush, choose an opponent: if you have more cards in hand than that player, that player kills a character they control.

    Reaction (the opponent: the only one in a joust). The opponent chooses the victim among its
    characters; default: the lowest printed STR, then the lowest id (as for claim). A duplicate
    saves it (always, as for claim). The action window goes on once it is answered."""

    code = "01095"
    kinds = ("reaction",)

    def after_ambushed(self, em: Emitter, source: str, owner: str) -> None:
        s = em.state
        # a melee: the opponent with the fewest cards in hand among those with a character (documented)
        them = pick_opponent(s, owner, lambda seat: -len(s.player(seat).hand) if s.characters(seat) else -999)
        if len(s.player(owner).hand) <= len(s.player(them).hand):
            return
        options = sorted(p.card for p in s.characters(them))
        default = sorted(options, key=lambda c: (s.record(c).str_, c))[:1]
        ask(
            em,
            AbilityChoice(
                seat=them, card=source, options=options, count=1, prompt=prompt(self), default=default, resume="window"
            ),
        )

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        kill_one(em, chosen[0])


class LannisportMoneylender(PrintedOnly):
    """Lannisport Moneylender: Limited; adds 1 to your income (printed, CG-GEN-08)."""

    code = "01093"


class WidowsWail(Ability):
    """Widow's Wail: the bearer gets +2 STR; Joffrey bearing it also gains a military icon."""

    code = "01096"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 2 if bearer(state, source) == target else 0

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        if bearer(state, source) == target and state.record(target).name == "Joffrey Baratheon":
            return ("military",)
        return ()


class CasterlyRock(Ability):
    """Casterly Rock: you may make one extra intrigue challenge in the challenges phase."""

    code = "01097"
    kinds = ("constant",)

    def extra_challenges(self, state: CardState, source: str, owner: str, seat: str) -> tuple[str, ...]:
        return ("intrigue",) if seat == owner else ()


class Lannisport(Ability):
    """Lannisport: each time you win an intrigue challenge, draw a card."""

    code = "01098"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner == owner and challenge.type == "intrigue":
            announce(em, self, source, owner)
            draw(em, owner, 1, "ability")


ABILITIES: tuple[Ability, ...] = (
    CerseiLannister(),
    JoffreyBaratheon(),
    SerJaimeLannister(),
    TyrionLannister(),
    TywinLannister(),
    GoldCloaks(),
    TheQueensAssassin(),
    LannisportMoneylender(),
    WidowsWail(),
    CasterlyRock(),
    Lannisport(),
)


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class LannisportMerchant(NextCheaper):
    """Lannisport Merchant: Marshaling Action: kneel it: the next Lannister character you marshal this phase costs 1 less."""

    code = "01094"
    faction = "lannister"


class WesternFiefdom(NextCheaper):
    """Western Fiefdom: Marshaling Action: kneel it: the next Lannister card you marshal this phase costs 1 less."""

    code = "01099"
    faction = "lannister"
    card_type = None


class TheTickler(Ability):
    """The Tickler: Dominance Action: kneel him to discard the top card of an opponent's deck; then discard a copy of that card from play.

    The "may" discard is taken on a copy the opponent controls (the first to enter), if any (documented)."""

    code = "01088"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        """A joust: no target (the opponent); a melee: the opponent (seat id) whose deck it mills."""
        if not standing(state, source):
            return None
        if state.melee:
            return [them for them in state.opponents(owner) if state.player(them).deck] or None
        return [] if state.player(state.opponent(owner)).deck else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        opp = target if target is not None else em.state.opponent(owner)
        kneel(em, source, [source])
        announce(em, self, source, owner)
        top = em.state.player(opp).deck[0]
        em.emit(ev.CardsDiscardedFromDeck(seat_id=opp, cards=[top], reason="The Tickler"))
        name = CARDS[em.state.cards[top]].name
        copies = [p.card for p in em.state.controlled(opp) if em.state.record(p.card).name == name]
        if copies:
            discard_from_play(em, [copies[0]], source)


ABILITIES += (
    LannisportMerchant(),
    WesternFiefdom(),
    TheTickler(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class HearMeRoar(Ability):
    """Hear Me Roar!: Action: put a Lannister character from your hand into play; as the phase ends, discard it from play if it is still there (it cannot be saved).

    Targets: the Lannister characters of your hand (seen by you only) that may enter play."""

    code = "01100"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        hand = [
            c
            for c in state.player(owner).hand
            if state.record(c).type == "character"
            and state.record(c).faction == "lannister"
            and placement(state, owner, c) is not None
        ]
        return hand or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner)
        put_into_play(em, owner, target, "hand", source)
        if target in em.state.in_play:
            lasting(em, source, target, "phase", at_end="discard")


class TheThingsIDoForLove(Ability):
    """The Things I Do For Love: Challenges Action (cost X; you control a Lannister Lord or Lady): kneel your faction card to return a character an opponent controls with printed cost X or less to its owner's hand.

    X is the target's printed cost (the least that plays it)."""

    code = "01101"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).faction_kneeling:
            return None
        if not any(
            state.record(c).faction == "lannister" and {"Lord", "Lady"} & set(state.record(c).traits)
            for c in characters_in_play(state)
            if state.in_play[c].controller == owner
        ):
            return None
        return opponents_characters(state, owner) or None

    def event_cost(self, state: CardState, source: str, owner: str, target: str | None) -> int:
        return state.record(target).printed_cost if target is not None else 0

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsFactionKnelt(seat_id=owner, card=source))
        announce(em, self, source, owner)
        em.emit(ev.CardsReturnedFromPlay(cards=[target], card=source))


ABILITIES += (
    HearMeRoar(),
    TheThingsIDoForLove(),
)


# -- Cancels (the cancel step: domain/cards/phases/actions.py) --------------------------------


class Treachery(Ability):
    """Treachery: Interrupt: if you control a unique Lannister character, cancel the effects of a triggered ability on a character, location or attachment.

    The triggered abilities it is offered against are an opponent's card Actions of a character,
    location or attachment, as they are initiated (the ``cancel`` step; their costs stay paid:
    :func:`..phases.actions.use_cancel`). The cards' own reactions and interrupts resolve inside
    the rules' steps and are not offered (documented). Played from hand for its cost (1 gold)."""

    code = "01102"
    kinds = ("interrupt",)

    def cancels(self, state: CardState, source: str, owner: str, event: str) -> bool:
        if source not in state.player(owner).hand or event not in state.in_play:
            return False
        if state.in_play[event].controller == owner or state.record(event).type not in TRIGGERED_ON:
            return False
        lannister = any(
            state.record(p.card).unique and state.record(p.card).faction == "lannister" for p in state.characters(owner)
        )
        return lannister and state.player(owner).gold >= state.record(source).printed_cost

    def pay_cancel(self, em: Emitter, source: str, owner: str, event: str) -> None:
        cost = em.state.record(source).printed_cost
        em.emit(ev.CardsEventPlayed(seat_id=owner, card=source, code=self.code, cost=cost, target=event))
        announce(em, self, source, owner)


TRIGGERED_ON = ("character", "location", "attachment")
"""The card types whose triggered abilities Treachery cancels."""

ABILITIES += (Treachery(),)
