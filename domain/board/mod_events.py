"""Mother of Dragons events (docs/mother-of-dragons.md): the house choice of MOD-SETUP-01.

Part of :data:`domain.board.events.BoardEvent`. Both are public: which seat chooses when, and what it
chose, are seen by everyone at the table.
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


MOD_EVENTS = HouseChoiceOrdered | HouseChosen
