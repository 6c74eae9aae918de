"""Mother of Dragons: the seats choose their houses in turn from a random first player (MOD-SETUP-01),
one pending decision per seat with a documented default; the export of such a game audits clean.
"""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import events as ev
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.decider import create, decide, fold
from domain.board.decisions import pending_decisions
from domain.board.house_choice import ChooseHouseOptions
from domain.board.narrative import describe
from domain.board.redaction import redact_event, view_for
from domain.board.state import BoardState, Settings
from domain.core.context import Context, parse_rfc3339, rfc3339
from domain.core.envelope import Envelope, seal
from domain.core.errors import NotYourTurn, RuleViolation
from domain.core.hashing import GENESIS
from tests.support.board_builders import NOW

MOD = Settings(expansion="mother_of_dragons")
FIXED_IRON_THRONE = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
SYSTEM = cmd.Actor(kind="system")
ORGANIZER = cmd.Actor(kind="organizer")


class Table:
    """A Mother of Dragons game driven command by command, each batch sealed as the service seals it."""

    def __init__(self, players: int, seed: str = "mod-seed") -> None:
        self.ctx = Context(now=NOW, seed=seed, game_id=f"mod-{seed}")
        self.state: BoardState | None = None
        self.batches: list[tuple[list[ev.Event], str]] = []
        self.apply(create(cmd.CreateGame(player_count=players, settings=MOD), self.ctx))
        for i in range(players):
            self.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(cmd.StartGame(), ORGANIZER)

    def apply(self, events: list[ev.Event], now=None) -> list[ev.Event]:
        self.state = fold(events, self.state)
        self.batches.append((events, rfc3339(now or self.ctx.now)))
        return events

    def run(self, command: object, actor: cmd.Actor) -> list[ev.Event]:
        return self.apply(decide(self.state, command, actor, self.ctx))

    def seat(self, seat_id: str) -> cmd.Actor:
        return cmd.Actor(kind="seat", seat_id=seat_id)

    def timeout(self) -> list[ev.Event]:
        assert self.state is not None and self.state.deadline is not None
        later = Context(
            now=parse_rfc3339(self.state.deadline) + timedelta(seconds=1), seed=self.ctx.seed, game_id=self.ctx.game_id
        )
        command = cmd.ApplyTimeout(step_version=self.state.step_version)
        return self.apply(decide(self.state, command, SYSTEM, later), later.now)

    def envelopes(self) -> list[Envelope]:
        prev, out, n = GENESIS, [], 0
        for events, ts in self.batches:
            for e in events:
                n += 1
                env = seal(n, ts, ev.SCHEMA_VERSION, prev, msgspec.json.encode(e))
                prev = env.hash
                out.append(env)
        return out

    def all_events(self) -> list[ev.Event]:
        return [e for events, _ in self.batches for e in events]


def test_MOD_SETUP_01_a_random_first_player_then_clockwise() -> None:
    """MOD-SETUP-01: the first player is drawn (in an event), the others follow clockwise (by seat
    number, wrapping around); each seat is its own pending decision, one at a time."""
    t = Table(5)
    ordered = [e for e in t.all_events() if isinstance(e, mev.HouseChoiceOrdered)]
    assert len(ordered) == 1
    order = ordered[0].order
    seats = [f"seat{i}" for i in range(1, 6)]
    k = seats.index(order[0])
    assert order == seats[k:] + seats[:k] and ordered[0].first_seat == order[0]
    assert t.state is not None and (t.state.phase, t.state.step) == ("setup", "choose_house")
    for seat_id in order:
        decisions = pending_decisions(t.state)
        assert [d.seat_id for d in decisions] == [seat_id]
        assert decisions[0].commands == ["choose_house"] and decisions[0].deadline is not None
        options = decisions[0].options
        assert isinstance(options, ChooseHouseOptions)
        t.run(cmd.ChooseHouse(house=options.houses[-1]), t.seat(seat_id))
    # MOD-VASSAL-02: the Planning phase opens on the choice of the vassals' commanders
    assert (t.state.phase, t.state.step) == ("planning", "choose_commanders")


def test_MOD_SETUP_01_first_player_differs_with_the_seed() -> None:
    """MOD-SETUP-01: the first player comes from the seed (not always seat1)."""
    firsts = {Table(4, seed=f"s{i}").state.house_choice_order[0] for i in range(12)}  # type: ignore[union-attr]
    assert len(firsts) > 1


