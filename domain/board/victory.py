"""Victory (BG-VIC-01..04, BG-ROUND-03): the one place castles and strongholds are counted.

* BG-VIC-02 -- a house's victory points are the castle/stronghold areas it controls
  (:func:`victory_points`; the Victory track shows them, the views and the standings read them here).
* BG-VIC-01 -- a house controlling 7 castle/stronghold areas wins at once: :func:`check_batch` walks a
  batch event by event and checks after every change of control (units moved, destroyed or placed,
  Power tokens placed or removed), not only at the batch's end (Review 2 "BG-VIC-01 timing"). At the
  first moment a house has 7 the batch is cut there and ``GameEnded`` appended: what the rest of the
  same effect would have done (a later house's wildling penalty, a later step) never happens.
  Two things are one change of control, not several: the moves of one March with the Power token it
  leaves (BG-MARCH-01/05/06: the units leave together, so the area is never "empty" between them),
  and a combat (control of the embattled area is settled when the combat ends, BG-COMBAT-24: the
  defender's retreat and the attacker's move-in are one outcome), checked at ``CombatEnded``.
* BG-VIC-03 -- after the Action phase of round 10 the game waits at ``awaiting_final_scoring``; the
  system's ``ResolvePending`` then ends it (:func:`final_scoring`) and the most castles/strongholds win.
* BG-VIC-04 -- tie-breaks by the setting ``tiebreak_ruleset``: ``faq_v2`` (default) most land areas,
  then highest Supply, then highest on the Iron Throne track; ``seed`` most Strongholds, highest
  Supply, most available Power, highest on the Iron Throne track.

``GameEnded`` carries the winner and every house's standing. It reveals nothing itself: once the
phase is ``ended`` the service reveals the seed and every event in full.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from . import board_data
from .action import events as aev
from .control import controlled_areas, controller
from .emitter import copy_state
from .events import Event
from .evolve import evolve
from .state import FINAL_STEP, BoardState
from .tracks import tracks_of
from .westeros import events as wev

__all__ = ["FINAL_STEP", "check_batch", "final_scoring", "seven_castles", "standings", "victory_points"]

SEVEN = 7

#: Events after which control of an area may have changed.
CONTROL_EVENTS = (
    aev.UnitsMoved,
    aev.UnitsDestroyed,
    aev.UnitsPlaced,
    aev.PowerTokenPlaced,
    aev.PowerTokenRemoved,
)


def victory_points(state: BoardState, house: str, controllers: dict[str, str | None] | None = None) -> int:
    """BG-VIC-01/02, BG-SETUP-12: castle and stronghold areas controlled. ``controllers`` (area ->
    :func:`~.control.controller`) may be passed when the caller has already computed it for every area."""
    if controllers is None:
        return castle_areas(controlled_areas(state, house))
    return castle_areas(a for a, c in controllers.items() if c == house)


def castle_areas(areas: Iterable[str]) -> int:
    """How many of ``areas`` hold a Castle or a Stronghold (the areas that count for victory)."""
    return sum(1 for a in areas if board_data.any_area(a).castle != "none")


class _Stats(TypedDict):
    """A house's standing figures (the fields of :class:`~.westeros.events.Standing` but its rank)."""

    castles: int
    strongholds: int
    land_areas: int
    supply: int
    power: int
    iron_throne: int


def _stats(state: BoardState, house: str) -> _Stats:
    facts = board_data.areas_for(state.settings.expansion)
    ctrl = controlled_areas(state, house)
    return {
        "castles": castle_areas(ctrl),
        "strongholds": sum(1 for a in ctrl if facts[a].castle == "stronghold"),
        "land_areas": sum(1 for a in ctrl if facts[a].kind == "land"),
        "supply": state.houses[house].supply,
        "power": state.houses[house].power,
        "iron_throne": tracks_of(state).iron_throne.index(house) + 1,
    }


