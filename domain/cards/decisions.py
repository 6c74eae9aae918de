"""Pending decisions: what each seat must decide now, its legal options, deadline and default.

``GET /v1/games/{id}/decisions`` returns :class:`CardDecisionsOut` for the caller. Each decision
names the commands that answer it and only the fields its ``kind`` uses are filled.
"""

from __future__ import annotations

import msgspec

from . import current, titles
from .phases import actions, challenges, marshaling, taxation
from .rules import DEFAULTS, pending_system_work
from .setup import SETUP_GOLD, setup_attach_targets
from .state import CardState

COMMANDS: dict[str, list[str]] = {
    "mulligan": ["choose_mulligan"],
    "setup": ["choose_setup"],
    "plot": ["choose_plot"],
    "first_player": ["choose_first_player"],
    "marshal": ["marshal_card", "use_action", "play_event", "end_marshaling"],
    "challenge": ["declare_challenge", "end_challenges"],
    "defend": ["declare_defenders"],
    "claim": ["choose_claim_victims"],
    "intimidate": ["choose_intimidate"],
    "action": ["ambush_card", "use_action", "play_event", "pass_action"],
    "reserve": ["discard_to_reserve"],
    "ability": ["choose_targets"],
    "reaction": ["play_event", "decline"],
    "save": ["use_interrupt", "decline"],
    "cancel": ["use_interrupt", "decline"],
    "title": ["choose_title"],
    "regent": ["choose_redirect"],
    "redirect": ["choose_defender"],
}


class CardDecision(msgspec.Struct):
    """One decision of yours. ``kind`` is the step; the option fields of that kind are filled."""

    seat_id: str
    kind: str
    commands: list[str]
    """Command ``type`` values that answer this decision."""
    deadline: str | None
    default: str
    """What the server does at the deadline if you have not decided."""
    cards: list[str] = []
    """The cards you may choose among (setup: your hand; plot: your plot deck; claim: your characters;
    reserve: your hand; marshal: the cards you may marshal now; action: the cards you may ambush;
    intimidate: the characters you may kneel)."""
    count: int | None = None
    """How many cards to choose (claim, reserve), or None."""
    budget: int | None = None
    """Setup: the printed cost you may spend (8); marshal: your gold."""
    attach_targets: dict[str, list[str]] = {}
    """Marshal and action: for each attachment you may put into play, the characters it may go on;
    setup: every attachment of your hand -> the characters of your hand it may go on (set up too; none:
    the attachment cannot be set up)."""
    costs: dict[str, int] = {}
    """Setup: each card's printed cost (their sum, duplicates aside, is at most ``budget``)."""
    limited: list[str] = []
    """Setup: the Limited cards among ``cards`` (at most one of them may be set up)."""
    unique_titles: dict[str, str] = {}
    """Setup: the unique cards among ``cards`` -> their title. A further copy of a title you set up
    goes under the first as a duplicate: it costs nothing and takes no attachment."""
    seats: list[str] = []
    """First player: the seats you may choose; regent (melee): the opponents the attacker could
    redirect to; redirect: the opponents you may redirect your challenge to."""
    challenge_types: dict[str, list[str]] = {}
    """Challenge: each type you may still start -> its eligible attackers; defend: the challenge's
    type -> your eligible defenders."""
    actions: dict[str, list[str]] = {}
    """Marshal, action: each card whose Action you may use now -> its legal targets (empty: none)."""
    events: dict[str, list[str]] = {}
    """Marshal, action, reaction: each event of your hand you may play now -> its legal targets (empty: none)."""
    ambush_costs: dict[str, list[int]] = {}
    """Action: each card you may ambush -> its Ambush costs X, lowest first (CG-KEY-10: the same
    Ambush from several sources counts once; with several X, ``ambush_card``'s ``x`` picks one,
    default the lowest)."""
    interrupts: dict[str, list[str]] = {}
    """Save: each card of yours whose interrupt may save -> the characters about to be killed it may
    save; cancel: each card of yours that may cancel the event just played -> [that event]."""
    stealth_targets: list[str] = []
    """Challenge: the defender's characters an attacker with stealth may bypass (melee: those of every
    opponent; a stealth target must be a character of the chosen ``defender``)."""
    must_defend: list[str] = []
    """Defend: your characters that must be among the defenders (Dornish Paramour)."""
    stealth_attackers: list[str] = []
    """Challenge: your eligible attackers with stealth (each may bypass a different one of
    ``stealth_targets``: ``stealth`` of ``declare_challenge``)."""
    max_cards: int | None = None
    """Challenge, defend: the most attackers (defenders) you may declare in this challenge (Jousting
    Contest, The Knight of Flowers); None: as many as are eligible."""
    prompt: str | None = None
    """Ability: the card and its text asking for targets (``cards`` are the options, ``count`` how many)."""
    default_targets: list[str] = []
    """Ability: what the deadline picks (the card's documented default)."""
    opponents: dict[str, list[str]] = {}
    """Challenge (melee only): each type you may still start -> the opponents you may initiate it
    against (``defender`` of ``declare_challenge``; CG-MELEE-04 and the Hand of the King's second
    power challenge already applied). Empty in a joust."""
    stealth_by_opponent: dict[str, list[str]] = {}
    """Challenge (melee only): each opponent -> its characters a stealth attacker may bypass when
    that opponent defends (``stealth_targets`` lists them all)."""
    submitted: bool = False
    """Setup and plot: you have sealed a choice already (you may amend it until every seat is in)."""


