"""Current values: a card's strength, icons and keywords, and the player limits, as the constant
abilities in play make them now (:mod:`.abilities`).

Nothing modified is ever stored: every value is computed from the state at the moment it is read
(printed value, then each active constant ability), so replaying the events gives the same state
and the same values byte for byte. Every rule that reads a strength, an icon or a keyword reads it
here, never from the printed record.
"""

from __future__ import annotations

from . import titles
from .abilities.base import Ability
from .abilities.registry import ABILITIES, active, text_blank
from .catalog import CardRecord, Icons
from .state import CardState, Lasting


def strength(state: CardState, iid: str) -> int:
    """The character's current STR: printed STR plus every active constant bonus, never below 0."""
    total = state.record(iid).str_ + sum(e.strength for e in state.effects if e.target == iid)
    for ability, source, owner in active(state, Ability.strength_bonus):
        total += ability.strength_bonus(state, source, owner, iid)
    return max(0, total)


def icons(state: CardState, iid: str) -> Icons | None:
    """The character's current challenge icons: printed, plus those active abilities give it."""
    printed = state.record(iid).icons
    if printed is None:
        return None
    gained: set[str] = {e.icon for e in state.effects if e.target == iid and e.icon is not None}
    lost: set[str] = set()
    for ability, source, owner in active(state, Ability.icon_grants, Ability.icon_removals):
        gained.update(ability.icon_grants(state, source, owner, iid))
        lost.update(ability.icon_removals(state, source, owner, iid))
    if not gained and not lost:
        return printed
    return Icons(
        military=(printed.military or "military" in gained) and "military" not in lost,
        intrigue=(printed.intrigue or "intrigue" in gained) and "intrigue" not in lost,
        power=(printed.power or "power" in gained) and "power" not in lost,
    )


def has_icon(state: CardState, iid: str, challenge: str) -> bool:
    i = icons(state, iid)
    return i is not None and i.has(challenge)


def keywords(state: CardState, iid: str) -> list[str]:
    """The card's current keywords: none while its text box counts as blank (keywords are part of
    it; Fortified Position), else the printed ones."""
    own = [] if text_blank(state, iid) else list(state.record(iid).keywords)
    for ability, source, owner in active(state, Ability.keyword_grants):
        own += [k for k in ability.keyword_grants(state, source, owner, iid) if k not in own]
    return own


def has_keyword(state: CardState, iid: str, keyword: str) -> bool:
    return keyword in keywords(state, iid)


def participating(state: CardState, iid: str) -> str | None:
    """``attacking`` or ``defending`` when ``iid`` takes part in the current challenge, else None."""
    ch = state.challenge
    if ch is None:
        return None
    if iid in attackers(state):
        return "attacking"
    if iid in ch.defenders:
        return "defending"
    return None


def attach_forbidden(state: CardState, attachment: str, target: str) -> str | None:
    """Why the attachment card ``attachment`` may not go on ``target`` by its own text ("Lord or
    Lady only", "Night's Watch only"...), None: it may."""
    ability = ABILITIES.get(state.cards[attachment])
    return ability.may_attach(state, attachment, target) if ability is not None else None


def dominance_bonus(state: CardState, seat: str) -> int:
    """Dominance STR from abilities (The Iron Throne) and, in a melee, the Crown Regent (+2)."""
    bonus = sum(a.dominance_bonus(state, src, own, seat) for a, src, own in active(state, Ability.dominance_bonus))
    return bonus + titles.dominance_bonus(state, seat)


def reserve_modifier(state: CardState, seat: str) -> int:
    """Reserve from abilities (Alannys Greyjoy) and, in a melee, the Master of Laws (+1)."""
    bonus = sum(a.reserve_modifier(state, src, own, seat) for a, src, own in active(state, Ability.reserve_modifier))
    return bonus + titles.reserve_bonus(state, seat)


