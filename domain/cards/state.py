"""The state of a card game: the fold of its events (:mod:`.evolve`). It holds no rules.

Every physical card is an *instance* with its own id (``s1-07``: seat 1's 7th card; plots ``s1-p3``),
mapped to its card code in ``cards`` (public: decklists are open). Hidden in the state, and filtered
by :mod:`.redaction` for every reader but the one allowed: each draw deck's order (nobody), each
hand (its owner), each facedown setup choice and each sealed plot (its owner, until the reveal).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .catalog import CARDS, CardRecord

Step = Literal[
    "lobby",
    "mulligan",
    "setup",
    "plot",
    "first_player",
    "marshal",
    "challenge",
    "defend",
    "claim",
    "intimidate",
    "action",
    "reserve",
    "ability",
    "reaction",
    "save",
    "cancel",
    "title",
    "regent",
    "redirect",
    "ended",
]
Phase = Literal[
    "lobby", "setup", "plot", "draw", "marshaling", "challenges", "dominance", "standing", "taxation", "ended"
]


class CardSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a card game, fixed at creation."""

    decision_timeout_s: Annotated[int, msgspec.Meta(ge=1, le=604800)] = 600
    """Seconds each decision may take before its documented default applies."""
    organizer_is_referee: bool = False
    """Tournament mode: the organizer may read the complete export while the game runs."""
    private: bool = False
    """A private game: never in the game list (``GET /v1/games``), and a seat is taken only with the
    invitation code its organizer received at creation (docs/lobby.md)."""


