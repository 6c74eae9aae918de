"""The Westeros phase's events, the wildling attacks' and the end of the game's: facts in the past
tense, each a frozen tagged Struct, part of ``BoardEvent``.

Units, Power, House cards and influence tracks change through the Action phase's events
(``UnitsDestroyed``, ``UnitsPlaced``, ``UnitUpgraded``, ``PowerGained``, ``PowerSpent``,
``HouseCardsDiscarded``, ``HouseCardsReturned``, ``InfluenceTrackChanged``) with a ``reason`` naming
the rule or card. *Hidden* fields are removed by :mod:`domain.board.redaction`.
"""

from __future__ import annotations

import msgspec

from ..event_base import Event


class WesterosPhaseBegan(Event, frozen=True, tag="westeros_phase_began"):
    """BG-WEST-01: the Westeros phase of ``round`` starts (the round marker already moved).
    Last round's order restrictions lapse (BG-WCARD-16)."""

    round: int


class WesterosCardDrawn(Event, frozen=True, tag="westeros_card_drawn"):
    """BG-WEST-01 step 2: the top card of ``deck`` was revealed (public)."""

    deck: str
    card: str


class WesterosDeckShuffled(Event, frozen=True, tag="westeros_deck_shuffled"):
    """BG-WCARD-04 Winter Is Coming: the revealed card went back and the whole deck was shuffled.
    ``cards`` is the new order, top first. Hidden from everyone until the game ends."""

    deck: str
    cards: list[str] | None
    attempt: int = 1
    """1 for the first reshuffle of this deck this round, 2 if Winter Is Coming came up again...
    (with the round and the deck it names the random stream: ``westeros/round{r}/{deck}/winter_is_coming/{attempt}``)."""
    reason: str = "BG-WCARD-04"


class WildlingThreatChanged(Event, frozen=True, tag="wildling_threat_changed"):
    """The Wildling Threat token moved (BG-WEST-01 step 3, BG-WILD-01 step 7, bounds BG-WILD-06)."""

    threat: int
    previous: int
    reason: str


class WesterosCardResolutionBegan(Event, frozen=True, tag="westeros_card_resolution_began"):
    """BG-WEST-01 step 4: the card of ``deck`` is resolved now."""

    deck: str
    card: str


class WesterosEffectBegan(Event, frozen=True, tag="westeros_effect_began"):
    """The current card now does ``effect`` (chosen by ``chooser`` for A Throne of Blades, Dark
    Wings Dark Words and Put to the Sword)."""

    deck: str
    effect: str
    reason: str
    chooser: str | None = None


class WesterosStageBegan(Event, frozen=True, tag="westeros_stage_began"):
    """The current effect moved on (bookkeeping of the phase's progress)."""

    stage: str


class WesterosCardResolved(Event, frozen=True, tag="westeros_card_resolved"):
    """BG-WEST-01 step 5 / BG-WEST-03: the card went face down to the bottom of its deck."""

    deck: str
    card: str


class WesterosPhaseEnded(Event, frozen=True, tag="westeros_phase_ended"):
    """All three cards are resolved; the Planning phase follows (BG-ROUND-01)."""

    round: int


class WesterosChoicePending(Event, frozen=True, tag="westeros_choice_pending"):
    """``house`` must choose one of ``options`` (``kind`` says what about)."""

    house: str
    kind: str
    options: list[str]
    may_skip: bool = False
    default: str | None = None
    context: str | None = None


class PortCaptureQueued(Event, frozen=True, tag="port_capture_queued"):
    """BG-MAP-07: ``house`` took control of ``port``'s land area and the enemy Ships there (``removed``
    of them) were removed; it will be offered to put in up to as many of its own, after the captures
    queued before it (one effect may capture several ports; Review 2 "BG-MAP-07 several ports")."""

    house: str
    port: str
    removed: int


class WesterosChoiceMade(Event, frozen=True, tag="westeros_choice_made"):
    house: str
    kind: str
    choice: str | None
    by_default: bool = False


class UnitSelectionPending(Event, frozen=True, tag="unit_selection_pending"):
    """``house`` must pick ``min``..``max`` of the listed units (wildling cards)."""

    house: str
    kind: str
    min: int
    max: int
    units: dict[str, dict[str, int]]
    same_area: bool = False
    then_replace: int = 0
    reason: str = ""


class UnitsSelected(Event, frozen=True, tag="units_selected"):
    """The house picked these units; what happens to them follows in the same batch."""

    house: str
    kind: str
    units: dict[str, dict[str, int]]
    by_default: bool = False


class SupplyAdjusted(Event, frozen=True, tag="supply_adjusted"):
    """BG-WCARD-01 / BG-SUPPLY-03 / Rattleshirt's Raiders: new Supply track positions."""

    supply: dict[str, int]
    reason: str


class ReconcileRequired(Event, frozen=True, tag="reconcile_required"):
    """BG-SUPPLY-04: these houses' armies exceed their supply; each must destroy units."""

    houses: list[str]
    sequential: bool = False
    reason: str = "BG-SUPPLY-04"


class ArmiesReconciled(Event, frozen=True, tag="armies_reconciled"):
    """BG-SUPPLY-04: ``house`` destroyed these units (the ``UnitsDestroyed`` follow)."""

    house: str
    units: dict[str, dict[str, int]]
    by_default: bool = False


class MusteringBegan(Event, frozen=True, tag="mustering_began"):
    """BG-MUSTER-06: these houses muster, one at a time in turn order (``max_areas`` 1: a single
    area, The Horde Descends)."""

    houses: list[str]
    reason: str
    max_areas: int = 0


