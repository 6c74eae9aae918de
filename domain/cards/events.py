"""The card game's events: a tagged union of immutable msgspec Structs (``type`` is the tag).

Every tag starts with ``cards_``. Events are facts in the past tense; every random outcome (each
shuffle, the first player, an initiative tie, an intrigue claim's random discard) is written into
one. Fields marked *hidden* are removed by :mod:`.redaction` for readers who may not see them.
"""

from __future__ import annotations

import msgspec

from .decks import ResolvedDeck
from .state import AbilityChoice, CardSettings, Lasting, SetupPick

SCHEMA_VERSION = 1


class Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class SeatDeck(msgspec.Struct, frozen=True):
    """A seat's legal deck and the instance ids of its cards (``s1-07`` -> a code; plots ``s1-p3``)."""

    seat_id: str
    deck: ResolvedDeck
    cards: dict[str, str]


class CardsGameCreated(Event, frozen=True, tag="cards_game_created"):
    """A joust was created with a legal deck per seat (CG-GEN-01/02). Always the first event."""

    game_id: str
    player_count: int
    settings: CardSettings
    seed_commitment: str
    decks: list[SeatDeck]


class CardsSeatJoined(Event, frozen=True, tag="cards_seat_joined"):
    seat_id: str
    name: str


class CardsGameStarted(Event, frozen=True, tag="cards_game_started"):
    """Every seat is taken; the first player is drawn at random (CG-SETUP-02): ``order`` is the
    seats shuffled by the seed (``start/first_player``), the first of it is the first player."""

    order: list[str]
    first_player: str


class CardsDeckShuffled(Event, frozen=True, tag="cards_deck_shuffled"):
    """A seat's draw deck was shuffled (CG-SETUP-05, CG-SETUP-06); ``number`` names the random stream
    ``shuffle/<seat>/<number>``. ``order`` (top first) is hidden from everyone until the end."""

    seat_id: str
    number: int
    order: list[str] | None
    """Hidden."""


class CardsDrawn(Event, frozen=True, tag="cards_drawn"):
    """A seat drew ``count`` cards from the top of its deck; ``cards`` is hidden from the other seat."""

    seat_id: str
    count: int
    cards: list[str] | None
    """Hidden (but from the seat itself)."""
    reason: str = "draw"
    """``setup``, ``mulligan``, ``draw`` (the draw phase), ``insight``."""


class CardsStepOpened(Event, frozen=True, tag="cards_step_opened"):
    """The game waits for ``seats`` to decide ``step`` until ``deadline`` (then the default applies)."""

    step: str
    seats: list[str]
    deadline: str


class CardsMulliganChosen(Event, frozen=True, tag="cards_mulligan_chosen"):
    """A seat kept its 7 cards or took its one mulligan (CG-SETUP-06): the hand goes back into the
    deck, which is shuffled, and 7 new cards are drawn and kept."""

    seat_id: str
    mulligan: bool
    by_default: bool = False


class CardsSetupChosen(Event, frozen=True, tag="cards_setup_chosen"):
    """A seat put its setup cards face down (CG-SETUP-07); amendable until every seat is in."""

    seat_id: str
    count: int
    """How many cards are face down (public, as at the table)."""
    cards: list[SetupPick] | None
    """Hidden (but from the seat itself) until the reveal."""
    by_default: bool = False
    salt: str | None = None
    """Hidden with ``cards``: the salt of the commitment (domain/cards/sealed.py)."""
    commitment: str = ""
    """Public at once: sha256 over the choice and its salt, opened by the reveal."""


class Placement(msgspec.Struct, frozen=True):
    """Where a card entered play: ``as_`` is ``character``, ``location``, ``attachment`` (``on`` the
    card it is attached to) or ``duplicate`` (``on`` the unique card it is placed under)."""

    card: str
    code: str
    as_: str = msgspec.field(name="as")
    on: str | None = None


class CardsSetupRevealed(Event, frozen=True, tag="cards_setup_revealed"):
    """Every setup card is revealed at once and placed (CG-SETUP-08/10), standing."""

    placed: dict[str, list[Placement]]
    chosen: dict[str, list[SetupPick]] = {}
    """Each seat's sealed choice as it was committed."""
    salts: dict[str, str] = {}
    """Each seat's salt: with ``chosen`` they open the commitments."""


class CardsRoundBegan(Event, frozen=True, tag="cards_round_began"):
    round: int


