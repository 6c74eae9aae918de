"""Mother of Dragons: choosing the vassals' commanders at the start of every Planning phase
(MOD-VASSAL-02..07).

1. MOD-VASSAL-02: every vassal's token goes back beside the Iron Throne track (nobody commands a
   vassal any more) and the sets of Vassal Order tokens, one per vassal, go to the highest players
   on the Iron Throne track (``VassalOrderSetsDealt``).
2. MOD-VASSAL-03/04/06: in Iron Throne order, the first player still holding a set decides, one set
   at a time: it picks a vassal nobody commands yet, or passes that set to the next player on the
   track (``VassalCommanderChosen``). Each such choice is its own step (``choose_commanders``) with
   its own deadline.
3. MOD-VASSAL-05: the last player on the track cannot pass. As soon as the first player holding a
   set is the last one, it commands every vassal still unpicked, without a decision
   (``VassalsCommandedByLast``).
4. MOD-VASSAL-07: once every vassal has a commander, Assign Orders opens as usual.

Default when the deadline passes: the player takes the free vassal highest on the Iron Throne track
(it never passes by default, so a silent table still gets every vassal commanded).

**Chosen again at once** (the digest's Review 2, MOD-FLEX-02 timing): when a player leaves during the
round, new sets are dealt for the leaver and the vassals it commanded (each to the highest player on
the Iron Throne track holding the fewest sets, Review 2) and they are chosen as above, while the
current step stays open (:func:`rechoosing`): the choice is one more pending decision beside the
step's, under the step's deadline (made fresh when the re-choice opens); the orders' reveal waits
for it (a vassal's new commander places its orders first), the rest of the game goes on (a vassal's
decision waits for its commander, or its default at the deadline). A new Planning phase deals every
set afresh. During a combat a player may not pick a vassal that
fights against it or against a vassal it commands (:func:`fighting_against`, as MOD-VASSAL-18 keeps a
vassal family out of a combat with itself); when the last player must command such a vassal, it
goes to the highest other player instead.

In the base game (no vassals) :func:`open_planning` opens Assign Orders at once.
"""

from __future__ import annotations

import msgspec

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import events as ev
from .. import mod_events as mev
from ..emitter import Emitter
from ..mother_of_dragons import vassal_order_sets
from ..state import BoardState
from .assign import assign_orders_step, needs_sequential_placement

STEP = "choose_commanders"
DEFAULT_TEXT = {STEP: "you command the free vassal highest on the Iron Throne track (no pass)"}


class ChooseCommanderOptions(msgspec.Struct, tag_field="kind", tag="choose_commanders"):
    """Send ``{"type": "command_vassal", "vassal": ...}`` with one of ``vassals``, or ``"vassal": null``
    to pass this set to ``pass_to`` (MOD-VASSAL-03/04)."""

    vassals: list[str]
    """The vassals nobody commands yet, in Iron Throne order."""
    sets: int
    """The sets of Vassal Order tokens you hold now: one vassal (or one pass) per set (MOD-VASSAL-06)."""
    pass_to: str
    """The next player on the Iron Throne track, who receives the set if you pass."""
    commanders: dict[str, str]
    """Vassal -> commander, as chosen so far this round."""


def players_in_order(state: BoardState) -> list[str]:
    """The player houses (not vassals) in Iron Throne order."""
    return [h for h in state.turn_order() if h not in state.vassals]


def free_vassals(state: BoardState) -> list[str]:
    """The vassals nobody commands yet, in Iron Throne order (MOD-VASSAL-03)."""
    return [h for h in state.turn_order() if h in state.vassals and h not in state.commanders]


def rechoosing(state: BoardState) -> bool:
    """Review 2: commanders are being chosen again at once after a player left, outside the Planning
    phase's own choice (the current step stays open meanwhile)."""
    return not (state.phase == "planning" and state.step == STEP) and chooser(state) is not None


def fighting_against(state: BoardState, player: str) -> set[str]:
    """The vassals ``player`` may not command now: those in the combat in progress on the side
    opposite ``player``'s own family (MOD-VASSAL-18: a family never fights itself)."""
    c = state.action.combat if state.action is not None else None
    if c is None or c.defender is None:
        return set()
    out: set[str] = set()
    for mine, other in ((c.attacker, c.defender), (c.defender, c.attacker)):
        if mine in state.vassals and state.family(other) == player:
            out.add(mine)
    return out


def free_vassals_for(state: BoardState, player: str) -> list[str]:
    """The free vassals ``player`` may pick now (:func:`fighting_against` excluded)."""
    barred = fighting_against(state, player)
    return [v for v in free_vassals(state) if v not in barred]


def deal_again(state: BoardState, leaver: str, needed: int) -> dict[str, int]:
    """Review 2: the sets held once ``leaver`` left (its own go back), plus ``needed`` new ones, each
    to the highest player on the Iron Throne track holding the fewest sets."""
    players = [h for h in players_in_order(state) if h != leaver]
    sets = {h: n for h, n in state.vassal_order_sets.items() if h != leaver and n}
    for _ in range(needed):
        fewest = min(sets.get(h, 0) for h in players)
        to = next(h for h in players if sets.get(h, 0) == fewest)
        sets[to] = sets.get(to, 0) + 1
    return sets


