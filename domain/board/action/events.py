"""The Action phase's events: facts in the past tense, each a frozen tagged Struct.

They subclass :class:`domain.board.events.Event` and are part of ``BoardEvent``. A ``reason`` field
names the rule that caused the fact (e.g. ``"BG-RAID-03"``) so a reader of the log can follow it.
*Hidden* fields are removed by :mod:`domain.board.redaction` for readers who may not see them.
"""

from __future__ import annotations

from ..event_base import Event
from .tides_events import TIDES_EVENTS


class ActionPhaseBegan(Event, frozen=True, tag="action_phase_began"):
    """BG-ACT-01: the Action phase starts; raids are resolved first."""


class OrderTurnBegan(Event, frozen=True, tag="order_turn_began"):
    """BG-ACT-02: ``house`` must resolve one of its ``order_type`` orders now."""

    order_type: str
    house: str


class OrderRemoved(Event, frozen=True, tag="order_removed"):
    """An order token left the board (resolved, raided, or its area emptied)."""

    area: str
    house: str
    order: str
    reason: str


class OrderPlaced(Event, frozen=True, tag="order_placed"):
    """An order token was put in an area (Ser Loras's March order moving on)."""

    area: str
    house: str
    order: str
    reason: str


class RaidResolved(Event, frozen=True, tag="raid_resolved"):
    """BG-RAID-01..04: the raid in ``area`` removed ``target_order`` in ``target_area`` (or nothing)."""

    house: str
    area: str
    target_area: str | None = None
    target_order: str | None = None
    by_default: bool = False


class PowerGained(Event, frozen=True, tag="power_gained"):
    """``house`` took ``amount`` Power tokens from the Pool into its available Power (BG-POWER-02)."""

    house: str
    amount: int
    reason: str


class PowerSpent(Event, frozen=True, tag="power_spent"):
    """``house`` returned ``amount`` available Power tokens to the Pool."""

    house: str
    amount: int
    reason: str


class PowerTokenPlaced(Event, frozen=True, tag="power_token_placed"):
    """BG-MARCH-06: an available Power token was put on a land area as a control marker."""

    house: str
    area: str


class PowerTokenRemoved(Event, frozen=True, tag="power_token_removed"):
    """A control marker went back to the Pool (BG-MARCH-05, BG-POWER-05)."""

    house: str
    area: str
    reason: str


class MarchDeclared(Event, frozen=True, tag="march_declared"):
    """BG-MARCH-01: the house resolved its March in ``area`` with these destinations."""

    house: str
    area: str
    moves: dict[str, dict[str, int]]
    leave_power_token: bool = False
    by_default: bool = False


class UnitsMoved(Event, frozen=True, tag="units_moved"):
    """Units went from ``from_area`` to ``to_area``; ``routed`` of them are routed (BG-COMBAT-22)."""

    house: str
    from_area: str
    to_area: str
    units: dict[str, int]
    routed: dict[str, int] = {}
    reason: str = "BG-MARCH-01"


class UnitsDestroyed(Event, frozen=True, tag="units_destroyed"):
    """Units were removed from the board; ``routed`` counts how many of ``units`` were routed."""

    house: str
    area: str
    units: dict[str, int]
    reason: str
    routed: dict[str, int] = {}
    combat_units: bool = False
    """True when these are attacking units of the combat in progress (they leave its army)."""


class UnitsPlaced(Event, frozen=True, tag="units_placed"):
    """New units came onto the board (mustering BG-MUSTER-*, port capture BG-MAP-07)."""

    house: str
    area: str
    units: dict[str, int]
    reason: str


class UnitUpgraded(Event, frozen=True, tag="unit_upgraded"):
    """A Footman in ``area`` was replaced by a ``to_unit`` (BG-MUSTER-02, Renly Baratheon)."""

    house: str
    area: str
    from_unit: str
    to_unit: str
    reason: str
    combat_units: bool = False


class UnitsRouted(Event, frozen=True, tag="units_routed"):
    """BG-COMBAT-22: these units in ``area`` were laid down."""

    house: str
    area: str
    units: dict[str, int]


class GarrisonRemoved(Event, frozen=True, tag="garrison_removed"):
    """BG-COMBAT-17 / BG-MARCH-13: a home garrison left the game."""

    area: str


class NeutralForceRemoved(Event, frozen=True, tag="neutral_force_removed"):
    """BG-MARCH-12: a defeated neutral force token left the game."""

    area: str