class CardsPhaseBegan(Event, frozen=True, tag="cards_phase_began"):
    """CG-ROUND-01: the phases in order."""

    phase: str


class CardsPlotChosen(Event, frozen=True, tag="cards_plot_chosen"):
    """A seat chose its plot in secret (CG-PHASE-01); amendable until every seat has chosen."""

    seat_id: str
    plot: str | None
    """Hidden (but from the seat itself) until the reveal."""
    by_default: bool = False
    salt: str | None = None
    """Hidden with ``plot``: the salt of the commitment (domain/cards/sealed.py)."""
    commitment: str = ""
    """Public at once: sha256 over the plot and its salt, opened by the reveal."""


class TieBreak(msgspec.Struct, frozen=True):
    """An initiative tie left after comparing power, broken at random: ``order`` is the tied seats
    shuffled by the seed (``initiative/<round>``); the first of it wins (CG-PHASE-03)."""

    order: list[str]


class CardsPlotsRevealed(Event, frozen=True, tag="cards_plots_revealed"):
    """Every plot revealed at once (CG-PHASE-01/02); initiative compared (CG-PHASE-03)."""

    plots: dict[str, str]
    initiative: dict[str, int]
    winner: str
    tie_break: TieBreak | None = None
    salts: dict[str, str] = {}
    """Each seat's salt: with ``plots`` they open the commitments of the sealed choices."""


class CardsFirstPlayerChosen(Event, frozen=True, tag="cards_first_player_chosen"):
    """The initiative winner chose the first player, maybe itself (CG-PHASE-03)."""

    seat_id: str
    first_player: str
    by_default: bool = False


class CardsPlotsRecycled(Event, frozen=True, tag="cards_plots_recycled"):
    """The last plot was revealed: the used pile goes back to the plot deck (CG-PHASE-02)."""

    seat_id: str
    plots: list[str]


class CardsIncomeCollected(Event, frozen=True, tag="cards_income_collected"):
    """The active player collects its plot's income with modifiers (CG-PHASE-08)."""

    seat_id: str
    gold: int


class CardsMarshaled(Event, frozen=True, tag="cards_marshaled"):
    """A card marshaled from hand for ``cost`` gold (CG-PHASE-09/10, CG-UNIQUE-03: a duplicate is free)."""

    seat_id: str
    card: str
    code: str
    cost: int
    placed: Placement


class CardsMarshalingEnded(Event, frozen=True, tag="cards_marshaling_ended"):
    seat_id: str
    by_default: bool = False


class CardsChallengeDeclared(Event, frozen=True, tag="cards_challenge_declared"):
    """CG-CHAL-01/02: type, defender, attackers (knelt) and stealth choices, as one step."""

    seat_id: str
    challenge_type: str
    defender: str
    attackers: list[str]
    stealth: dict[str, str] = {}
    """Attacker with stealth -> the defending character it bypasses."""
    standing: list[str] = []
    """Attackers that do not kneel (an ability says so: Ser Jaime Lannister...)."""


class CardsChallengesEnded(Event, frozen=True, tag="cards_challenges_ended"):
    """The active player starts no more challenges this phase (CG-PHASE-13)."""

    seat_id: str
    by_default: bool = False


class CardsDefendersDeclared(Event, frozen=True, tag="cards_defenders_declared"):
    """CG-CHAL-03: the defenders (knelt), maybe none."""

    seat_id: str
    defenders: list[str]
    by_default: bool = False
    standing: list[str] = []
    """Defenders that do not kneel (an ability says so: Left, Right)."""


class CardsChallengeResolved(Event, frozen=True, tag="cards_challenge_resolved"):
    """CG-CHAL-05/06: the strengths, the winner (None: nobody), unopposed."""

    challenge_type: str
    attacker: str
    defender: str
    attacker_strength: int
    defender_strength: int
    winner: str | None
    unopposed: bool


class CardsPowerGained(Event, frozen=True, tag="cards_power_gained"):
    """Power from the treasury, on the faction card (``card`` None) or on a card (renown)."""

    seat_id: str
    amount: int
    reason: str
    card: str | None = None


class CardsPowerMoved(Event, frozen=True, tag="cards_power_moved"):
    """Power claim: power moved between faction cards (CG-CHAL-07; moved power is not gained, CG-GEN-05)."""

    from_seat: str
    to_seat: str
    amount: int


