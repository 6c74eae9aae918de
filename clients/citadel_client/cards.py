"""The card game (*A Game of Thrones: The Card Game*, 2nd ed., joust; ``kind: "cards"``) in the
client: the JSON its endpoints send and accept, as msgspec Structs (mirroring ``openapi/openapi.json``:
``CardsCreateBody``, ``CardDecisionsOut``, ``CardGameView`` and the card game's commands).

    game = await api.create_card_game(["stark_kraken", "lannister_rose"], {"decision_timeout_s": 600})
    ds = await me.card_decisions(game.game_id)           # CardDecisionsOut: one decision, its options
    await me.command(game.game_id, cards.PassAction(), if_match=ds.version)
    view = await me.card_view(game.game_id, own=True)    # CardGameView: your hand, the board

A card decision is one struct whose ``kind`` is the step (``mulligan``, ``setup``, ``plot``,
``first_player``, ``marshal``, ``challenge``, ``defend``, ``claim``, ``intimidate``, ``action``,
``reserve``, ``ability``) with only the option fields of that kind filled; :data:`COMMANDS` lists
the commands that answer each kind. The commands are :class:`~.models.CommandBody`\\ s, so the clients'
``command`` sends them. Answers tolerate fields a newer server adds; request bodies name only the
fields the API knows (the server refuses unknown ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Self

import msgspec

from .models import CommandBody

LEGAL_DECKS = ("stark_kraken", "watch_stag", "targaryen_sun", "lannister_rose")
"""The four legal decks of ``decks.yaml``, by name (``create_card_game(["stark_kraken", ...])``)."""

ChallengeType = Literal["military", "intrigue", "power"]

# --- creating a game ------------------------------------------------------------------------------


class DeckEntry(msgspec.Struct, frozen=True):
    """``count`` copies of the card ``code`` (``01084``)."""

    code: str
    count: int


class DeckList(msgspec.Struct, frozen=True, omit_defaults=True):
    """A submitted deck: a faction, an optional agenda, 7 plots and at least 60 draw cards."""

    faction: str
    plots: list[DeckEntry]
    draw: list[DeckEntry]
    agenda: str | None = None


class DeckChoice(msgspec.Struct, frozen=True, omit_defaults=True):
    """One seat's deck: a legal deck by ``name`` (:data:`LEGAL_DECKS`) or a ``deck`` list."""

    name: str | None = None
    deck: DeckList | None = None


def deck_choice(deck: str | DeckList | DeckChoice) -> DeckChoice:
    """A deck by name, a deck list, or already a choice, as :class:`DeckChoice`."""
    if isinstance(deck, str):
        return DeckChoice(name=deck)
    if isinstance(deck, DeckList):
        return DeckChoice(deck=deck)
    return deck


class CreateCardGameBody(msgspec.Struct):
    """The body of ``POST /v1/games`` for the card game: one deck per seat, in seat order."""

    decks: list[DeckChoice]
    kind: str = "cards"
    player_count: int = 2
    settings: dict[str, Any] = {}
    """``decision_timeout_s``, ``organizer_is_referee``, ``private`` (``CardSettings``)."""

    @classmethod
    def of(cls, decks: Sequence[str | DeckList | DeckChoice], settings: dict[str, Any] | None = None) -> Self:
        """The body for these decks (names, lists or choices) and settings: 2 decks a joust, 3 to 6
        a melee (``player_count`` is the number of decks)."""
        return cls(decks=[deck_choice(d) for d in decks], player_count=len(decks), settings=dict(settings or {}))


# --- decisions (GET /decisions of a card game) -------------------------------------------------------

COMMANDS: dict[str, tuple[str, ...]] = {
    "mulligan": ("choose_mulligan",),
    "setup": ("choose_setup",),
    "plot": ("choose_plot",),
    "first_player": ("choose_first_player",),
    "marshal": ("marshal_card", "use_action", "play_event", "end_marshaling"),
    "challenge": ("declare_challenge", "end_challenges"),
    "defend": ("declare_defenders",),
    "claim": ("choose_claim_victims",),
    "intimidate": ("choose_intimidate",),
    "action": ("ambush_card", "use_action", "play_event", "pass_action"),
    "reserve": ("discard_to_reserve",),
    "reaction": ("play_event", "decline"),
    "save": ("use_interrupt", "decline"),
    "cancel": ("use_interrupt", "decline"),
    "ability": ("choose_targets",),
    "title": ("choose_title",),
    "regent": ("choose_redirect",),
    "redirect": ("choose_defender",),
}
"""Each decision kind -> the command ``type`` values that answer it (as the decision's ``commands``)."""


