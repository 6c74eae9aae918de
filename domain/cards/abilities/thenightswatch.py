"""Night's Watch cards' abilities (the watch_stag deck's Night's Watch half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..phases.draw import draw, shuffle
from ..state import AbilityChoice, CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    PrintedOnly,
    Query,
    SaveChoice,
    announce,
    ask,
    ask_one,
    bearer,
    kneel,
    lasting,
    limit_free,
    opponents_characters,
    prompt,
    stand,
    standing,
    won_by,
)


class SamwellTarly(PrintedOnly):
    """Samwell Tarly: Insight; adds 1 to your reserve (a keyword and a printed modifier)."""

    code = "01127"


class Longclaw(Ability):
    """Longclaw: Night's Watch only. The bearer gets +1 STR and renown."""

    code = "01135"
    kinds = ("constant",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        if state.record(target).faction == "thenightswatch":
            return None
        return "Longclaw goes on a Night's Watch character only"

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 1 if bearer(state, source) == target else 0

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("renown",) if bearer(state, source) == target else ()


class SerWaymarRoyce(Ability):
    """Ser Waymar Royce: when he is killed, each opponent discards 1 random card from hand.

    The card is drawn from the seed (``waymar/<round>/<card>``; in a melee, each opponent in player
    order from the owner's left, ``waymar/<round>/<card>/<seat>``) and named in the event."""

    code = "01128"
    kinds = ("interrupt",)

    def when_killed(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        announce(em, self, source, owner)
        for opponent in em.state.opponents(owner):
            hand = em.state.player(opponent).hand
            if hand:
                purpose = f"waymar/{em.state.round}/{source}" + (f"/{opponent}" if em.state.melee else "")
                card = hand[em.ctx.rng(purpose).below(len(hand))]
                em.emit(ev.CardsDiscardedFromHand(seat_id=opponent, cards=[card], reason="Ser Waymar Royce"))


ABILITIES: tuple[Ability, ...] = (SamwellTarly(), Longclaw(), SerWaymarRoyce())


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class StewardAtTheWall(NextCheaper):
    """Steward at the Wall: Marshaling Action: kneel it: the next Night's Watch character you marshal this phase costs 1 less."""

    code = "01133"
    faction = "thenightswatch"


class MessengerRaven(Ability):
    """Messenger Raven: Dominance Action: return it to your hand to draw a card."""

    code = "01130"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return []

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        em.emit(ev.CardsReturnedFromPlay(cards=[source], card=source))
        announce(em, self, source, owner)
        draw(em, owner, 1, "ability")


class OldForestHunter(Ability):
    """Old Forest Hunter: Action: discard a card from your hand to gain 1 gold (once per phase).

    Targets: the cards of your hand (seen by you only; the discarded card is public)."""

    code = "01131"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if limit_free(state, f"phase:{source}", 1) is None:
            return None
        return list(state.player(owner).hand) or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsDiscardedFromHand(seat_id=owner, cards=[target], reason="Old Forest Hunter"))
        announce(em, self, source, owner, limit=f"phase:{source}")
        em.emit(ev.CardsGoldGained(seat_id=owner, gold=1, card=source))


class VeteranBuilder(Ability):
    """Veteran Builder: Action: sacrifice it to stand a location.

    Targets: every kneeling location in play."""

    code = "01134"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        knelt = [p.card for p in state.in_play.values() if p.kneeling and state.record(p.card).type == "location"]
        return knelt or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))
        announce(em, self, source, owner)
        stand(em, source, [target])


class CastleBlack(Ability):
    """Castle Black: Action: kneel it to stand a defending Night's Watch character, which gets +2 STR until the end of the challenge."""

    code = "01136"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if not standing(state, source) or ch is None or ch.defender != owner or ch.winner is not None:
            return None
        mine = [c for c in ch.defenders if c in state.in_play and state.record(c).faction == "thenightswatch"]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        stand(em, source, [target])
        lasting(em, source, target, "challenge", strength=2)


