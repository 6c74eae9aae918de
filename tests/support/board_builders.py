"""Small helpers that build board-game states through the real decider (no Redis, no service).

Everything goes through ``decide`` and ``fold``: a helper never writes the state directly, so a test
built on these helpers exercises the same code path as the server. Tests that need a situation the
events cannot reach yet (e.g. a Westeros restriction) mutate a folded state themselves and say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board.decider import create, decide, fold
from domain.board.planning import areas_needing_orders
from domain.board.state import BoardState, Settings
from domain.core.context import Context, parse_rfc3339

NOW = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
SEED = "test-seed"
GAME_ID = "g1"

ORGANIZER = cmd.Actor(kind="organizer")
SYSTEM = cmd.Actor(kind="system")

#: Regular tokens in an order that fills up to 10 areas without ever using a copy twice too often.
REGULAR_FILL = (
    "march_0",
    "defense_plus_1",
    "support_0",
    "consolidate_power",
    "raid",
    "march_minus_1",
    "defense_plus_1",
    "support_0",
    "consolidate_power",
    "raid",
)

#: A valid order set for every house of a 4-player game at the start (BG-SETUP-10 areas).
STARK = {"the_shivering_sea": "support_0", "white_harbor": "defense_plus_1", "winterfell": "march_0"}
LANNISTER = {
    "lannisport": "march_0",
    "port_of_lannisport": "consolidate_power",
    "stoney_sept": "defense_plus_1",
    "the_golden_sound": "raid",
}
BARATHEON = {"dragonstone": "march_minus_1", "kingswood": "defense_plus_1", "shipbreaker_bay": "support_0"}
GREYJOY = {"greywater_watch": "raid", "ironmans_bay": "raid", "port_of_pyke": "consolidate_power", "pyke": "march_0"}
ORDERS_4P = {"stark": STARK, "lannister": LANNISTER, "baratheon": BARATHEON, "greyjoy": GREYJOY}


def make_ctx(seed: str = SEED, game_id: str = GAME_ID, now: datetime = NOW) -> Context:
    return Context(now=now, seed=seed, game_id=game_id)


@dataclass
class Game:
    """A game under test: the event log, the folded state and the context every command uses."""

    ctx: Context
    events: list[ev.Event] = field(default_factory=list)
    state: BoardState | None = None

    def apply(self, events: list[ev.Event]) -> list[ev.Event]:
        """Fold ``events`` onto the state and append them to the log."""
        self.state = fold(events, self.state)
        self.events.extend(events)
        return events

    def run(self, command: object, actor: cmd.Actor) -> list[ev.Event]:
        """``decide`` then fold; returns the new events (raises the RuleViolation if rejected)."""
        return self.apply(decide(self.state, command, actor, self.ctx))

    # --- seats and houses ---------------------------------------------------------------------

    def seat_id_of(self, house: str) -> str:
        """The seat that decides for ``house`` (a Mother of Dragons vassal's: its commander's)."""
        seat = self.state.deciding_seat(house)
        assert seat is not None, f"no seat plays {house}"
        return seat.seat_id

    def actor(self, house: str) -> cmd.Actor:
        return cmd.Actor(kind="seat", seat_id=self.seat_id_of(house))

    # --- planning -------------------------------------------------------------------------------

    def submit(self, house: str, orders: dict[str, str]) -> list[ev.Event]:
        return self.run(cmd.AssignOrders(orders=orders), self.actor(house))

    def submit_all(self, overrides: dict[str, dict[str, str]] | None = None) -> None:
        """Every house that has not submitted yet submits :func:`simple_orders` (or its override),
        in turn order (so this also works in sequential placement)."""
        overrides = overrides or {}
        for house in self.state.turn_order():
            if house not in self.state.planning.sealed:
                self.submit(house, overrides.get(house, simple_orders(self.state, house)))

    def reveal(self) -> list[ev.Event]:
        return self.run(cmd.ResolvePending(), SYSTEM)

    def timeout_command(self) -> cmd.ApplyTimeout:
        """The timeout job's command for the current step."""
        return cmd.ApplyTimeout(step_version=self.state.step_version)

    def after_deadline(self) -> Context:
        """A context one second after the current deadline (when a timeout job would run)."""
        assert self.state.deadline is not None, "no deadline is set"
        return make_ctx(
            seed=self.ctx.seed, game_id=self.ctx.game_id, now=parse_rfc3339(self.state.deadline) + timedelta(seconds=1)
        )

    def timeout(self) -> list[ev.Event]:
        """The deadline of the current step passed: apply the documented defaults."""
        return self.apply(decide(self.state, self.timeout_command(), SYSTEM, self.after_deadline()))


def simple_orders(state: BoardState, house: str) -> dict[str, str]:
    """A valid assignment with regular tokens only: one per area with the house's units."""
    areas = areas_needing_orders(state, house)
    assert len(areas) <= len(REGULAR_FILL)
    return dict(zip(areas, REGULAR_FILL))


def created_game(
    player_count: int, *, seed: str = SEED, game_id: str = GAME_ID, settings: Settings | None = None
) -> Game:
    ctx = make_ctx(seed=seed, game_id=game_id)
    game = Game(ctx=ctx)
    game.apply(create(cmd.CreateGame(player_count=player_count, settings=settings or Settings()), ctx))
    return game


def mod_game(players: list[str], *, seed: str = SEED, game_id: str = GAME_ID) -> Game:
    """A Mother of Dragons game (MOD-SETUP-01) whose seats chose ``players``, in their choosing order:
    every other house is a vassal; the game waits on the first commander choice (MOD-VASSAL-03)."""
    game = created_game(len(players), seed=seed, game_id=game_id, settings=Settings(expansion="mother_of_dragons"))
    for i in range(len(players)):
        game.run(cmd.JoinGame(name=f"player{i + 1}"), cmd.Actor(kind="seat"))
    game.run(cmd.StartGame(), ORGANIZER)
    assert game.state is not None
    for seat_id, house in zip(list(game.state.house_choice_order), players):
        game.run(cmd.ChooseHouse(house=house), cmd.Actor(kind="seat", seat_id=seat_id))
    return game


def lobby_game(player_count: int, *, seats: int | None = None, seed: str = SEED, game_id: str = GAME_ID) -> Game:
    """A created game with ``seats`` (default: all) players joined, not started."""
    game = created_game(player_count, seed=seed, game_id=game_id)
    for i in range(player_count if seats is None else seats):
        game.run(cmd.JoinGame(name=f"player{i + 1}"), cmd.Actor(kind="seat"))
    return game


def started_game(player_count: int, *, seed: str = SEED, game_id: str = GAME_ID) -> Game:
    """A full game, started by the organizer: round 1, Planning, Assign Orders."""
    game = lobby_game(player_count, seed=seed, game_id=game_id)
    game.run(cmd.StartGame(), ORGANIZER)
    return game


def revealed_game(player_count: int, *, seed: str = SEED, overrides: dict[str, dict[str, str]] | None = None) -> Game:
    """A started game where everyone submitted and the orders were revealed (Messenger Raven step)."""
    game = started_game(player_count, seed=seed)
    game.submit_all(overrides)
    game.reveal()
    return game
