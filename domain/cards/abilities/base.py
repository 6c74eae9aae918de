"""What a card ability is: one object per card code, with a hook per timing point it uses.

The ability engine is data-driven: :mod:`.registry` maps a card code to its :class:`Ability`
(each card's ability is one small named class in its faction's module, its docstring quoting the
card's text). The rules ask the registry at fixed points; an ability overrides only the hooks it
needs and inherits a no-op for the others:

* **constant** effects are *queries* (``strength_bonus``, ``challenge_limit``, ``may_start``,
  ``may_marshal``, ``cost_reduction``, ``limited_allowance``, ``base_gold_zero``...): nothing is
  stored, every current value is computed from the state by :mod:`..current`, so replaying the
  events gives the same state byte for byte;
* **when revealed** (CG-PHASE-04), **reactions** (after a challenge is won, after dominance is
  won) and **forced** effects (as a phase begins) are *hooks* that emit events through the
  :class:`~..emitter.Emitter`; every random outcome they need is drawn from the seed there and
  written into the event, so the audit re-derives it;
* **limits** (once per phase/round) are keys in ``CardState.used_abilities`` written by
  :class:`~..events.CardsAbilityUsed` and cleared as the phase or round ends (:mod:`..evolve`).

A source is *active* when it is a revealed plot (its owner's) or a card in play (its controller's),
unless its text is blank (:func:`..current.text_blank`: Fortified Position).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol

from .. import events as ev
from ..catalog import CardRecord
from ..emitter import Emitter
from ..state import AbilityChoice, CardState, Challenge, Lasting

Kind = Literal["constant", "reaction", "interrupt", "action", "when_revealed", "forced", "persistent"]


class Query(Protocol):
    """The current values the Actions read (:mod:`..current`, handed over by the engine: a faction
    module cannot import it, that would close an import cycle through the registry)."""

    def strength(self, state: CardState, iid: str) -> int: ...

    def has_icon(self, state: CardState, iid: str, challenge: str) -> bool: ...


class Ability:
    """A card's ability. ``source`` is the instance id of the card (a plot or a card in play) and
    ``owner`` the seat whose ability it is (a plot's owner, a card's controller)."""

    code: ClassVar[str] = ""
    kinds: ClassVar[tuple[Kind, ...]] = ()
    every_player_chooses: ClassVar[bool] = False
    """A When Revealed that asks each player in turn (Marched to the Wall, Wildfire Assault):
    :meth:`choice` is asked again after each answer (the answers are in ``state.choices_made``)
    until it returns None; then :meth:`when_revealed` resolves them all at once."""
    kills_at_zero_strength: ClassVar[bool] = False
    """After its choice resolves, each chosen character whose current STR is 0 is killed (Plaza of
    Punishment; :func:`.triggers.resolve_choice` reads the current STR)."""
    enters_play_kneeling: ClassVar[bool] = False
    """The card enters play kneeling (Sansa Stark): :func:`.triggers.entered` kneels it."""
    complete: ClassVar[bool] = True
    """False for a card of which only a part is built (Bodyguard's restriction, not its save):
    registered for that part, but not counted as working (:func:`.registry.works`)."""

    # -- constant effects (queries; never stored) --------------------------------------------

    def strength_bonus(self, state: CardState, source: str, owner: str, target: str) -> int:
        """STR this source adds to the character ``target`` (may be negative)."""
        return 0

    def icon_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        """Challenge icons this source gives the character ``target``."""
        return ()

    def icon_removals(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        """Challenge icons the character ``target`` loses because of this source (Maester Caleotte)."""
        return ()

    def keyword_grants(self, state: CardState, source: str, owner: str, target: str) -> tuple[str, ...]:
        """Keywords this source gives the card ``target``."""
        return ()

    def blanks_text_of(self, state: CardState, source: str, owner: str, target: str) -> bool:
        """Whether ``target``'s printed text box counts as blank because of this source (Milk of the Poppy)."""
        return False

    def dominance_bonus(self, state: CardState, source: str, owner: str, seat: str) -> int:
        """STR this source counts toward ``seat``'s dominance total (The Iron Throne)."""
        return 0

    def reserve_modifier(self, state: CardState, source: str, owner: str, seat: str) -> int:
        """Change to ``seat``'s reserve beyond printed modifiers (Alannys Greyjoy)."""
        return 0

    def kneels_to_attack(self, state: CardState, source: str, owner: str, attacker: str, challenge: str) -> bool:
        """False when ``attacker`` (this card) does not kneel when declared in a ``challenge`` challenge."""
        return True

    def defends_kneeling(self, state: CardState, source: str, owner: str, challenge: str) -> bool:
        """Whether this character may be declared as a defender while kneeling."""
        return False

    def forbids_defending(self, state: CardState, source: str, owner: str, target: str) -> bool:
        """Whether the character ``target`` may not be declared as a defender because of this source (Ghost)."""
        return False

    def must_defend(self, state: CardState, source: str, owner: str, target: str) -> bool:
        """Whether the character ``target`` must be declared as a defender in the current challenge if able (Dornish Paramour)."""
        return False

    def kneels_to_defend(self, state: CardState, source: str, owner: str, defender: str) -> bool:
        """False when ``defender`` (this card) does not kneel when declared as a defender."""
        return True

    def may_attach(self, state: CardState, source: str, target: str) -> str | None:
        """For an attachment being put on ``target`` (``source`` is the attachment, not yet in
        play): why it may not go there (None: it may). Asked of the attachment's own ability."""
        return None

    def forbids_triggers(self, state: CardState, source: str, owner: str, seat: str) -> bool:
        """Whether ``seat`` may not trigger card abilities now because of this source (Catelyn Stark)."""
        return False

    def challenge_limit(self, state: CardState, source: str, owner: str, seat: str) -> int | None:
        """The most challenges ``seat`` may initiate this phase (None: no limit from here)."""
        return None

    def extra_challenges(self, state: CardState, source: str, owner: str, seat: str) -> tuple[str, ...]:
        """Challenge types ``seat`` may initiate once more this phase."""
        return ()

    def may_start(self, state: CardState, source: str, owner: str, seat: str, challenge: str) -> str | None:
        """Why ``seat`` may not start a ``challenge`` challenge now (None: it may)."""
        return None

    def may_marshal(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> str | None:
        """Why ``seat`` may not marshal ``rec`` (None: it may)."""
        return None

    def cost_reduction(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> int:
        """Gold off ``rec``'s cost when ``seat`` marshals it (see :meth:`on_marshaled` for its limit)."""
        return 0

    def limited_allowance(self, state: CardState, source: str, owner: str, seat: str) -> int:
        """Extra Limited cards ``seat`` may marshal this round."""
        return 0

    def base_gold_zero(self, state: CardState, source: str, owner: str, plot: CardRecord) -> bool:
        """Whether the revealed ``plot``'s base gold counts as 0."""
        return False

    def blanks_character_text(self) -> bool:
        """Whether every character's printed text box counts as blank while this is active."""
        return False

    def claim_modifier(self, state: CardState, source: str, owner: str, challenge: Challenge) -> int:
        """Change to the attacker's claim in ``challenge``."""
        return 0

    def participant_limit(self, state: CardState, source: str, owner: str, seat: str, side: str) -> int | None:
        """The most characters ``seat`` may declare as ``side`` (``attackers`` or ``defenders``) in
        the current or next challenge (None: no limit from here; Jousting Contest)."""
        return None

    def ambush_cost(self, state: CardState, source: str, owner: str, card: str) -> int | None:
        """An Ambush cost this source gives ``card`` in its owner's hand (None: none; The Wolfswood)."""
        return None

    def protects_from_stealth(self, state: CardState, source: str, owner: str, target: str) -> bool:
        """Whether ``target`` cannot be bypassed by stealth because of this source (Benjen Stark)."""
        return False

    def counts_as_attacking(self, state: CardState, source: str, owner: str, challenge: Challenge) -> bool:
        """Whether this character (``source``), not declared, counts as an attacker in ``challenge`` (Jon Snow)."""
        return False

    # -- triggered effects (emit events) -----------------------------------------------------

    def choice(self, state: CardState, source: str, owner: str) -> AbilityChoice | None:
        """A When Revealed that needs targets: the choice to offer (None: no choice, resolve at
        once with :meth:`when_revealed`). Options among hidden cards (a searched deck, a hand) set
        ``hidden`` so that :mod:`..redaction` shows them to the chooser only. Triggered abilities
        at other timing points ask with :func:`ask` instead."""
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        """Resolve the ability with the targets chosen (checked against the options)."""

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        """The limit key an answered choice uses up (a plot's When Revealed: ``round:<plot>``;
        None for a reaction with no limit, as Yoren's; a ``phase:`` key naming the targets keeps
        a lasting "until the end of the phase" effect: Maester Caleotte's)."""
        return f"round:{source}"

    def when_revealed(self, em: Emitter, source: str, owner: str) -> None:
        """CG-PHASE-04: the plot was revealed."""

    def after_challenge_won(self, em: Emitter, source: str, owner: str, challenge: Challenge, winner: str) -> None:
        """Reaction: ``winner`` won ``challenge`` (after claim and keywords)."""

    def after_dominance(self, em: Emitter, source: str, owner: str, winner: str) -> None:
        """Reaction: ``winner`` won dominance."""

    def phase_begins(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        """Forced: ``phase`` begins."""

    def after_declared(self, em: Emitter, source: str, owner: str, challenge: Challenge) -> None:
        """Reaction: a challenge was initiated (after attackers are declared)."""

    def after_killed(self, em: Emitter, source: str, owner: str, killed: list[str], seat: str) -> None:
        """Reaction: ``seat``'s characters ``killed`` went to the dead pile (``source`` may be one of them)."""

    def after_stood(self, em: Emitter, source: str, owner: str, cards: list[str]) -> None:
        """Reaction: ``cards`` stood (the standing phase, or an ability: Robb Stark)."""

    def after_ambushed(self, em: Emitter, source: str, owner: str) -> None:
        """This card entered play by Ambush (CG-KEY-06)."""

    def phase_ends(self, em: Emitter, source: str, owner: str, phase: str) -> None:
        """Forced or interrupt: ``phase`` ends (before the next begins)."""

    def when_killed(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        """This card (``source``, now in the dead pile) was killed ("when he is killed").
        ``resume``: where the game goes on if the ability asks for a choice (``claim``: after a
        military claim's kills); None when the kill is part of another ability's resolution, which
        cannot wait: a choice then takes its documented default at once (:func:`choose`)."""

    def when_leaves_play(self, em: Emitter, source: str, owner: str, resume: str | None) -> None:
        """This card (``source``, now out of play) left play: killed, discarded, sacrificed or
        returned to hand (Viserys Targaryen). ``resume`` as for :meth:`when_killed`."""

    def when_enters_play(self, em: Emitter, source: str, owner: str) -> None:
        """Reaction: this card (``source``) entered play, marshaled, put into play or ambushed,
        not at setup (Arya Stark)."""

    def after_strength_raised(self, em: Emitter, source: str, owner: str, target: str) -> None:
        """Reaction: a card effect raised the STR of ``target`` (a lasting +STR: Randyll Tarly)."""

    def on_marshaled(self, em: Emitter, source: str, owner: str, seat: str, rec: CardRecord) -> None:
        """After ``seat`` marshaled ``rec`` (e.g. a once-per-round cost reduction records its use)."""

    # -- actions (CG-POOL-06: used in action windows, :mod:`..phases.actions`) ---------------

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        """An Action of ``source`` (a card ``owner`` controls, or an event in ``owner``'s hand):
        None when it cannot be used now (its condition, costs or limit; no legal target); ``[]``
        when it takes no target; else its legal targets (cards, or challenge types). The phase
        is checked by the engine from the card's ``action_windows``."""
        return None

    saves_from_discard: ClassVar[bool] = False
    """A save interrupt that also saves from being discarded from play (Bodyguard)."""

    def save_targets(self, state: CardState, source: str, owner: str, victims: list[str]) -> list[str] | None:
        """A save interrupt (CG-POOL-06): which of ``owner``'s ``victims`` (about to be killed)
        ``source`` may save now (None or []: none)."""
        return None

    def save(self, em: Emitter, source: str, owner: str, target: str) -> None:
        """Pay the save's cost; the engine then writes that ``target`` is saved."""

    def cancels(self, state: CardState, source: str, owner: str, event: str) -> bool:
        """A cancel interrupt: whether ``source`` (in play, or an event in ``owner``'s hand) may
        cancel the opponent's ``event`` now (its cost payable)."""
        return False

    def pay_cancel(self, em: Emitter, source: str, owner: str, event: str) -> None:
        """Pay the cancel's cost (the engine has written the cancel)."""

    def reaction_targets(self, state: CardState, source: str, owner: str, trigger: str, now: Query) -> list[str] | None:
        """A reaction event in ``owner``'s hand after ``trigger`` (``challenge_won``: the current
        challenge's result is in ``state.challenge``): None when it cannot be played now; ``[]``
        without a target; else its targets. It resolves with :meth:`action`."""
        return None

    def event_cost(self, state: CardState, source: str, owner: str, target: str | None) -> int:
        """The gold an event costs to play with ``target`` (its printed cost; X events compute it)."""
        return state.record(source).printed_cost

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        """Pay the Action's costs (kneel, sacrifice, gold) and resolve it with ``target`` (checked
        against :meth:`action_targets`). An event is already paid and in the discard pile."""

    def after_marshaled_self(self, em: Emitter, source: str, owner: str) -> None:
        """Reaction: this card (``source``) was marshaled by ``owner`` (Littlefinger)."""


def pick_opponent(state: CardState, owner: str, score: Callable[[str], int]) -> str:
    """The opponent a card's "choose an opponent" names. A joust: the opponent. A melee (documented
    simplification, docs/card-game.md): not asked; the opponent with the highest ``score`` (the
    owner's best choice for that card), the first in player order from the owner's left on ties."""
    if not state.melee:
        return state.opponent(owner)
    return max(state.opponents(owner), key=score)


def opponents_characters(state: CardState, owner: str) -> list[str]:
    """The characters every opponent controls (a joust: the opponent's), in player order from the
    owner's left, each seat's in the order they entered play."""
    return [p.card for seat in state.opponents(owner) for p in state.characters(seat)]


def announce(em: Emitter, ability: Ability, source: str, owner: str, limit: str | None = None) -> None:
    """Write that ``ability`` resolved (the log's line; ``limit`` uses up a once-per key)."""
    text = (ability.__doc__ or "").strip().splitlines()[0]
    em.emit(ev.CardsAbilityUsed(seat_id=owner, card=source, code=em.state.cards[source], text=text, limit=limit))


def ask(em: Emitter, choice: AbilityChoice) -> bool:
    """A triggered ability asks for targets now (``choice.resume`` says where the game goes on):
    the ``ability`` step opens for ``choice.seat``. Not asked when it has no option, or when
    another choice waits already (one at a time; no two such reactions share a timing point in
    the four legal decks). True when asked."""
    if not choice.options or em.state.choice is not None:
        return False
    em.emit(ev.CardsChoiceOffered(choice=choice))
    em.open_step("ability", [choice.seat])
    return True


def ask_one(
    em: Emitter, ability: Ability, source: str, owner: str, options: list[str], default: list[str], resume: str
) -> bool:
    """:func:`ask` for one target among ``options``, prompted with the card's text (the usual
    reaction's choice)."""
    choice = AbilityChoice(
        seat=owner, card=source, options=options, count=1, prompt=prompt(ability), default=default, resume=resume
    )
    return ask(em, choice)


def choose(
    em: Emitter,
    ability: Ability,
    source: str,
    owner: str,
    options: list[str],
    default: list[str],
    resume: str | None,
) -> None:
    """An interrupt's choice of one target among ``options`` ("of your choice") that fires inside
    another step: asked (:func:`ask_one`) when the game can wait for it there (``resume``: the
    claim's kills); else, inside another ability's resolution that cannot stop halfway, it
    resolves at once with the documented ``default`` (written as the ability's use). Nothing
    without an option."""
    if not options:
        return
    if resume is not None and ask_one(em, ability, source, owner, options, default, resume):
        return
    announce(em, ability, source, owner)
    ability.resolve_choice(em, source, owner, default)


def kill_one(em: Emitter, victim: str) -> None:
    """A card ability kills ``victim`` (if still in play) for its controller: :func:`kill`."""
    placed = em.state.in_play.get(victim)
    if placed is not None:
        kill(em, placed.controller, [victim])


def prompt(ability: Ability) -> str:
    """The ability's prompt: its docstring's first line, the card's text."""
    return (ability.__doc__ or "").strip().splitlines()[0]


def stand(em: Emitter, source: str, cards: list[str]) -> None:
    """Stand the kneeling ones of ``cards`` by ``source``'s ability (nothing when all stand)."""
    kneeling = [c for c in cards if c in em.state.in_play and em.state.in_play[c].kneeling]
    if kneeling:
        em.emit(ev.CardsKneelingChanged(cards=kneeling, kneeling=False, card=source))


def kneel(em: Emitter, source: str, cards: list[str]) -> None:
    """Kneel the standing ones of ``cards`` by ``source``'s ability (a cost or an effect)."""
    standing = [c for c in cards if c in em.state.in_play and not em.state.in_play[c].kneeling]
    if standing:
        em.emit(ev.CardsKneelingChanged(cards=standing, kneeling=True, card=source))


def standing(state: CardState, card: str) -> bool:
    """Whether ``card`` is in play and standing (a kneel cost can be paid)."""
    return card in state.in_play and not state.in_play[card].kneeling


def lasting(em: Emitter, source: str, target: str, until: Literal["challenge", "phase", "round"], **what: Any) -> None:
    """A lasting effect on ``target`` until the end of the challenge or phase (``strength``,
    ``icon``, ``claim``, ``at_end``: see :class:`~..state.Lasting`)."""
    em.emit(ev.CardsEffectApplied(effect=Lasting(source=source, target=target, until=until, **what)))


Saver = tuple["Ability", str, list[str]]
"""A save interrupt available now: its ability, its card, the victims it may save."""

SAVES: list[Callable[[CardState, str, list[str], bool], list[Saver]]] = []
"""How the engine finds ``seat``'s save interrupts for ``victims`` (with ``True``: against a
discard from play): :func:`..phases.actions.save_interrupts`, installed by that module (an
ability module cannot import it: that would close an import cycle through the registry, as for
:class:`Query`)."""

NO_SAVE = "none"
"""The option of a save choice that saves nobody (its default)."""


def savers(state: CardState, seat: str, victims: list[str], discard: bool = False) -> list[Saver]:
    return [s for lookup in SAVES for s in lookup(state, seat, victims, discard)]


def kill(em: Emitter, seat: str, cards: list[str], declined: tuple[str, ...] = ()) -> list[str]:
    """Kill ``seat``'s characters ``cards`` by an ability. First a duplicate saves a card
    (CG-UNIQUE-03, always used, as for claim); then the save interrupts (CG-POOL-06; review 2:
    saves are offered first): when ``seat`` holds one (Bodyguard, Maester Aemon) and the game can
    wait here (``em.resume``), the victims it may save wait for ``seat``'s choice (the ``ability``
    step: save one of them or ``none``, default ``none``, as the claim's save step declines by
    default; :class:`SaveChoice` resolves it, the game goes on at ``em.resume``); where the game
    cannot wait (a kill as a phase ends: Tears of Lys), the save is used at once (the player's
    best choice, as a duplicate's); a saving card in ``declined`` was asked already for these
    victims. The others go to the dead pile. Returns those killed now; the engine runs the
    "killed" triggers after the ability resolved."""
    rest = []
    for c in cards:
        dups = em.state.in_play[c].duplicates
        if dups:
            em.emit(ev.CardsDuplicateDiscarded(seat_id=seat, duplicate=dups[0], saved=c))
        else:
            rest.append(c)
    found = [f for f in savers(em.state, seat, rest) if f[1] not in declined] if rest else []
    if found and em.resume is not None and em.state.choice is None:
        ability, saver, targets = found[0]
        now = [c for c in rest if c not in targets]
        if now:
            em.emit(ev.CardsCharactersKilled(seat_id=seat, cards=now))
        choice = AbilityChoice(
            seat=seat,
            card=saver,
            options=[*targets, NO_SAVE],
            count=1,
            prompt=f"{prompt(ability)} (save one of {', '.join(targets)}, or {NO_SAVE})",
            default=[NO_SAVE],
            resume=em.resume,
        )
        ask(em, choice)
        return now
    if found:
        ability, saver, targets = found[0]
        em.emit(ev.CardsSaved(seat_id=seat, card=saver, saved=targets[0]))
        ability.save(em, saver, seat, targets[0])
        return kill(em, seat, [c for c in rest if c != targets[0]], declined)
    if rest:
        em.emit(ev.CardsCharactersKilled(seat_id=seat, cards=rest))
    return rest


def discard_from_play(em: Emitter, cards: list[str], source: str) -> None:
    """``source``'s ability discards ``cards`` from play: a duplicate saves a card (CG-UNIQUE-03,
    always used), then a save from being discarded (Bodyguard) is used at once (the player's best
    choice, documented: the discards that can meet one resolve inside another ability)."""
    gone = []
    for c in cards:
        placed = em.state.in_play[c]
        found = savers(em.state, placed.controller, [c], discard=True)
        if placed.duplicates:
            em.emit(ev.CardsDuplicateDiscarded(seat_id=placed.controller, duplicate=placed.duplicates[0], saved=c))
        elif found:
            ability, saver, _ = found[0]
            em.emit(ev.CardsSaved(seat_id=placed.controller, card=saver, saved=c))
            ability.save(em, saver, placed.controller, c)
        else:
            gone.append(c)
    if gone:
        em.emit(ev.CardsDiscardedFromPlay(cards=gone, card=source))


class SaveChoice(Ability):
    """Base of a save interrupt's choice against an ability's kill (:func:`kill`): the chosen
    victim is saved (the cost paid by :meth:`Ability.save`), the others of the choice are killed
    (another save may then be asked for them)."""

    def choice_limit(self, state: CardState, source: str, chosen: list[str]) -> str | None:
        return None

    def resolve_choice(self, em: Emitter, source: str, owner: str, chosen: list[str]) -> None:
        victims = [v for v in (em.answered.options if em.answered else []) if v != NO_SAVE]
        if chosen != [NO_SAVE]:
            em.emit(ev.CardsSaved(seat_id=owner, card=source, saved=chosen[0]))
            self.save(em, source, owner, chosen[0])
        rest = [v for v in victims if v not in chosen and v in em.state.in_play]
        if rest:
            kill(em, owner, rest, (source,))


def won_by(state: CardState, owner: str, kind: str | None = None, role: str | None = None, margin: int = 0) -> bool:
    """Whether ``owner`` won the challenge just resolved (of ``kind``, as ``attacker``/``defender``,
    by ``margin`` STR or more)."""
    ch = state.challenge
    if ch is None or ch.winner != owner or ch.margin < margin or (kind is not None and ch.type != kind):
        return False
    return role is None or (ch.attacker if role == "attacker" else ch.defender) == owner


def lost_by(state: CardState, owner: str, kind: str | None = None, role: str | None = None) -> bool:
    """Whether ``owner`` lost the challenge just resolved (of ``kind``, as ``attacker``/``defender``)."""
    ch = state.challenge
    if ch is None or ch.winner is None or ch.winner == owner or owner not in (ch.attacker, ch.defender):
        return False
    if kind is not None and ch.type != kind:
        return False
    return role is None or (ch.attacker if role == "attacker" else ch.defender) == owner


def characters_in_play(state: CardState) -> list[str]:
    return [p.card for p in state.in_play.values() if state.record(p.card).type == "character"]


def bearer(state: CardState, attachment: str) -> str | None:
    """The card an attachment in play is attached to."""
    placed = state.in_play.get(attachment)
    return placed.attached_to if placed is not None else None


def participates(state: CardState, card: str) -> bool:
    ch = state.challenge
    return ch is not None and (card in ch.attackers or card in ch.defenders)


def controls(state: CardState, seat: str, *, trait: str | None = None, name: str | None = None) -> list[str]:
    """The cards ``seat`` controls in play with ``trait`` (or named ``name``)."""
    return [
        p.card
        for p in state.controlled(seat)
        if (trait is None or trait in state.record(p.card).traits)
        and (name is None or state.record(p.card).name == name)
    ]


def limit_free(state: CardState, key: str, times: int) -> str | None:
    """The first unused key of a "``times`` per phase/round" limit (``phase:<card>``...), None: used up."""
    for n in range(1, times + 1):
        k = key if times == 1 else f"{key}#{n}"
        if k not in state.used_abilities:
            return k
    return None


class PrintedOnly(Ability):
    """Base of a card whose text is only keywords and printed "+N income/initiative/reserve"
    modifiers, which the framework resolves (CG-GEN-08, CG-KEY-*): it has no hook of its own and is
    registered so that the coverage counts it as implemented."""

    kinds = ("constant",)


class NextCheaper(Ability):
    """Base of the marshaling cost reducers: "Marshaling Action: kneel this card: the next
    ``faction`` card (of ``card_type``; None: any card) you marshal this phase costs 1 gold less".

    Each use writes the key ``phase:<card>#<n>``; the marshal it reduces writes
    ``phase:spent:<card>#<n>``, so a reduction waits for the next matching card only and ends
    with the phase. The reduction is read while the reducer is in play (documented). It is offered
    only while its controller is the active player marshaling: used at another moment, it changes
    nothing more (the reduction waits for the controller's marshaling anyway), and an ability that
    would not change the game state is not offered (card-game.md, review 2)."""

    kinds = ("action", "constant")
    faction: ClassVar[str] = ""
    card_type: ClassVar[str | None] = "character"

    def action_targets(self, state: CardState, source: str, owner: str, now: Query) -> list[str] | None:
        return [] if standing(state, source) and state.step == "marshal" and state.active == owner else None

    def action(self, em: Emitter, source: str, owner: str, target: str | None, now: Query) -> None:
        kneel(em, source, [source])
        announce(em, self, source, owner, limit=limit_free(em.state, f"phase:{source}", 99))

    def _pending(self, state: CardState, source: str) -> str | None:
        for key in state.used_abilities:
            if key.startswith(f"phase:{source}#") and f"phase:spent:{key[6:]}" not in state.used_abilities:
                return f"phase:spent:{key[6:]}"
        return None

    def _applies(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> bool:
        return (
            seat == owner
            and state.phase == "marshaling"
            and rec.faction == self.faction
            and (self.card_type is None or rec.type == self.card_type)
            and self._pending(state, source) is not None
        )

    def cost_reduction(self, state: CardState, source: str, owner: str, seat: str, rec: CardRecord) -> int:
        return 1 if self._applies(state, source, owner, seat, rec) else 0

    def on_marshaled(self, em: Emitter, source: str, owner: str, seat: str, rec: CardRecord) -> None:
        if self._applies(em.state, source, owner, seat, rec):
            announce(em, self, source, owner, limit=self._pending(em.state, source))
