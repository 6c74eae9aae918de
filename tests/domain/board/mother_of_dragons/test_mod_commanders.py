"""Mother of Dragons: choosing the vassals' commanders at the start of every Planning phase
(MOD-VASSAL-02..07), one decision per set in Iron Throne order, with a documented default; the
export of such a game audits clean.
"""

from __future__ import annotations

import pytest

from domain.board import commands as cmd
from domain.board import mod_events as mev
from domain.board.audit import audit
from domain.board.decider import decide
from domain.board.decisions import pending_decisions
from domain.board.emitter import Emitter
from domain.board.planning.commanders import ChooseCommanderOptions, open_planning
from domain.board.redaction import view_for
from domain.core.errors import NotYourTurn, RuleViolation
from tests.domain.board.mother_of_dragons.test_mod_house_choice import Table
from tests.support.board_builders import Game, mod_game

FOUR = ["baratheon", "lannister", "stark", "martell"]
"""Iron Throne after MOD-SETUP-09: baratheon, lannister, stark, martell, then the vassals greyjoy,
tyrell, arryn (no vassal in the top three: the fixed order stays)."""


def choose(game: Game, house: str, vassal: str | None) -> None:
    game.run(cmd.CommandVassal(vassal=vassal), game.actor(house))


def only_decision(game: Game) -> tuple[str, ChooseCommanderOptions]:
    assert game.state is not None
    decisions = pending_decisions(game.state)
    assert len(decisions) == 1 and decisions[0].commands == ["command_vassal"]
    options = decisions[0].options
    assert isinstance(options, ChooseCommanderOptions)
    assert decisions[0].deadline is not None
    return decisions[0].house, options


def test_MOD_VASSAL_02_03_07_each_set_holder_picks_in_iron_throne_order() -> None:
    """MOD-VASSAL-02: one set per vassal to the highest players; MOD-VASSAL-03: in Iron Throne order
    each picks a free vassal and commands it; MOD-VASSAL-07: then Assign Orders opens."""
    game = mod_game(FOUR)
    assert game.state is not None
    assert (game.state.phase, game.state.step) == ("planning", "choose_commanders")
    assert game.state.vassal_order_sets == {"baratheon": 1, "lannister": 1, "stark": 1}
    house, options = only_decision(game)
    assert house == "baratheon"
    assert options.vassals == ["greyjoy", "tyrell", "arryn"] and options.sets == 1 and options.pass_to == "lannister"
    assert pending_decisions(game.state)[0].seat_id == game.seat_id_of("baratheon")
    choose(game, "baratheon", "tyrell")
    house, options = only_decision(game)
    assert house == "lannister" and options.vassals == ["greyjoy", "arryn"]
    choose(game, "lannister", "arryn")
    house, options = only_decision(game)
    assert house == "stark" and options.vassals == ["greyjoy"]
    choose(game, "stark", "greyjoy")
    assert game.state.commanders == {"tyrell": "baratheon", "arryn": "lannister", "greyjoy": "stark"}
    assert game.state.step == "assign_orders"
    assert view_for(game.state, None).commanders == game.state.commanders  # public


def test_MOD_VASSAL_04_05_a_pass_hands_the_set_down_and_the_last_takes_the_rest() -> None:
    """MOD-VASSAL-04: a pass hands the set to the next player on the Iron Throne track;
    MOD-VASSAL-05: the last player cannot pass and commands every vassal still unpicked, without a
    decision."""
    game = mod_game(FOUR)
    assert game.state is not None
    choose(game, "baratheon", None)
    assert game.state.vassal_order_sets == {"baratheon": 0, "lannister": 2, "stark": 1}
    house, options = only_decision(game)
    assert house == "lannister" and options.sets == 2
    choose(game, "lannister", "greyjoy")
    choose(game, "lannister", None)
    assert game.state.vassal_order_sets["stark"] == 2
    choose(game, "stark", None)
    events = game.events[-3:]
    choose(game, "stark", None)  # the sets reach martell, the last player: it takes tyrell and arryn
    last = [e for e in game.events if isinstance(e, mev.VassalsCommandedByLast)]
    assert events != game.events[-3:] and len(last) == 1
    assert last[0].house == "martell" and last[0].vassals == ["tyrell", "arryn"]
    assert game.state.commanders == {"greyjoy": "lannister", "tyrell": "martell", "arryn": "martell"}
    assert game.state.step == "assign_orders"


