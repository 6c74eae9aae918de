"""The neutral cards' abilities: the Core Set plots (every legal deck plays 7 of them each round).

Each class is one card; its docstring's first line quotes the card's text (the log's line).
"""

from __future__ import annotations

from .. import events as ev
from ..catalog import CHALLENGE_TYPES, CardRecord
from ..emitter import Emitter
from ..entering import placement, put_into_play
from ..phases.draw import draw, shuffle
from ..state import AbilityChoice, CardState, Challenge
from .base import (
    Ability,
    PrintedOnly,
    Query,
    SaveChoice,
    announce,
    ask,
    bearer,
    discard_from_play,
    kill,
    kneel,
    lasting,
    participates,
    pick_opponent,
    stand,
    standing,
    won_by,
)


def _prompt(ability: Ability) -> str:
    return (ability.__doc__ or "").strip().splitlines()[0]


class AClashOfKings(Ability):
    """A Clash of Kings: after you win a power challenge, take 1 power from the losing opponent's faction card.

    Reaction; the "may" is always taken (the player's best choice, as the keywords' are)."""

    code = "01001"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        loser = em.state.opponent(owner)
        if winner == owner and challenge.type == "power" and em.state.player(loser).faction_power > 0:
            announce(em, self, source, owner)
            em.emit(ev.CardsPowerMoved(from_seat=loser, to_seat=owner, amount=1))


class AFeastForCrows(Ability):
    """A Feast for Crows: when you win dominance, your faction gains 2 power."""

    code = "01002"
    kinds = ("reaction",)

    def after_dominance(self, em: Emitter, source: str, owner: str, winner: str) -> None:
        if winner == owner:
            announce(em, self, source, owner)
            em.emit(ev.CardsPowerGained(seat_id=owner, amount=2, reason="A Feast for Crows"))


class AGameOfThrones(Ability):
    """A Game of Thrones: no player may start a military or power challenge before winning an intrigue challenge in that phase."""

    code = "01003"
    kinds = ("constant",)

    def may_start(self, state: CardState, source: str, owner: str, seat: str, challenge: str) -> str | None:
        if challenge in ("military", "power") and "intrigue" not in state.player(seat).challenges_won:
            return f"A Game of Thrones: win an intrigue challenge this phase before a {challenge} challenge"
        return None


class ANobleCause(Ability):
    """A Noble Cause: this round, your first marshaled Lord or Lady character costs 2 gold less."""

    code = "01004"
    kinds = ("constant",)

    def _applies(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> bool:
        return (
            seat == owner
            and state.phase == "marshaling"
            and rec.type == "character"
            and bool({"Lord", "Lady"} & set(rec.traits))
            and f"round:{source}" not in state.used_abilities
        )

    def cost_reduction(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> int:
        return 2 if self._applies(state, source, owner, seat, rec) else 0

    def on_marshaled(self, em: Emitter, source: str, owner: str, seat: str, rec: CardRecord) -> None:
        if self._applies(em.state, source, owner, seat, rec):
            announce(em, self, source, owner, limit=f"round:{source}")


class AStormOfSwords(Ability):
    """A Storm of Swords: you may make one extra military challenge this challenges phase."""

    code = "01005"
    kinds = ("constant",)

    def extra_challenges(self, state: CardState, source: str, owner: str, seat: str) -> tuple[str, ...]:
        return ("military",) if seat == owner else ()


class CallingTheBanners(Ability):
    """Calling the Banners: when revealed, gain 1 gold for each character your opponent controls."""

    code = "01007"
    kinds = ("when_revealed",)

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        """A melee: the opponent with the most characters (:func:`.base.pick_opponent`)."""
        them = pick_opponent(em.state, owner, lambda seat: len(em.state.characters(seat)))
        n = len(em.state.characters(them))
        if n:
            em.emit(ev.CardsGoldGained(seat_id=owner, gold=n, card=source))


class CountingCoppers(Ability):
    """Counting Coppers: when revealed, draw 3 cards."""

    code = "01010"
    kinds = ("when_revealed",)

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        draw(em, owner, 3, "ability")


class Confiscation(Ability):
    """Confiscation: when revealed, pick any attachment in play and discard it.

    Targets: every attachment in play; default: the opponent's attachment with the highest printed
    cost (then the lowest id), else the first option."""

    code = "01009"
    kinds = ("when_revealed",)

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        options = sorted(p.card for p in state.in_play.values() if state.record(p.card).type == "attachment")
        if not options:
            return None
        theirs = [c for c in options if state.in_play[c].controller != owner]
        best = sorted(theirs, key=lambda c: (-state.record(c).printed_cost, c)) or options
        return AbilityChoice(seat=owner, card=source, options=options, count=1, prompt=_prompt(self), default=best[:1])

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsDiscardedFromPlay(cards=chosen, card=source))


class FilthyAccusations(Ability):
    """Filthy Accusations: when revealed, pick any character and kneel it.

    Targets: every standing character in play; default: the opponent's standing character with the
    highest printed STR (then the lowest id), else the first option."""

    code = "01011"
    kinds = ("when_revealed",)

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        options = sorted(
            p.card for p in state.in_play.values() if state.record(p.card).type == "character" and not p.kneeling
        )
        if not options:
            return None
        theirs = [c for c in options if state.in_play[c].controller != owner]
        best = sorted(theirs, key=lambda c: (-state.record(c).str_, c)) or options
        return AbilityChoice(seat=owner, card=source, options=options, count=1, prompt=_prompt(self), default=best[:1])

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsKneelingChanged(cards=chosen, kneeling=True, card=source))