ABILITIES += (
    StewardAtTheWall(),
    MessengerRaven(),
    OldForestHunter(),
    VeteranBuilder(),
    CastleBlack(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class TakeTheBlack(Ability):
    """Take the Black: Dominance Action: take control of a non-unique character with printed cost 6 or less (once per round).

    Targets: the opponent's non-unique characters with that printed cost."""

    code = "01139"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if f"round:{self.code}:{owner}" in state.used_abilities:
            return None
        targets = [
            c
            for c in opponents_characters(state, owner)
            if not state.record(c).unique and state.record(c).printed_cost <= 6
        ]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"round:{self.code}:{owner}")
        em.emit(ev.CardsControlTaken(seat_id=owner, target=target, card=source))


ABILITIES += (TakeTheBlack(),)


# -- Reaction events (a reaction window: domain/cards/phases/flow.py) --------------------------


class TheSwordInTheDarkness(Ability):
    """The Sword in the Darkness: Reaction: after you win a challenge as the defender by 5 or more STR with a participating Night's Watch character, the losing opponent may not initiate challenges against you this round."""

    code = "01140"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if trigger != "challenge_won" or ch is None or not won_by(state, owner, None, "defender", 5):
            return None
        watch = [c for c in ch.defenders if c in state.in_play and state.record(c).faction == "thenightswatch"]
        return [] if watch else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        """A joust forbids the loser every challenge (it has no other opponent); a melee only those
        against the owner (``against:<owner>``, read by :func:`..phases.challenges.opponents_for`)."""
        announce(em, self, source, owner)
        forbids = f"against:{owner}" if em.state.melee else "any"
        lasting(em, source, em.state.opponent(owner), "round", forbids=forbids)


class AMeagerContribution(Ability):
    """A Meager Contribution: Reaction: after an opponent collects income, take 1 gold from that opponent's gold pool and add it to yours (limit once per round).

    The reaction window opens right after the opponent's income (``income``,
    :func:`..phases.flow.next_marshal`); the limit is per player (``round:01138:<seat>``), and it
    is offered only while the opponent has gold (else it would change nothing)."""

    code = "01138"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        them = state.active
        if trigger != "income" or them is None or them == owner or f"round:{self.code}:{owner}" in state.used_abilities:
            return None
        return [] if state.player(them).gold > 0 else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        them = em.state.active
        assert them is not None
        announce(em, self, source, owner, limit=f"round:{self.code}:{owner}")
        if em.state.player(them).gold > 0:
            em.emit(ev.CardsGoldGained(seat_id=them, gold=-1, card=source))
            em.emit(ev.CardsGoldGained(seat_id=owner, gold=1, card=source))


ABILITIES += (TheSwordInTheDarkness(), AMeagerContribution())


# -- Interrupts (saves and replacements: domain/cards/phases/flow.py claim_kill) -----------------


class MaesterAemon(SaveChoice):
    """Maester Aemon: Interrupt: kneel him to save a Night's Watch character from being killed.

    Against a military claim's kill: the claim's save step (default: decline). Against an
    ability's kill: its controller's choice where the game can wait (:func:`.base.kill`, default
    ``none``), else used at once (a kill as a phase ends: Tears of Lys)."""

    code = "01125"
    kinds = ("interrupt",)

    def save_targets(self, state: CardState, source: str, owner: str, victims: list[str]) -> list[str] | None:
        if not standing(state, source):
            return None
        return [v for v in victims if state.record(v).faction == "thenightswatch"] or None

    def save(self, em: Emitter, source: str, owner: str, target: str) -> None:
        kneel(em, source, [source])
        announce(em, self, source, owner)


ABILITIES += (MaesterAemon(),)


def _nights_watch(state: CardState, card: str) -> bool:
    return state.record(card).faction == "thenightswatch" and state.record(card).type == "character"


class JonSnow(Ability):
    """Jon Snow: while standing, he counts as participating (attacking) whenever another Night's Watch character of yours is attacking.

    He is not declared and does not kneel; his STR and keywords count for the attacking side
    (:func:`...current.attackers`). "No attachments except Weapon" is a keyword (CG-KEY-09)."""

    code = "01124"
    kinds = ("constant",)

    def counts_as_attacking(self, state: CardState, source: str, owner: str, challenge: Challenge) -> bool:
        if challenge.attacker != owner or state.in_play[source].kneeling:
            return False
        return any(
            a != source and a in state.in_play and _nights_watch(state, a) and state.in_play[a].controller == owner
            for a in challenge.attackers
        )


class BenjenStark(Ability):
    """Benjen Stark: your Rangers cannot be bypassed by stealth; when he is killed, gain 2 faction power and shuffle him into your deck instead of the dead pile.

    The "when killed" part resolves once he is in the dead pile, as Ser Waymar Royce's (documented):
    he leaves it for the deck (``cards_returned_to_deck`` with ``pile`` dead), which is shuffled
    from the seed."""

    code = "01122"
    kinds = ("constant", "interrupt")

    def protects_from_stealth(self, state: CardState, source: str, owner: str, target: str) -> bool:
        placed = state.in_play.get(target)
        return placed is not None and placed.controller == owner and "Ranger" in state.record(target).traits

    def when_killed(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        announce(em, self, source, owner)
        em.emit(ev.CardsPowerGained(seat_id=owner, amount=2, reason="Benjen Stark"))
        deck_owner = em.state.owner(source)
        if source in em.state.player(deck_owner).dead:
            em.emit(ev.CardsReturnedToDeck(seat_id=deck_owner, cards=[source], card=source, from_pile="dead"))
            shuffle(em, deck_owner)


class TheWall(Ability):
    """The Wall: your Night's Watch characters get +1 STR; forced: after you lose an unopposed challenge, kneel it; as the challenges phase ends, kneel it to gain 2 faction power.

    The last part (an interrupt with a kneel cost) is always taken while The Wall stands (the
    player's best choice, documented)."""

    code = "01137"
    kinds = ("constant", "forced", "interrupt")

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        placed = state.in_play.get(target)
        return 1 if placed is not None and placed.controller == owner and _nights_watch(state, target) else 0

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if challenge.defender == owner and winner != owner and challenge.unopposed:
            if not em.state.in_play[source].kneeling:
                announce(em, self, source, owner)
                em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=True, card=source))

    def phase_ends(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        if phase == "challenges" and not em.state.in_play[source].kneeling:
            announce(em, self, source, owner)
            em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=True, card=source))
            em.emit(ev.CardsPowerGained(seat_id=owner, amount=2, reason="The Wall"))