class ConsolidatedPower(Event, frozen=True, tag="consolidated_power"):
    """BG-CP-01..03: the Consolidate Power order in ``area`` was resolved (its gains follow)."""

    house: str
    area: str
    order: str
    mustered: bool = False
    by_default: bool = False


class CombatBegan(Event, frozen=True, tag="combat_began"):
    """BG-COMBAT-*: ``attacker`` marched ``units`` from ``from_area`` into ``area``.
    ``defender`` is None for an attack on a neutral force (BG-MARCH-12)."""

    attacker: str
    defender: str | None
    area: str
    from_area: str
    march_order: str
    units: dict[str, int]
    support_queue: list[str]


class CombatStageBegan(Event, frozen=True, tag="combat_stage_began"):
    """The combat moved to its next step (BG-COMBAT-02)."""

    stage: str


class SupportDeclared(Event, frozen=True, tag="support_declared"):
    """BG-COMBAT-03/04: ``house`` backs ``side`` (``attacker``, ``defender`` or ``none``)."""

    house: str
    side: str
    by_default: bool = False


class HouseCardChosen(Event, frozen=True, tag="house_card_chosen"):
    """BG-COMBAT-09: a combatant chose its House card face down. ``card`` is hidden until the reveal."""

    house: str
    card: str | None
    by_default: bool = False
    salt: str | None = None
    """Hidden with the content: the secret salt of ``commitment`` (domain/core/commitment.py)."""
    commitment: str = ""
    """Public at once: sha256 over the content and the salt; empty in games created before
    commit–reveal (``GameCreated.sealed_commitments`` false)."""
    commander: str | None = None
    """Mother of Dragons: ``house`` is a vassal and this player house chose its card (MOD-VASSAL-14);
    it sees the card too."""


class HouseCardsRevealed(Event, frozen=True, tag="house_cards_revealed"):
    """Both House cards were turned face up together: house -> card (None: no card, BG-COMBAT-10)."""

    cards: dict[str, str | None]
    salts: dict[str, str] = {}
    """house -> the salt of its submission, so anyone can open the commitment published with it."""


class HouseCardCancelled(Event, frozen=True, tag="house_card_cancelled"):
    """Tyrion Lannister: ``house``'s ``card`` went back to its hand; it must choose another."""

    house: str
    card: str
    by: str


class HouseCardReplacedAtRandom(Event, frozen=True, tag="house_card_replaced_at_random"):
    """Jaqen H'ghar (Mother of Dragons, MOD-VASSAL-29): ``by``'s card cancelled ``house``'s card
    ``cancelled`` (back to its hand) and ``card``, drawn at random from that hand, is now ``house``'s
    card, face up at once. ``hand`` is the whole hand as the seed shuffled it (``card`` is its first);
    hidden from everyone until the game ends. ``number`` and ``house`` name the random stream
    (:func:`~.vassal_cards.jaqen_purpose`)."""

    house: str
    """The house whose card was replaced (Jaqen's opponent)."""
    card: str
    """Its card now, drawn at random from its hand and face up."""
    cancelled: str
    """The card it had chosen, cancelled and back in its hand."""
    by: str
    """The vassal that played Jaqen H'ghar."""
    number: int
    """The game's count of vassal draws when Jaqen acted (the draw his card came from)."""
    hand: list[str] | None = None
    """Hidden from everyone until the game ends: the whole hand as the seed shuffled it (``card`` is
    its first)."""


class AbilityChoicePending(Event, frozen=True, tag="ability_choice_pending"):
    """A House card ability waits for ``house``'s choice among ``choices``: its owner's, or for Bronn
    (Mother of Dragons) the opponent's of the vassal that played him."""

    house: str
    card: str
    choices: list[str]
    may_skip: bool


class AbilityResolved(Event, frozen=True, tag="ability_resolved"):
    """The text of ``house``'s ``card`` resolved (``choice`` if it asked for one)."""

    house: str
    card: str
    choice: str | None = None
    by_default: bool = False
    chooser: str | None = None
    """The house that answered the choice when it is not ``house`` (Bronn: the vassal's opponent)."""


class HouseCardSwapped(Event, frozen=True, tag="house_card_swapped"):
    """Aeron Damphair: ``house`` now fights with ``card`` instead of ``old_card``."""

    house: str
    old_card: str
    card: str


