"""Targaryen cards' abilities (the targaryen_sun deck's Targaryen half)."""

from __future__ import annotations

from .. import events as ev
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..phases.draw import shuffle
from ..state import AbilityChoice, CardState, Challenge
from .base import (
    Ability,
    NextCheaper,
    Query,
    announce,
    ask,
    ask_one,
    bearer,
    choose,
    kill,
    kneel,
    lasting,
    limit_free,
    participates,
    prompt,
    stand,
)


class PlazaOfPunishment(Ability):
    """Plaza of Punishment: after you win a power challenge, kneel it to choose a character with no attachments: it gets -2 STR until the end of the phase; then, if its STR is 0, it is killed.

    Reaction; the cost is kneeling it (so it must stand), the "may" taken when a character has no
    attachment. Targets: characters in play without attachments; default: the opponent's with the
    lowest printed STR, then the lowest id. The -2 is the limit key ``phase:<Plaza>/<character>``;
    the 0 STR check reads the current STR (:func:`.triggers.resolve_choice`), a duplicate saves."""

    code = "01173"
    kinds = ("reaction",)
    kills_at_zero_strength = True

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        s = em.state
        if winner != owner or challenge.type != "power" or s.in_play[source].kneeling:
            return
        bearers = {p.attached_to for p in s.in_play.values() if p.attached_to is not None}
        options = sorted(
            p.card for p in s.in_play.values() if s.record(p.card).type == "character" and p.card not in bearers
        )
        theirs = sorted((c for c in options if s.in_play[c].controller != owner), key=lambda c: (s.record(c).str_, c))
        ask_one(em, self, source, owner, options, (theirs or options)[:1], "challenge_won")

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return f"phase:{source}/{chosen[0]}"

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsKneelingChanged(cards=[source], kneeling=True, card=source))  # the cost

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return -2 if f"phase:{source}/{target}" in state.used_abilities else 0


class SerJorahMormont(Ability):
    """Ser Jorah Mormont: Renown. Forced: after you win a challenge in which he is participating, he gets a betrayal token; with 3 or more, he is sacrificed.

    The tokens are public (``cards_tokens_placed``; the view shows them); the sacrifice discards
    him from play at once (his power goes back to the treasury)."""

    code = "01165"
    kinds = ("constant", "forced")
    most = 3

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner != owner or not participates(em.state, source):
            return
        announce(em, self, source, owner)
        em.emit(ev.CardsTokensPlaced(card=source, token="betrayal", amount=1, by=source))
        if em.state.in_play[source].tokens.get("betrayal", 0) >= self.most:
            em.emit(ev.CardsDiscardedFromPlay(cards=[source], card=source))  # sacrificed


def _stormborn_of(state: CardState, owner: str, target: str) -> bool:
    placed = state.in_play.get(target)
    return placed is not None and placed.controller == owner and "Stormborn" in state.record(target).traits


class DaenerysTargaryen(Ability):
    """Daenerys Targaryen: while she is standing, opponents' characters in challenges against you get -1 STR."""

    code = "01160"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        ch = state.challenge
        if ch is None or state.in_play[source].kneeling or ch.defender != owner:
            return 0
        placed = state.in_play.get(target)
        return -1 if placed is not None and placed.controller != owner and participates(state, target) else 0


class Drogon(Ability):
    """Drogon: your Stormborn characters gain renown."""

    code = "01161"
    kinds = ("constant",)

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("renown",) if _stormborn_of(state, owner, target) else ()


class KhalDrogo(Ability):
    """Khal Drogo: you may make one extra military challenge in the challenges phase."""

    code = "01162"
    kinds = ("constant",)

    def extra_challenges(self, state: CardState, source: str, owner: str, seat: str) -> tuple[str, ...]:
        return ("military",) if seat == owner else ()


class Viserion(Ability):
    """Viserion: your Stormborn characters gain stealth."""

    code = "01166"
    kinds = ("constant",)

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return ("stealth",) if _stormborn_of(state, owner, target) else ()


class Unsullied(Ability):
    """Unsullied: while it attacks, each defending character gets -1 STR."""

    code = "01171"
    kinds = ("constant",)

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        ch = state.challenge
        return -1 if ch is not None and source in ch.attackers and target in ch.defenders else 0


