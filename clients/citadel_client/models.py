"""The JSON the Citadel API sends and accepts, as msgspec Structs (mirroring ``openapi/openapi.json``).

Answers (what the server sends) tolerate unknown fields, so a newer server that adds a field does
not break this client. Request bodies (what the client sends) name only the fields the API knows:
the server refuses unknown ones. Decision options are a tagged union on ``kind``, commands on
``type``, as in the API.

Only the parts a client needs are typed in full: decisions, commands, game creation, seats,
problems. Events, export envelopes and views keep their game-specific payload as plain JSON
(``dict``), with the common fields typed.
"""

from __future__ import annotations

from typing import Any

import msgspec

# --- problems (application/problem+json) --------------------------------------------------------


class FieldError(msgspec.Struct):
    field: str
    message: str


class Problem(msgspec.Struct, kw_only=True):
    """RFC 9457 problem details of every error answer."""

    type: str = "about:blank"
    title: str = ""
    status: int = 0
    detail: str = ""
    code: str = ""
    instance: str | None = None
    errors: list[FieldError] | None = None
    rule: str | None = None
    """The rule id (``BG-...``) a 422 ``rule_violation`` cites."""
    current_version: int | None = None
    """With 409 ``stale_version``: the game's version now."""
    retry_after: int | None = None


# --- decision options (``Decision.options``, tag field ``kind``) --------------------------------


class ChooseHouseOptions(msgspec.Struct, tag_field="kind", tag="choose_house"):
    """Mother of Dragons: choose one of ``houses`` (send ``ChooseHouse``)."""

    houses: list[str]
    """The houses still free."""
    order: list[str]
    """Every seat in the order they choose, the first player first."""


class ChooseCommanderOptions(msgspec.Struct, tag_field="kind", tag="choose_commanders"):
    """Mother of Dragons: command one of ``vassals`` with one of your sets, or pass the set to
    ``pass_to`` (send ``CommandVassal``; MOD-VASSAL-03/04)."""

    vassals: list[str]
    sets: int
    pass_to: str
    commanders: dict[str, str]


class AssignOrdersOptions(msgspec.Struct, tag_field="kind", tag="assign_orders"):
    areas: list[str]
    tokens: dict[str, int]
    """order token id -> how many are available."""
    special_tokens: list[str]
    special_limit: int
    may_leave_areas_empty: bool
    submitted: dict[str, str] | None
    """The orders already sealed (they may be amended until everyone has submitted)."""
    max_orders: int | None = None
    """At most this many orders (a Mother of Dragons vassal's: 2)."""


class RavenOptions(msgspec.Struct, tag_field="kind", tag="messenger_raven"):
    replace: dict[str, list[str]]
    """area -> the tokens its order may be swapped for."""
    may_peek_wildling: bool


class RavenPlacementOptions(msgspec.Struct, tag_field="kind", tag="raven_wildling_placement"):
    card: str
    choices: list[bool]


class RaidOptions(msgspec.Struct, tag_field="kind", tag="resolve_raid"):
    targets: dict[str, list[str]]
    """area of a Raid order -> the areas it may raid."""


class SupplyLimit(msgspec.Struct):
    """The supply limit of a March or a mustering: add the units the command brings into each area
    to ``units`` (take marching units out of their area); the areas with 2+ units, largest first,
    must be at most ``len(allowed)`` and each no larger than its ``allowed`` size. A March that
    moves no unit is not checked."""

    allowed: list[int]
    """Allowed army sizes, largest first."""
    units: dict[str, int]
    """area -> how many of your units stand there now."""


class NeutralForceOptions(msgspec.Struct):
    """A march on a neutral force must reach ``strength``: ``max(0, base + sum(n * unit_strength[u]))``."""

    strength: int
    base: int
    unit_strength: dict[str, int]


class MarchOrderOptions(msgspec.Struct):
    units: dict[str, int]
    land_destinations: list[str]
    ship_destinations: list[str]
    fights: dict[str, str]
    """destination -> ``combat`` or ``neutral``: units may go to at most one of them per March."""
    neutral_strength: dict[str, int]
    may_leave_power_token: bool
    """A Power token may be left only if every unit of ``units`` leaves."""
    neutral_forces: dict[str, NeutralForceOptions]
    port_room: dict[str, int]
    """port destination -> Ships it can still take."""