def claim_modifier(state: CardState) -> int:
    """Change to the attacker's claim in the current challenge (Cersei Lannister)."""
    ch = state.challenge
    if ch is None:
        return 0
    lasting = sum(e.claim for e in state.effects if e.target == ch.attacker)
    ships = titles.claim_bonus(state, ch.attacker, ch.defender, ch.type)
    return (
        lasting
        + ships
        + sum(a.claim_modifier(state, src, own, ch) for a, src, own in active(state, Ability.claim_modifier))
    )


def kneels_to_attack(state: CardState, iid: str, challenge: str) -> bool:
    for a, src, own in active(state, Ability.kneels_to_attack):
        if src == iid and not a.kneels_to_attack(state, src, own, iid, challenge):
            return False
    for placed in state.in_play.values():  # an attachment may spare its bearer (Drogo's Arakh)
        if placed.attached_to == iid:
            att = ABILITIES.get(state.cards[placed.card])
            if att is not None and not att.kneels_to_attack(state, placed.card, placed.controller, iid, challenge):
                return False
    return True


def defends_kneeling(state: CardState, iid: str, challenge: str) -> bool:
    """Whether the character ``iid`` may be declared as a defender while kneeling (Obara Sand)."""
    return any(
        a.defends_kneeling(state, src, own, challenge)
        for a, src, own in active(state, Ability.defends_kneeling)
        if src == iid
    )


def defending_forbidden(state: CardState, iid: str) -> bool:
    """Whether the character may not be declared as a defender (Ghost bypassed it this phase)."""
    return any(a.forbids_defending(state, src, own, iid) for a, src, own in active(state, Ability.forbids_defending))


def must_defend(state: CardState) -> list[str]:
    """The characters that must be declared as defenders in the current challenge if able (Dornish Paramour)."""
    return sorted(
        {
            p.card
            for p in state.in_play.values()
            for a, src, own in active(state, Ability.must_defend)
            if a.must_defend(state, src, own, p.card)
        }
    )


def kneels_to_defend(state: CardState, iid: str) -> bool:
    return all(
        a.kneels_to_defend(state, src, own, iid)
        for a, src, own in active(state, Ability.kneels_to_defend)
        if src == iid
    )


def challenge_limit(state: CardState, seat: str) -> int | None:
    """The most challenges ``seat`` may initiate this phase (Sneak Attack); None: three, one of each."""
    limits = [
        n
        for a, src, own in active(state, Ability.challenge_limit)
        if (n := a.challenge_limit(state, src, own, seat)) is not None
    ]
    return min(limits) if limits else None


def allowed_count(state: CardState, seat: str, challenge: str) -> int:
    """How many ``challenge`` challenges ``seat`` may initiate this phase: 1, plus extras (A Storm of
    Swords; in a melee, the Hand of the King's extra power challenge)."""
    return (
        1
        + sum(
            a.extra_challenges(state, src, own, seat).count(challenge)
            for a, src, own in active(state, Ability.extra_challenges)
        )
        + titles.extra_challenges(state, seat, challenge)
    )


def start_forbidden(state: CardState, seat: str, challenge: str) -> str | None:
    """Why ``seat`` may not start a ``challenge`` challenge now (None: the constant abilities allow it)."""
    made = state.player(seat).challenges_made
    limit = challenge_limit(state, seat)
    if limit is not None and len(made) >= limit:
        return f"you may initiate at most {limit} challenge(s) this phase"
    for e in state.effects:
        if e.target == seat and e.forbids in (challenge, "any"):
            return f"{state.record(e.source).name}: you may not initiate {'this' if e.forbids == 'any' else 'a ' + challenge} challenge now"
    for a, src, own in active(state, Ability.may_start):
        why = a.may_start(state, src, own, seat, challenge)
        if why:
            return why
    return None


def marshal_forbidden(state: CardState, seat: str, rec: CardRecord) -> str | None:
    for a, src, own in active(state, Ability.may_marshal):
        why = a.may_marshal(state, src, own, seat, rec)
        if why:
            return why
    return None