def test_MOD_SETUP_01_options_state_the_free_houses_and_refuse_the_rest() -> None:
    """MOD-SETUP-01: the options list exactly the houses still free (in the fixed Iron Throne order);
    a taken house and an out-of-turn seat are refused and change nothing."""
    t = Table(3)
    assert t.state is not None
    first, second = t.state.house_choice_order[:2]
    assert pending_decisions(t.state)[0].options == ChooseHouseOptions(
        houses=FIXED_IRON_THRONE, order=t.state.house_choice_order
    )
    with pytest.raises(NotYourTurn):
        decide(t.state, cmd.ChooseHouse(house="stark"), t.seat(second), t.ctx)
    t.run(cmd.ChooseHouse(house="arryn"), t.seat(first))
    options = pending_decisions(t.state)[0].options
    assert isinstance(options, ChooseHouseOptions) and "arryn" not in options.houses
    version = t.state.version
    with pytest.raises(RuleViolation) as err:
        decide(t.state, cmd.ChooseHouse(house="arryn"), t.seat(second), t.ctx)
    assert err.value.code == "house_not_available" and err.value.rule == "MOD-SETUP-01"
    with pytest.raises(RuleViolation):
        decide(t.state, cmd.ChooseHouse(house="targaryen"), t.seat(second), t.ctx)  # part 2
    assert t.state.version == version
    t.run(cmd.ChooseHouse(house=options.houses[0]), t.seat(second))


def test_MOD_SETUP_01_default_is_the_first_free_house_in_iron_throne_order() -> None:
    """MOD-SETUP-01 default: when a seat's deadline passes it gets the first free house of the fixed
    Iron Throne order; the next seat then gets its own deadline."""
    t = Table(3)
    assert t.state is not None
    first, second, third = t.state.house_choice_order
    t.run(cmd.ChooseHouse(house="baratheon"), t.seat(first))
    out = t.timeout()
    chosen = [e for e in out if isinstance(e, mev.HouseChosen)]
    assert chosen == [mev.HouseChosen(seat_id=second, house="lannister", by_default=True)]
    assert pending_decisions(t.state)[0].seat_id == third
    t.timeout()
    houses = {s.seat_id: s.house for s in t.state.seats}
    assert houses == {first: "baratheon", second: "lannister", third: "stark"}
    assert sorted(t.state.vassals) == ["arryn", "greyjoy", "martell", "tyrell"]  # MOD-VASSAL-01
    assert t.state.phase == "planning"


def test_MOD_VASSAL_08_assign_orders_waits_on_players_and_on_commanders_for_vassals() -> None:
    """MOD-VASSAL-08: Assign Orders waits on every player and, for each vassal, on its commander."""
    t = Table(3)
    for _ in range(3):
        t.timeout()
    assert t.state is not None
    while t.state.step == "choose_commanders":  # MOD-VASSAL-03: the defaults pick the commanders
        t.timeout()
    decisions = pending_decisions(t.state)
    assert {d.house for d in decisions} == {"baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"}
    for d in decisions:
        owner = t.state.commanders.get(d.house, d.house)
        assert d.seat_id == t.state.seat_of_house(owner).seat_id  # type: ignore[union-attr]
        assert d.for_vassal == (d.house if d.house in t.state.vassals else None)


def test_house_choice_events_are_public_to_every_reader() -> None:
    """The choice is public: every seat and a spectator read the same events."""
    t = Table(3)
    for seat_id in list(t.state.house_choice_order):  # type: ignore[union-attr]
        opts = pending_decisions(t.state)[0].options  # type: ignore[arg-type]
        assert isinstance(opts, ChooseHouseOptions)
        t.run(cmd.ChooseHouse(house=opts.houses[0]), t.seat(seat_id))
    for e in t.all_events():
        if isinstance(e, mev.HouseChoiceOrdered | mev.HouseChosen):
            for reader in (None, "baratheon", "stark"):
                assert redact_event(e, reader) == e


def _play_choices(t: Table) -> None:
    assert t.state is not None
    order = list(t.state.house_choice_order)
    t.run(cmd.ChooseHouse(house="arryn"), t.seat(order[0]))
    t.timeout()
    for seat_id in order[2:]:
        opts = pending_decisions(t.state)[0].options
        assert isinstance(opts, ChooseHouseOptions)
        t.run(cmd.ChooseHouse(house=opts.houses[-1]), t.seat(seat_id))


