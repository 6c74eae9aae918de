"""Position builder for Action-phase tests.

How a scenario is built (and why it is honest):

1. A real game is folded through the real decider: ``create``, every seat joins, ``StartGame``
   (houses dealt from the seed), every house submits orders, ``ResolvePending`` reveals them, the
   Messenger Raven passes. The state then stands at phase ``action``, step ``awaiting_action_phase``.
2. Only then, where a test needs a position the first round cannot reach, :meth:`Position.setup`
   **mutates that folded state** (documented per call): it may clear the board, put units, orders,
   Power tokens, garrisons, neutral forces, hands/discards, supply and track positions.
3. ``ResolvePending`` (the system step) opens the Action phase, and everything after goes through
   ``decide`` + ``fold`` exactly as in the server.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.action import commands as acmd
from domain.board.decider import create, decide, fold
from domain.board.decisions import pending_decisions
from domain.board.emitter import copy_state
from domain.board.planning import areas_needing_orders
from domain.board.state import BoardState, PlacedOrder, Settings
from domain.core.context import Context, parse_rfc3339

NOW = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
ORGANIZER = cmd.Actor(kind="organizer")
SYSTEM = cmd.Actor(kind="system")
ALL_HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")

#: Regular tokens that fill up to 10 areas (BG-ORDER-01 copies respected).
FILL = (
    "defense_plus_1",
    "support_0",
    "consolidate_power",
    "raid",
    "march_0",
    "defense_plus_1",
    "support_0",
    "consolidate_power",
    "raid",
    "march_minus_1",
)


def ctx_at(now: datetime = NOW, seed: str = "action-seed", game_id: str = "g-action") -> Context:
    return Context(now=now, seed=seed, game_id=game_id)


class Position:
    def __init__(
        self,
        players: int = 6,
        seed: str = "action-seed",
        orders: dict[str, dict[str, str]] | None = None,
        settings: Settings | None = None,
    ):
        self.ctx = ctx_at(seed=seed)
        self.events: list[ev.Event] = []
        self.state: BoardState | None = None
        self.apply(create(cmd.CreateGame(player_count=players, settings=settings or Settings()), self.ctx))
        for i in range(players):
            self.sys(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.sys(cmd.StartGame(), ORGANIZER)
        orders = orders or {}
        for house in self.state.turn_order():
            mine = orders.get(house) or dict(zip(areas_needing_orders(self.state, house), FILL))
            self.sys(cmd.AssignOrders(orders=mine), self.actor(house))
        self.sys(cmd.ResolvePending(), SYSTEM)
        self.sys(cmd.RavenPass(), self.actor(self.state.raven_holder()))
        assert (self.state.phase, self.state.step) == ("action", "awaiting_action_phase")

    # --- plumbing ---------------------------------------------------------------------------

    def apply(self, events: list[ev.Event]) -> list[ev.Event]:
        self.state = fold(events, self.state)
        self.events.extend(events)
        return events

    def sys(self, command, actor) -> list[ev.Event]:
        return self.apply(decide(self.state, command, actor, self.ctx))

    def actor(self, house: str) -> cmd.Actor:
        return cmd.Actor(kind="seat", seat_id=self.state.seat_of_house(house).seat_id)

    def run(self, house: str, command) -> list[ev.Event]:
        """A player's command through ``decide`` and ``fold``."""
        return self.sys(command, self.actor(house))

    def timeout(self) -> list[ev.Event]:
        later = ctx_at(
            now=parse_rfc3339(self.state.deadline) + timedelta(seconds=1), seed=self.ctx.seed, game_id=self.ctx.game_id
        )
        return self.apply(decide(self.state, cmd.ApplyTimeout(step_version=self.state.step_version), SYSTEM, later))

    def begin(self) -> list[ev.Event]:
        """The system opens the Action phase (BG-ACT-01)."""
        return self.sys(cmd.ResolvePending(), SYSTEM)

    def decisions(self, house: str | None = None):
        return [d for d in pending_decisions(self.state) if house is None or d.house == house]

    def decision(self, house: str | None = None):
        ds = self.decisions(house)
        assert len(ds) == 1, ds
        return ds[0]

    # --- position setup (mutates the folded state, see the module docstring) -----------------

    def setup(
        self,
        units: dict[str, tuple[str, dict[str, int]]] | None = None,
        orders: dict[str, str] | None = None,
        *,
        clear: bool = True,
        power: dict[str, int] | None = None,
        tokens: dict[str, str] | None = None,
        garrisons: dict[str, int] | None = None,
        neutral: dict[str, int] | None = None,
        hands: dict[str, list[str]] | None = None,
        discards: dict[str, list[str]] | None = None,
        supply: dict[str, int] | None = None,
        tracks: dict[str, list[str]] | None = None,
    ) -> Position:
        """Replace the position. ``units``: area -> (house, {unit: n}). ``orders``: area -> order id
        (the house is the one whose units stand there). With ``clear`` every unit, order, token and
        neutral force is removed first (garrisons stay unless ``garrisons`` is given)."""
        s = copy_state(self.state)
        if clear:
            for a in s.areas.values():
                a.house, a.units, a.power_token, a.neutral = None, {}, None, 0
            s.orders = {}
        for area, (house, us) in (units or {}).items():
            s.areas[area].house = house
            s.areas[area].units = dict(us)
        for area, order in (orders or {}).items():
            s.orders[area] = PlacedOrder(house=s.areas[area].house, order=order)
        for house, n in (power or {}).items():
            s.houses[house].power = n
        for area, house in (tokens or {}).items():
            s.areas[area].power_token = house
        if garrisons is not None:
            for a in s.areas.values():
                a.garrison = 0
            for area, n in garrisons.items():
                s.areas[area].garrison = n
        for area, n in (neutral or {}).items():
            s.areas[area].neutral = n
        for house, cards in (hands or {}).items():
            s.houses[house].hand = list(cards)
        for house, cards in (discards or {}).items():
            s.houses[house].discards = list(cards)
        for house, n in (supply or {}).items():
            s.houses[house].supply = n
        for track, order in (tracks or {}).items():
            setattr(s.tracks, track, list(order))
        self.state = s
        return self


def event_types(events) -> list[str]:
    return [type(e).__name__ for e in events]


def of_type(events, cls):
    return [e for e in events if isinstance(e, cls)]


__all__ = ["Position", "acmd", "ev", "event_types", "of_type", "ALL_HOUSES"]
