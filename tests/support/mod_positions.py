"""Position builder for Mother of Dragons tests (docs/mother-of-dragons.md).

Like :class:`tests.support.action_positions.Position`, and as honest: a real Mother of Dragons game is
folded through the real decider (create with ``settings.expansion``, every seat joins, the start,
each seat chooses its house in turn, every player submits orders, the reveal, the Raven passes),
which leaves it at ``awaiting_action_phase``. :meth:`Position.setup` may then replace the position
(it mutates that folded state, documented there), and ``begin`` opens the Action phase.

With 7 players every house is a player's (no vassal), so combats need no vassal rules.
"""

from __future__ import annotations

from domain.board import commands as cmd
from domain.board.decider import create
from domain.board.house_choice import chooser, free_houses
from domain.board.planning import areas_needing_orders
from domain.board.state import Settings
from tests.support.action_positions import FILL, ORGANIZER, SYSTEM, Position, ctx_at

MOD = Settings(expansion="mother_of_dragons")


class ModPosition(Position):
    """A Mother of Dragons game at ``awaiting_action_phase`` of round 1 (see the module docstring).
    ``orders`` overrides a house's orders (area -> token id); ``raven`` is the Raven holder's command
    (by default it passes)."""

    def __init__(
        self,
        players: int = 7,
        seed: str = "mod-seed",
        orders: dict[str, dict[str, str]] | None = None,
        raven: object | None = None,
        reveal: bool = True,
    ) -> None:
        self.ctx = ctx_at(seed=seed, game_id="g-mod")
        self.events = []
        self.state = None
        self.apply(create(cmd.CreateGame(player_count=players, settings=MOD), self.ctx))
        for i in range(players):
            self.sys(cmd.JoinGame(name=f"p{i + 1}"), cmd.Actor(kind="seat"))
        self.sys(cmd.StartGame(), ORGANIZER)
        while (seat := chooser(self.state)) is not None:
            self.sys(cmd.ChooseHouse(house=free_houses(self.state)[0]), cmd.Actor(kind="seat", seat_id=seat))
        if not reveal:
            return
        orders = orders or {}
        for house in self.state.turn_order():
            if house in self.state.vassals:
                continue
            mine = orders.get(house) or dict(zip(areas_needing_orders(self.state, house), FILL))
            self.sys(cmd.AssignOrders(orders=mine), self.actor(house))
        self.sys(cmd.ResolvePending(), SYSTEM)
        self.sys(raven or cmd.RavenPass(), self.actor(self.state.raven_holder()))
        assert (self.state.phase, self.state.step) == ("action", "awaiting_action_phase")


SEVEN = ("baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell", "arryn")


def mod_north(
    att=None,
    dfn=None,
    extra=None,
    orders=None,
    march="march_0",
    defense=None,
    a="stark",
    d="arryn",
    no_blade=False,
    **kw,
) -> ModPosition:
    """Like :func:`tests.support.combat_helpers.north` in a 7-player Mother of Dragons game: ``a``
    attacks from Winterfell, ``d`` defends Karhold (Castle Black and The Shivering Sea touch both).
    Fiefdoms: Greyjoy (the Blade), Tyrell, Martell, Arryn, Stark, Baratheon, Lannister."""
    units = {"winterfell": (a, att or {"knight": 1}), "karhold": (d, dfn or {"footman": 1})}
    units.update(extra or {})
    o = {"winterfell": march}
    if defense:
        o["karhold"] = defense
    o.update(orders or {})
    kw.setdefault("garrisons", {})
    kw.setdefault("supply", {h: 6 for h in SEVEN})
    sc = ModPosition().setup(units, o, **kw)
    sc.state.blade_used = no_blade
    sc.begin()
    return sc