def test_MOD_VASSAL_06_two_sets_one_picked_one_passed() -> None:
    """MOD-VASSAL-06: with 3 players and 4 vassals the top player holds two sets; it picks a vassal
    with one and passes the other (review 2)."""
    game = mod_game(["baratheon", "lannister", "stark"])
    assert game.state is not None
    house, options = only_decision(game)
    assert house == "baratheon" and options.sets == 2
    choose(game, "baratheon", "martell")
    house, options = only_decision(game)
    assert house == "baratheon" and options.sets == 1
    choose(game, "baratheon", None)
    house, options = only_decision(game)
    assert house == "lannister" and options.sets == 2
    choose(game, "lannister", "greyjoy")
    choose(game, "lannister", "tyrell")
    # stark is last and holds the last set: it commands arryn without a decision (MOD-VASSAL-05)
    assert game.state.commanders == {
        "martell": "baratheon",
        "greyjoy": "lannister",
        "tyrell": "lannister",
        "arryn": "stark",
    }
    assert game.state.step == "assign_orders"


def test_MOD_VASSAL_03_refusals_change_nothing() -> None:
    """MOD-VASSAL-03: only the player whose turn it is may pick, and only a vassal nobody commands."""
    game = mod_game(FOUR)
    assert game.state is not None
    version = game.state.version
    with pytest.raises(NotYourTurn):
        decide(game.state, cmd.CommandVassal(vassal="tyrell"), game.actor("lannister"), game.ctx)
    for bad in ("stark", "targaryen", "baratheon"):  # a player house, an absent house, itself
        with pytest.raises(RuleViolation) as err:
            decide(game.state, cmd.CommandVassal(vassal=bad), game.actor("baratheon"), game.ctx)
        assert err.value.code == "vassal_not_available"
    choose(game, "baratheon", "tyrell")
    with pytest.raises(RuleViolation):
        decide(game.state, cmd.CommandVassal(vassal="tyrell"), game.actor("lannister"), game.ctx)
    assert game.state.version == version + 2  # the choice and the next step only


def test_MOD_VASSAL_03_default_takes_the_highest_free_vassal() -> None:
    """The documented default at the deadline: the free vassal highest on the Iron Throne track."""
    game = mod_game(FOUR)
    assert game.state is not None
    game.timeout()
    chosen = [e for e in game.events if isinstance(e, mev.VassalCommanderChosen)]
    assert chosen[-1] == mev.VassalCommanderChosen(house="baratheon", vassal="greyjoy", by_default=True)
    assert game.state.commanders == {"greyjoy": "baratheon"}
    game.timeout()
    game.timeout()
    assert game.state.commanders == {"greyjoy": "baratheon", "tyrell": "lannister", "arryn": "stark"}
    assert game.state.step == "assign_orders"


def test_MOD_VASSAL_02_each_planning_phase_starts_without_commanders() -> None:
    """MOD-VASSAL-02: at the start of every Planning phase the vassals' tokens go back beside the
    Iron Throne track and the sets are dealt again to the highest players."""
    game = mod_game(FOUR)
    assert game.state is not None
    for _ in range(3):
        game.timeout()
    assert len(game.state.commanders) == 3
    em = Emitter(game.state, game.ctx)
    open_planning(em)
    assert isinstance(em.events[0], mev.VassalOrderSetsDealt)
    assert em.state.commanders == {} and em.state.step == "choose_commanders"
    assert em.state.vassal_order_sets == {"baratheon": 1, "lannister": 1, "stark": 1}


def test_MOD_VASSAL_03_an_export_with_commander_choices_audits_clean() -> None:
    """The audit re-derives the commander choices (a player's pick, a pass, a default) and the last
    player's forced command."""
    t = Table(4, seed="commanders")
    assert t.state is not None
    for _ in range(4):
        t.timeout()  # every seat gets its default house
    assert t.state.step == "choose_commanders"
    first = pending_decisions(t.state)[0]
    t.run(cmd.CommandVassal(vassal=None), t.seat(first.seat_id))
    second = pending_decisions(t.state)[0]
    options = second.options
    assert isinstance(options, ChooseCommanderOptions)
    t.run(cmd.CommandVassal(vassal=options.vassals[-1]), t.seat(second.seat_id))
    while t.state.step == "choose_commanders":
        t.timeout()
    assert len(t.state.commanders) == 3
    report = audit(t.envelopes(), t.ctx.seed)
    assert report.rules_ok, report.problems