class CardsClaimVictimsChosen(Event, frozen=True, tag="cards_claim_victims_chosen"):
    """The defender chose the characters military claim kills (CG-CHAL-07)."""

    seat_id: str
    characters: list[str]
    by_default: bool = False


class CardsDuplicateDiscarded(Event, frozen=True, tag="cards_duplicate_discarded"):
    """A duplicate was discarded to save ``saved`` from leaving play (CG-UNIQUE-03)."""

    seat_id: str
    duplicate: str
    saved: str


class CardsRemovedFromGame(Event, frozen=True, tag="cards_removed_from_game"):
    """``seat_id`` removed its cards in play ``cards`` from the game by ``card``'s ability (Varys):
    to their owners' out-of-game piles (CG-UNIQUE-05)."""

    seat_id: str
    cards: list[str]
    card: str


class CardsFacedownDuplicate(Event, frozen=True, tag="cards_facedown_duplicate"):
    """``seat_id`` put the top card of its draw deck facedown under its unique ``card`` as a
    duplicate (Arya Stark). Which card it is (``duplicate``) is hidden from the other readers
    (:mod:`.redaction`) until it leaves play."""

    seat_id: str
    card: str
    duplicate: str | None
    """The card put facedown (*hidden* from the other readers)."""
    by: str
    """The card whose ability put it there."""


class CardsCharactersKilled(Event, frozen=True, tag="cards_characters_killed"):
    """Killed characters go to their owners' dead piles (CG-UNIQUE-04/05)."""

    seat_id: str
    cards: list[str]


class CardsDiscardedFromHand(Event, frozen=True, tag="cards_discarded_from_hand"):
    """Intrigue claim's random discard (``draws``: the indexes drawn by the seed) or the reserve discard."""

    seat_id: str
    cards: list[str]
    reason: str
    pile: str = "discard"
    """Where the cards go: ``discard``, or ``dead`` (a character discarded by Heads on Spikes)."""


class CardsAbilityUsed(Event, frozen=True, tag="cards_ability_used"):
    """A card ability resolved (:mod:`.abilities`): a fact for the log and the audit. ``limit`` is
    the key of a once-per-phase/round limit it used up (``phase:<card>`` or ``round:<card>``);
    what the ability did follows as events of their own."""

    seat_id: str
    card: str
    code: str
    text: str
    limit: str | None = None


class CardsKneelingChanged(Event, frozen=True, tag="cards_kneeling_changed"):
    """Card abilities stood (``kneeling`` false) or knelt these cards."""

    cards: list[str]
    kneeling: bool
    card: str
    """The card whose ability did it."""


class CardsChoiceOffered(Event, frozen=True, tag="cards_choice_offered"):
    """A card ability asks its controller for targets among ``choice.options`` (the ``ability``
    step follows). The options are public (cards in play, challenge types, public piles) unless
    ``choice.hidden``: then only the chooser sees them and the default (:mod:`.redaction`)."""

    choice: AbilityChoice


class CardsChoiceMade(Event, frozen=True, tag="cards_choice_made"):
    """The controller chose the ability's targets (or the documented default applied)."""

    seat_id: str
    card: str
    chosen: list[str]
    by_default: bool = False


class CardsDiscardedFromPlay(Event, frozen=True, tag="cards_discarded_from_play"):
    """Cards discarded from play by a card ability (``card``) to their owners' discard piles."""

    cards: list[str]
    card: str


class CardsReturnedToDeck(Event, frozen=True, tag="cards_returned_to_deck"):
    """Cards of a seat's discard (or dead) pile, public, went back into its draw deck (a shuffle follows)."""

    seat_id: str
    cards: list[str]
    card: str
    from_pile: str = "discard"
    """The pile they left: ``discard``, or ``dead`` (Benjen Stark)."""


class CardsReturnedToHand(Event, frozen=True, tag="cards_returned_to_hand"):
    """Cards of a seat's public pile went back to its hand by a card ability (``card``: Ser Davos Seaworth)."""

    seat_id: str
    cards: list[str]
    from_pile: str
    """The pile they left: ``dead`` or ``discard``."""
    card: str


class CardsPowerRemoved(Event, frozen=True, tag="cards_power_removed"):
    """A card ability (``by``) removed power from ``seat_id``'s faction card (``card`` null) or
    from its card ``card``, back to the treasury (Vanguard Lancer)."""

    seat_id: str
    amount: int
    by: str
    """The card whose ability removed it."""
    card: str | None = None