class FortifiedPosition(Ability):
    """Fortified Position: every character's printed text box counts as blank (traits still apply)."""

    code = "01012"
    kinds = ("constant",)

    def blanks_character_text(self) -> bool:
        return True


class HeadsOnSpikes(Ability):
    """Heads on Spikes: when revealed, discard a random card from your opponent's hand; a character goes to the dead pile and you gain 2 power.

    The card is drawn from the seed (``heads_on_spikes/<round>/<seat>``) and named in the event."""

    code = "01013"
    kinds = ("when_revealed",)

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        """A melee: the opponent with the most cards in hand (:func:`.base.pick_opponent`)."""
        opponent = pick_opponent(em.state, owner, lambda seat: len(em.state.player(seat).hand))
        hand = em.state.player(opponent).hand
        if not hand:
            return
        card = hand[em.ctx.rng(f"heads_on_spikes/{em.state.round}/{owner}").below(len(hand))]
        character = em.state.record(card).type == "character"
        em.emit(
            ev.CardsDiscardedFromHand(
                seat_id=opponent, cards=[card], reason="Heads on Spikes", pile="dead" if character else "discard"
            )
        )
        if character:
            em.emit(ev.CardsPowerGained(seat_id=owner, amount=2, reason="Heads on Spikes"))


class MarchingOrders(Ability):
    """Marching Orders: you may not marshal locations or attachments, nor play events."""

    code = "01016"
    kinds = ("constant",)

    def may_marshal(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> str | None:
        if seat == owner and rec.type in ("location", "attachment", "event"):
            return f"Marching Orders: you may not marshal or play a {rec.type}"
        return None


class NavalSuperiority(Ability):
    """Naval Superiority: the base gold of every revealed Kingdom or Edict plot counts as 0."""

    code = "01017"
    kinds = ("constant",)

    def base_gold_zero(self, state: CardState, source: str, owner: str, plot: CardRecord) -> bool:
        return bool({"Kingdom", "Edict"} & set(plot.traits))


class Rebuilding(Ability):
    """Rebuilding: when revealed, shuffle up to 3 cards from your discard pile back into your deck.

    Targets: your discard pile (public); you choose 3 of them (all when fewer: a documented
    simplification of "up to"); default: the 3 last discarded. Then the deck is shuffled from the
    seed (``shuffle/<seat>/<n>``)."""

    code = "01019"
    kinds = ("when_revealed",)

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        pile = list(state.player(owner).discard)
        if not pile:
            return None
        return AbilityChoice(seat=owner, card=source, options=pile, count=3, prompt=_prompt(self), default=pile[-3:])

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsReturnedToDeck(seat_id=owner, cards=chosen, card=source))
        shuffle(em, owner)


