"""Stark cards' abilities (the stark_kraken deck's Stark half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..phases.draw import draw
from ..state import CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    ask_one,
    bearer,
    characters_in_play,
    controls,
    kill,
    kill_one,
    kneel,
    lasting,
    lost_by,
    participates,
    stand,
    standing,
)


class CatelynStark(Ability):
    """Catelyn Stark: while she takes part in a challenge, opponents may not trigger card abilities."""

    code = "01143"
    kinds = ("constant",)

    def forbids_triggers(self, state: CardState, source: str, owner: str, seat: str) -> bool:
        return seat != owner and participates(state, source)


class EddardStark(Ability):
    """Eddard Stark: after a challenge is started against you, stand him.

    Reaction; the "may" is always taken (documented)."""

    code = "01144"
    kinds = ("reaction",)

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        if challenge.defender == owner and em.state.in_play[source].kneeling:
            announce(em, self, source, owner)
            stand(em, source, [source])


class RobbStark(Ability):
    """Robb Stark: after a Stark character of yours is killed, stand all your characters (once per round)."""

    code = "01146"
    kinds = ("reaction",)

    def after_killed(self, em: Emitter, source: str, owner: str, killed: list[str], seat: str) -> None:
        key = f"round:{source}"
        if seat != owner or key in em.state.used_abilities:
            return
        if any(em.state.record(c).faction == "stark" for c in killed):
            announce(em, self, source, owner, limit=key)
            stand(em, source, [p.card for p in em.state.characters(owner)])


class DirewolfPup(Ability):
    """Direwolf Pup: +1 STR for each other Direwolf card you control."""

    code = "01149"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return len([c for c in controls(state, owner, trait="Direwolf") if c != source]) if target == source else 0


class VanguardOfTheNorth(Ability):
    """Vanguard of the North: while any player has a War plot revealed, it does not kneel when attacking in military challenges."""

    code = "01151"
    kinds = ("constant",)

    def kneels_to_attack(self, state: CardState, source: str, owner: str, attacker: str, challenge: str) -> bool:
        war = any(p.plot is not None and "War" in state.record(p.plot).traits for p in state.players)
        return not (war and challenge == "military")


class Summer(Ability):
    """Summer: No attachments. While you control Summer, Bran Stark has insight. When Summer enters play, return a Stark character with printed STR 2 or lower from your discard or dead pile to your hand.

    Reaction to its entering play by marshaling or by Ambush (The Wolfswood); targets: such
    characters of both piles (public); default: the highest printed STR, then the lowest id. The
    marshaling or the action window goes on once it is answered."""

    code = "01148"
    kinds = ("constant", "reaction")
    most = 2

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        placed = state.in_play.get(target)
        bran = placed is not None and placed.controller == owner and state.record(target).name == "Bran Stark"
        return ("insight",) if bran else ()

    def _ask(self, em: Emitter, source: str, owner: str, resume: str) -> None:
        s = em.state
        p = s.player(owner)
        options = sorted(
            c
            for c in p.discard + p.dead
            if s.record(c).type == "character" and s.record(c).faction == "stark" and s.record(c).str_ <= self.most
        )
        default = sorted(options, key=lambda c: (-s.record(c).str_, c))[:1]
        ask_one(em, self, source, owner, options, default, resume)

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        self._ask(em, source, owner, "marshal")

    def after_ambushed(self, em: Emitter, source: str, owner: str) -> None:
        self._ask(em, source, owner, "window")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        p = em.state.player(owner)
        pile = "dead" if chosen[0] in p.dead else "discard"
        em.emit(ev.CardsReturnedToHand(seat_id=owner, cards=chosen, from_pile=pile, card=source))


class Ice(Ability):
    """Ice: Stark character only. The attached character gets +2 STR. After you win a military challenge in which the attached character is participating, sacrifice Ice to kill a character the losing opponent controls.

    Reaction; the "may" is taken (the player's best choice, documented). Targets: the loser's
    characters; default: the highest printed STR, then the lowest id; a duplicate saves it
    (always). Asked right after the win (before claim); the claim follows the answer."""

    code = "01153"
    kinds = ("constant", "reaction")

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        return None if state.record(target).faction == "stark" else "Ice goes on a Stark character only"

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 2 if bearer(state, source) == target else 0

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        host = bearer(em.state, source)
        if winner != owner or challenge.type != "military" or host is None:
            return
        if host not in challenge.attackers and host not in challenge.defenders:
            return
        s = em.state
        options = sorted(p.card for p in s.characters(s.opponent(owner)))
        default = sorted(options, key=lambda c: (-s.record(c).str_, c))[:1]
        ask_one(em, self, source, owner, options, default, "challenge_won")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsDiscardedFromPlay(cards=[source], card=source))  # the sacrifice
        kill_one(em, chosen[0])


class SansaStark(Ability):
    """Sansa Stark: enters play kneeling. After she stands, your faction gains 1 power (once per round).

    She kneels as she enters play by setup, marshaling, Ambush or a card's effect
    (:func:`.triggers.entered`); she stands in the standing phase or by Robb Stark's ability (the
    only ways in the four legal decks; :func:`.triggers.stood`). Reaction; the "may" is always
    taken."""

    code = "01147"
    kinds = ("constant", "reaction")
    enters_play_kneeling = True

    def after_stood(self, em: Emitter, source: str, owner: str, cards: list[str]) -> None:
        key = f"round:{source}"
        if source in cards and key not in em.state.used_abilities:
            announce(em, self, source, owner, limit=key)
            em.emit(ev.CardsPowerGained(seat_id=owner, amount=1, reason="Sansa Stark"))


ABILITIES: tuple[Ability, ...] = (CatelynStark(), EddardStark(), RobbStark(), DirewolfPup(), VanguardOfTheNorth())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class WinterfellSteward(NextCheaper):
    """Winterfell Steward: Marshaling Action: kneel it: the next Stark character you marshal this phase costs 1 less."""

    code = "01152"
    faction = "stark"


class HeartTreeGrove(NextCheaper):
    """Heart Tree Grove: Marshaling Action: kneel it: the next Stark card you marshal this phase costs 1 less."""

    code = "01156"
    faction = "stark"
    card_type = None


class GreyWind(Ability):
    """Grey Wind: Challenges Action: kneel him to kill a character with STR 1 or less (2 or less if you control Robb Stark).

    Targets: every character in play with that STR, Grey Wind aside."""

    code = "01145"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if not standing(state, source):
            return None
        most = 2 if controls(state, owner, name="Robb Stark") else 1
        targets = [c for c in characters_in_play(state) if c != source and now.strength(state, c) <= most]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        kill(em, em.state.in_play[target].controller, [target])


class GatesOfWinterfell(Ability):
    """Gates of Winterfell: Challenges Action: kneel it to reveal the top card of your deck; if it is a Stark card, draw it."""

    code = "01154"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return [] if standing(state, source) and state.player(owner).deck else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        kneel(em, source, [source])
        announce(em, self, source, owner)
        top = em.state.player(owner).deck[0]
        em.emit(ev.CardsTopCardRevealed(seat_id=owner, card=top, code=em.state.cards[top], card_source=source))
        if em.state.record(top).faction == "stark":
            draw(em, owner, 1, "ability")


ABILITIES += (
    WinterfellSteward(),
    HeartTreeGrove(),
    GreyWind(),
    GatesOfWinterfell(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class ForTheNorth(Ability):
    """For the North!: Action (during a military challenge): a participating Stark character you control gets +2 STR until the end of the challenge; if you win it, draw a card."""

    code = "01157"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if ch is None or ch.type != "military" or ch.winner is not None:
            return None
        mine = [
            c
            for c in ch.attackers + ch.defenders
            if c in state.in_play and state.in_play[c].controller == owner and state.record(c).faction == "stark"
        ]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner)
        lasting(em, source, target, "challenge", strength=2)
        lasting(em, source, owner, "challenge", at_end="draw_if_won")


class WinterIsComing(Ability):
    """Winter Is Coming: Action (during a challenge you attack in): your plot claim is 1 higher for this challenge (max once per challenge)."""

    code = "01159"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if ch is None or ch.winner is not None or ch.attacker != owner:
            return None
        if any(state.cards.get(e.source) == self.code and e.target == owner for e in state.effects):
            return None
        return []

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        announce(em, self, source, owner)
        lasting(em, source, owner, "challenge", claim=1)


ABILITIES += (
    ForTheNorth(),
    WinterIsComing(),
)


# -- Reaction events (a reaction window: domain/cards/phases/flow.py) --------------------------


class LikeWarmRain(Ability):
    """Like Warm Rain: Reaction: after you lose an intrigue challenge as the defender, kneel a Direwolf character you control to kill an attacking character (max 1 per challenge).

    The kneel cost takes your first standing Direwolf (documented)."""

    code = "01158"
    kinds = ("reaction",)

    def _wolf(self, state: CardState, owner: str) -> str | None:
        wolves = [
            p.card for p in state.characters(owner) if not p.kneeling and "Direwolf" in state.record(p.card).traits
        ]
        return wolves[0] if wolves else None

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        if trigger != "challenge_won" or not lost_by(state, owner, "intrigue", "defender"):
            return None
        if f"challenge:{self.code}:{owner}" in state.used_abilities or self._wolf(state, owner) is None:
            return None
        ch = state.challenge
        assert ch is not None
        return [c for c in ch.attackers if c in state.in_play] or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        wolf = self._wolf(em.state, owner)
        assert wolf is not None
        kneel(em, source, [wolf])
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        kill(em, em.state.opponent(owner), [target])


ABILITIES += (LikeWarmRain(),)


class TheWolfswood(Ability):
    """The Wolfswood: Direwolf cards in your hand gain ambush, with a cost equal to their printed cost."""

    code = "01155"
    kinds = ("constant",)

    def ambush_cost(self, state: CardState, source: str, owner: str, card: str) -> int | None:
        rec = state.record(card)
        if "Direwolf" in rec.traits and card in state.player(owner).hand:
            return rec.printed_cost
        return None


ABILITIES += (TheWolfswood(), Summer(), Ice(), SansaStark())


# -- Cancels (the cancel step: domain/cards/phases/actions.py) --------------------------------


class BranStark(Ability):
    """Bran Stark: Interrupt: sacrifice him to cancel the effects of an event card an opponent plays."""

    code = "01142"
    kinds = ("interrupt",)

    def cancels(self, state: CardState, source: str, owner: str, event: str) -> bool:
        return source in state.in_play and state.owner(event) != owner and state.record(event).type == "event"

    def pay_cancel(self, em: Emitter, source: str, owner: str, event: str) -> None:
        announce(em, self, source, owner)
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))


class AryaStark(Ability):
    """Arya Stark: Stealth. While Arya Stark has a duplicate, she gains a military icon. Reaction: after Arya Stark enters play, place the top card of your deck facedown under her as a duplicate.

    The "may" is taken while the deck has a card. Entering play: marshaled, put into play or
    ambushed, not at setup (:func:`.triggers.entered`). The facedown card is hidden from the
    opponent (``cards_facedown_duplicate``, :mod:`..redaction`) until it leaves play; it saves her
    as any duplicate does (CG-UNIQUE-03)."""

    code = "01141"
    kinds = ("constant", "reaction")

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("military",) if target == source and state.in_play[source].duplicates else ()

    def when_enters_play(self, em: Emitter, source: str, owner: str) -> None:
        deck = em.state.player(owner).deck
        if deck and em.state.owner(source) == owner:
            announce(em, self, source, owner)
            em.emit(ev.CardsFacedownDuplicate(seat_id=owner, card=source, duplicate=deck[0], by=source))


ABILITIES += (BranStark(), AryaStark())