class CardsTokensPlaced(Event, frozen=True, tag="cards_tokens_placed"):
    """A card ability (``by``) placed ``amount`` tokens of kind ``token`` on the card in play ``card``."""

    card: str
    token: str
    """The kind of token: ``betrayal`` (Ser Jorah Mormont)."""
    amount: int
    by: str
    """The card whose ability placed them."""


class CardsTakenFromDeck(Event, frozen=True, tag="cards_taken_from_deck"):
    """A card ability (``card``) searched the seat's deck: the cards found are revealed and go to
    its hand (Summons, Building Orders; a shuffle follows)."""

    seat_id: str
    cards: list[str]
    card: str


class CardsPutIntoPlay(Event, frozen=True, tag="cards_put_into_play"):
    """A card ability (``by``) put ``card`` into play under ``seat_id``'s control from its owner's
    ``from_pile`` (``hand``, ``discard`` or ``dead``): not marshaled, no cost, Limited ignored."""

    seat_id: str
    card: str
    code: str
    from_pile: str
    """The owner's zone the card left: ``hand``, ``discard`` or ``dead``."""
    placed: Placement
    by: str
    """The card whose ability put it into play."""


class CardsGoldGained(Event, frozen=True, tag="cards_gold_gained"):
    """A seat gained gold from the treasury by a card ability."""

    seat_id: str
    gold: int
    card: str


class CardsDiscardedFromDeck(Event, frozen=True, tag="cards_discarded_from_deck"):
    """Pillage: the top card of the loser's deck is discarded (CG-KEY-05)."""

    seat_id: str
    cards: list[str]
    reason: str


class CardsIntimidated(Event, frozen=True, tag="cards_intimidated"):
    """Intimidate (CG-KEY-04): the winning attacker knelt ``target`` (a standing character of the
    loser with STR no higher than the margin), or chose none (``target`` null)."""

    seat_id: str
    target: str | None
    by_default: bool = False


class CardsWindowOpened(Event, frozen=True, tag="cards_window_opened"):
    """An action window opened (CG-ROUND-02); the first player acts first. It is opened only when
    some player has an action (an Ambush, CG-KEY-06, a card's Action or an event it may play)."""

    window: str
    first: str
    active: str
    """The active player when it opened (the first player outside marshaling and challenges)."""
    passed: int = 0
    """Players counted as having passed already: 1 for the marshaling window that follows the
    active player's ``end_marshaling`` (its pass; the next player acts first)."""


class CardsActionPassed(Event, frozen=True, tag="cards_action_passed"):
    """A player passed in an action window."""

    seat_id: str
    by_default: bool = False


class CardsAmbushed(Event, frozen=True, tag="cards_ambushed"):
    """A card put into play from hand by Ambush for its Ambush cost (CG-KEY-06): not marshaled,
    Limited ignored (CG-PHASE-10)."""

    seat_id: str
    card: str
    code: str
    cost: int
    placed: Placement


class CardsWindowClosed(Event, frozen=True, tag="cards_window_closed"):
    """Every player passed in a row: the window closes (CG-ROUND-02)."""

    window: str


class CardsActionUsed(Event, frozen=True, tag="cards_action_used"):
    """A player used the Action of a card it controls (a character, location, attachment or its
    revealed plot) with this target (CG-POOL-06); its costs and effects follow as events.
    ``window``: used as an opportunity of an open action window (the window goes on from it)."""

    seat_id: str
    card: str
    code: str
    target: str | None = None
    window: bool = False


class CardsEventPlayed(Event, frozen=True, tag="cards_event_played"):
    """A player played an event card from hand (its identity is public from here): ``cost`` gold
    paid, the card goes to its owner's discard pile, its effects follow as events."""

    seat_id: str
    card: str
    code: str
    cost: int
    target: str | None = None
    window: bool = False


class CardsEffectApplied(Event, frozen=True, tag="cards_effect_applied"):
    """A lasting effect of an ability, until the end of the challenge or the phase."""

    effect: Lasting


class CardsReturnedFromPlay(Event, frozen=True, tag="cards_returned_from_play"):
    """Cards in play returned to their owners' hands by an ability (``card``)."""

    cards: list[str]
    card: str


class CardsSacrificed(Event, frozen=True, tag="cards_sacrificed"):
    """A player sacrificed cards it controls (a cost): to their owners' discard piles; a duplicate
    does not save a sacrificed card (CG-UNIQUE-03)."""

    seat_id: str
    cards: list[str]
    card: str


