"""The card game's player commands and create body (the engine's own commands are in
:mod:`domain.core.commands`: JoinGame, StartGame, ResolvePending, ApplyTimeout).

Every command answers one pending decision (``GET /v1/games/{id}/decisions`` lists them with their
legal options, deadline and default). Card ids are instance ids (``s1-07``), as views show them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .decks import DeckChoice
from .state import CardSettings, SetupPick

CardId = Annotated[str, msgspec.Meta(pattern=r"^s[0-9]+-p?[0-9]+$", max_length=16)]
Challenge = Literal["military", "intrigue", "power"]


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class ChooseMulligan(_Command, frozen=True, tag="choose_mulligan"):
    """Keep your 7 setup cards (``false``) or take your one mulligan (``true``) (CG-SETUP-06)."""

    mulligan: bool


class ChooseSetup(_Command, frozen=True, tag="choose_setup"):
    """Put setup cards face down: printed cost at most 8, no events, at most 1 Limited, attachments on
    your own setup characters, extra copies of a unique card as free duplicates (CG-SETUP-07)."""

    cards: Annotated[list[SetupPick], msgspec.Meta(max_length=20)]


class ChoosePlot(_Command, frozen=True, tag="choose_plot"):
    """Choose your plot in secret from your plot deck (CG-PHASE-01)."""

    plot: CardId


class ChooseFirstPlayer(_Command, frozen=True, tag="choose_first_player"):
    """As initiative winner, choose the first player of the round, maybe yourself (CG-PHASE-03)."""

    seat_id: str


class MarshalCard(_Command, frozen=True, tag="marshal_card"):
    """Marshal a character, location or attachment from hand (CG-PHASE-09); an attachment needs
    ``attach_to``, a character in play."""

    card: CardId
    attach_to: CardId | None = None


class EndMarshaling(_Command, frozen=True, tag="end_marshaling"):
    """Marshal nothing more this phase."""


class DeclareChallenge(_Command, frozen=True, tag="declare_challenge"):
    """Start a challenge: its type, your standing attackers with its icon, and for each attacker with
    stealth the defending character it bypasses (CG-CHAL-01/02)."""

    challenge_type: Challenge
    attackers: Annotated[list[CardId], msgspec.Meta(min_length=1, max_length=40)]
    stealth: dict[str, str] = {}
    defender: Annotated[str, msgspec.Meta(max_length=16)] | None = None
    """Melee: the defending opponent (one of the decision's ``opponents`` for this type; required).
    A joust: null (the only opponent)."""


class EndChallenges(_Command, frozen=True, tag="end_challenges"):
    """Start no more challenges this phase (CG-PHASE-13)."""


class DeclareDefenders(_Command, frozen=True, tag="declare_defenders"):
    """Declare your standing defenders with the challenge's icon, maybe none (CG-CHAL-03)."""

    defenders: Annotated[list[CardId], msgspec.Meta(max_length=40)]


class ChooseClaimVictims(_Command, frozen=True, tag="choose_claim_victims"):
    """Military claim: choose that many different characters you control to be killed (CG-CHAL-07)."""

    characters: Annotated[list[CardId], msgspec.Meta(max_length=40)]


class ChooseIntimidate(_Command, frozen=True, tag="choose_intimidate"):
    """Intimidate: kneel one standing character of the loser with STR no higher than the winning
    margin, or none (``target`` null) (CG-KEY-04)."""

    target: CardId | None = None


class AmbushCard(_Command, frozen=True, tag="ambush_card"):
    """In a challenges-phase action window, put a card with Ambush into play from hand for its
    Ambush cost (CG-KEY-06); an attachment needs ``attach_to``."""

    card: CardId
    attach_to: CardId | None = None
    x: int | None = None
    """Which Ambush (X) to use when the card has several with different X (CG-KEY-10: the
    decision's ``ambush_costs``); null: the lowest."""


class UseAction(_Command, frozen=True, tag="use_action"):
    """Use the Action of a card you control (a character, location or attachment in play, or your
    revealed plot) in an action window or while you marshal: ``target`` is one of the targets the
    decision lists for it (``actions``), or null when it lists none (CG-POOL-06)."""

    card: CardId
    target: Annotated[str, msgspec.Meta(max_length=16)] | None = None


class PlayEvent(_Command, frozen=True, tag="play_event"):
    """Play an event card from your hand in an action window or while you marshal: pay its cost in
    gold, it goes to your discard pile and resolves with ``target`` (one of the targets the
    decision lists for it in ``events``, or null when it lists none)."""

    card: CardId
    target: Annotated[str, msgspec.Meta(max_length=16)] | None = None


class Decline(_Command, frozen=True, tag="decline"):
    """Play no (more) reaction in this reaction window; or save no (more) character (``save``)."""


class UseInterrupt(_Command, frozen=True, tag="use_interrupt"):
    """Use a save interrupt of a card you control (``save`` decision: ``interrupts`` lists each
    card -> the characters it may save) to save ``target`` from being killed."""

    card: CardId
    target: CardId


class PassAction(_Command, frozen=True, tag="pass_action"):
    """Take no action in this action window (CG-ROUND-02)."""


class ChooseTargets(_Command, frozen=True, tag="choose_targets"):
    """A card ability's targets: exactly the decision's ``count`` of its ``cards`` (fewer only when
    there are fewer options). Challenge types are named as they are (``military``...)."""

    cards: Annotated[list[Annotated[str, msgspec.Meta(max_length=16)]], msgspec.Meta(max_length=40)]


class ChooseTitle(_Command, frozen=True, tag="choose_title"):
    """Melee: pick your title for the round in secret, one of the decision's ``cards`` (title codes)
    (CG-PHASE-05)."""

    title: Annotated[str, msgspec.Meta(max_length=16)]


class ChooseRedirect(_Command, frozen=True, tag="choose_redirect"):
    """Melee, as the Crown Regent's bearer: force the attacker to redirect the challenge just
    initiated to a different opponent (``true``), or not (CG-MELEE-05; once per round)."""

    redirect: bool


class ChooseDefender(_Command, frozen=True, tag="choose_defender"):
    """Melee, as the attacker of a challenge the Crown Regent redirects: the new defending opponent,
    one of the decision's ``seats`` (CG-MELEE-05)."""

    seat_id: Annotated[str, msgspec.Meta(max_length=16)]


class Concede(_Command, frozen=True, tag="concede"):
    """Concede the game at any time once it has started: you are eliminated and the other player
    wins (CG-END-04)."""


class DiscardToReserve(_Command, frozen=True, tag="discard_to_reserve"):
    """Discard exactly the cards over your reserve (CG-PHASE-18)."""

    cards: Annotated[list[CardId], msgspec.Meta(max_length=80)]


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
    | PassAction
    | Decline
    | UseInterrupt
    | Concede
    | DiscardToReserve
    | ChooseTargets
    | ChooseTitle
    | ChooseRedirect
    | ChooseDefender
)


class CardsCreateBody(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /v1/games`` for the card game: ``kind`` is required; 2 seats play a joust, 3 to 6 a
    melee (CG-GEN-01); one deck per seat, in seat order (a legal deck may repeat between seats)."""

    kind: Literal["cards"]
    decks: Annotated[list[DeckChoice], msgspec.Meta(min_length=2, max_length=6)]
    player_count: Annotated[int, msgspec.Meta(ge=2, le=6)] = 2
    settings: CardSettings = msgspec.field(default_factory=CardSettings)