class SneakAttack(Ability):
    """Sneak Attack: you may initiate at most one challenge this challenges phase."""

    code = "01021"
    kinds = ("constant",)

    def challenge_limit(self, state: CardState, source: str, owner: str, seat: str) -> int | None:
        return 1 if seat == owner else None


class SupportingTheFaith(Ability):
    """Supporting the Faith: forced, as the challenges phase begins every player returns all unspent gold."""

    code = "01023"
    kinds = ("forced",)

    def phase_begins(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        if phase == "challenges":
            announce(em, self, source, owner)
            em.emit(ev.CardsGoldReturned(gold={s: em.state.player(s).gold for s in em.state.player_order()}))


class Taxation(Ability):
    """Taxation: this round you may marshal one more Limited card than normal."""

    code = "01024"
    kinds = ("constant",)

    def limited_allowance(self, state: CardState, source: str, owner: str, seat: str) -> int:
        return 1 if seat == owner else 0


class _GrantsIcon(Ability):
    """An attachment whose bearer gains an icon."""

    kinds = ("constant",)
    icon = ""

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        return (self.icon,) if bearer(state, source) == target else ()


class LittleBird(_GrantsIcon):
    """Little Bird: the attached character gains an intrigue icon."""

    code = "01034"
    icon = "intrigue"


class NobleLineage(_GrantsIcon):
    """Noble Lineage: the attached character gains a power icon."""

    code = "01036"
    icon = "power"


class SyriosTraining(_GrantsIcon):
    """Syrio's Training: the attached character gains a military icon."""

    code = "01037"
    icon = "military"


class MilkOfThePoppy(Ability):
    """Milk of the Poppy: Terminal. The attached character's printed text box counts as blank (traits remain)."""

    code = "01035"
    kinds = ("constant",)

    def blanks_text_of(self, state: CardState, source: str, owner: str, target: str) -> bool:
        return bearer(state, source) == target


class TheIronThrone(Ability):
    """The Iron Throne: counts 8 STR toward your dominance total (its +1 reserve is a printed modifier)."""

    code = "01038"
    kinds = ("constant",)

    def dominance_bonus(self, state: CardState, source: str, owner: str, seat: str) -> int:
        return 8 if seat == owner else 0


class TheRoseroad(PrintedOnly):
    """The Roseroad: Limited; adds 1 to your income (printed, CG-GEN-08)."""

    code = "01040"


class RattleshirtsRaiders(Ability):
    """Rattleshirt's Raiders: after you win a challenge in which it is attacking, discard one of the losing opponent's attachments.

    Reaction; targets: the attachments the loser controls; default: the highest printed cost, then
    the lowest id. Asked right after the win (before claim); the claim follows the answer."""

    code = "01030"
    kinds = ("reaction",)

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        if winner != owner or challenge.attacker != owner or source not in challenge.attackers:
            return
        s = em.state
        options = sorted(p.card for p in s.controlled(challenge.defender, "attachment"))
        default = sorted(options, key=lambda c: (-s.record(c).printed_cost, c))[:1]
        ask(
            em,
            AbilityChoice(
                seat=owner,
                card=source,
                options=options,
                count=1,
                prompt=_prompt(self),
                default=default,
                resume="challenge_won",
            ),
        )

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsDiscardedFromPlay(cards=chosen, card=source))


class Littlefinger(Ability):
    """Littlefinger: after you marshal him, draw 2 cards (he adds 1 to your income, a printed modifier).

    Reaction; the "may" is always taken (documented)."""

    code = "01028"
    kinds = ("reaction", "constant")

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        announce(em, self, source, owner)
        draw(em, owner, 2, "ability")


VARYS_OPTIONS = ["remove", "keep"]
"""Varys's choice: remove him from the game (and discard every character), or keep him."""