class DrogosArakh(Ability):
    """Drogo's Arakh: Dothraki only. The bearer gets +2 STR; Khal Drogo bearing it does not kneel to attack in your first military challenge each round."""

    code = "01172"
    kinds = ("constant",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        return None if "Dothraki" in state.record(target).traits else "Drogo's Arakh goes on a Dothraki character only"

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        return 2 if bearer(state, source) == target else 0

    def kneels_to_attack(self, state: CardState, source: str, owner: str, attacker: str, challenge: str) -> bool:
        first = challenge == "military" and "military" not in state.player(owner).challenges_made
        return not (first and state.record(attacker).name == "Khal Drogo" and bearer(state, source) == attacker)


class Rhaegal(Ability):
    """Rhaegal: after winning a challenge with a participating Stormborn of yours, stand a Stormborn character (once per phase).

    The Stormborn stood is your first kneeling one (in the legal decks Daenerys is the only
    Stormborn, so the choice is forced; documented)."""

    code = "01164"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        key = f"phase:{source}"
        s = em.state
        if winner != owner or key in s.used_abilities:
            return
        side = challenge.attackers if challenge.attacker == owner else challenge.defenders
        if not any(c in s.in_play and _stormborn_of(s, owner, c) for c in side):
            return
        kneeling = [p.card for p in s.characters(owner) if p.kneeling and _stormborn_of(s, owner, p.card)]
        if kneeling:
            announce(em, self, source, owner, limit=key)
            stand(em, source, kneeling[:1])


class ViserysTargaryen(Ability):
    """Viserys Targaryen: Interrupt: when he leaves play, discard an attachment of your choice.

    Resolves once he is out of play (as Ser Waymar Royce's "when killed", documented): his own
    attachments have gone back to their owners' hands by then. Targets: every attachment in play;
    default: an opponent's with the highest printed cost, then the lowest id (else your own first
    one). Asked after a military claim's kills; when he leaves play inside another ability, the
    default at once (:func:`.base.choose`)."""

    code = "01167"
    kinds = ("interrupt",)

    def when_leaves_play(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        s = em.state
        options = sorted(p.card for p in s.in_play.values() if s.record(p.card).type == "attachment")
        theirs = sorted(
            (c for c in options if s.in_play[c].controller != owner), key=lambda c: (-s.record(c).printed_cost, c)
        )
        choose(em, self, source, owner, options, (theirs or options)[:1], resume)

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        if chosen[0] in em.state.in_play:
            em.emit(ev.CardsDiscardedFromPlay(cards=chosen, card=source))


class DothrakiSea(Ability):
    """Dothraki Sea: Reaction: after you win a power challenge, sacrifice it to put a Dothraki character from your hand into play; as the phase ends, return it to your hand if it is still in play.

    The "may" is taken when a Dothraki character of your hand may enter play (CG-UNIQUE-01/02).
    Its options are your hand, so only you see them (``hidden``); default: the highest printed
    cost, then the lowest id. The claim goes on once it is answered."""

    code = "01174"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        s = em.state
        if winner != owner or challenge.type != "power":
            return
        options = sorted(
            c
            for c in s.player(owner).hand
            if s.record(c).type == "character"
            and "Dothraki" in s.record(c).traits
            and placement(s, owner, c) is not None
        )
        default = sorted(options, key=lambda c: (-s.record(c).printed_cost, c))[:1]
        choice = AbilityChoice(
            seat=owner,
            card=source,
            options=options,
            count=1,
            prompt=prompt(self),
            default=default,
            hidden=True,
            resume="challenge_won",
        )
        ask(em, choice)

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))
        placed = placement(em.state, owner, chosen[0])
        if placed is None or not put_into_play(em, owner, chosen[0], "hand", source):
            return
        if placed.as_ != "duplicate":
            lasting(em, source, chosen[0], "phase", at_end="return_to_hand")


ABILITIES: tuple[Ability, ...] = (
    DothrakiSea(),
    ViserysTargaryen(),
    PlazaOfPunishment(),
    SerJorahMormont(),
    Rhaegal(),
    DaenerysTargaryen(),
    Drogon(),
    KhalDrogo(),
    Viserion(),
    Unsullied(),
    DrogosArakh(),
)


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class TargaryenLoyalist(NextCheaper):
    """Targaryen Loyalist: Marshaling Action: kneel it: the next Targaryen character you marshal this phase costs 1 less."""

    code = "01170"
    faction = "targaryen"