class InfluenceTrackChanged(Event, frozen=True, tag="influence_track_changed"):
    """An influence track's new order, position 1 first (Doran Martell)."""

    track: str
    order: list[str]
    reason: str


class BladeUsed(Event, frozen=True, tag="blade_used"):
    """BG-COMBAT-11: the Valyrian Steel Blade added +1 to ``house`` and is now used this round."""

    house: str


class BladeDeclined(Event, frozen=True, tag="blade_declined"):
    house: str
    by_default: bool = False


class CombatDecided(Event, frozen=True, tag="combat_decided"):
    """BG-COMBAT-12/13: final strengths and the winner."""

    strength: dict[str, int]
    winner: str
    loser: str
    casualties: int


class HouseCardsDiscarded(Event, frozen=True, tag="house_cards_discarded"):
    """Cards went from ``house``'s hand to its face-up discard pile."""

    house: str
    cards: list[str]
    reason: str


class HouseCardsReturned(Event, frozen=True, tag="house_cards_returned"):
    """Cards went from ``house``'s discard pile back to its hand (BG-COMBAT-26, Roose Bolton)."""

    house: str
    cards: list[str]
    reason: str


class CasualtiesChosen(Event, frozen=True, tag="casualties_chosen"):
    """BG-COMBAT-15: the loser chose which units die (the ``UnitsDestroyed`` follows)."""

    house: str
    units: dict[str, int]
    by_default: bool = False


class RetreatPending(Event, frozen=True, tag="retreat_pending"):
    """BG-COMBAT-19/20: ``chooser`` must pick the loser's retreat area among ``options``."""

    chooser: str
    options: list[str]


class RetreatChosen(Event, frozen=True, tag="retreat_chosen"):
    house: str
    area: str
    by_default: bool = False


class RetreatLossesPending(Event, frozen=True, tag="retreat_losses_pending"):
    """BG-COMBAT-20: retreating into ``area`` would exceed ``house``'s supply: it must choose ``count`` of
    its retreating ``units`` to destroy (the others then retreat)."""

    house: str
    area: str
    count: int
    units: dict[str, int]


class RetreatLossesChosen(Event, frozen=True, tag="retreat_losses_chosen"):
    """BG-COMBAT-20: the retreating house chose which units supply destroys (``UnitsDestroyed`` follows)."""

    house: str
    units: dict[str, int]
    by_default: bool = False


class PortCapturePending(Event, frozen=True, tag="port_capture_pending"):
    """BG-MAP-07: ``house`` may put 0..``max`` of its Ships in ``port`` (the enemy's were removed)."""

    house: str
    port: str
    max: int


class PortShipsReplaced(Event, frozen=True, tag="port_ships_replaced"):
    house: str
    port: str
    count: int
    by_default: bool = False


class CombatEnded(Event, frozen=True, tag="combat_ended"):
    """The combat and its clean-up are over (BG-COMBAT-25..28)."""

    area: str


class ActionPhaseEnded(Event, frozen=True, tag="action_phase_ended"):
    """BG-ACT-05: every remaining order removed, routed units stand, Raven and Blade reset."""

    removed_orders: dict[str, str]
    """area -> order id removed at the clean-up."""


ACTION_EVENTS = (
    ActionPhaseBegan
    | OrderTurnBegan
    | OrderRemoved
    | OrderPlaced
    | RaidResolved
    | PowerGained
    | PowerSpent
    | PowerTokenPlaced
    | PowerTokenRemoved
    | MarchDeclared
    | UnitsMoved
    | UnitsDestroyed
    | UnitsPlaced
    | UnitUpgraded
    | UnitsRouted
    | GarrisonRemoved
    | NeutralForceRemoved
    | ConsolidatedPower
    | CombatBegan
    | CombatStageBegan
    | SupportDeclared
    | HouseCardChosen
    | HouseCardsRevealed
    | HouseCardCancelled
    | HouseCardReplacedAtRandom
    | AbilityChoicePending
    | AbilityResolved
    | HouseCardSwapped
    | InfluenceTrackChanged
    | BladeUsed
    | BladeDeclined
    | CombatDecided
    | HouseCardsDiscarded
    | HouseCardsReturned
    | CasualtiesChosen
    | RetreatPending
    | RetreatChosen
    | RetreatLossesPending
    | RetreatLossesChosen
    | PortCapturePending
    | PortShipsReplaced
    | CombatEnded
    | ActionPhaseEnded
    | TIDES_EVENTS
)