def cost_reduction(state: CardState, seat: str, rec: CardRecord) -> int:
    """Gold off ``rec``'s cost when ``seat`` marshals it: the active reducers' (the cost reducers'
    Actions) and the lasting reductions waiting for ``seat``'s next character (The Kingsroad,
    :func:`pending_reductions`)."""
    lasting = sum(e.cost_off for e in pending_reductions(state, seat)) if rec.type == "character" else 0
    return lasting + sum(
        a.cost_reduction(state, src, own, seat, rec) for a, src, own in active(state, Ability.cost_reduction)
    )


def pending_reductions(state: CardState, seat: str) -> list[Lasting]:
    """The lasting "your next character this phase costs N less" effects of ``seat`` not spent yet."""
    return [
        e
        for e in state.effects
        if e.cost_off and e.target == seat and f"phase:spent:{e.source}" not in state.used_abilities
    ]


def limited_allowed(state: CardState, seat: str) -> int:
    """How many Limited cards ``seat`` may marshal this round: 1 (CG-PHASE-10) plus extras (Taxation)."""
    return 1 + sum(
        a.limited_allowance(state, src, own, seat) for a, src, own in active(state, Ability.limited_allowance)
    )


def base_gold_zero(state: CardState, plot: CardRecord) -> bool:
    """Whether a revealed ``plot``'s base gold counts as 0 (Naval Superiority)."""
    return any(a.base_gold_zero(state, src, own, plot) for a, src, own in active(state, Ability.base_gold_zero))


def participant_limit(state: CardState, seat: str, side: str) -> int | None:
    """The most characters ``seat`` may declare as ``side`` (``attackers``/``defenders``) in a
    challenge (Jousting Contest, The Knight of Flowers); None: no limit."""
    limits = [
        n
        for a, src, own in active(state, Ability.participant_limit)
        if (n := a.participant_limit(state, src, own, seat, side)) is not None
    ]
    return min(limits) if limits else None


def ambush_costs(state: CardState, iid: str) -> list[int]:
    """The card's Ambush keywords in its owner's hand, as their costs X, lowest first: printed
    (CG-KEY-06), or given by an active ability (The Wolfswood: a Direwolf card's printed cost).
    CG-KEY-10: a card has a keyword or not, so the same Ambush (X) from several sources counts
    once; Ambush with different X are different keywords, and the player picks which one to use
    (``x`` of the ``ambush_card`` command; default the lowest)."""
    printed = state.record(iid).ambush_cost
    costs = set() if printed is None else {printed}
    costs |= {
        c
        for a, src, own in active(state, Ability.ambush_cost)
        if (c := a.ambush_cost(state, src, own, iid)) is not None
    }
    return sorted(costs)


def ambush_cost(state: CardState, iid: str) -> int | None:
    """The card's default Ambush cost (the lowest X, :func:`ambush_costs`); None: no Ambush."""
    costs = ambush_costs(state, iid)
    return costs[0] if costs else None


def bypassable(state: CardState, iid: str) -> bool:
    """Whether the character may be chosen by stealth (CG-CHAL-02): it has no stealth itself and
    no ability protects it (Benjen Stark's Rangers)."""
    if has_keyword(state, iid, "stealth"):
        return False
    return not any(
        a.protects_from_stealth(state, src, own, iid) for a, src, own in active(state, Ability.protects_from_stealth)
    )


def attackers(state: CardState) -> list[str]:
    """The characters attacking in the current challenge: those declared (still in play), then
    those an ability counts as attacking without being declared (Jon Snow)."""
    ch = state.challenge
    if ch is None:
        return []
    out = [c for c in ch.attackers if c in state.in_play]
    for a, src, own in active(state, Ability.counts_as_attacking):
        if src not in out and src in state.in_play and a.counts_as_attacking(state, src, own, ch):
            out.append(src)
    return out