class MarchOptions(msgspec.Struct, tag_field="kind", tag="resolve_march"):
    orders: dict[str, MarchOrderOptions]
    supply: SupplyLimit


class ConsolidateOrderOptions(msgspec.Struct):
    power: int
    may_muster: bool
    muster_points: int
    ship_areas: list[str]
    footmen: int
    """Footmen here that may be upgraded (at most this many upgrades)."""
    port_room: dict[str, int]
    """port among ``ship_areas`` -> new Ships it can still take."""


class ConsolidateOptions(msgspec.Struct, tag_field="kind", tag="resolve_consolidate_power"):
    orders: dict[str, ConsolidateOrderOptions]
    costs: dict[str, int]
    upgrade_costs: dict[str, int]
    units_left: dict[str, int]
    """unit type -> how many you can still place (new units and upgrades to that type)."""
    supply: SupplyLimit


class SupportOptions(msgspec.Struct, tag_field="kind", tag="declare_support"):
    area: str
    attacker: str
    defender: str | None
    sides: list[str]
    strength: dict[str, int]


class HouseCardOptions(msgspec.Struct, tag_field="kind", tag="choose_house_card"):
    area: str
    cards: list[str]
    opponent: str | None
    strength: dict[str, int]


class AbilityOptions(msgspec.Struct, tag_field="kind", tag="house_card_ability"):
    card: str
    choices: list[str]
    may_skip: bool


class BladeOptions(msgspec.Struct, tag_field="kind", tag="use_blade"):
    choices: list[bool]
    strength: dict[str, int]
    tides_redraw: bool = False
    """Tides of Battle: ``use`` true discards ``tides_card`` and draws another instead of the +1."""
    tides_card: str | None = None


class CasualtyOptions(msgspec.Struct, tag_field="kind", tag="choose_casualties"):
    count: int
    units: dict[str, int]


class RetreatOptions(msgspec.Struct, tag_field="kind", tag="choose_retreat"):
    areas: list[str]
    retreating_house: str


class RetreatLossesOptions(msgspec.Struct, tag_field="kind", tag="choose_retreat_losses"):
    area: str
    count: int
    units: dict[str, int]


class PortShipsOptions(msgspec.Struct, tag_field="kind", tag="replace_port_ships"):
    port: str
    max: int


class BidOptions(msgspec.Struct, tag_field="kind", tag="bid"):
    bidding: str
    max: int
    track: str | None
    wildling_strength: int | None


class ChoiceOptions(msgspec.Struct, tag_field="kind", tag="westeros_choice"):
    about: str
    context: str | None
    options: list[str]
    may_skip: bool
    default: str | None


class SelectUnitsOptions(msgspec.Struct, tag_field="kind", tag="select_units"):
    about: str
    reason: str
    units: dict[str, dict[str, int]]
    """area -> unit type -> count."""
    min: int
    max: int
    same_area: bool


class ReconcileOptions(msgspec.Struct, tag_field="kind", tag="reconcile_armies"):
    armies: dict[str, dict[str, int]]
    """area -> unit type -> count."""
    allowed: list[int]
    supply: int
    fewest: int


class MusterAreaOptions(msgspec.Struct):
    points: int
    ship_areas: list[str]
    footmen: int
    """Footmen here that may be upgraded (at most this many upgrades here)."""
    port_room: dict[str, int]
    """port among ``ship_areas`` -> new Ships it can still take."""


class MusterOptions(msgspec.Struct, tag_field="kind", tag="muster"):
    areas: dict[str, MusterAreaOptions]
    costs: dict[str, int]
    upgrade_costs: dict[str, int]
    max_areas: int
    units_left: dict[str, int]
    """unit type -> how many you can still place, over all areas together."""
    supply: SupplyLimit


class UndoConsentOptions(msgspec.Struct, tag_field="kind", tag="undo_consent"):
    """An opponent asks to undo its last command: answer ``AnswerUndo(consent=True/False)``."""

    seat_id: str
    house: str
    version: int
    """The version the game returns to when every opponent consents."""
    reason: str


