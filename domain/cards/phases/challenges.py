"""The challenges phase (CG-PHASE-12/13, CG-CHAL-01..09, CG-KEY-01..05).

The active player starts at most one military, one intrigue and one power challenge, in any order,
or ends its challenges. A challenge: attackers knelt (stealth chooses bypassed defenders), the
defender's defenders knelt, strengths compared (ties to the attacker; a side needs 1 STR and a
participant to win), the unopposed bonus, the claim of the attacker's plot, then the keywords.

Simplifications, documented in docs/card-game.md: the keyword "may"s are taken (renown, insight,
pillage always resolve, in that order), a duplicate always saves its card, intimidate is not built.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation
from .. import current, titles, victory
from .. import events as ev
from ..abilities import triggers
from ..catalog import CHALLENGE_TYPES
from ..emitter import Emitter
from ..power import plot_values
from ..state import CardState, Challenge
from .draw import draw


def eligible(
    state: CardState, seat: str, challenge: str, exclude: list[str] | None = None, defending: bool = False
) -> list[str]:
    """The seat's standing characters with the challenge's icon (CG-CHAL-01/03, CG-GEN-09); as
    defenders, also those an ability lets defend while kneeling (Obara Sand)."""
    out = []
    for p in state.characters(seat):
        ready = not p.kneeling or (defending and current.defends_kneeling(state, p.card, challenge))
        if ready and current.has_icon(state, p.card, challenge) and p.card not in (exclude or []):
            if not (defending and current.defending_forbidden(state, p.card)):
                out.append(p.card)
    return out


def open_types(state: CardState, seat: str) -> list[str]:
    """The challenge types the seat may still start, each with at least one eligible attacker
    (CG-PHASE-12), as the constant abilities allow (:func:`..current.start_forbidden`)."""
    made = state.player(seat).challenges_made
    return [
        t
        for t in CHALLENGE_TYPES
        if made.count(t) < current.allowed_count(state, seat, t)
        and current.start_forbidden(state, seat, t) is None
        and eligible(state, seat, t)
        and (not state.melee or opponents_for(state, seat, t))
    ]


def opponents_for(state: CardState, seat: str, challenge: str) -> list[str]:
    """CG-PHASE-12 (Melee): the opponents ``seat`` may initiate a ``challenge`` challenge against:
    any opponent still in the game, but one whose title its own title supports (CG-MELEE-04), and
    for the Hand of the King's second power challenge one not challenged with it yet (CG-MELEE-05)."""
    return [
        o
        for o in state.opponents(seat)
        if not titles.initiation_forbidden(state, seat, o)
        and not titles.other_opponent_required(state, seat, challenge, o)
        and not against_forbidden(state, seat, o)
    ]


def against_forbidden(state: CardState, seat: str, defender: str) -> bool:
    """A lasting effect forbids ``seat`` to initiate challenges against ``defender`` (melee: The
    Sword in the Darkness)."""
    return any(e.target == seat and e.forbids == f"against:{defender}" for e in state.effects)


def check_defender(state: CardState, seat: str, challenge: str, defender: str | None) -> str:
    """The defending opponent of a declaration: in a joust the opponent (null, or named); in a melee
    one of :func:`opponents_for` (``defender_required``, ``not_an_opponent``, ``supported_title``,
    ``same_opponent``)."""
    if not state.melee:
        if defender is not None and defender != state.opponent(seat):
            raise RuleViolation(f"{defender} is not your opponent", rule="CG-PHASE-12", code="not_an_opponent")
        return state.opponent(seat)
    if defender is None:
        raise RuleViolation(
            "a melee challenge names its defending opponent (`defender`)", rule="CG-PHASE-12", code="defender_required"
        )
    if defender not in state.opponents(seat):
        raise RuleViolation(
            f"{defender} is not an opponent still in the game", rule="CG-PHASE-12", code="not_an_opponent"
        )
    if titles.initiation_forbidden(state, seat, defender):
        raise RuleViolation(
            f"your title supports {defender}'s title: you cannot initiate a challenge against it",
            rule="CG-MELEE-04",
            code="supported_title",
        )
    if against_forbidden(state, seat, defender):
        raise RuleViolation(
            f"a card forbids you to initiate challenges against {defender} this round",
            rule="CG-PHASE-12",
            code="challenge_forbidden",
        )
    if titles.other_opponent_required(state, seat, challenge, defender):
        raise RuleViolation(
            f"your other {challenge} challenge was against {defender}: this one targets a different opponent",
            rule="CG-MELEE-05",
            code="same_opponent",
        )
    return defender