class CardDecision(msgspec.Struct, kw_only=True):
    """One decision of yours: ``kind`` is the step; the option fields of that kind are filled."""

    seat_id: str
    kind: str
    commands: list[str]
    """Command ``type`` values that answer this decision."""
    deadline: str | None = None
    default: str = ""
    """What the server does at the deadline if you have not decided."""
    cards: list[str] = []
    """The cards to choose among (setup: your hand's characters, locations and attachments; plot: your
    plot deck; marshal/action: what you may put into play now; claim: your characters; reserve: your
    hand; intimidate: the characters you may kneel; ability: the targets)."""
    count: int | None = None
    """How many cards to choose (claim, reserve, ability)."""
    budget: int | None = None
    """Setup: the printed cost you may spend (8); marshal and action: your gold."""
    attach_targets: dict[str, list[str]] = {}
    """Each attachment among ``cards`` -> the characters it may go on (setup: characters of your hand,
    set up with it)."""
    costs: dict[str, int] = {}
    """Setup: each card's printed cost."""
    ambush_costs: dict[str, list[int]] = {}
    """Action: each card you may ambush -> its Ambush costs X, lowest first (``AmbushCard.x`` picks one)."""
    limited: list[str] = []
    """Setup: the Limited cards among ``cards`` (at most one may be set up)."""
    unique_titles: dict[str, str] = {}
    """Setup: the unique cards -> their title (a further copy is a free duplicate and takes no attachment)."""
    seats: list[str] = []
    """First player: the seats you may choose; regent, redirect (melee): the opponents the challenge
    may be redirected to."""
    challenge_types: dict[str, list[str]] = {}
    """Challenge: each type you may still start -> its eligible attackers; defend: the type -> your
    eligible defenders."""
    stealth_targets: list[str] = []
    """Challenge: the defender's characters a stealth attacker may bypass."""
    interrupts: dict[str, list[str]] = {}
    """Save: each card of yours whose interrupt may save -> the characters it may save."""
    stealth_attackers: list[str] = []
    """Challenge: your eligible attackers with stealth."""
    must_defend: list[str] = []
    """Defend: your characters that must be among the defenders (Dornish Paramour)."""
    max_cards: int | None = None
    """Challenge, defend: the most attackers (defenders) you may declare (Jousting Contest, The
    Knight of Flowers); None: as many as are eligible."""
    actions: dict[str, list[str]] = {}
    """Marshal, action: each card whose Action you may use now -> its legal targets (empty: none);
    answer with ``UseAction``."""
    events: dict[str, list[str]] = {}
    """Marshal, action, reaction: each event of your hand you may play now -> its legal targets
    (empty: none); answer with ``PlayEvent``."""
    prompt: str | None = None
    """Ability: the card and its text asking for targets."""
    default_targets: list[str] = []
    """Ability: what the deadline picks."""
    submitted: bool = False
    """Setup and plot: you have sealed a choice (amendable until every seat is in)."""
    stealth_by_opponent: dict[str, list[str]] = {}
    """Challenge (melee): each opponent -> its characters a stealth attacker may bypass."""
    opponents: dict[str, list[str]] = {}
    """Challenge (melee): each type you may still start -> the opponents you may initiate it against
    (``DeclareChallenge.defender``); empty in a joust."""


class CardDecisionsOut(msgspec.Struct, kw_only=True):
    """The body of ``GET /v1/games/{id}/decisions`` of a card game."""

    game_id: str = ""
    version: int
    phase: str
    step: str
    """A decision kind, ``reveal`` (the worker reveals sealed choices), ``lobby`` or ``ended``."""
    decisions: list[CardDecision]
    waiting_for: list[str]
    """The seats the game waits for."""


# --- commands (POST /commands; ``type`` tags them) ----------------------------------------------------


class SetupPick(msgspec.Struct, frozen=True, omit_defaults=True):
    """One facedown setup card; an attachment names the setup character it goes on."""

    card: str
    attach_to: str | None = None


class ChooseMulligan(CommandBody, frozen=True, tag="choose_mulligan"):
    """Keep your 7 cards (``False``) or take your one mulligan (``True``)."""

    mulligan: bool


class ChooseSetup(CommandBody, frozen=True, tag="choose_setup"):
    cards: list[SetupPick]


class ChoosePlot(CommandBody, frozen=True, tag="choose_plot"):
    plot: str


class ChooseFirstPlayer(CommandBody, frozen=True, tag="choose_first_player"):
    seat_id: str


class MarshalCard(CommandBody, frozen=True, tag="marshal_card"):
    card: str
    attach_to: str | None = None


class EndMarshaling(CommandBody, frozen=True, tag="end_marshaling"):
    pass


class DeclareChallenge(CommandBody, frozen=True, tag="declare_challenge"):
    challenge_type: ChallengeType
    attackers: list[str]
    stealth: dict[str, str] = {}
    """Stealth attacker -> the defending character it bypasses."""
    defender: str | None = None
    """Melee: the defending opponent (one of the decision's ``opponents`` for the type); a joust: None."""


class EndChallenges(CommandBody, frozen=True, tag="end_challenges"):
    pass


class DeclareDefenders(CommandBody, frozen=True, tag="declare_defenders"):
    defenders: list[str]


class ChooseClaimVictims(CommandBody, frozen=True, tag="choose_claim_victims"):
    characters: list[str]


class ChooseIntimidate(CommandBody, frozen=True, tag="choose_intimidate"):
    target: str | None = None


