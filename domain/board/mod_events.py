"""Mother of Dragons events (docs/mother-of-dragons.md): the house choice of MOD-SETUP-01 and the
gifts of Power of MOD-GIFT-01..03.

Part of :data:`domain.board.events.BoardEvent`. All are public: which seat chooses when, and what it
chose, and who gave how much Power to whom, are seen by everyone at the table.
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
    (their content stays hidden); ``order_sets`` is every player's count of Vassal Order sets after
    the new vassal's set (and any the leaver held) went to the highest players holding the fewest."""

    seat_id: str
    house: str
    power_to_pool: int
    order_sets: dict[str, int]
    withdrawn_orders: bool = False
    reason: str = ""


MOD_EVENTS = HouseChoiceOrdered | HouseChosen | PowerGifted | HouseCardsRemovedFromGame | PlayerLeft