class CardsControlTaken(Event, frozen=True, tag="cards_control_taken"):
    """``seat_id`` took control of ``target`` (it stays in play, with its attachments)."""

    seat_id: str
    target: str
    card: str


class CardsFactionKnelt(Event, frozen=True, tag="cards_faction_knelt"):
    """A player knelt its faction card (a cost of ``card``'s ability; it stands in the standing phase)."""

    seat_id: str
    card: str


class CardsTopCardRevealed(Event, frozen=True, tag="cards_top_card_revealed"):
    """The top card of a seat's draw deck was revealed by an ability (``card_source``): public from here."""

    seat_id: str
    card: str
    code: str
    card_source: str


class CardsReactionsOpened(Event, frozen=True, tag="cards_reactions_opened"):
    """A reaction window opened after ``trigger`` (``challenge_won``): the ``seats`` that have a
    reaction are asked in player order (that a seat is asked says it holds *some* reaction)."""

    trigger: str
    seats: list[str]


class CardsReactionDeclined(Event, frozen=True, tag="cards_reaction_declined"):
    """A seat declined to react (more) in the open reaction window."""

    seat_id: str
    by_default: bool = False


class CardsReactionsClosed(Event, frozen=True, tag="cards_reactions_closed"):
    """Every seat asked has declined: the game goes on after the trigger."""

    trigger: str


class CardsKillsPending(Event, frozen=True, tag="cards_kills_pending"):
    """A military claim is about to kill ``victims``: their controller, who has a save, is asked first."""

    seat_id: str
    victims: list[str]


class CardsSaved(Event, frozen=True, tag="cards_saved"):
    """``saved`` will not be killed: ``card``'s interrupt saved it (its cost is paid as an event of its own)."""

    seat_id: str
    card: str
    saved: str


class CardsSaveDeclined(Event, frozen=True, tag="cards_save_declined"):
    """The seat saves no (more) character: the kills happen."""

    seat_id: str
    by_default: bool = False


class CardsCancelOffered(Event, frozen=True, tag="cards_cancel_offered"):
    """The event ``card`` just played (or the card Action of ``card`` just initiated) waits:
    ``seat_id`` (its player's opponent) has a cancel."""

    seat_id: str
    player: str
    card: str
    target: str | None
    resume: str


class CardsEventCancelled(Event, frozen=True, tag="cards_event_cancelled"):
    """``seat_id`` cancelled the effects of the event (or the card Action) ``cancelled`` with
    ``card`` (its cost follows; the cancelled event's or Action's costs stay paid, written just
    after)."""

    seat_id: str
    card: str
    cancelled: str


class CardsCancelDeclined(Event, frozen=True, tag="cards_cancel_declined"):
    """``seat_id`` did not cancel: the event resolves."""

    seat_id: str
    by_default: bool = False


class CardsDominanceDetermined(Event, frozen=True, tag="cards_dominance_determined"):
    """CG-PHASE-14/15: each seat's total; the highest wins (a tie: nobody)."""

    totals: dict[str, int]
    winner: str | None


class CardsStood(Event, frozen=True, tag="cards_stood"):
    """CG-PHASE-16: every kneeling card stands."""


class CardsGoldReturned(Event, frozen=True, tag="cards_gold_returned"):
    """CG-PHASE-17: all unspent gold goes back to the treasury."""

    gold: dict[str, int]


class CardsReserveDiscarded(Event, frozen=True, tag="cards_reserve_discarded"):
    """CG-PHASE-18: a seat over its reserve discarded down to it."""

    seat_id: str
    cards: list[str]
    by_default: bool = False


class CardsPlayerEliminated(Event, frozen=True, tag="cards_player_eliminated"):
    """CG-END-03: an empty draw deck eliminates its player."""

    seat_id: str
    reason: str


class CardsTitlesSetAside(Event, frozen=True, tag="cards_titles_set_aside"):
    """CG-PHASE-05 (Melee): the 6 titles shuffled from the seed (``titles/<round>``): the first
    ``len(set_aside)`` of ``order`` are set aside (2 with 3 players, 1 with 4-5, 0 with 6); the
    players pick among the rest, the first player first (``pickers``, in player order)."""

    round: int
    order: list[str]
    set_aside: list[str]
    pickers: list[str]