class GiftPowerOptions(msgspec.Struct, tag_field="kind", tag="gift_power"):
    """Mother of Dragons, optional and never awaited (MOD-GIFT-01..03): send ``GiftPower(to, amount)``
    with ``1 <= amount <= receivers[to]``."""

    receivers: dict[str, int]
    """player house -> the most it can take now."""


DecisionOptions = (
    GiftPowerOptions
    | ChooseHouseOptions
    | ChooseCommanderOptions
    | AssignOrdersOptions
    | RavenOptions
    | RavenPlacementOptions
    | RaidOptions
    | MarchOptions
    | ConsolidateOptions
    | SupportOptions
    | HouseCardOptions
    | AbilityOptions
    | BladeOptions
    | CasualtyOptions
    | RetreatOptions
    | RetreatLossesOptions
    | PortShipsOptions
    | BidOptions
    | ChoiceOptions
    | SelectUnitsOptions
    | ReconcileOptions
    | MusterOptions
    | UndoConsentOptions
)


def kind_of(options: DecisionOptions) -> str:
    """The decision's kind: the ``kind`` tag of its options (``assign_orders``, ``bid``...)."""
    return str(options.__struct_config__.tag)


# --- decisions (GET /decisions) ------------------------------------------------------------------


class Decision(msgspec.Struct):
    seat_id: str
    house: str
    commands: list[str]
    """Command ``type`` values that answer this decision."""
    options: DecisionOptions
    deadline: str | None
    default: str
    """What the server does for you if the deadline passes."""
    for_vassal: str | None = None
    """Mother of Dragons: answer with ``for_vassal`` set to this vassal (you command it)."""


class Waiting(msgspec.Struct, kw_only=True):
    seat_id: str
    house: str = ""
    kind: str = ""
    deadline: str | None = None


class DecisionsOut(msgspec.Struct, kw_only=True):
    """The body of ``GET /v1/games/{id}/decisions``."""

    game_id: str = ""
    version: int
    phase: str
    step: str
    decisions: list[Decision]
    waiting_for: list[Waiting]


# --- commands (POST /commands body, tag field ``type``) -----------------------------------------


class UnitCounts(msgspec.Struct, frozen=True, omit_defaults=True):
    """How many units of each type (absent = 0)."""

    footman: int = 0
    knight: int = 0
    siege_engine: int = 0
    ship: int = 0


class Recruit(msgspec.Struct, frozen=True, omit_defaults=True):
    """One mustering purchase: a new ``unit`` (a Ship goes to ``area``), or with ``upgrade`` a
    Footman replaced by ``unit``."""

    unit: str
    area: str | None = None
    upgrade: bool = False


class CommandBody(msgspec.Struct, frozen=True, tag_field="type", omit_defaults=True, kw_only=True):
    """The base of every command body (the card game's commands derive from it directly)."""


class Command(CommandBody, frozen=True, kw_only=True):
    """The base of the board game's command bodies."""

    for_vassal: str | None = None
    """Mother of Dragons: act for this vassal you command (copy ``Decision.for_vassal``)."""


class ChooseHouse(Command, frozen=True, tag="choose_house"):
    """Mother of Dragons: choose your house when it is your seat's turn (MOD-SETUP-01)."""

    house: str


class GiftPower(Command, frozen=True, tag="gift_power"):
    """Mother of Dragons: give ``amount`` of your available Power to the player house ``to``
    (MOD-GIFT-01..03), at any time outside a combat or in a combat's Call for Support."""

    to: str
    amount: int


class CommandVassal(Command, frozen=True, tag="command_vassal"):
    """Mother of Dragons: command ``vassal`` this round, or pass the set (null; MOD-VASSAL-03/04)."""

    vassal: str | None


class AssignOrders(Command, frozen=True, tag="assign_orders"):
    orders: dict[str, str]
    """area -> order token."""


class RavenReplaceOrder(Command, frozen=True, tag="raven_replace_order"):
    area: str
    new_order: str


class RavenPeekWildling(Command, frozen=True, tag="raven_peek_wildling"):
    pass


class RavenPlaceWildling(Command, frozen=True, tag="raven_place_wildling"):
    to_bottom: bool