class OldBearMormont(Ability):
    """Old Bear Mormont: while you control The Wall, he does not kneel when declared as a defender. As the challenges phase ends, if you lost no challenge as the defender this phase, you may put a Night's Watch card from your hand into play.

    The "may" is taken when a Night's Watch character or location of your hand may enter play
    (an attachment would need a target: not offered, documented). Its options are your hand, so
    only you see them (``hidden``); default: the highest printed cost, then the lowest id. Once a
    round (``round:<Old Bear>``); the dominance phase begins once it is answered."""

    code = "01126"
    kinds = ("constant", "reaction")

    def kneels_to_defend(self, state: CardState, source: str, owner: str, defender: str) -> bool:
        return not any(state.record(p.card).name == "The Wall" for p in state.controlled(owner, "location"))

    def phase_ends(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        s = em.state
        if phase != "challenges" or s.player(owner).lost_defending or f"round:{source}" in s.used_abilities:
            return
        options = sorted(
            c
            for c in s.player(owner).hand
            if s.record(c).faction == "thenightswatch" and placement(s, owner, c) is not None
        )
        default = sorted(options, key=lambda c: (-s.record(c).printed_cost, c))[:1]
        ask(
            em,
            AbilityChoice(
                seat=owner,
                card=source,
                options=options,
                count=1,
                prompt=prompt(self),
                default=default,
                hidden=True,
                resume="challenges_end",
            ),
        )

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        entered = put_into_play(em, owner, chosen[0], "hand", source)
        assert entered


class Ghost(Ability):
    """Ghost: Stealth; a character he bypasses with stealth cannot defend for the rest of the phase.

    The bypassed character is remembered by a limit key ``phase:<Ghost>/<character>`` (cleared as
    the phase ends)."""

    code = "01123"
    kinds = ("constant",)

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        target = challenge.stealth.get(source)
        if target is not None:
            announce(em, self, source, owner, limit=f"phase:{source}/{target}")

    def forbids_defending(self, state: CardState, source: str, owner: str, target: str) -> bool:
        return f"phase:{source}/{target}" in state.used_abilities


class Yoren(Ability):
    """Yoren: when you marshal him, put a character with printed cost 3 or lower from an opponent's discard pile into play under your control.

    Reaction; targets: such characters of the opponent's discard pile (public) that may enter
    play under your control (CG-UNIQUE-01/02); default: the highest printed cost, then the lowest
    id. The game goes on with your marshaling once it is answered."""

    code = "01129"
    kinds = ("reaction",)
    most = 3

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        s = em.state
        options = sorted(
            c
            for them in s.opponents(owner)
            for c in s.player(them).discard
            if s.record(c).type == "character"
            and s.record(c).printed_cost <= self.most
            and placement(s, owner, c) is not None
        )
        default = sorted(options, key=lambda c: (-s.record(c).printed_cost, c))[:1]
        ask_one(em, self, source, owner, options, default, "marshal")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        entered = put_into_play(em, owner, chosen[0], "discard", source)
        assert entered


ABILITIES += (
    Yoren(),
    JonSnow(),
    BenjenStark(),
    TheWall(),
    Ghost(),
    OldBearMormont(),
)