def stealth_targets(state: CardState, defender: str) -> list[str]:
    """The defender's characters stealth may bypass: without stealth, not protected (CG-CHAL-02)."""
    return [p.card for p in state.characters(defender) if current.bypassable(state, p.card)]


def stealth_attackers(state: CardState, seat: str, eligible_lists: list[list[str]]) -> list[str]:
    """CG-CHAL-02: the seat's eligible attackers (of any type it may start) with stealth."""
    seen = {c for cards in eligible_lists for c in cards}
    return [p.card for p in state.characters(seat) if p.card in seen and current.has_keyword(state, p.card, "stealth")]


def check_declaration(
    state: CardState,
    seat: str,
    challenge: str,
    attackers: list[str],
    stealth: dict[str, str],
    defender: str | None = None,
) -> None:
    """CG-PHASE-12, CG-CHAL-01/02: a type not yet used, standing attackers with its icon, stealth choices."""
    if state.player(seat).challenges_made.count(challenge) >= current.allowed_count(state, seat, challenge):
        raise RuleViolation(f"you have started a {challenge} challenge this phase already", rule="CG-PHASE-12")
    why = current.start_forbidden(state, seat, challenge)
    if why:
        raise RuleViolation(why, rule="CG-PHASE-12")
    if len(set(attackers)) != len(attackers):
        raise RuleViolation("an attacker is named twice", rule="CG-CHAL-01")
    most = current.participant_limit(state, seat, "attackers")
    if most is not None and len(attackers) > most:
        raise RuleViolation(f"you may declare at most {most} attacker(s) in this challenge", rule="CG-CHAL-01")
    legal = eligible(state, seat, challenge)
    for a in attackers:
        if a not in legal:
            raise RuleViolation(
                f"{a} is not a standing character of yours with the {challenge} icon", rule="CG-CHAL-01"
            )
    defender = defender if defender is not None else state.opponent(seat)
    targets = stealth_targets(state, defender)
    for a, t in stealth.items():
        if a not in attackers or not current.has_keyword(state, a, "stealth"):
            raise RuleViolation(f"{a} is not an attacker with stealth", rule="CG-CHAL-02")
        if t not in targets:
            raise RuleViolation(f"{t} is not a character of {defender} without stealth", rule="CG-CHAL-02")
    if len(set(stealth.values())) != len(stealth):
        raise RuleViolation("each stealth attacker bypasses a different character", rule="CG-CHAL-02")


def check_defenders(state: CardState, seat: str, defenders: list[str]) -> None:
    """CG-CHAL-03: the defender's own standing characters with the icon, not bypassed."""
    ch = state.challenge
    if ch is None or ch.defender != seat:
        raise NotYourTurn("you are not defending a challenge", rule="CG-CHAL-03")
    if len(set(defenders)) != len(defenders):
        raise RuleViolation("a defender is named twice", rule="CG-CHAL-03")
    most = current.participant_limit(state, seat, "defenders")
    if most is not None and len(defenders) > most:
        raise RuleViolation(f"you may declare at most {most} defender(s) in this challenge", rule="CG-CHAL-03")
    legal = eligible(state, seat, ch.type, exclude=ch.bypassed, defending=True)
    for d in defenders:
        if d not in legal:
            raise RuleViolation(
                f"{d} is not a standing, unbypassed character of yours with the {ch.type} icon", rule="CG-CHAL-03"
            )
    for d in must_defend(state, seat):
        if d not in defenders:
            raise RuleViolation(f"{d} must defend this challenge (it is able to)", rule="CG-CHAL-03")