class Varys(Ability):
    """Varys: Stealth. Interrupt: when the dominance phase ends, remove Varys from the game to discard each character in play from play.

    Asked of his controller as the dominance phase ends (options ``remove`` / ``keep``; default
    ``keep``: a board wipe is not taken on a timeout); the standing phase begins once it is
    answered. A character with a duplicate is saved by discarding one (CG-UNIQUE-03, always used,
    as for a kill); the discarded characters' "leaves play" interrupts follow (Viserys)."""

    code = "01029"
    kinds = ("constant", "interrupt")

    def phase_ends(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        if phase != "dominance" or f"round:{source}" in em.state.used_abilities:
            return
        choice = AbilityChoice(
            seat=owner,
            card=source,
            options=list(VARYS_OPTIONS),
            count=1,
            prompt=_prompt(self),
            default=["keep"],
            resume="dominance_end",
        )
        ask(em, choice)

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        if chosen != ["remove"] or source not in em.state.in_play:
            return
        em.emit(ev.CardsRemovedFromGame(seat_id=owner, cards=[source], card=source))
        s = em.state
        discard_from_play(
            em, sorted(p.card for p in s.in_play.values() if s.record(p.card).type == "character"), source
        )


class Bodyguard(SaveChoice):
    """Bodyguard: Lord or Lady character only. Interrupt: sacrifice Bodyguard to save the attached character from being killed or discarded.

    Against a military claim's kill: the claim's save step (default: decline). Against an
    ability's kill: its controller's choice where the game can wait (:func:`.base.kill`, default
    ``none``), else used at once. Against a discard from play by an ability (Varys, The Tickler,
    Hear Me Roar!): used at once (:func:`.base.discard_from_play`, documented). Not against a
    sacrifice, nor what "cannot be saved" (Marched to the Wall, Wildfire Assault)."""

    code = "01033"
    kinds = ("constant", "interrupt")
    saves_from_discard = True

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        if {"Lord", "Lady"} & set(state.record(target).traits):
            return None
        return "Bodyguard goes on a Lord or Lady character only"

    def save_targets(self, state: CardState, source: str, owner: str, victims: list[str]) -> list[str] | None:
        host = bearer(state, source)
        return [host] if host is not None and host in victims else None

    def save(self, em: Emitter, source: str, owner: str, target: str) -> None:
        announce(em, self, source, owner)
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))


SEARCH_DEPTH = 10
"""Summons and Building Orders search the top 10 cards of the deck."""


class _Search(Ability):
    """A When Revealed that searches the top 10 cards of its owner's deck for one card of some
    types, reveals it and puts it into hand, then shuffles the deck. The options are hidden cards:
    only the owner sees them (``hidden``, :mod:`..redaction`); the card taken is revealed
    (``cards_taken_from_deck``). Default: the option with the highest printed cost, then the
    lowest id. With no option, the deck is shuffled all the same."""

    kinds = ("when_revealed",)
    types: tuple[str, ...] = ()

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        top = state.player(owner).deck[:SEARCH_DEPTH]
        options = sorted(c for c in top if state.record(c).type in self.types)
        if not options:
            return None
        best = sorted(options, key=lambda c: (-state.record(c).printed_cost, c))[:1]
        return AbilityChoice(
            seat=owner, card=source, options=options, count=1, prompt=_prompt(self), default=best, hidden=True
        )

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        em.emit(ev.CardsTakenFromDeck(seat_id=owner, cards=chosen, card=source))
        shuffle(em, owner)

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        shuffle(em, owner)


class BuildingOrders(_Search):
    """Building Orders: when revealed, search your top 10 cards for an attachment or location, reveal it and add it to your hand; shuffle your deck."""

    code = "01006"
    types = ("attachment", "location")


class Summons(_Search):
    """Summons: when revealed, search your top 10 cards for a character, reveal it and add it to your hand; shuffle your deck."""

    code = "01022"
    types = ("character",)