@pytest.mark.parametrize("players", [3, 7])
def test_an_export_with_house_choice_audits_clean(players: int) -> None:
    """Every new command and event is known to the re-deriving audit: with the seed (the first
    player re-drawn) and without it (the recorded order replayed)."""
    t = Table(players, seed=f"audit-{players}")
    _play_choices(t)
    assert t.state is not None and t.state.phase == "planning"
    envs = t.envelopes()
    report = audit(envs, t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(envs) and report.divergence is None
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    blind = audit(envs)
    assert blind.rules_ok and blind.divergence is None, blind.problems


def test_a_forged_choice_is_caught() -> None:
    """A house swapped in a recorded choice no longer re-derives."""
    t = Table(3, seed="forge")
    _play_choices(t)
    envs = t.envelopes()
    raw = [msgspec.json.decode(e.event) for e in envs]
    i = next(n for n, e in enumerate(raw) if e["type"] == "house_chosen" and e["by_default"])
    raw[i]["house"] = "tyrell" if raw[i]["house"] != "tyrell" else "martell"
    prev, forged = GENESIS, []
    for n, (env, e) in enumerate(zip(envs, raw), 1):
        x = seal(n, env.ts, env.schema, prev, msgspec.json.encode(e))
        prev = x.hash
        forged.append(x)
    report = audit(forged, t.ctx.seed)
    assert not report.rules_ok and report.divergence is not None


def test_views_before_and_after_the_choice() -> None:
    """Every reader's view works while the seats choose (no house laid out yet) and shows the
    vassals and the Vassal Order sets afterwards (MOD-SETUP-11)."""
    t = Table(4, seed="views")
    assert t.state is not None
    before = view_for(t.state, None)
    assert before.phase == "setup" and before.house_choice_order == t.state.house_choice_order
    for _ in range(4):
        t.timeout()
    after = view_for(t.state, None)
    assert sorted(after.vassals) == ["arryn", "greyjoy", "tyrell"]
    assert after.vassal_order_sets == {"baratheon": 1, "lannister": 1, "stark": 1}
    assert all(h.hand is None for h in after.houses)  # House cards stay hidden from a spectator
    mine = view_for(t.state, "stark")
    assert next(h for h in mine.houses if h.house == "stark").hand is not None


def test_MOD_SETUP_01_the_log_says_the_houses_are_chosen_in_turn_and_who_chose_which() -> None:
    """MOD-SETUP-01: no house is dealt at the start of a Mother of Dragons game, so the log's start line
    names none (it used to read "The game started: . The decks were shuffled."); it says the seats
    choose in turn, then the drawn order and each choice (the default one marked) get their lines."""
    t = Table(4)
    assert t.state is not None
    order = list(t.state.house_choice_order)
    _play_choices(t)
    lines = [line for e in t.all_events() if (line := describe(redact_event(e, None))) is not None]
    start = lines.index("The game started: the seats choose their houses in turn. The decks were shuffled.")
    assert lines[start + 1] == f"{order[0]} was drawn to choose a house first; then {', '.join(order[1:])}."
    choices = [line for line in lines if " chose " in line]
    assert choices[0] == f"{order[0]} chose Arryn."
    assert choices[1] == f"{order[1]} chose Baratheon (by default, at the deadline)."  # first free, fixed order
    assert len(choices) == 4 and all(": ." not in line for line in lines)


def test_the_base_game_start_line_still_names_the_dealt_houses() -> None:
    """BG-SETUP-02: a base game deals the houses at the start; its start line names each seat's."""
    ctx = Context(now=NOW, seed="base", game_id="base")
    state = fold(create(cmd.CreateGame(player_count=3, settings=Settings()), ctx))
    for i in range(3):
        state = fold(decide(state, cmd.JoinGame(name=f"p{i}"), cmd.Actor(kind="seat"), ctx), state)
    started = decide(state, cmd.StartGame(), ORGANIZER, ctx)
    line = describe(next(e for e in started if isinstance(e, ev.GameStarted)))
    assert line is not None and line.startswith("The game started: seat1 plays ") and line.count(" plays ") == 3
