"""The bot's choices (clients/bot.py), checked by the domain alone: complete games where every
decision is answered by the bot's per-kind functions from the options as a client receives them
(the server's ``Decision`` encoded to JSON, decoded with the client's models), and where the bot's
fallback for *every* decision met is one the rules accept (so a bot can never get stuck). The
bot's commands reach the rules as the API decodes them (the client's JSON decoded into the
server's command union).

Every constraint is stated in the options (issue 9): bots choosing only from them are never refused
(:func:`test_bot_choices_are_never_refused`; by hand, 100 games of each player count give 0 too:
``PYTHONPATH=. .venv/bin/python -m tests.api.test_bot_choices 100``)."""

from __future__ import annotations

import random
import sys
from collections import Counter

import msgspec
import pytest

from clients import bot
from clients.citadel_client import models
from domain.board.action import events as aev
from domain.board.commands import Actor, PlayerCommand, ResolvePending
from domain.board.decider import decide, pending_system_work
from domain.board.decisions import pending_decisions
from domain.board.state import Settings
from domain.core.errors import RuleViolation
from tests.support.full_games import FullGame

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(models.Decision)  # the client's models of the API's JSON
_command_dec = msgspec.json.Decoder(PlayerCommand)  # the server's, as the API decodes a body


def as_the_api_decodes(command: models.Command) -> PlayerCommand:
    return _command_dec.decode(_enc.encode(command))


class BotDrivenGame(FullGame):
    def __init__(self, *a, **k):
        self.kinds: dict[str, int] = {}
        self.refused = 0
        self.refusals: Counter[tuple[str, str]] = Counter()
        """(decision kind, problem code) -> refusals of the bot's random choices."""
        super().__init__(*a, **k)

    def step(self, rng: random.Random, timeout_rate: float = 0.0) -> None:
        s = self.state
        if pending_system_work(s):
            self.run(ResolvePending(), Actor(kind="system"))
            return
        ds = [_dec.decode(_enc.encode(d)) for d in pending_decisions(s)]  # as a client receives them
        todo = [d for d in ds if bot.actionable(d)]
        assert todo, f"nothing actionable at {s.phase}/{s.step}"
        for d in todo:  # the fallback of every decision is legal
            try:
                decide(s, as_the_api_decodes(bot.fallback_command(d)), self.seat(d), self.ctx)
            except RuleViolation as e:
                pytest.fail(f"fallback {bot.fallback_command(d)!r} refused at {s.phase}/{s.step}: {e}")
        d = rng.choice(todo)
        kind = bot.kind_of(d)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        for attempt in range(bot.MAX_ATTEMPTS + 1):
            command = bot.random_command(d, rng) if attempt < bot.MAX_ATTEMPTS else bot.fallback_command(d)
            try:
                events = decide(s, as_the_api_decodes(command), self.seat(d), self.ctx)
            except RuleViolation as e:
                self.refused += 1
                self.refusals[(kind, e.code)] += 1
                continue
            self.apply(events)
            return
        pytest.fail("unreachable: the fallback was checked above")

    @staticmethod
    def seat(d: models.Decision) -> Actor:
        """The seat the decision waits on (a vassal's: its commander's, MOD-VASSAL-09)."""
        return Actor(kind="seat", seat_id=d.seat_id)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bot_choices_play_complete_games_and_every_fallback_is_legal(players):
    game = BotDrivenGame(players, f"bot-choices-{players}")
    game.play(random.Random(players))
    assert game.state.phase == "ended" and game.state.winner
    assert game.same_as_refold()
    assert game.refused == 0, game.refusals
    assert set(game.kinds) >= {
        "assign_orders",
        "messenger_raven",
        "resolve_march",
        "resolve_raid",
        "resolve_consolidate_power",
        "choose_house_card",
        "bid",
        "westeros_choice",
        "muster",
    }


def test_the_bot_answers_the_vassal_cards_decisions():
    """Mother of Dragons (MOD-VASSAL-29): in 4-player games with vassals the bot answers every
    decision from the decisions alone, the vassal House cards' choices included (Bronn's opponent
    discarding Power, Beric Dondarrion's unit), and is never refused; the games re-fold the same."""
    chosen: Counter[str] = Counter()
    for i in range(3):
        game = BotDrivenGame(4, f"vc-bot-{i}", Settings(expansion="mother_of_dragons"))
        game.play(random.Random(i))
        assert game.state.phase == "ended" and game.state.winner
        assert game.same_as_refold() and game.refused == 0, game.refusals
        chosen.update(e.card for e in game.events if isinstance(e, aev.AbilityResolved) and e.choice is not None)
    assert chosen["bronn"] and chosen["beric_dondarrion"], chosen


def play_bot_games(players: int, games: int) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """``games`` complete bot-driven games: (kind, code) -> refusals, and decisions answered per kind."""
    refusals: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    for i in range(games):
        game = BotDrivenGame(players, f"refusals-{players}-{i}")
        game.play(random.Random(f"{players}/{i}"))
        assert game.state.phase == "ended" and game.state.winner
        refusals.update(game.refusals)
        kinds.update(game.kinds)
    return refusals, kinds


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bot_choices_are_never_refused(players):
    """Issue 9: every decision states every constraint (counts, limits, allowed combinations), so a
    client choosing only within them is never refused: 0 refusals over 20 games per player count
    (before the Marches and musterings stated supply, neutral reach, port room, upgradable Footmen
    and units left, such games had 17-29 refusals each)."""
    refusals, kinds = play_bot_games(players, 20)
    assert kinds["resolve_march"] and kinds["muster"] and kinds["resolve_consolidate_power"]
    assert sum(refusals.values()) == 0, refusals


def test_a_march_over_supply_already_moves_nothing_rather_than_fail():
    """Found through the API (game 218 of the 400-game bench): after an attacker's retreat home a
    house can stand beyond its supply at its next March; the bot then moves nothing (never refused)."""
    over = models.SupplyLimit(allowed=[2, 2], units={"a": 1, "b": 2, "c": 2, "d": 2})  # no move can fix it
    order = models.MarchOrderOptions(
        units={"footman": 1},
        land_destinations=["e"],
        ship_destinations=[],
        fights={},
        neutral_strength={},
        may_leave_power_token=False,
        neutral_forces={},
        port_room={},
    )
    for seed in range(20):
        out = bot.resolve_march(models.MarchOptions(orders={"a": order}, supply=over), random.Random(seed))
        assert out.area == "a" and not out.moves


def test_every_decision_kind_has_a_chooser_and_a_fallback():
    from typing import get_args

    from domain.board.decisions import DecisionOptions

    kinds = {t.__struct_config__.tag for t in get_args(DecisionOptions)}
    assert kinds == set(bot.CHOOSERS) == set(bot.FALLBACKS)
    assert kinds == {t.__struct_config__.tag for t in get_args(models.DecisionOptions)}  # the client knows them all


def test_the_client_knows_every_command_type():
    from typing import get_args

    assert {t.__struct_config__.tag for t in get_args(PlayerCommand)} == {
        t.__struct_config__.tag for t in get_args(models.PlayerCommand)
    }


if __name__ == "__main__":  # the by-hand figure: refusals over N games of each player count
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for p in (3, 4, 5, 6):
        refused, answered = play_bot_games(p, n)
        print(f"{p} players, {n} games: {sum(refused.values())} refusals {dict(refused)}; decisions {dict(answered)}")