class SetupPick(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One facedown setup card and, for an attachment, the setup character it goes on."""

    card: str
    attach_to: str | None = None


class Placed(msgspec.Struct):
    """A card in play: who controls it, knelt or standing, its power, what it is attached to, its duplicates."""

    card: str
    controller: str
    kneeling: bool = False
    power: int = 0
    attached_to: str | None = None
    duplicates: list[str] = []
    tokens: dict[str, int] = {}
    """Tokens on the card by kind (``betrayal``: Ser Jorah Mormont); they go when it leaves play."""
    facedown: list[str] = []
    """The duplicates among ``duplicates`` put facedown (Arya Stark): hidden from the other readers."""


class Challenge(msgspec.Struct):
    """The challenge being resolved (CG-CHAL-*)."""

    type: str
    attacker: str
    defender: str
    attackers: list[str]
    defenders: list[str] = []
    bypassed: list[str] = []
    """Characters chosen by stealth: they cannot defend (CG-CHAL-02)."""
    stealth: dict[str, str] = {}
    """Attacker with stealth -> the character it bypasses (Ghost)."""
    claim: int = 0
    """Military claim still to be chosen by the defender (the ``claim`` step)."""
    winner: str | None = None
    """Set once resolved (CG-CHAL-05)."""
    unopposed: bool = False
    """Set once resolved: the attacker won with no defending STR (CG-CHAL-06)."""
    margin: int = 0
    """Set once resolved: the winner's STR minus the loser's."""


class AbilityChoice(msgspec.Struct):
    """A card ability waiting for its controller's targets (the ``ability`` step): choose exactly
    ``count`` of ``options`` (fewer when there are fewer); ``default`` is what a timeout picks."""

    seat: str
    card: str
    options: list[str]
    count: int
    prompt: str
    default: list[str]
    hidden: bool = False
    """The options are hidden cards (a searched deck, a hand): only ``seat`` sees them and the
    default (:mod:`.redaction`)."""
    resume: str = ""
    """Where the game goes on once it is answered (:func:`.phases.flow.after_choice`): ``""`` (a
    plot's When Revealed: the rest of the plot phase), ``marshal`` (the active player's
    marshaling), ``window`` (the action window the ability was used in), ``challenge_won`` (the
    challenge's claim, after the reactions to its win), ``dominance_won`` (the dominance phase's
    window, then standing, after the reactions to dominance), ``declared`` (the window after
    attackers, after the reactions to a challenge's initiation), ``challenges_end`` (the dominance
    phase, after the effects as the challenges phase ends), ``claim`` (the keywords after a military
    claim's kills, after a "when killed" interrupt: Shireen Baratheon), ``dominance_end`` (the
    standing phase, after the effects as the dominance phase ends: Varys)."""


class Window(msgspec.Struct):
    """An open action window (CG-ROUND-02): whose turn it is and how many passed in a row."""

    kind: str
    """Which framework window: ``plot``, ``draw``, ``marshaling``, ``before_challenge``,
    ``after_attackers``, ``after_defenders``, ``dominance``, ``standing`` or ``taxation``."""
    turn: str
    active: str
    """The active player when the window opened (the first player outside marshaling and challenges)."""
    passes: int = 0


class Reactions(msgspec.Struct):
    """An open reaction window (CG-POOL-06) after ``trigger``: the seats still to be asked, in
    player order; a seat is asked while it has a reaction, until it declines."""

    trigger: str
    seats: list[str]


class PendingEvent(msgspec.Struct):
    """An event just played (paid, in the discard pile), or a card Action just initiated (Treachery
    cancels those of characters, locations and attachments), whose effects wait while the
    opponent may cancel them (the ``cancel`` step); ``resume``: where the game goes on (``marshal``, ``action``,
    ``reaction``)."""

    seat: str
    card: str
    target: str | None
    resume: str


class Killing(msgspec.Struct):
    """Characters a military claim is about to kill (the ``save`` step): their controller may
    save some first (CG-POOL-06: save interrupts)."""

    seat: str
    victims: list[str]


class Lasting(msgspec.Struct, frozen=True):
    """A lasting effect of an ability on a card (``target``) until the end of the challenge or the
    phase (``until``): STR, an icon gained, a claim change, or what happens to the card as the
    phase ends (``at_end``: ``discard`` or ``return_to_hand``, if it is still in play)."""

    source: str
    """The card whose ability (or the event) created it."""
    target: str
    until: Literal["challenge", "phase", "round"]
    strength: int = 0
    icon: str | None = None
    claim: int = 0
    at_end: str | None = None
    forbids: str | None = None
    """A challenge type the target seat may not initiate while this lasts (Unbowed, Unbent, Unbroken)."""
    cost_off: int = 0
    """The target seat's next character marshaled this phase costs this much less (The Kingsroad):
    read by :func:`.current.cost_reduction` until that marshal writes ``phase:spent:<source>``."""


class Player(msgspec.Struct):
    seat_id: str
    deck_name: str
    faction: str
    agenda: str | None
    name: str = ""
    joined: bool = False
    deck: list[str] = []
    """Draw deck, top first. Hidden from every reader."""
    hand: list[str] = []
    """Hidden from every reader but the owner."""
    plots: list[str] = []
    """Plot deck (unordered; hidden from the other seat)."""
    used_plots: list[str] = []
    plot: str | None = None
    """The revealed plot (CG-PHASE-20: it stays until the next one is revealed)."""
    discard: list[str] = []
    dead: list[str] = []
    removed: list[str] = []
    gold: int = 0
    faction_power: int = 0
    faction_kneeling: bool = False
    limited_used: bool = False
    limited_count: int = 0
    """Limited cards marshaled this round (CG-PHASE-10; Taxation allows one more)."""
    challenges_made: list[str] = []
    challenges_won: list[str] = []
    lost_defending: int = 0
    """Challenges this seat lost as the defender in the current phase (Old Bear Mormont)."""
    """The challenge types this seat won in the current phase (A Game of Thrones)."""
    mulligan: bool | None = None
    """None until the seat has decided (CG-SETUP-06)."""
    setup: list[SetupPick] | None = None
    """The sealed facedown setup choice (hidden from the other seat until the reveal)."""
    chosen_plot: str | None = None
    """The sealed plot choice (hidden from the other seat until the reveal)."""
    sealed_salt: str | None = None
    """The salt of the sealed choice (setup or plot) until its reveal."""
    shuffles: int = 0
    """How many times this deck was shuffled (names each shuffle's random stream)."""
    title_pick: str | None = None
    """Melee: the title this seat picked in secret this round (CG-PHASE-05), hidden from every
    other reader until the titles are revealed (:mod:`.redaction`)."""


class CardState(msgspec.Struct):
    game_id: str
    version: int
    player_count: int
    settings: CardSettings
    seed_commitment: str
    cards: dict[str, str]
    """Instance id -> card code, for every card of every deck."""
    players: list[Player]
    phase: Phase = "lobby"
    step: Step = "lobby"
    waiting: list[str] = []
    """The seats whose decision the current step waits for."""
    deadline: str | None = None
    step_version: int = 0
    round: int = 0
    first_player: str | None = None
    initiative_winner: str | None = None
    active: str | None = None
    """The active player of the marshaling or challenges phase (CG-PHASE-08/12)."""
    done: list[str] = []
    """Seats that have been active in the current phase."""
    in_play: dict[str, Placed] = {}
    challenge: Challenge | None = None
    window: Window | None = None
    reactions: Reactions | None = None
    killing: Killing | None = None
    pending_event: PendingEvent | None = None
    """The event whose effects wait for the opponent's cancel (step ``cancel``)."""
    """The military claim's kills waiting for saves (step ``save``)."""
    """The open reaction window (step ``reaction``)."""
    choice: AbilityChoice | None = None
    """The ability waiting for targets (step ``ability``)."""
    effects: list[Lasting] = []
    """Lasting effects of abilities (``until`` the challenge or the phase ends), written by
    ``cards_effect_applied`` and cleared as the challenge or phase ends."""
    choices_made: dict[str, list[str]] = {}
    """The targets chosen this round, by ``<card>/<seat>`` (the ability's card, the seat that
    chose): written by ``cards_choice_made``, cleared as a round begins. Abilities that ask every
    player (Marched to the Wall) or remember a choice (Calm Over Westeros) read it."""
    used_abilities: list[str] = []
    """Ability limits used up: ``phase:<card>`` (cleared as a phase begins), ``round:<card>``
    (cleared as a round begins); written by ``cards_ability_used``."""
    winner: str | None = None
    end_reason: str | None = None
    eliminated: list[str] = []
    """Seats eliminated (CG-END-03/04): in a melee the game goes on without them."""
    titles: dict[str, str] = {}
    """Melee: seat -> the title card (code) it bears this round, once revealed (CG-PHASE-05,
    CG-MELEE-01); empty again as the titles return in taxation (CG-PHASE-19)."""
    titles_set_aside: list[str] = []
    """Melee: the titles set aside at random this round (public, CG-PHASE-05)."""
    title_order: list[str] = []
    """Melee: the seats still to pick a title this round, in player order (the first one picks now)."""
    melee_log: list[str] = []
    """Melee bookkeeping this round: ``rival:<winner>:<loser>`` (a rival bonus gained, CG-MELEE-03),
    ``challenge:<attacker>:<type>:<defender>`` (a challenge initiated this phase: the Hand of the
    King's second power challenge goes to a different opponent, CG-MELEE-05; a redirected challenge
    still counts as initiated against its first defender), ``regent`` (the Crown Regent's redirect
    used this round)."""

    # -- lookups (no rules) ----------------------------------------------------------------

    def seat_ids(self) -> list[str]:
        return [p.seat_id for p in self.players]

    def has_seat(self, seat_id: str) -> bool:
        return any(p.seat_id == seat_id and p.joined for p in self.players)

    def player(self, seat_id: str) -> Player:
        return next(p for p in self.players if p.seat_id == seat_id)

    @property
    def melee(self) -> bool:
        """CG-GEN-01: 3 to 6 seats play the Melee format; 2 seats a joust."""
        return self.player_count > 2

    def opponent(self, seat_id: str) -> str:
        """The other player. In a joust: the only one. In a melee (documented, docs/card-game.md):
        during a challenge, the other side of the challenge for its attacker or defender; else the
        next player in player order (card texts read outside a challenge are listed as not checked
        in melee)."""
        ch = self.challenge
        if self.melee and ch is not None and seat_id in (ch.attacker, ch.defender):
            return ch.defender if seat_id == ch.attacker else ch.attacker
        return self.next_seat(seat_id)

    def opponents(self, seat_id: str) -> list[str]:
        """Every other player still in the game, in player order from ``seat_id``'s left."""
        return [s for s in self._from(seat_id) if s != seat_id]

    def next_seat(self, seat_id: str) -> str:
        """The next player in player order after ``seat_id`` (an action window's next turn,
        CG-ROUND-02); in a joust, the opponent."""
        if not self.melee:
            return next(p.seat_id for p in self.players if p.seat_id != seat_id)
        return self.opponents(seat_id)[0]

    def _round_from(self, seat_id: str) -> list[str]:
        """Every seat, eliminated or not, in seat order from ``seat_id`` round the table."""
        seats = self.seat_ids()
        i = seats.index(seat_id)
        return seats[i:] + seats[:i]

    def _from(self, seat_id: str) -> list[str]:
        return [s for s in self._round_from(seat_id) if s not in self.eliminated or s == seat_id]

    def alive(self) -> list[str]:
        """The seats still in the game, in seat order."""
        return [s for s in self.seat_ids() if s not in self.eliminated]

    def record(self, iid: str) -> CardRecord:
        return CARDS[self.cards[iid]]

    def owner(self, iid: str) -> str:
        return "seat" + iid[1 : iid.index("-")]

    def controlled(self, seat_id: str, kind: str | None = None) -> list[Placed]:
        """The cards ``seat_id`` controls in play (of one type), in the order they entered."""
        return [
            p
            for p in self.in_play.values()
            if p.controller == seat_id and (kind is None or self.record(p.card).type == kind)
        ]

    def characters(self, seat_id: str) -> list[Placed]:
        return self.controlled(seat_id, "character")

    def player_order(self) -> list[str]:
        """Seats from the first player on (CG-ROUND-02), without the eliminated ones (CG-END-03:
        an eliminated first player's left neighbour comes first)."""
        if self.first_player is None:
            return self.alive()
        return [s for s in self._round_from(self.first_player) if s not in self.eliminated]