class CalmOverWesteros(Ability):
    """Calm Over Westeros: when revealed, choose a challenge type; until your next plot is revealed, the claim against you in challenges of that type is 1 lower.

    Options: the three challenge types; default: military. The type chosen is read back from
    ``state.choices_made`` (this round's, cleared as the next round, and so the next reveal, begins)."""

    code = "01008"
    kinds = ("when_revealed", "constant")

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        return AbilityChoice(
            seat=owner, card=source, options=list(CHALLENGE_TYPES), count=1, prompt=_prompt(self), default=["military"]
        )

    def claim_modifier(self, state: CardState, source: str, owner: str, challenge: Challenge) -> int:
        chosen = state.choices_made.get(f"{source}/{owner}", [])
        return -1 if challenge.defender == owner and challenge.type in chosen else 0


class JoustingContest(Ability):
    """Jousting Contest: each player may declare no more than one attacker and no more than one defender per challenge."""

    code = "01014"
    kinds = ("constant",)

    def participant_limit(self, state: CardState, source: str, owner: str, seat: str, side: str) -> int | None:
        return 1


def _each_player(state: CardState, source: str) -> list[str]:
    """The seats, in player order, that have not answered ``source``'s choice this round."""
    return [seat for seat in state.player_order() if f"{source}/{seat}" not in state.choices_made]


class MarchedToTheWall(Ability):
    """Marched to the Wall: when revealed, each player chooses a character they control and discards it from play (it cannot be saved).

    Every player chooses, in player order (a player with one character is not asked: it is that
    one); default: the character with the lowest printed cost, then the lowest id. The chosen
    characters are discarded together once every player has chosen."""

    code = "01015"
    kinds = ("when_revealed",)
    every_player_chooses = True

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        for seat in _each_player(state, source):
            options = sorted(p.card for p in state.characters(seat))
            if len(options) > 1:
                low = sorted(options, key=lambda c: (state.record(c).printed_cost, c))[:1]
                return AbilityChoice(
                    seat=seat, card=source, options=options, count=1, prompt=_prompt(self), default=low
                )
        return None

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        out: list[str] = []
        for seat in em.state.player_order():
            chars = [p.card for p in em.state.characters(seat)]
            out += em.state.choices_made.get(f"{source}/{seat}", chars if len(chars) == 1 else [])
        if out:
            em.emit(ev.CardsDiscardedFromPlay(cards=out, card=source))


class WildfireAssault(Ability):
    """Wildfire Assault: when revealed, each player chooses up to 3 characters they control; every other character is killed (it cannot be saved).

    Every player with more than 3 characters chooses 3 to keep, in player order (a documented
    simplification of "up to": keeping fewer is never better); default: the 3 with the highest
    printed STR, then the lowest ids. The others are killed together once every player has chosen
    (no duplicate saves them); then the killed reactions (:func:`.triggers.plots_revealed`)."""

    code = "01026"
    kinds = ("when_revealed",)
    every_player_chooses = True
    keep = 3

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        for seat in _each_player(state, source):
            options = sorted(p.card for p in state.characters(seat))
            if len(options) > self.keep:
                best = sorted(options, key=lambda c: (-state.record(c).str_, c))[: self.keep]
                return AbilityChoice(
                    seat=seat, card=source, options=options, count=self.keep, prompt=_prompt(self), default=best
                )
        return None

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        doomed: dict[str, list[str]] = {}
        for seat in em.state.player_order():
            chars = [p.card for p in em.state.characters(seat)]
            kept = em.state.choices_made.get(f"{source}/{seat}", chars)
            if others := [c for c in chars if c not in kept]:
                doomed[seat] = others
        for seat, cards in doomed.items():
            em.emit(ev.CardsCharactersKilled(seat_id=seat, cards=cards))


class Reinforcements(Ability):
    """Reinforcements: when revealed, put into play a character with printed cost 5 or lower from your hand or discard pile.

    Options: such characters of your hand and discard pile that may enter play (CG-UNIQUE-01/02);
    they include your hand, so only you see them (``hidden``). Default: the highest printed cost,
    then the lowest id."""

    code = "01020"
    kinds = ("when_revealed",)
    most = 5

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        p = state.player(owner)
        options = sorted(
            c
            for c in p.hand + p.discard
            if state.record(c).type == "character"
            and state.record(c).printed_cost <= self.most
            and placement(state, owner, c) is not None
        )
        if not options:
            return None
        best = sorted(options, key=lambda c: (-state.record(c).printed_cost, c))[:1]
        return AbilityChoice(
            seat=owner, card=source, options=options, count=1, prompt=_prompt(self), default=best, hidden=True
        )

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        card = chosen[0]
        pile = "hand" if card in em.state.player(owner).hand else "discard"
        entered = put_into_play(em, owner, card, pile, source)
        assert entered