def chooser(state: BoardState) -> str | None:
    """MOD-VASSAL-03: the first player in Iron Throne order still holding a set, while a vassal is free."""
    if not free_vassals(state):
        return None
    for house in players_in_order(state):
        if state.vassal_order_sets.get(house, 0) > 0:
            return house
    return None


def next_player(state: BoardState, house: str) -> str:
    """MOD-VASSAL-04: the player in the next position on the Iron Throne track."""
    players = players_in_order(state)
    return players[players.index(house) + 1]


def options(state: BoardState, house: str) -> ChooseCommanderOptions:
    return ChooseCommanderOptions(
        vassals=free_vassals_for(state, house),
        sets=state.vassal_order_sets.get(house, 0),
        pass_to=next_player(state, house),
        commanders=dict(state.commanders),
    )


def open_planning(em: Emitter) -> None:
    """The Planning phase begins: with vassals, their commanders are chosen first (MOD-VASSAL-02);
    then (or at once, in the base game) Assign Orders opens (BG-PLAN-02)."""
    s = em.state
    if s.vassals:
        em.emit(mev.VassalOrderSetsDealt(round=s.round, sets=vassal_order_sets(s.turn_order(), s.vassals)))
    _open_next(em)


def _forced_last(em: Emitter) -> str | None:
    """MOD-VASSAL-05: when the first player holding a set is the last on the track, it commands every
    free vassal (one fighting against it goes to the highest other player, :func:`fighting_against`).
    Returns the player whose choice is next, if any."""
    s = em.state
    current = chooser(s)
    if current is None or current != players_in_order(s)[-1]:
        return current
    barred = fighting_against(s, current)
    allowed = [v for v in free_vassals(s) if v not in barred]
    if allowed:
        em.emit(mev.VassalsCommandedByLast(house=current, vassals=allowed))
    for vassal in [v for v in free_vassals(em.state) if v in barred]:
        other = next(h for h in players_in_order(em.state) if vassal not in fighting_against(em.state, h))
        em.emit(mev.VassalsCommandedByLast(house=other, vassals=[vassal]))
    return None


def next_choice(em: Emitter) -> None:
    """After a choice, or a player who left: in the Planning phase's choice, the next one (or Assign
    Orders); while commanders are chosen again at once (:func:`rechoosing`), the last player's forced
    command if the sets reached it, and the current step simply goes on."""
    if em.state.phase == "planning" and em.state.step == STEP:
        _open_next(em)
    else:
        _forced_last(em)


def _open_next(em: Emitter) -> None:
    """The next commander choice, the last player's forced command (MOD-VASSAL-05), or Assign Orders."""
    current = _forced_last(em)
    s = em.state
    if current is not None:
        em.emit(ev.StepBegan(phase="planning", step=STEP, round=s.round, deadline=em.deadline()))
        return
    em.emit(assign_orders_step(s, em.ctx, sequential=needs_sequential_placement(s)))


def command_vassal(em: Emitter, house: str, vassal: str | None, by_default: bool = False) -> None:
    """MOD-VASSAL-03/04: ``house`` picks ``vassal`` with one of its sets, or passes the set (None)."""
    s = em.state
    if (s.phase != "planning" or s.step != STEP) and not rechoosing(s):
        raise WrongPhase("commanders are chosen only at the start of the Planning phase", rule="MOD-VASSAL-03")
    current = chooser(s)
    if house != current:
        raise NotYourTurn(f"it is {current}'s turn to pick a vassal or pass", rule="MOD-VASSAL-03")
    if vassal is None:
        em.emit(
            mev.VassalCommanderChosen(house=house, vassal=None, passed_to=next_player(s, house), by_default=by_default)
        )
    elif vassal not in free_vassals_for(s, house):
        raise RuleViolation(
            f"'{vassal}' is not a vassal without a commander that you may command now: pick one of "
            f"{', '.join(free_vassals_for(s, house))} or pass",
            rule="MOD-VASSAL-03",
            code="vassal_not_available",
        )
    else:
        em.emit(mev.VassalCommanderChosen(house=house, vassal=vassal, by_default=by_default))
    next_choice(em)


def timeout(em: Emitter) -> None:
    """The deadline passed: the player whose turn it is takes the free vassal highest on the track."""
    s = em.state
    current = chooser(s)
    if current is None:
        return
    em.emit(ev.DecisionTimedOut(step=STEP, houses=[current]))
    mine = free_vassals_for(s, current)
    command_vassal(em, current, mine[0] if mine else None, by_default=True)


def timeout_all(em: Emitter) -> None:
    """The step's deadline passed while commanders are chosen again at once (:func:`rechoosing`):
    every choice still open gets its default, one after the other."""
    while rechoosing(em.state):
        timeout(em)
