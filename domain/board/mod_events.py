"""Mother of Dragons events (docs/mother-of-dragons.md): the house choice of MOD-SETUP-01, the
gifts of Power of MOD-GIFT-01..03 and the choice of the vassals' commanders (MOD-VASSAL-02..07).

Part of :data:`domain.board.events.BoardEvent`. All are public: which seat chooses when, and what it
chose, who gave how much Power to whom, and who commands which vassal, are seen by everyone at the table.
"""

from __future__ import annotations

from .event_base import Event


class HouseChoiceOrdered(Event, frozen=True, tag="house_choice_ordered"):
    """MOD-SETUP-01: the random first player, and the order the seats choose their houses in
    (clockwise, i.e. by seat number, from the first player). Drawn from the seed."""

    first_seat: str
    """The seat drawn to choose first."""
    order: list[str]
    """Seat ids, the first player first."""


class HouseChosen(Event, frozen=True, tag="house_chosen"):
    """MOD-SETUP-01: a seat chose its house. When the last seat has chosen, every unchosen house
    becomes a vassal and the rest of the setup is laid out (``mother_of_dragons.lay_out_started``)."""

    seat_id: str
    house: str
    by_default: bool = False
    """The deadline passed and the documented default chose (the first free house in the fixed Iron
    Throne order)."""


class PowerGifted(Event, frozen=True, tag="power_gifted"):
    """MOD-GIFT-01/03: ``house`` put ``amount`` of its available Power tokens into the Power Pool and
    ``to`` took as many of its own from the Pool. ``amount`` is what the receiver could take of the
    ``requested`` gift (its tokens left in the Pool); only that much left the giver."""

    house: str
    to: str
    amount: int
    requested: int


class HouseCardsRemovedFromGame(Event, frozen=True, tag="house_cards_removed_from_game"):
    """House cards left the game for good, from ``house``'s hand or discard pile (Robert Arryn:
    himself and the lowest-strength card of the opponent's discard pile, MOD-DATA-01)."""

    house: str
    cards: list[str]
    reason: str


class PlayerLeft(Event, frozen=True, tag="player_left"):
    """MOD-FLEX-01/02: the player of ``house`` (seat ``seat_id``) left; the house and all its units are
    now a vassal. Its available Power went back to the Pool; its sealed orders, if any, were withdrawn
    (their content stays hidden); ``order_sets`` is every player's count of unused Vassal Order sets
    once the leaver's went back (the new vassal's set is dealt at the next Planning phase). The
    vassals the leaver commanded have no commander until then."""

    seat_id: str
    house: str
    power_to_pool: int
    order_sets: dict[str, int]
    withdrawn_orders: bool = False
    reason: str = ""
    withdrawn: list[str] = []
    """The houses whose sealed inputs were withdrawn unrevealed (domain/board/flexible_presence.py):
    the leaver's and its former vassals' orders, the leaver's bid."""
    deadline: str | None = None
    """Set when commanders are chosen again at once (Review 2): the current step's fresh deadline."""
    missed_deadlines: int = 0
    """Not 0 when the timeout policy made the house a vassal: the deadlines its seat missed in a row
    (``settings.vassal_after_missed_deadlines``); the seat sent no ``leave_game``."""


class VassalOrderSetsDealt(Event, frozen=True, tag="vassal_order_sets_dealt"):
    """MOD-VASSAL-02: a Planning phase begins; every vassal's token goes back beside the Iron Throne
    track (no vassal has a commander) and the sets of Vassal Order tokens go to the highest players
    on it, one set per vassal (:func:`~.mother_of_dragons.vassal_order_sets`)."""

    round: int
    sets: dict[str, int]
    """Player house -> the sets it holds."""


class VassalCommanderChosen(Event, frozen=True, tag="vassal_commander_chosen"):
    """MOD-VASSAL-03/04/06: a player holding a set picked a vassal to command with it, or passed the
    set to the next player on the Iron Throne track."""

    house: str
    """The player house that picked or passed."""
    vassal: str | None
    """The vassal it now commands; None when it passed."""
    passed_to: str | None = None
    """On a pass: the next player on the Iron Throne track, who now holds the set."""
    by_default: bool = False
    """The deadline passed and the documented default chose."""


class VassalsCommandedByLast(Event, frozen=True, tag="vassals_commanded_by_last"):
    """MOD-VASSAL-05: the sets reached the last player on the Iron Throne track, which cannot pass: it
    commands every vassal still unpicked."""

    house: str
    vassals: list[str]
    """The vassals it now commands, in Iron Throne order."""


class VassalPowerTokenPlaced(Event, frozen=True, tag="vassal_power_token_placed"):
    """MOD-VASSAL-26: a vassal's March emptied a land area; the vassal's Power token marks its control
    there (a vassal has no Power of its own to spend)."""

    house: str
    area: str


class VassalHouseCardsDrawn(Event, frozen=True, tag="vassal_house_cards_drawn"):
    """MOD-VASSAL-14: in a vassal's combat, its commander shuffles the shared Vassal House deck and
    draws 3 cards as the vassal's hand for this combat. ``deck`` (the shuffled order) is hidden from
    everyone; ``cards`` is seen by the commander only until the game ends."""

    house: str
    """The vassal."""
    commander: str
    """The player house commanding it, which draws and chooses (MOD-VASSAL-13)."""
    number: int
    """The game's count of vassal draws so far, 1 first: names the shuffle's random stream."""
    deck: list[str] | None
    """The whole deck as shuffled, top first (hidden)."""
    cards: list[str] | None
    """The 3 drawn (hidden from all but the commander)."""


class VassalHouseDeckRestored(Event, frozen=True, tag="vassal_house_deck_restored"):
    """MOD-VASSAL-16: the combat is over; all seven vassal cards go back into the Vassal House deck
    (the vassal's hand and discards empty)."""

    house: str


MOD_EVENTS = (
    VassalHouseCardsDrawn
    | VassalHouseDeckRestored
    | VassalPowerTokenPlaced
    | HouseChoiceOrdered
    | HouseChosen
    | PowerGifted
    | HouseCardsRemovedFromGame
    | VassalOrderSetsDealt
    | VassalCommanderChosen
    | VassalsCommandedByLast
    | PlayerLeft
)