class HouseMustered(Event, frozen=True, tag="house_mustered"):
    """``house`` mustered in ``areas`` (possibly none); ``UnitsPlaced``/``UnitUpgraded`` follow."""

    house: str
    areas: list[str]
    by_default: bool = False


class BiddingBegan(Event, frozen=True, tag="bidding_began"):
    """BG-COK-03 / BG-WILD-01 step 1: ``houses`` bid Power in secret."""

    kind: str
    houses: list[str]
    track: str | None = None


class BidSubmitted(Event, frozen=True, tag="bid_submitted"):
    """A sealed bid. ``amount`` is hidden from every other house until ``BidsRevealed``."""

    house: str
    amount: int | None
    by_default: bool = False
    salt: str | None = None
    """Hidden with the content: the secret salt of ``commitment`` (domain/core/commitment.py)."""
    commitment: str = ""
    """Public at once: sha256 over the content and the salt; empty in games created before
    commit–reveal (``GameCreated.sealed_commitments`` false)."""


class BidsRevealed(Event, frozen=True, tag="bids_revealed"):
    """All bids were revealed at once; the bid Power goes to the Pool (BG-COK-06, BG-WILD-01)."""

    kind: str
    bids: dict[str, int]
    track: str | None = None
    salts: dict[str, str] = {}
    """house -> the salt of its submission, so anyone can open the commitment published with it."""


class BidTieBroken(Event, frozen=True, tag="bid_tie_broken"):
    """BG-COK-05: the Iron Throne holder placed ``house`` next among tied bidders."""

    track: str
    chooser: str
    house: str


class BiddingEnded(Event, frozen=True, tag="bidding_ended"):
    """Clash of Kings: the bidding for ``track`` is over (its new order was set, BG-COK-07)."""

    track: str


class OrdersForbidden(Event, frozen=True, tag="orders_forbidden"):
    """BG-WCARD-10..16: these order types (or the ``march_plus_1_special`` token) may not be placed
    in this round's Planning phase."""

    orders: list[str]
    reason: str


class WildlingAttackBegan(Event, frozen=True, tag="wildling_attack_began"):
    """BG-WILD-01: the wildlings attack with ``strength``; ``houses`` take part."""

    strength: int
    houses: list[str]
    reason: str
    adjust_threat: bool = True


class WildlingAttackStageBegan(Event, frozen=True, tag="wildling_attack_stage_began"):
    stage: str


class WildlingAttackDecided(Event, frozen=True, tag="wildling_attack_decided"):
    """BG-WILD-01 steps 2-3: the Night's Watch (``total`` of the bids) against the wildlings."""

    total: int
    strength: int
    nights_watch_won: bool


class WildlingCardDrawn(Event, frozen=True, tag="wildling_card_drawn"):
    """BG-WILD-01 step 5 / BG-WILD-04: the top wildling card was drawn after the bids (public)."""

    card: str


class WildlingBidderChosen(Event, frozen=True, tag="wildling_bidder_chosen"):
    """The highest (Night's Watch victory) or lowest (wildling victory) bidder; ``chooser`` is the
    Iron Throne holder when it broke a tie (BG-WILD-02)."""

    role: str
    house: str
    chooser: str | None = None


class WildlingEffectQueued(Event, frozen=True, tag="wildling_effect_queued"):
    """BG-WILD-03: these houses take the card's effect, in this order."""

    houses: list[str]


class WildlingEffectStarted(Event, frozen=True, tag="wildling_effect_started"):
    house: str
    role: str
    """``nights_watch`` (the reward), ``lowest_bidder`` or ``everyone_else``."""


class WildlingEffectDone(Event, frozen=True, tag="wildling_effect_done"):
    house: str


class WildlingAttackEnded(Event, frozen=True, tag="wildling_attack_ended"):
    """BG-WILD-01 step 6: the card went to the bottom of the wildling deck."""

    card: str | None
    nights_watch_won: bool


class Standing(msgspec.Struct, frozen=True):
    """One house's place at the end (BG-VIC-01..04)."""

    house: str
    rank: int
    castles: int
    """Castle and stronghold areas controlled (the Victory track, BG-VIC-02)."""
    strongholds: int
    land_areas: int
    supply: int
    power: int
    iron_throne: int
    """Position on the Iron Throne track, 1 first."""


class GameEnded(Event, frozen=True, tag="game_ended"):
    """The game is over: ``winner`` by ``reason`` (``seven_castles``, BG-VIC-01, or
    ``final_round``, BG-VIC-03/04). Reveals nothing itself; the service reveals the seed."""

    winner: str
    reason: str
    round: int
    standings: list[Standing]
    tiebreak_ruleset: str = "faq_v2"


WESTEROS_EVENTS = (
    WesterosPhaseBegan
    | WesterosCardDrawn
    | WesterosDeckShuffled
    | WildlingThreatChanged
    | WesterosCardResolutionBegan
    | WesterosEffectBegan
    | WesterosStageBegan
    | WesterosCardResolved
    | WesterosPhaseEnded
    | WesterosChoicePending
    | PortCaptureQueued
    | WesterosChoiceMade
    | UnitSelectionPending
    | UnitsSelected
    | SupplyAdjusted
    | ReconcileRequired
    | ArmiesReconciled
    | MusteringBegan
    | HouseMustered
    | BiddingBegan
    | BidSubmitted
    | BidsRevealed
    | BidTieBroken
    | BiddingEnded
    | OrdersForbidden
    | WildlingAttackBegan
    | WildlingAttackStageBegan
    | WildlingAttackDecided
    | WildlingCardDrawn
    | WildlingBidderChosen
    | WildlingEffectQueued
    | WildlingEffectStarted
    | WildlingEffectDone
    | WildlingAttackEnded
    | GameEnded
)
