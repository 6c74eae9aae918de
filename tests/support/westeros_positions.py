"""Position builder for Westeros-phase tests, on top of tests/support/action_positions.py.

How a scenario is built (and why it is honest):

1. :class:`~tests.support.action_positions.Position` folds a real game through the real decider up to
   the Action phase's threshold of round 1, and :meth:`Position.setup` may replace the position
   (units, tokens, Power, supply, tracks, hands...), as documented there.
2. :meth:`WesterosPosition.to_westeros` then **mutates that folded state** to stand where the Action phase's
   clean-up leaves a game: phase ``westeros``, step ``awaiting_westeros_phase``, no orders, round
   ``round``; it also stacks the Westeros decks (the cards named go on top, the rest of each deck's
   cards follow, so every deck keeps its 10 cards) and, if asked, the wildling deck and the threat.
3. ``ResolvePending`` (the system step the worker runs) opens the Westeros phase, and everything after
   goes through ``decide`` + ``fold`` exactly as in the server.
"""

from __future__ import annotations

from domain.board import board_data
from domain.board import commands as cmd
from domain.board.action.commands import Recruit, UnitCounts
from domain.board.decider import pending_system_work
from domain.board.westeros import commands as wcmd
from domain.board.westeros import events as wev
from tests.support.action_positions import SYSTEM, Position, ev, event_types, of_type  # noqa: F401  (re-exported for the Westeros tests)

# 6 players at the start: Iron Throne baratheon, lannister, stark, martell, greyjoy, tyrell;
# Fiefdoms greyjoy, tyrell, martell, stark, baratheon, lannister;
# King's Court lannister, stark, martell, baratheon, tyrell, greyjoy.

NEUTRAL = ("last_days_of_summer", "last_days_of_summer", "storm_of_swords")
"""A quiet draw: nothing, nothing, a restriction (Last Days of Summer and Storm of Swords each
carry a wildling icon, so the threat moves by 6... unless a test says otherwise)."""


def deck_cards(deck: str) -> list[str]:
    return [c.id for c in board_data.cards().westeros_decks[deck] for _ in range(c.count)]


def stacked(deck: str, top: list[str]) -> list[str]:
    rest = deck_cards(deck)
    for card in top:
        rest.remove(card)
    return list(top) + rest


class WesterosPosition(Position):
    def to_westeros(
        self,
        cards: tuple = ("last_days_of_summer", "last_days_of_summer", "sea_of_storms"),
        *,
        wildling: list[str] | None = None,
        threat: int | None = None,
        round: int = 2,
    ) -> WesterosPosition:
        """Mutate the folded state to the Westeros threshold (see the module docstring). Each entry of
        ``cards`` is a card id or a list of card ids for the top of deck I, II, III."""
        s = self.state
        s.orders = {}
        s.phase, s.step, s.round = "westeros", "awaiting_westeros_phase", round
        for deck, top in zip(("deck_i", "deck_ii", "deck_iii"), cards):
            s.westeros_decks[deck] = stacked(deck, [top] if isinstance(top, str) else list(top))
        if wildling is not None:
            rest = [c.id for c in board_data.cards().wildling_cards if c.id not in wildling]
            s.wildling_deck = list(wildling) + rest
        if threat is not None:
            s.wildling_threat = threat
        return self

    def begin_westeros(self) -> list:
        assert pending_system_work(self.state)
        return self.sys(cmd.ResolvePending(), SYSTEM)

    def resolve(self) -> list:
        """The worker's system step (reveal sealed bids, open a phase)."""
        return self.sys(cmd.ResolvePending(), SYSTEM)

    # --- answers ------------------------------------------------------------------------------

    def bid(self, house: str, amount: int) -> list:
        return self.run(house, wcmd.Bid(amount=amount))

    def bids(self, amounts: dict[str, int], reveal: bool = True) -> list:
        out = []
        for house, n in amounts.items():
            if house in [d.house for d in self.decisions() if d.commands == ["bid"]]:
                out += self.bid(house, n)
        if reveal:
            out += self.resolve()
        return out

    def choose(self, house: str, choice: str | None) -> list:
        return self.run(house, wcmd.WesterosChoice(choice=choice))

    def select(self, house: str, units: dict[str, dict[str, int]]) -> list:
        return self.run(house, wcmd.SelectUnits(units={a: UnitCounts(**u) for a, u in units.items()}))

    def reconcile(self, house: str, units: dict[str, dict[str, int]]) -> list:
        return self.run(house, wcmd.ReconcileArmies(units={a: UnitCounts(**u) for a, u in units.items()}))

    def muster(self, house: str, recruits: dict[str, list[Recruit]]) -> list:
        return self.run(house, wcmd.Muster(recruits=recruits))

    def pass_musters(self) -> None:
        while self.state.westeros is not None and self.state.westeros.musterers:
            self.muster(self.state.westeros.musterers[0], {})

    def finish(self, limit: int = 300) -> None:
        """Let the documented defaults (deadlines passing) and the system carry on to the next phase."""
        for _ in range(limit):
            if self.state.phase != "westeros":
                return
            if pending_system_work(self.state):
                self.resolve()
            else:
                self.timeout()
        raise AssertionError("the Westeros phase does not end")

    def zero_bids(self) -> list:
        out = []
        for d in self.decisions():
            if d.commands == ["bid"]:
                out += self.bid(d.house, 0)
        return out + self.resolve()


def westeros(
    players: int = 6,
    cards: tuple = ("last_days_of_summer", "last_days_of_summer", "sea_of_storms"),
    *,
    units=None,
    clear: bool = False,
    wildling=None,
    threat=None,
    round: int = 2,
    **setup,
) -> WesterosPosition:
    """A game at the Westeros threshold with ``cards`` on top of the decks (see WesterosPosition.to_westeros);
    ``units`` and the other keywords go to :meth:`Position.setup` (position replaced when given)."""
    sc = WesterosPosition(players)
    if units is not None or setup:
        sc.setup(units, clear=clear if units is None else True, **setup)
    return sc.to_westeros(cards, wildling=wildling, threat=threat, round=round)


__all__ = ["WesterosPosition", "westeros", "wev", "ev", "of_type", "event_types", "Recruit", "UnitCounts", "SYSTEM"]
