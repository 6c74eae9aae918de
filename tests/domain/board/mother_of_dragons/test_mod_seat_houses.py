"""Mother of Dragons with a given deal (``seat_houses`` at creation, a tournament's draw): the start
deals the given houses instead of the seats' choice (MOD-SETUP-01); the houses nobody plays become
vassals and the setup is laid out exactly as after the choice; a wrong deal is refused with the rule."""

from __future__ import annotations

import msgspec
import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.decider import create, decide, fold
from domain.board.decisions import pending_decisions
from domain.board.house_choice import ChooseHouseOptions
from domain.board.state import BoardState, Settings
from domain.core.context import Context
from domain.core.envelope import seal
from domain.core.errors import RuleViolation
from domain.core.hashing import GENESIS
from tests.domain.board.mother_of_dragons.test_mod_house_choice import MOD, ORGANIZER, Table
from tests.support.board_builders import NOW


class DealtTable(Table):
    """A Mother of Dragons game created with ``seat_houses``."""

    def __init__(self, seat_houses: list[str], seed: str = "dealt") -> None:  # noqa: D107
        self.ctx = Context(now=NOW, seed=seed, game_id=f"mod-{seed}")
        self.state: BoardState | None = None
        self.batches = []
        created = create(cmd.CreateGame(player_count=len(seat_houses), settings=MOD, seat_houses=seat_houses), self.ctx)
        self.apply(created)
        for i in range(len(seat_houses)):
            self.run(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.run(cmd.StartGame(), ORGANIZER)


def _choose(t: Table, wanted: dict[str, str]) -> None:
    """Every seat chooses the house ``wanted`` gives it, in the drawn order."""
    assert t.state is not None
    for seat_id in list(t.state.house_choice_order):
        opts = pending_decisions(t.state)[0].options
        assert isinstance(opts, ChooseHouseOptions) and wanted[seat_id] in opts.houses
        t.run(cmd.ChooseHouse(house=wanted[seat_id]), t.seat(seat_id))


def _board(state: BoardState) -> bytes:
    """Everything the setup lays out (not the bookkeeping of how the houses were settled)."""
    return msgspec.msgpack.encode(
        (
            state.phase,
            state.step,
            state.round,
            [(s.seat_id, s.house) for s in state.seats],
            state.vassals,
            state.tracks,
            state.areas,
            state.houses,
            state.vassal_order_sets,
            state.vassal_house_deck,
            state.commanders,
        )
    )


@pytest.mark.parametrize(
    "deal",
    [
        ["arryn", "stark", "lannister"],
        ["tyrell", "arryn", "martell", "greyjoy"],
        ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"],
    ],
)
def test_MOD_SETUP_01_a_given_deal_skips_the_choice_and_sets_up_as_the_choice_would(deal: list[str]) -> None:
    """MOD-SETUP-01 / MOD-VASSAL-01 / MOD-SETUP-11: with ``seat_houses`` no first player is drawn and no
    seat chooses; each seat plays its given house, every house not named is a vassal, and the board,
    tracks, Power, hands and Vassal Order sets are exactly those after the same houses were chosen."""
    dealt = DealtTable(deal)
    assert dealt.state is not None
    events = dealt.all_events()
    assert not [e for e in events if isinstance(e, mev.HouseChoiceOrdered | mev.HouseChosen)]
    assert dealt.state.house_choice_order == []
    assert {s.seat_id: s.house for s in dealt.state.seats} == {f"seat{i}": h for i, h in enumerate(deal, 1)}
    everyone = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn"]
    assert sorted(dealt.state.vassals) == sorted(h for h in everyone if h not in deal)
    assert dealt.state.phase == "planning"
    chosen = Table(len(deal), seed="dealt")
    _choose(chosen, {f"seat{i}": h for i, h in enumerate(deal, 1)})
    assert chosen.state is not None
    assert _board(dealt.state) == _board(chosen.state)


def test_MOD_SETUP_11_a_given_deal_opens_on_the_commanders_choice() -> None:
    """MOD-SETUP-11 / MOD-VASSAL-02: after a given deal of 3 houses the 4 vassals' sets are dealt at
    once, two to the top player, and the first set holder decides."""
    t = DealtTable(["stark", "greyjoy", "arryn"])
    assert t.state is not None and (t.state.phase, t.state.step) == ("planning", "choose_commanders")
    dealt = [e for e in t.all_events() if isinstance(e, mev.VassalOrderSetsDealt)]
    assert len(dealt) == 1 and sum(dealt[0].sets.values()) == 4
    top = t.state.turn_order()[0]
    assert top in ("stark", "greyjoy", "arryn") and dealt[0].sets[top] == 2
    assert [d.house for d in pending_decisions(t.state)] == [top]


@pytest.mark.parametrize(
    ("players", "deal", "why"),
    [
        (3, ["stark", "lannister"], "names 2 house(s) for 3 seats"),
        (3, ["stark", "stark", "lannister"], "named twice"),
        (4, ["stark", "lannister", "greyjoy", "targaryen"], "'targaryen' is not a house"),
        (3, ["stark", "lannister", "dorne"], "'dorne' is not a house"),
        (7, ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "tyrell"], "named twice"),
    ],
)
def test_MOD_SETUP_01_a_wrong_deal_is_refused_naming_the_rule(players: int, deal: list[str], why: str) -> None:
    """MOD-SETUP-01: a deal must give each seat a different one of the seven houses; otherwise 422
    ``invalid_seat_houses`` with the rule, and no game is created."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=players, settings=MOD, seat_houses=deal), ctx)
    assert err.value.code == "invalid_seat_houses" and err.value.rule == "MOD-SETUP-01"
    assert why in str(err.value)


def test_the_base_game_still_refuses_arryn_in_a_deal() -> None:
    """BG-SETUP-02: without the expansion Arryn is not a house in play."""
    ctx = Context(now=NOW, seed="x", game_id="g")
    with pytest.raises(RuleViolation) as err:
        create(cmd.CreateGame(player_count=3, settings=Settings(), seat_houses=["stark", "lannister", "arryn"]), ctx)
    assert err.value.rule == "BG-SETUP-02"


def test_a_game_with_a_given_deal_audits_clean_with_and_without_the_seed() -> None:
    """The audit re-runs the creation with the recorded deal and re-derives the start from it."""
    t = DealtTable(["martell", "arryn", "stark", "tyrell", "lannister"], seed="dealt-audit")
    while t.state is not None and t.state.step == "choose_commanders":
        t.timeout()
    envs = t.envelopes()
    report = audit(envs, t.ctx.seed)
    assert report.chain_ok and report.seed_ok and report.shuffles_ok and report.rules_ok, report.problems
    assert report.rederived_through == len(envs) and report.divergence is None
    assert msgspec.msgpack.encode(report.final_state) == msgspec.msgpack.encode(t.state)
    blind = audit(envs)
    assert blind.rules_ok and blind.divergence is None, blind.problems


def test_a_forged_deal_is_caught_by_the_audit() -> None:
    """A house swapped in the recorded start no longer matches the deal given at creation."""
    t = DealtTable(["stark", "greyjoy", "arryn"], seed="dealt-forge")
    envs = t.envelopes()
    raw = [msgspec.json.decode(e.event) for e in envs]
    i = next(n for n, e in enumerate(raw) if e["type"] == "game_started")
    raw[i]["houses"]["seat1"] = "tyrell"
    prev, forged = GENESIS, []
    for n, (env, e) in enumerate(zip(envs, raw), 1):
        x = seal(n, env.ts, env.schema, prev, msgspec.json.encode(e))
        prev = x.hash
        forged.append(x)
    report = audit(forged, t.ctx.seed)
    assert not report.rules_ok or not report.shuffles_ok


def test_a_given_deal_replays_to_the_same_state() -> None:
    """The fold of the recorded events gives the same state byte for byte."""
    t = DealtTable(["arryn", "baratheon", "greyjoy", "martell"], seed="dealt-fold")
    again = fold(t.all_events(), None)
    assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(t.state)


def test_a_dealt_game_decides_like_a_chosen_one() -> None:
    """After the deal the seats play: the first commander choice is accepted from its seat."""
    t = DealtTable(["stark", "greyjoy", "arryn"], seed="dealt-play")
    assert t.state is not None
    d = pending_decisions(t.state)[0]
    vassal = t.state.vassals[0]
    out = decide(t.state, cmd.CommandVassal(vassal=vassal), t.seat(d.seat_id), t.ctx)
    assert any(isinstance(e, mev.VassalCommanderChosen) and e.vassal == vassal for e in out)