class CardDecisionsOut(msgspec.Struct):
    game_id: str
    version: int
    phase: str
    step: str
    """What the game waits for: a decision's kind, ``reveal`` (the system), ``lobby`` or ``ended``."""
    decisions: list[CardDecision]
    """What you must decide now (empty if nothing)."""
    waiting_for: list[str]
    """The seats the game waits for."""


def decision_of(state: CardState, seat: str) -> CardDecision | None:
    s = state
    step = s.step
    sealed = step in ("setup", "plot") and bool(s.waiting)
    if seat not in s.waiting and not (sealed and s.has_seat(seat)):
        return None
    d = CardDecision(seat_id=seat, kind=step, commands=COMMANDS[step], deadline=s.deadline, default=DEFAULTS[step])
    p = s.player(seat)
    match step:
        case "setup":
            d.cards = [c for c in p.hand if s.record(c).type in ("character", "location", "attachment")]
            d.budget = SETUP_GOLD
            d.costs = {c: s.record(c).printed_cost for c in d.cards}
            d.limited = [c for c in d.cards if s.record(c).limited]
            d.unique_titles = {c: s.record(c).name for c in d.cards if s.record(c).unique}
            d.attach_targets = setup_attach_targets(s, seat)
            d.submitted = p.setup is not None
        case "plot":
            d.cards = sorted(p.plots, key=lambda i: int(i.split("-p")[1]))
            d.submitted = p.chosen_plot is not None
        case "first_player":
            d.seats = s.alive()
        case "regent":
            ch = s.challenge
            assert ch is not None
            d.seats = titles.redirect_options(s)
            d.prompt = f"Crown Regent: force {ch.attacker} to redirect its {ch.type} challenge against {ch.defender}?"
        case "redirect":
            d.seats = titles.redirect_options(s)
            d.prompt = "Crown Regent: redirect your challenge to one of these opponents"
        case "title":
            d.cards = titles.available(s)
            d.default_targets = [titles.default_pick(s, seat)]
            d.prompt = "choose your title for this round in secret (CG-PHASE-05)"
        case "marshal":
            options = marshaling.marshalable(s, seat)
            d.cards = list(options)
            d.attach_targets = {c: t for c, t in options.items() if t}
            d.ambush_costs = {c: current.ambush_costs(s, c) for c in options}
            d.budget = p.gold
            d.actions, d.events = actions.card_actions(s, seat), actions.playable_events(s, seat)
        case "challenge":
            d.challenge_types = {t: challenges.eligible(s, seat, t) for t in challenges.open_types(s, seat)}
            if s.melee:
                d.opponents = {t: challenges.opponents_for(s, seat, t) for t in d.challenge_types}
                d.stealth_by_opponent = {o: challenges.stealth_targets(s, o) for o in s.opponents(seat)}
                d.stealth_targets = [c for o in s.opponents(seat) for c in d.stealth_by_opponent[o]]
            else:
                d.stealth_targets = challenges.stealth_targets(s, s.opponent(seat))
            d.stealth_attackers = challenges.stealth_attackers(s, seat, list(d.challenge_types.values()))
            d.max_cards = current.participant_limit(s, seat, "attackers")
        case "defend":
            ch = s.challenge
            assert ch is not None
            d.challenge_types = {ch.type: challenges.eligible(s, seat, ch.type, exclude=ch.bypassed, defending=True)}
            d.max_cards = current.participant_limit(s, seat, "defenders")
            d.must_defend = challenges.must_defend(s, seat)
        case "claim":
            d.cards = [x.card for x in s.characters(seat)]
            d.count = challenges.claim_size(s)
        case "action":
            options = actions.ambushes(s, seat)
            d.cards = list(options)
            d.attach_targets = {c: t for c, t in options.items() if t}
            d.ambush_costs = {c: current.ambush_costs(s, c) for c in options}
            d.budget = p.gold
            d.actions, d.events = actions.card_actions(s, seat), actions.playable_events(s, seat)
        case "intimidate":
            d.cards = challenges.intimidate_targets(s)
        case "cancel":
            pe = s.pending_event
            assert pe is not None
            d.interrupts = actions.cancels_of(s, seat, pe.card)
            d.cards = [pe.card]
            d.prompt = f"cancel {s.record(pe.card).name}?"
        case "save":
            k = s.killing
            assert k is not None
            d.interrupts = actions.saves_of(s, seat, k.victims)
            d.cards = list(k.victims)
        case "reaction":
            r = s.reactions
            assert r is not None
            d.events = actions.reactions_of(s, seat, r.trigger)
            d.prompt = f"react to: {r.trigger}"
        case "ability":
            c = s.choice
            assert c is not None
            d.cards, d.count, d.prompt, d.default_targets = list(c.options), c.count, c.prompt, list(c.default)
        case "reserve":
            d.cards = list(p.hand)
            d.count = taxation.over_reserve(s, seat)
    return d


def decisions_for(state: CardState, seat_id: str | None) -> CardDecisionsOut:
    """The decisions of ``seat_id`` (None: a spectator, who has none) and whom the game waits for."""
    decisions = []
    if seat_id is not None and state.has_seat(seat_id) and state.phase not in ("lobby", "ended"):
        d = decision_of(state, seat_id)
        if d is not None:
            decisions.append(d)
    step = "reveal" if pending_system_work(state) else state.step
    return CardDecisionsOut(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        step=step,
        decisions=decisions,
        waiting_for=list(state.waiting),
    )
