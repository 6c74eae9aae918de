"""The Tides of Battle variant's events (BG-TIDES-01..05), part of the Action phase's events.

*Hidden* fields (the shuffled deck, a card drawn but not yet revealed) are removed by
:mod:`domain.board.redaction` for readers who may not see them.
"""

from __future__ import annotations

from ..event_base import Event


class TidesDeckShuffled(Event, frozen=True, tag="tides_deck_shuffled"):
    """BG-TIDES-02: the 24 Tides of Battle cards were shuffled into a new deck for this combat.

    ``cards`` (top first) is drawn from the seed's random stream ``tides/round<R>/<number>``, where
    ``number`` counts the shuffles of this Action phase; hidden from everyone until the game is over,
    when the verifier re-derives it."""

    number: int
    cards: list[str] | None


class TidesCardDrawn(Event, frozen=True, tag="tides_card_drawn"):
    """BG-TIDES-03 step 3.3: ``house`` drew the top Tides card and looked at it. ``card`` is seen by
    that house only until the reveal."""

    house: str
    card: str | None


class TidesCardRedrawn(Event, frozen=True, tag="tides_card_redrawn"):
    """BG-TIDES-03 step 4.1: the Blade holder used the Valyrian Steel Blade (now used this round) to
    discard its Tides card ``discarded`` and draw ``card``. Both are seen by that house only."""

    house: str
    discarded: str | None
    card: str | None


class TidesRedrawDeclined(Event, frozen=True, tag="tides_redraw_declined"):
    """BG-TIDES-03 step 4.1: the Blade holder kept its Tides card (the Blade may still give +1)."""

    house: str
    by_default: bool = False


class TidesCardsRevealed(Event, frozen=True, tag="tides_cards_revealed"):
    """BG-TIDES-03 step 4.2: both Tides cards were turned face up: house -> card."""

    cards: dict[str, str]


class TidesSkullsPending(Event, frozen=True, tag="tides_skulls_pending"):
    """BG-TIDES-04: ``house`` must choose ``count`` of its units in the combat for the opponent's
    skulls (the ``choose_casualties`` decision)."""

    house: str
    count: int


class TidesSkullsResolved(Event, frozen=True, tag="tides_skulls_resolved"):
    """BG-TIDES-04: the opponent's ``skulls`` cost ``house`` these ``units`` (a ``UnitsDestroyed``
    follows when any die); ``prevented_by`` names The Blackfish when it saved them."""

    house: str
    skulls: int
    units: dict[str, int]
    prevented_by: str | None = None
    by_default: bool = False


TIDES_EVENTS = (
    TidesDeckShuffled
    | TidesCardDrawn
    | TidesCardRedrawn
    | TidesRedrawDeclined
    | TidesCardsRevealed
    | TidesSkullsPending
    | TidesSkullsResolved
)