class RavenPass(Command, frozen=True, tag="raven_pass"):
    pass


class ResolveRaid(Command, frozen=True, tag="resolve_raid"):
    area: str
    target: str | None = None


class ResolveMarch(Command, frozen=True, tag="resolve_march"):
    area: str
    moves: dict[str, UnitCounts] = {}
    """destination -> units sent there (empty: the March does nothing)."""
    leave_power_token: bool = False


class ResolveConsolidatePower(Command, frozen=True, tag="resolve_consolidate_power"):
    area: str
    muster: list[Recruit] | None = None
    """With a special order in a castle/stronghold area: muster (possibly nothing) instead of Power."""


class DeclareSupport(Command, frozen=True, tag="declare_support"):
    side: str
    """``attacker``, ``defender`` or ``none``."""


class ChooseHouseCard(Command, frozen=True, tag="choose_house_card"):
    card: str


class ChooseAbility(Command, frozen=True, tag="choose_ability"):
    choice: str | None = None


class UseBlade(Command, frozen=True, tag="use_blade"):
    use: bool


class ChooseCasualties(Command, frozen=True, tag="choose_casualties"):
    units: UnitCounts


class ChooseRetreat(Command, frozen=True, tag="choose_retreat"):
    area: str


class ChooseRetreatLosses(Command, frozen=True, tag="choose_retreat_losses"):
    units: UnitCounts


class ReplacePortShips(Command, frozen=True, tag="replace_port_ships"):
    count: int


class Bid(Command, frozen=True, tag="bid"):
    amount: int


class WesterosChoice(Command, frozen=True, tag="westeros_choice"):
    choice: str | None = None


class SelectUnits(Command, frozen=True, tag="select_units"):
    units: dict[str, UnitCounts] = {}


class ReconcileArmies(Command, frozen=True, tag="reconcile_armies"):
    units: dict[str, UnitCounts]


class Muster(Command, frozen=True, tag="muster"):
    recruits: dict[str, list[Recruit]] = {}
    """mustering area -> purchases."""


class AnswerUndo(Command, frozen=True, tag="answer_undo"):
    """Consent to an opponent's undo request (``True``) or refuse it (``False``): docs/judge.md."""

    consent: bool


PlayerCommand = (
    GiftPower
    | ChooseHouse
    | CommandVassal
    | AssignOrders
    | RavenReplaceOrder
    | RavenPeekWildling
    | RavenPlaceWildling
    | RavenPass
    | ResolveRaid
    | ResolveMarch
    | ResolveConsolidatePower
    | DeclareSupport
    | ChooseHouseCard
    | ChooseAbility
    | UseBlade
    | ChooseCasualties
    | ChooseRetreat
    | ChooseRetreatLosses
    | ReplacePortShips
    | Bid
    | WesterosChoice
    | SelectUnits
    | ReconcileArmies
    | Muster
    | AnswerUndo
)


# --- games and seats ------------------------------------------------------------------------------


class CreateGameBody(msgspec.Struct, omit_defaults=True):
    """The body of ``POST /v1/games``; ``settings`` and ``scenario`` as in the API's schemas."""

    player_count: int
    kind: str = "board"
    settings: dict[str, Any] = {}
    scenario: dict[str, Any] | None = None
    seat_houses: list[str] | None = None


class JoinBody(msgspec.Struct, omit_defaults=True):
    name: str
    invitation: str | None = None
    """A private game's invitation code (from its organizer)."""


class GameCreatedOut(msgspec.Struct, kw_only=True):
    game_id: str
    organizer_token: str
    player_count: int
    seed_commitment: str = ""
    version: int = 0
    kind: str = "board"
    judge_token: str = ""
    """The judge's bearer token (docs/judge.md): for the organizer to hand to the game's judge."""
    invitation_code: str | None = None
    """A private game's invitation code (``settings.private``); None for a public game."""


class InvitationOut(msgspec.Struct, kw_only=True):
    """``GET /v1/games/{id}/invitation``: a private game's invitation code (organizer)."""

    game_id: str
    invitation_code: str