def must_defend(state: CardState, seat: str) -> list[str]:
    """The seat's characters an ability obliges to defend the current challenge and able to
    (eligible; within the participant limit: Dornish Paramour)."""
    ch = state.challenge
    if ch is None:
        return []
    legal = eligible(state, seat, ch.type, exclude=ch.bypassed, defending=True)
    return [c for c in current.must_defend(state) if c in legal]


def strength(state: CardState, cards: list[str]) -> int:
    """The current STR of the participants still in play (CG-CHAL-04, CG-CHAL-05; :mod:`..current`)."""
    return sum(current.strength(state, c) for c in cards if c in state.in_play)


def resolve(em: Emitter) -> str | None:
    """CG-CHAL-05/06: the winner (None: nobody) and the unopposed bonus."""
    s = em.state
    ch = s.challenge
    assert ch is not None
    attackers = current.attackers(s)
    defenders = [c for c in ch.defenders if c in s.in_play]
    a, d = strength(s, attackers), strength(s, defenders)
    if s.melee:  # CG-MELEE-05: the titles' +1 STR on a side with a participating character
        a += titles.strength_bonus(s, ch.attacker, ch.type, attackers)
        d += titles.strength_bonus(s, ch.defender, ch.type, defenders)
    winner: str | None = None
    if a >= d and a >= 1 and attackers:
        winner = ch.attacker
    elif d > a and d >= 1 and defenders:
        winner = ch.defender
    unopposed = winner == ch.attacker and d == 0
    em.emit(
        ev.CardsChallengeResolved(
            challenge_type=ch.type,
            attacker=ch.attacker,
            defender=ch.defender,
            attacker_strength=a,
            defender_strength=d,
            winner=winner,
            unopposed=unopposed,
        )
    )
    if unopposed:
        em.emit(ev.CardsPowerGained(seat_id=ch.attacker, amount=1, reason="unopposed"))
    if winner is not None and s.melee:  # CG-MELEE-03: at step 4.2.3 with the unopposed bonus, before claim
        titles.rival_bonus(em, winner, ch.defender if winner == ch.attacker else ch.attacker)
    return winner


def apply_claim(em: Emitter, winner: str | None) -> bool:
    """CG-CHAL-07: only an attacker's win applies the claim of its plot. True when the claim waits
    for the defender's choice of victims (military claim with more characters than the claim)."""
    s = em.state
    ch = s.challenge
    assert ch is not None
    if winner != ch.attacker:
        return False
    claim = plot_values(s, ch.attacker).claim + current.claim_modifier(s)
    if claim <= 0:
        return False
    if ch.type == "military":
        victims = [p.card for p in em.state.characters(ch.defender)]
        return bool(victims)  # the defender chooses, or all die (flow.claim_step)
    elif ch.type == "intrigue":
        intrigue_claim(em, ch, claim)
        for other in titles.extra_intrigue_victims(em.state, ch.attacker, ch.defender):  # Master of Whispers
            intrigue_claim(em, ch, claim, other)
    else:
        amount = min(claim, em.state.player(ch.defender).faction_power)
        if amount > 0:
            em.emit(ev.CardsPowerMoved(from_seat=ch.defender, to_seat=ch.attacker, amount=amount))
    return False


def claim_size(state: CardState) -> int:
    ch = state.challenge
    assert ch is not None
    claim = plot_values(state, ch.attacker).claim + current.claim_modifier(state)
    return max(0, min(claim, len(state.characters(ch.defender))))


def check_victims(state: CardState, seat: str, victims: list[str]) -> None:
    """CG-CHAL-07: exactly the claim's number of different characters the defender controls."""
    n = claim_size(state)
    mine = {p.card for p in state.characters(seat)}
    if len(set(victims)) != len(victims) or len(victims) != n or not set(victims) <= mine:
        raise RuleViolation(f"choose exactly {n} different characters you control", rule="CG-CHAL-07")


