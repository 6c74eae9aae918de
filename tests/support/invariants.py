"""The one invariant checker every random-play test uses (the Action phase's random legal moves, the
full random games, the API's random phases and the export checks).

* :func:`check_state` -- what holds after *every event*: unit limits (BG-COMP-03), unit kinds
  (BG-COMP-05), the port cap (BG-MAP-07), one house per area, routed units only among the units there
  (BG-COMBAT-22), Power conservation (BG-POWER-01), seven House cards per house (BG-MISC-02), the
  Supply track (BG-SUPPLY-02), impassable areas empty (BG-SETUP-06), the influence tracks, the
  wildling threat (BG-WILD-06) and the decks.
* :func:`check_batch_end` -- what holds once a *whole batch* is applied: supply limits
  (BG-SUPPLY-05; not for a house that is reconciling, BG-SUPPLY-04) and orders only where their house
  has units (BG-ORDER-08; while a combat is open its two areas may hold an order without units --
  Mace Tyrell can kill the last footman -- because BG-ORDER-08 removes such orders at clean-up).
* :func:`check_invariants` -- both, after a batch;
* :func:`make_checker` -- the callback the random Action-phase driver calls after each batch:
  :func:`check_state` after every event of it, :func:`check_batch_end` at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.board import board_data
from domain.board.emitter import copy_state
from domain.board.events import Event
from domain.board.evolve import evolve
from domain.board.power import pool
from domain.board.state import BoardState
from domain.board.supply import supply_ok

UNIT_LIMITS = {
    **{h: f.unit_limits for h, f in board_data.setup().houses.items()},
    **{h: f.unit_limits for h, f in board_data.mother_of_dragons().houses.items()},
}
POWER_TOKENS = board_data.setup().power_tokens_per_house


def check_state(s: BoardState) -> None:
    """Invariants after every event (see the module docstring)."""
    facts = board_data.areas_for(s.settings.expansion)
    for house in s.houses_in_play:
        if house not in s.houses:  # Mother of Dragons: laid out once every seat has chosen its house
            continue
        limits = (
            board_data.mother_of_dragons().houses[house].unit_limits if s.settings.expansion else UNIT_LIMITS[house]
        )
        for unit, limit in limits.items():
            n = sum(a.units.get(unit, 0) for a in s.areas.values() if a.house == house)
            assert 0 <= n <= limit, (house, unit, n)
        hs = s.houses[house]
        on_board = sum(1 for a in s.areas.values() if a.power_token == house)
        assert hs.power >= 0 and pool(s, house) >= 0, (house, hs.power, on_board)
        assert hs.power + on_board <= POWER_TOKENS, (house, hs.power, on_board)
        assert hs.power + on_board + pool(s, house) == POWER_TOKENS
        assert len(set(hs.hand)) == len(hs.hand) and not set(hs.hand) & set(hs.discards)
        if house in s.vassals and not s.has_left(
            house
        ):  # MOD-VASSAL-14/16: the shared deck, 3 of it drawn during a combat
            assert len(hs.hand) + len(hs.discards) + len(s.vassal_house_deck) in (7, 4, 1), (house, hs)
            assert hs.power == 0  # MOD-VASSAL-26
        else:  # a player's house, or a vassal whose player left: its own cards (MOD-FLEX-02)
            assert len(hs.hand) + len(hs.discards) + len(hs.removed) == 7, (house, hs.hand, hs.discards)
            assert house not in s.vassals or hs.power == 0
        assert 0 <= hs.supply <= 6
    for aid, a in s.areas.items():
        assert all(n > 0 for n in a.units.values()), (aid, a.units)
        assert (a.house is None) == (not a.units), (aid, a)
        kind = facts[aid].kind
        if kind == "land":
            assert not a.units.get("ship")
        else:
            assert set(a.units) <= {"ship"}, (aid, a.units)
            assert a.power_token is None
        if kind == "port":
            assert a.units.get("ship", 0) <= 3
        if a.blocked:
            assert not a.units and a.power_token is None
        if s.action is not None:
            for u, n in s.action.routed.get(aid, {}).items():
                assert 0 < n <= a.units.get(u, 0), (aid, u, n, a.units)
    assert s.tracks is not None
    for track in ("iron_throne", "fiefdoms", "kings_court"):
        assert sorted(getattr(s.tracks, track)) == sorted(s.houses_in_play)
    assert 0 <= s.wildling_threat <= 12 and s.wildling_threat % 2 == 0
    assert sorted(len(d) for d in s.westeros_decks.values()) in ([10, 10, 10], [9, 10, 10], [9, 9, 10], [9, 9, 9])
    if s.phase != "westeros":
        assert all(len(d) == 10 for d in s.westeros_decks.values())
        assert len(s.wildling_deck) == 9


def check_batch_end(s: BoardState) -> None:
    """Invariants once a whole batch is applied: supply (BG-SUPPLY-05) for every house that is not
    reconciling, and orders only where their house has units (BG-ORDER-08), but for the two areas of
    an open combat, whose empty-area orders BG-ORDER-08 removes only at the combat's clean-up."""
    combat = s.action.combat if s.action is not None else None
    in_combat = {combat.area, combat.from_area} if combat is not None else set()
    for area, o in s.orders.items():
        if area in in_combat and not s.areas[area].units:
            continue
        assert s.areas[area].house == o.house, (area, o)
    reconciling = set(s.westeros.reconcile) if s.westeros else set()
    # A combat's attacker, once the combat is decided, is between its origin and the attacked area
    # (its units move in after the loser's retreat, or go home after a loss): its supply was checked
    # at the March's declaration (BG-SUPPLY-06) and is checked again when the combat is over.
    if combat is not None and combat.winner is not None:
        reconciling.add(combat.attacker)
    for house in s.houses_in_play:
        if house not in reconciling and house in s.houses:
            assert supply_ok(s, house), (house, s.houses[house].supply, s.phase, s.step)


def check_invariants(s: BoardState) -> None:
    """Every invariant, after a batch."""
    if not s.houses:  # Mother of Dragons: the seats are still choosing their houses (MOD-SETUP-01)
        return
    check_state(s)
    check_batch_end(s)


def make_checker() -> Callable[..., None]:
    """A ``check(sc, events, before)`` callback for :func:`tests.support.random_play.play_action_phase`:
    replays the batch onto ``before`` checking :func:`check_state` after every event, then
    :func:`check_batch_end` on the position's state (without ``before``, :func:`check_invariants`
    on the position's state)."""

    def check(sc: Any, events: Sequence[Event], before: BoardState | None = None) -> None:
        if before is None:  # a batch applied without the state before it: check where it ended
            check_invariants(sc.state)
            return
        state = copy_state(before)
        for e in events:
            state = evolve(state, e)
            check_state(state)
        check_batch_end(sc.state)

    return check