class AmbushCard(CommandBody, frozen=True, tag="ambush_card"):
    card: str
    attach_to: str | None = None
    x: int | None = None
    """Which Ambush (X) to use when the card has several (CG-KEY-10); None: the lowest."""


class UseAction(CommandBody, frozen=True, tag="use_action"):
    """Use the Action of ``card`` (one of the decision's ``actions``) with ``target`` (one of its
    targets, or None when it lists none)."""

    card: str
    target: str | None = None


class PlayEvent(CommandBody, frozen=True, tag="play_event"):
    """Play the event ``card`` of your hand (one of the decision's ``events``) with ``target``."""

    card: str
    target: str | None = None


class PassAction(CommandBody, frozen=True, tag="pass_action"):
    pass


class Decline(CommandBody, frozen=True, tag="decline"):
    pass


class UseInterrupt(CommandBody, frozen=True, tag="use_interrupt"):
    card: str
    target: str


class ChooseTargets(CommandBody, frozen=True, tag="choose_targets"):
    cards: list[str]


class DiscardToReserve(CommandBody, frozen=True, tag="discard_to_reserve"):
    cards: list[str]


class ChooseTitle(CommandBody, frozen=True, tag="choose_title"):
    """Melee: your title for the round, in secret (one of the decision's ``cards``)."""

    title: str


class ChooseRedirect(CommandBody, frozen=True, tag="choose_redirect"):
    """Melee, Crown Regent's bearer: force the attacker to redirect the challenge (``True``) or not."""

    redirect: bool


class ChooseDefender(CommandBody, frozen=True, tag="choose_defender"):
    """Melee, a challenge the Crown Regent redirects: the new defending opponent (one of ``seats``)."""

    seat_id: str


class Concede(CommandBody, frozen=True, tag="concede"):
    """Concede: the other player wins."""


CardCommand = (
    ChooseMulligan
    | ChooseSetup
    | ChoosePlot
    | ChooseFirstPlayer
    | MarshalCard
    | EndMarshaling
    | DeclareChallenge
    | EndChallenges
    | DeclareDefenders
    | ChooseClaimVictims
    | ChooseIntimidate
    | AmbushCard
    | UseAction
    | PlayEvent
    | Decline
    | UseInterrupt
    | PassAction
    | ChooseTargets
    | DiscardToReserve
    | Concede
    | ChooseTitle
    | ChooseRedirect
    | ChooseDefender
)

# --- views (GET /v1/games/{id} and /view of a card game) ------------------------------------------------


class CardInPlay(msgspec.Struct, kw_only=True):
    card: str
    code: str
    name: str = ""
    type: str = ""
    kneeling: bool = False
    power: int = 0
    strength: int | None = None
    attached_to: str | None = None
    duplicates: list[str] = []
    tokens: dict[str, int] = {}
    """Tokens on the card by kind (``betrayal``: Ser Jorah Mormont)."""


class CardSeat(msgspec.Struct, kw_only=True):
    """One seat as the reader sees it (``hand``, ``plot_deck``, ``setup``, ``chosen_plot``: None
    for another seat's)."""

    seat_id: str
    name: str = ""
    faction: str = ""
    agenda: str | None = None
    deck_name: str = ""
    deck_count: int = 0
    hand_count: int = 0
    hand: list[str] | None = None
    plot_deck: list[str] | None = None
    plot_deck_count: int = 0
    revealed_plot: str | None = None
    used_plots: list[str] = []
    discard: list[str] = []
    dead: list[str] = []
    in_play: list[CardInPlay] = []
    gold: int = 0
    faction_power: int = 0
    total_power: int = 0
    reserve: int = 0
    setup_count: int | None = None
    setup: list[SetupPick] | None = None
    has_chosen_plot: bool = False
    chosen_plot: str | None = None
    challenges_made: list[str] = []
    mulligan: bool | None = None
    title: str | None = None
    """Melee: the title (code) the seat bears this round, once revealed."""
    has_chosen_title: bool = False
    chosen_title: str | None = None
    """Melee: your secret title pick before the reveal (None for another seat's)."""
    eliminated: bool = False


class CardChallenge(msgspec.Struct, kw_only=True):
    type: str
    attacker: str
    defender: str
    attackers: list[str] = []
    defenders: list[str] = []
    bypassed: list[str] = []


class CardGameView(msgspec.Struct, kw_only=True):
    """A card game as one reader sees it (the public view for a spectator)."""

    game_id: str
    version: int
    phase: str
    step: str
    round: int = 0
    deadline: str | None = None
    step_version: int = 0
    player_count: int = 2
    seed_commitment: str = ""
    first_player: str | None = None
    active: str | None = None
    waiting_for: list[str] = []
    seats: list[CardSeat] = []
    challenge: CardChallenge | None = None
    cards: dict[str, str] = {}
    """Card id -> card code, for the cards this reader may see."""
    winner: str | None = None
    end_reason: str | None = None
    you: str | None = None
    """The reader's seat id (None: a spectator)."""
    titles_set_aside: list[str] = []
    """Melee: the titles set aside at random this round."""

    def seat(self, seat_id: str) -> CardSeat:
        return next(s for s in self.seats if s.seat_id == seat_id)