def _key(stats: _Stats, ruleset: str) -> tuple[int, ...]:
    if ruleset == "seed":
        return (-stats["castles"], -stats["strongholds"], -stats["supply"], -stats["power"], stats["iron_throne"])
    return (-stats["castles"], -stats["land_areas"], -stats["supply"], stats["iron_throne"])


def standings(state: BoardState) -> list[wev.Standing]:
    """Every house ranked by castles/strongholds, then the tie-breaks (BG-VIC-03/04). The Iron Throne
    position is always different, so the ranking is strict."""
    ruleset = state.settings.tiebreak_ruleset
    players = [h for h in state.houses_in_play if h not in state.vassals]  # MOD-VASSAL-28
    stats = {h: _stats(state, h) for h in players}
    ranked = sorted(players, key=lambda h: _key(stats[h], ruleset))
    return [wev.Standing(house=h, rank=i + 1, **stats[h]) for i, h in enumerate(ranked)]


def game_ended(state: BoardState, reason: str) -> wev.GameEnded:
    table = standings(state)
    return wev.GameEnded(
        winner=table[0].house,
        reason=reason,
        round=state.round,
        standings=table,
        tiebreak_ruleset=state.settings.tiebreak_ruleset,
    )


def seven_castles(state: BoardState) -> bool:
    """BG-VIC-01: some house in play controls 7 castle/stronghold areas."""
    facts = board_data.areas_for(state.settings.expansion)
    counts: dict[str | None, int] = {}
    for a in state.areas:
        if facts[a].castle != "none":
            owner = controller(state, a)
            counts[owner] = counts.get(owner, 0) + 1
    # MOD-VASSAL-28: a vassal can neither win nor lose
    return any(counts.get(h, 0) >= SEVEN for h in state.houses_in_play if h not in state.vassals)


#: Events that continue one March's movement (BG-MARCH-01/05/06) after its ``MarchDeclared``.
MARCH_MOVES = (aev.UnitsMoved, aev.PowerTokenRemoved, aev.PowerTokenPlaced)


def _march_move(event: Event) -> bool:
    if isinstance(event, aev.UnitsMoved):
        return event.reason == "BG-MARCH-01"
    if isinstance(event, aev.PowerTokenRemoved):
        return event.reason == "BG-MARCH-05"
    return isinstance(event, aev.PowerTokenPlaced)


def _settled(state: BoardState) -> bool:
    """No combat is open: outside a combat every change of control is final when it happens."""
    return state.action is None or state.action.combat is None


def check_batch(state: BoardState, events: list[Event]) -> list[Event]:
    """BG-VIC-01: ``events``, cut after the first change of control that leaves a house with 7
    castle/stronghold areas and followed by ``GameEnded`` (see the module docstring); unchanged when no
    house reaches 7."""
    if not events or state.tracks is None or any(isinstance(e, wev.GameEnded) for e in events):
        return events
    if not any(isinstance(e, CONTROL_EVENTS) for e in events):
        return events
    now = copy_state(state)
    changed = False  # a change of control not yet checked
    in_march = False
    for i, e in enumerate(events):
        continues = in_march and _march_move(e)
        if changed and not continues and _settled(now):
            if _won(now):
                return events[:i] + [game_ended(now, "seven_castles")]
            changed = False
        in_march = continues or isinstance(e, aev.MarchDeclared)
        now = evolve(now, e)
        if isinstance(e, CONTROL_EVENTS) or isinstance(e, aev.CombatEnded):
            changed = True
    if changed and _settled(now) and _won(now):
        return events + [game_ended(now, "seven_castles")]
    return events


def _won(state: BoardState) -> bool:
    return state.phase != "lobby" and state.step != "game_over" and seven_castles(state)


def final_scoring(state: BoardState) -> list[Event]:
    """BG-VIC-03: after round 10's Action phase the most castles/strongholds win."""
    return [game_ended(state, "seven_castles" if seven_castles(state) else "final_round")]