ABILITIES: tuple[Ability, ...] = (
    Varys(),
    LittleBird(),
    MilkOfThePoppy(),
    NobleLineage(),
    SyriosTraining(),
    TheIronThrone(),
    TheRoseroad(),
    AClashOfKings(),
    AFeastForCrows(),
    AGameOfThrones(),
    ANobleCause(),
    AStormOfSwords(),
    CallingTheBanners(),
    Confiscation(),
    CountingCoppers(),
    FilthyAccusations(),
    FortifiedPosition(),
    HeadsOnSpikes(),
    MarchingOrders(),
    NavalSuperiority(),
    Rebuilding(),
    SneakAttack(),
    SupportingTheFaith(),
    Taxation(),
    Littlefinger(),
    Bodyguard(),
    RattleshirtsRaiders(),
    BuildingOrders(),
    Summons(),
    CalmOverWesteros(),
    JoustingContest(),
    MarchedToTheWall(),
    WildfireAssault(),
    Reinforcements(),
)


# -- Actions (the ability engine's timing: domain/cards/phases/actions.py) --------------------


class SealOfTheHand(Ability):
    """Seal of the Hand: Action: kneel Seal of the Hand to stand the attached character (Lord or Lady only)."""

    code = "01032"
    kinds = ("action",)

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        if not {"Lord", "Lady"} & set(state.record(target).traits):
            return "Seal of the Hand goes on a Lord or Lady character"
        return None

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        host = bearer(state, source)
        return [] if standing(state, source) and host is not None and not standing(state, host) else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        host = bearer(em.state, source)
        assert host is not None
        kneel(em, source, [source])
        announce(em, self, source, owner)
        stand(em, source, [host])


class WildlingHorde(Ability):
    """Wildling Horde: Challenges Action: kneel your faction card: a participating Wildling character you control gets +2 STR until the end of the challenge."""

    code = "01031"
    kinds = ("action",)

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).faction_kneeling:
            return None
        mine = [
            p.card
            for p in state.characters(owner)
            if participates(state, p.card) and "Wildling" in state.record(p.card).traits
        ]
        return mine or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        em.emit(ev.CardsFactionKnelt(seat_id=owner, card=source))
        announce(em, self, source, owner)
        lasting(em, source, target, "challenge", strength=2)


class PowerBehindTheThrone(Ability):
    """Power Behind the Throne: When Revealed: place 1 stand token on this plot. Action: discard a stand token from this plot to stand a character of your choice.

    The token is the plot's When Revealed use (``round:<plot>``, written as it is revealed) while
    ``round:<plot>/token`` is not written; the Action spends it (once, as there is one token).
    Targets: every kneeling character in play."""

    code = "01018"
    kinds = ("when_revealed", "action")

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        """The token: the use written by :func:`.triggers.plots_revealed` (nothing more to do)."""

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        if state.player(owner).plot != source or f"round:{source}" not in state.used_abilities:
            return None
        if f"round:{source}/token" in state.used_abilities:
            return None
        kneeling = [p.card for p in state.in_play.values() if p.kneeling and state.record(p.card).type == "character"]
        return sorted(kneeling) or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"round:{source}/token")
        stand(em, source, [target])


class TheKingsroad(Ability):
    """The Kingsroad: Limited. Marshaling Action: kneel and sacrifice The Kingsroad: the next character you marshal this phase costs 3 gold less. (+1 initiative, a printed modifier.)

    Offered while its controller is the active player marshaling (as the cost reducers', whose
    reduction would otherwise change nothing). The reduction is a lasting effect on the seat
    (``cost_off``) that outlives the sacrifice; the next character marshaled spends it
    (:func:`.triggers.marshaled`), the phase's end clears it."""

    code = "01039"
    kinds = ("action", "constant")

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return [] if standing(state, source) and state.step == "marshal" and state.active == owner else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        kneel(em, source, [source])
        em.emit(ev.CardsSacrificed(seat_id=owner, cards=[source], card=source))
        announce(em, self, source, owner)
        lasting(em, source, owner, "phase", cost_off=3)