def default_victims(state: CardState, seat: str) -> list[str]:
    """The documented default: the characters with the lowest printed STR (then the lowest id)."""
    chars = sorted(state.characters(seat), key=lambda p: (state.record(p.card).str_, p.card))
    return [p.card for p in chars[: claim_size(state)]]


def kill(em: Emitter, seat: str, victims: list[str]) -> None:
    """Military claim kills (CG-CHAL-07) at once; a card with a duplicate is saved by discarding
    one (CG-UNIQUE-03, documented default: always); the rest go to the dead pile (CG-UNIQUE-04)."""
    killed = []
    for v in victims:
        dups = em.state.in_play[v].duplicates
        if dups:
            em.emit(ev.CardsDuplicateDiscarded(seat_id=seat, duplicate=dups[0], saved=v))
        else:
            killed.append(v)
    if killed:
        em.emit(ev.CardsCharactersKilled(seat_id=seat, cards=killed))
        triggers.killed(em, seat, killed, resume="claim")


def intrigue_purpose(state: CardState, ch: Challenge) -> str:
    return f"intrigue/{state.round}/{ch.attacker}"


def intrigue_claim(em: Emitter, ch: Challenge, claim: int, victim: str | None = None) -> None:
    """CG-CHAL-07: the defender (or ``victim``, another opponent of a Master of Whispers) discards
    ``claim`` cards at random from hand (drawn from the seed)."""
    seat = victim if victim is not None else ch.defender
    hand = list(em.state.player(seat).hand)
    purpose = intrigue_purpose(em.state, ch) + ("" if victim is None else f"/{victim}")
    rng = em.ctx.rng(purpose)
    chosen = [hand.pop(rng.below(len(hand))) for _ in range(min(claim, len(hand)))]
    if chosen:
        em.emit(ev.CardsDiscardedFromHand(seat_id=seat, cards=chosen, reason="intrigue claim"))


def intimidate_targets(state: CardState) -> list[str]:
    """CG-KEY-04: when the attacker won with a participating intimidate character, the loser's
    standing characters (participating or not) with STR no higher than the margin."""
    ch = state.challenge
    if ch is None:
        return []
    attackers = current.attackers(state)
    if not any(current.has_keyword(state, c, "intimidate") for c in attackers):
        return []
    margin = strength(state, attackers) - strength(state, ch.defenders)
    return [
        p.card for p in state.characters(ch.defender) if not p.kneeling and current.strength(state, p.card) <= margin
    ]


def check_intimidate(state: CardState, target: str | None) -> None:
    if target is not None and target not in intimidate_targets(state):
        raise RuleViolation(f"{target} is not a standing character of the loser within the margin", rule="CG-KEY-04")


def keywords(em: Emitter, winner: str) -> None:
    """CG-CHAL-08: the winner's keywords after claim, in a fixed order (documented): renown
    (CG-KEY-02), insight (CG-KEY-03), pillage (CG-KEY-05); intimidate (CG-KEY-04) last, as a
    decision of the attacker (:func:`intimidate_targets`)."""
    s = em.state
    ch = s.challenge
    assert ch is not None
    side = current.attackers(s) if winner == ch.attacker else [c for c in ch.defenders if c in s.in_play]
    loser = ch.defender if winner == ch.attacker else ch.attacker
    for c in side:
        if current.has_keyword(s, c, "renown"):
            em.emit(ev.CardsPowerGained(seat_id=winner, amount=1, reason="renown", card=c))
    if victory.check(em):  # CG-END-01: checked after every step
        return
    insight = sum(1 for c in side if current.has_keyword(s, c, "insight"))
    if insight:
        draw(em, winner, insight, "insight")
        if victory.check(em):
            return
    for c in side:
        if current.has_keyword(em.state, c, "pillage") and em.state.player(loser).deck:
            em.emit(ev.CardsDiscardedFromDeck(seat_id=loser, cards=em.state.player(loser).deck[:1], reason="pillage"))