class CardsTitleChosen(Event, frozen=True, tag="cards_title_chosen"):
    """CG-PHASE-05: a seat picked its title in secret. ``title`` is *hidden* from every other reader
    until :class:`CardsTitlesRevealed` (that the seat has picked is public)."""

    seat_id: str
    title: str | None
    by_default: bool = False


class CardsTitlesRevealed(Event, frozen=True, tag="cards_titles_revealed"):
    """CG-PHASE-05, CG-MELEE-02: the chosen titles are revealed and enter play at the same time."""

    titles: dict[str, str]


class CardsTitlesReturned(Event, frozen=True, tag="cards_titles_returned"):
    """CG-PHASE-19: every title goes back to the title pool at the same time (taxation, before its
    action window)."""

    titles: dict[str, str]


class CardsRivalBonus(Event, frozen=True, tag="cards_rival_bonus"):
    """CG-MELEE-03: ``seat_id`` won a challenge against ``rival``, who bears one of its rival titles:
    1 power on its faction card (step 4.2.3, before claim), once per rival opponent per round."""

    seat_id: str
    rival: str


class CardsRedirectChosen(Event, frozen=True, tag="cards_redirect_chosen"):
    """CG-MELEE-05: the Crown Regent's bearer decided whether to force the attacker to redirect the
    challenge just initiated (once per round)."""

    seat_id: str
    redirect: bool
    by_default: bool = False


class CardsChallengeRedirected(Event, frozen=True, tag="cards_challenge_redirected"):
    """CG-MELEE-05: the attacker redirected its challenge to ``defender`` (not the first defender);
    type and attackers stay, the stealth choices are dropped."""

    seat_id: str
    defender: str
    by_default: bool = False


class CardsGameEnded(Event, frozen=True, tag="cards_game_ended"):
    """CG-END-01/03: 15 power, or the last player left."""

    winner: str
    reason: str
    power: dict[str, int]


CardEvent = (
    CardsGameCreated
    | CardsSeatJoined
    | CardsGameStarted
    | CardsDeckShuffled
    | CardsDrawn
    | CardsStepOpened
    | CardsMulliganChosen
    | CardsSetupChosen
    | CardsSetupRevealed
    | CardsRoundBegan
    | CardsPhaseBegan
    | CardsPlotChosen
    | CardsPlotsRevealed
    | CardsFirstPlayerChosen
    | CardsPlotsRecycled
    | CardsIncomeCollected
    | CardsMarshaled
    | CardsMarshalingEnded
    | CardsChallengeDeclared
    | CardsChallengesEnded
    | CardsDefendersDeclared
    | CardsChallengeResolved
    | CardsPowerGained
    | CardsPowerMoved
    | CardsClaimVictimsChosen
    | CardsDuplicateDiscarded
    | CardsFacedownDuplicate
    | CardsRemovedFromGame
    | CardsCharactersKilled
    | CardsDiscardedFromHand
    | CardsDiscardedFromDeck
    | CardsAbilityUsed
    | CardsGoldGained
    | CardsKneelingChanged
    | CardsChoiceOffered
    | CardsChoiceMade
    | CardsDiscardedFromPlay
    | CardsReturnedToDeck
    | CardsTakenFromDeck
    | CardsTokensPlaced
    | CardsReturnedToHand
    | CardsPowerRemoved
    | CardsPutIntoPlay
    | CardsIntimidated
    | CardsWindowOpened
    | CardsActionPassed
    | CardsAmbushed
    | CardsWindowClosed
    | CardsActionUsed
    | CardsEventPlayed
    | CardsEffectApplied
    | CardsReturnedFromPlay
    | CardsSacrificed
    | CardsControlTaken
    | CardsFactionKnelt
    | CardsTopCardRevealed
    | CardsReactionsOpened
    | CardsReactionDeclined
    | CardsReactionsClosed
    | CardsKillsPending
    | CardsSaved
    | CardsSaveDeclined
    | CardsCancelOffered
    | CardsEventCancelled
    | CardsCancelDeclined
    | CardsDominanceDetermined
    | CardsStood
    | CardsGoldReturned
    | CardsReserveDiscarded
    | CardsPlayerEliminated
    | CardsTitlesSetAside
    | CardsTitleChosen
    | CardsTitlesRevealed
    | CardsTitlesReturned
    | CardsRivalBonus
    | CardsRedirectChosen
    | CardsChallengeRedirected
    | CardsGameEnded
)