ABILITIES += (
    SealOfTheHand(),
    WildlingHorde(),
    PowerBehindTheThrone(),
    TheKingsroad(),
)


# -- Reaction events (a reaction window: domain/cards/phases/flow.py) --------------------------


def _once_per_challenge(state: CardState, code: str, owner: str) -> bool:
    return f"challenge:{code}:{owner}" not in state.used_abilities


class PutToTheSword(Ability):
    """Put to the Sword: Reaction: after you win a military challenge as the attacker by 5 or more STR, kill a character the losing opponent controls (max 1 per challenge)."""

    code = "01041"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        if trigger != "challenge_won" or not won_by(state, owner, "military", "attacker", 5):
            return None
        if not _once_per_challenge(state, self.code, owner):
            return None
        return [p.card for p in state.characters(state.opponent(owner))] or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        kill(em, em.state.opponent(owner), [target])


class PutToTheTorch(Ability):
    """Put to the Torch: Reaction: after you win a military challenge as the attacker by 5 or more STR, discard a location the losing opponent controls (max 1 per challenge)."""

    code = "01042"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        if trigger != "challenge_won" or not won_by(state, owner, "military", "attacker", 5):
            return None
        if not _once_per_challenge(state, self.code, owner):
            return None
        return [p.card for p in state.controlled(state.opponent(owner), "location")] or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        em.emit(ev.CardsDiscardedFromPlay(cards=[target], card=source))


class SuperiorClaim(Ability):
    """Superior Claim: Reaction: after you win a power challenge by 5 or more STR, your faction gains 2 power (max 1 per challenge)."""

    code = "01043"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        ok = trigger == "challenge_won" and won_by(state, owner, "power", None, 5)
        return [] if ok and _once_per_challenge(state, self.code, owner) else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        em.emit(ev.CardsPowerGained(seat_id=owner, amount=2, reason="Superior Claim"))


class TearsOfLys(Ability):
    """Tears of Lys: Reaction: after you win an intrigue challenge as the attacker, poison a character without an intrigue icon the losing opponent controls; as the phase ends, if it is still poisoned, kill it (max 1 per challenge)."""

    code = "01044"
    kinds = ("reaction",)

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        if trigger != "challenge_won" or not won_by(state, owner, "intrigue", "attacker"):
            return None
        if not _once_per_challenge(state, self.code, owner):
            return None
        targets = [
            p.card for p in state.characters(state.opponent(owner)) if not now.has_icon(state, p.card, "intrigue")
        ]
        return targets or None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        assert target is not None
        announce(em, self, source, owner, limit=f"challenge:{self.code}:{owner}")
        lasting(em, source, target, "phase", at_end="kill")


ABILITIES += (
    PutToTheSword(),
    PutToTheTorch(),
    SuperiorClaim(),
    TearsOfLys(),
)


# -- Cancels (the cancel step: domain/cards/phases/actions.py) --------------------------------


class TheHandsJudgment(Ability):
    """The Hand's Judgment: Interrupt: when an opponent plays an event, cancel its effects (X is that event's printed cost).

    Played from hand: X gold paid, then to the discard pile. A cancel of this cancel is not offered
    (documented)."""

    code = "01045"
    kinds = ("interrupt",)

    def cancels(self, state: CardState, source: str, owner: str, event: str) -> bool:
        if source not in state.player(owner).hand or state.owner(event) == owner:
            return False
        if state.record(event).type != "event":
            return False
        return state.player(owner).gold >= state.record(event).printed_cost

    def pay_cancel(self, em: Emitter, source: str, owner: str, event: str) -> None:
        x = em.state.record(event).printed_cost
        em.emit(ev.CardsEventPlayed(seat_id=owner, card=source, code=self.code, cost=x, target=event))
        announce(em, self, source, owner)


ABILITIES += (TheHandsJudgment(),)