class IllyriosEstate(NextCheaper):
    """Illyrio's Estate: Marshaling Action: kneel it: the next Targaryen card you marshal this phase costs 1 less."""

    code = "01175"
    faction = "targaryen"
    card_type = None


class MagisterIllyrio(Ability):
    """Magister Illyrio: Action: pay 2 gold to stand a character of your choice (once per phase).

    Targets: every kneeling character in play."""

    code = "01163"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).gold < 2 or limit_free(state, f"phase:{source}", 1) is None:
            return None
        kneeling = [p.card for p in state.in_play.values() if p.kneeling and state.record(p.card).type == "character"]
        return kneeling or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsGoldGained(seat_id=owner, gold=-2, card=source))
        announce(em, self, source, owner, limit=f"phase:{source}")
        stand(em, source, [target])


class Handmaiden(Ability):
    """Handmaiden: Action: sacrifice her to stand a Lady character.

    Targets: every kneeling Lady character in play."""

    code = "01169"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ladies = [
            p.card
            for p in state.in_play.values()
            if p.kneeling and state.record(p.card).type == "character" and "Lady" in state.record(p.card).traits
        ]
        return ladies or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))
        announce(em, self, source, owner)
        stand(em, source, [target])


ABILITIES += (
    TargaryenLoyalist(),
    IllyriosEstate(),
    MagisterIllyrio(),
    Handmaiden(),
)


# -- Events (played from hand: domain/cards/phases/actions.py) ---------------------------------


class WakingTheDragon(Ability):
    """Waking the Dragon: Action: stand a unique Targaryen character you control; as the phase ends, return it to your hand if it is still in play.

    Targets: your kneeling unique Targaryen characters."""

    code = "01178"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        mine = [
            p.card
            for p in state.characters(owner)
            if p.kneeling and state.record(p.card).unique and state.record(p.card).faction == "targaryen"
        ]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner)
        stand(em, source, [target])
        lasting(em, source, target, "phase", at_end="return_to_hand")


class Dracarys(Ability):
    """Dracarys!: Action: kneel a Dragon character or Daenerys Targaryen you control: a participating character gets -4 STR until the end of the phase and is killed if its STR is 0.

    The cost kneels your first standing Dragon (else Daenerys) to enter play (documented); the
    STR is checked as the event resolves."""

    code = "01176"
    kinds = ("action",)

    def _kneeler(self, state: CardState, owner: str) -> str | None:
        standing_ = [p.card for p in state.characters(owner) if not p.kneeling]
        dragons = [c for c in standing_ if "Dragon" in state.record(c).traits]
        dany = [c for c in standing_ if state.record(c).name == "Daenerys Targaryen"]
        return (dragons + dany)[0] if dragons + dany else None

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        ch = state.challenge
        if ch is None or ch.winner is not None or self._kneeler(state, owner) is None:
            return None
        return [c for c in ch.attackers + ch.defenders if c in state.in_play] or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        kneeler = self._kneeler(em.state, owner)
        assert kneeler is not None
        kneel(em, source, [kneeler])
        announce(em, self, source, owner)
        lasting(em, source, target, "phase", strength=-4)
        if now.strength(em.state, target) == 0:
            kill(em, em.state.in_play[target].controller, [target])


class FireAndBlood(Ability):
    """Fire and Blood: Challenges Action: shuffle a unique Targaryen character from your dead pile into your deck; if it is a Hatchling, put it into play instead.

    Targets: the unique Targaryen characters of your dead pile (public)."""

    code = "01177"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        dead = [
            c
            for c in state.player(owner).dead
            if state.record(c).type == "character" and state.record(c).unique and state.record(c).faction == "targaryen"
        ]
        return dead or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner)
        if "Hatchling" in em.state.record(target).traits and put_into_play(em, owner, target, "dead", source):
            return
        em.emit(ev.CardsReturnedToDeck(seat_id=owner, cards=[target], card=source, from_pile="dead"))
        shuffle(em, owner)


ABILITIES += (
    WakingTheDragon(),
    Dracarys(),
    FireAndBlood(),
)