class GameSummary(msgspec.Struct, kw_only=True):
    """A public game in ``GET /v1/games``."""

    game_id: str
    kind: str
    status: str
    """``open``, ``running`` or ``ended``."""
    seats_taken: int
    seats_total: int
    created_at: str
    version: int


class GameListOut(msgspec.Struct, kw_only=True):
    """A page of ``GET /v1/games``, newest first; ``next_cursor`` is None on the last page."""

    games: list[GameSummary]
    next_cursor: str | None = None


class SeatOut(msgspec.Struct, kw_only=True):
    game_id: str
    seat_id: str
    token: str
    version: int = 0


class EventOut(msgspec.Struct, kw_only=True):
    """One event of ``GET /events`` or a command's answer; ``event`` is its JSON (with ``type``)."""

    seq: int
    ts: str = ""
    event: dict[str, Any]


class CommandAccepted(msgspec.Struct, kw_only=True):
    """The answer of an accepted command (and of ``POST /start``)."""

    game_id: str
    version: int
    events: list[EventOut] = []


class JudgeActionOut(msgspec.Struct, kw_only=True):
    """The answer of a judge's action (``POST /v1/games/{id}/judge``, docs/judge.md)."""

    game_id: str
    version: int
    events: list[EventOut] = []
    tokens: dict[str, str] = {}
    """seat id -> its new token, for a seat the action gave to a new player (``replace_player``)."""


class SeatView(msgspec.Struct, kw_only=True):
    seat_id: str
    name: str = ""
    house: str | None = None


class ClockView(msgspec.Struct, kw_only=True):
    """A house's time bank (docs/clocks.md): ``bank_ms`` when its clock last started or stopped;
    while it runs, it runs out at ``runs_out_at``."""

    house: str
    bank_ms: int
    running_since: str | None = None
    runs_out_at: str | None = None
    out_of_time: bool = False


class Pause(msgspec.Struct, kw_only=True):
    """The clocks are paused: since when, by whom, why."""

    at: str
    by: str
    reason: str


class GameView(msgspec.Struct, kw_only=True):
    """The common fields of a game's view (``GET /v1/games/{id}`` and ``/view``); the board itself
    (areas, houses, tracks...) is in the JSON of :meth:`CitadelClient.view_json`."""

    game_id: str
    version: int
    phase: str
    step: str
    round: int = 0
    player_count: int = 0
    winner: str | None = None
    deadline: str | None = None
    reader: str | None = None
    seats: list[SeatView] = []
    clocks: list[ClockView] = []
    """Each house's time bank, with ``settings.time_bank_s``."""
    paused: Pause | None = None
    """Set while a judge has paused the clocks."""


class Envelope(msgspec.Struct, kw_only=True):
    """One exported event with its hash-chain link."""

    seq: int
    ts: str
    schema: int
    prev_hash: str
    hash: str
    event: dict[str, Any]


class SignedHead(msgspec.Struct, kw_only=True):
    """The chain head at ``version`` signed with the server's Ed25519 key (``GET /v1/signing-key``)."""

    game_id: str
    kind: str
    version: int
    head_hash: str
    key_id: str
    signature: str
    algorithm: str = "Ed25519"


class ExportOut(msgspec.Struct, kw_only=True):
    """A replay file (format ``citadel-replay/1``); ``citadel-verify`` checks it offline."""

    game_id: str
    version: int
    complete: bool
    seed: str | None
    seed_commitment: str
    signed_head: SignedHead
    events: list[Envelope]
    redacted: list[int] = []
    kind: str = "board"
    format: str = "citadel-replay/1"


class LogLine(msgspec.Struct, kw_only=True):
    """One line of a game's public log."""

    seq: int
    ts: str = ""
    text: str


class LogOut(msgspec.Struct, kw_only=True):
    """A page of ``GET /v1/games/{id}/log``; ask for the next one with ``from=next_cursor``."""

    game_id: str
    version: int
    lines: list[LogLine]
    next_cursor: int | None = None


class SigningKeyOut(msgspec.Struct, kw_only=True):
    """``GET /v1/signing-key``: the deployment's Ed25519 public key (``citadel-verify --public-key``)."""

    key_id: str
    algorithm: str = "Ed25519"
    public_key: str
    public_key_pem: str = ""
