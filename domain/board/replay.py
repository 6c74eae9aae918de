"""Which command opened a batch of the board game's events: the reconstruction behind the audit.

The offline audit (:mod:`.audit`) re-derives every event of an export by re-running ``decide``
(:mod:`domain.core.rederive`). For each batch it needs the command that produced it:

* a **player's command** is read back from the event that opens its batch: ``orders_submitted``
  is ``assign_orders``, ``march_declared`` is ``resolve_march`` with the same moves,
  ``house_card_chosen`` is ``choose_house_card``, ``house_mustered`` with the ``units_placed`` /
  ``unit_upgraded`` after it is ``muster``, ... (:func:`player_command`), issued by the seat that
  holds the event's house;
* the **system's** are ``ResolvePending`` when the state waits for a worker (every sealed input in,
  a phase to open: :func:`~.decider.pending_system_work`) and ``ApplyTimeout`` for the current step
  once its deadline has passed at the batch's time;
* the **organizer's** ``StartGame`` opens the batch of ``game_started``; ``seat_joined`` is a
  ``JoinGame``; a judge's (or the organizer's) ``PauseClocks`` / ``ResumeClocks`` open
  ``clocks_paused`` / ``clocks_resumed`` (their author and reason are in the event; docs/clocks.md);
* the **judge's** corrections are read back from their events (``judge_power_set`` is
  ``set_power``, ``judge_rolled_back`` is ``roll_back``, ...: :func:`judge_command`).

Getting a reconstruction wrong can only make a batch fail to match, never make a forged one pass:
the audit accepts a batch only when ``decide`` produces exactly the recorded events.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, islice
from typing import Any

import msgspec

from ..core.commands import JUDGE, Actor, ApplyTimeout, JoinGame, PauseClocks, ResolvePending, ResumeClocks, StartGame
from ..core.rederive import Candidate, Recorded
from . import clock_events as cev
from . import commands as cmd
from . import events as ev
from . import judge as jcmd
from . import judge_events as jev
from . import mod_events as mev
from .action import commands as acmd
from .action import events as aev
from .action import tides_events as tev
from .decider import pending_system_work
from .state import BoardState
from .undo_consent import AnswerUndo, UndoRequestAt
from .westeros import commands as wcmd
from .westeros import events as wev

SYSTEM = Actor(kind="system")
ORGANIZER = Actor(kind="organizer")


def _clock_keeper(by: str) -> Actor:
    """Who paused or resumed the clocks, from the role the event records (``by``)."""
    return JUDGE if by == "judge" else ORGANIZER


MAX_MUSTER_CANDIDATES = 256
"""Ways of reading one mustering's placements tried at most (a forged one beyond is refused)."""


def candidates(state: BoardState, recorded: Sequence[Recorded], i: int) -> list[Candidate]:
    """The commands that may have produced the batch opening at ``recorded[i]``, most likely first."""
    out: list[Candidate] = []
    head = recorded[i].event
    if isinstance(head, ev.SeatJoined):
        out.append((Actor(kind="seat"), JoinGame(name=head.name)))
    elif isinstance(head, ev.GameStarted):
        out.append((ORGANIZER, StartGame()))
    elif isinstance(head, mev.HouseChosen) and not head.by_default:  # MOD-SETUP-01: a seat's choice
        seat = state.seat(head.seat_id)
        generation = seat.generation if seat else 0
        out.append((Actor(kind="seat", seat_id=head.seat_id, generation=generation), cmd.ChooseHouse(house=head.house)))
    elif isinstance(head, mev.VassalCommanderChosen) and not head.by_default:  # MOD-VASSAL-03/04
        seat = state.seat_of_house(head.house)
        by = Actor(kind="seat", seat_id=seat.seat_id, generation=seat.generation) if seat else Actor(kind="seat")
        out.append((by, cmd.CommandVassal(vassal=head.vassal)))
    elif isinstance(head, cev.ClocksPaused):  # by the role recorded in the event (``by``)
        out.append((_clock_keeper(head.by), PauseClocks(reason=head.reason)))
    elif isinstance(head, cev.ClocksResumed):
        out.append((_clock_keeper(head.by), ResumeClocks(reason=head.reason)))
    elif isinstance(head, jev.JUDGE_EVENTS) and _rollback_fits(state, recorded, i):
        out.append((JUDGE, judge_command(head)))
    elif isinstance(head, jev.UndoRequested | jev.UndoAnswered):  # undo with consent (docs/judge.md)
        seat = state.seat(head.seat_id)
        by = Actor(kind="seat", seat_id=head.seat_id, generation=seat.generation if seat else 0)
        if isinstance(head, jev.UndoAnswered):
            out.append((by, AnswerUndo(consent=head.consent)))
        elif _undo_request_fits(state, recorded, i, head):
            out.append((by, UndoRequestAt(version=head.version, reason=head.reason)))
    else:
        for house, command in player_commands(recorded, i):
            if house in state.commanders:  # MOD-VASSAL-09: its commander acted for the vassal
                command = msgspec.structs.replace(command, for_vassal=house)  # type: ignore[type-var]
            seat = state.deciding_seat(house)  # its current player: the token generation of now
            actor = Actor(kind="seat", seat_id=seat.seat_id, generation=seat.generation) if seat else Actor(kind="seat")
            out.append((actor, command))
    if pending_system_work(state):
        out.append((SYSTEM, ResolvePending()))
    if state.deadline is not None or state.undo_request is not None:
        out.append((SYSTEM, ApplyTimeout(step_version=state.step_version)))
    return out


def player_commands(recorded: Sequence[Recorded], i: int) -> list[tuple[str, object]]:
    """(house, command) read back from the event at ``recorded[i]``: none when no player's command
    opens a batch with it (events a timeout's default produced carry ``by_default`` and are the
    system's), several when the events leave a choice open (which area mustered a Ship)."""
    e = recorded[i].event
    if isinstance(e, ev.DecisionTimedOut) and e.left:  # MOD-FLEX-01: a leave opens with its defaults
        left = next((r.event for r in recorded[i:] if isinstance(r.event, mev.PlayerLeft)), None)
        if left is None or left.missed_deadlines:
            return []
        return [(left.house, cmd.LeaveGame(reason=left.reason))]
    house: Any = getattr(e, "house", None)
    if getattr(e, "by_default", False) or not isinstance(house, str):
        return []
    command: object
    match e:
        case ev.OrdersSubmitted(orders=dict() as orders):
            command = cmd.AssignOrders(orders=orders)
        case ev.RavenOrderReplaced():
            command = cmd.RavenReplaceOrder(area=e.area, new_order=e.new_order)
        case ev.RavenWildlingPeeked():
            command = cmd.RavenPeekWildling()
        case ev.RavenWildlingPlaced():
            command = cmd.RavenPlaceWildling(to_bottom=e.to_bottom)
        case ev.RavenPassed():
            command = cmd.RavenPass()
        case mev.PlayerLeft(missed_deadlines=0):  # MOD-FLEX-01 (not the timeout policy's: a system batch)
            command = cmd.LeaveGame(reason=e.reason)
        case mev.PowerGifted():  # MOD-GIFT-01: the gift asked for (the event records the capped one)
            command = cmd.GiftPower(to=e.to, amount=e.requested)
        case aev.RaidResolved():
            command = acmd.ResolveRaid(area=e.area, target=e.target_area)
        case aev.MarchDeclared():
            moves = {to: acmd.UnitCounts(**units) for to, units in e.moves.items()}
            command = acmd.ResolveMarch(area=e.area, moves=moves, leave_power_token=e.leave_power_token)
        case aev.ConsolidatedPower(mustered=True):
            musters = _musters(e.house, [e.area], recorded, i + 1) or [{e.area: []}]
            return [(house, acmd.ResolveConsolidatePower(area=e.area, muster=m[e.area])) for m in musters]
        case aev.ConsolidatedPower():
            command = acmd.ResolveConsolidatePower(area=e.area)
        case aev.SupportDeclared():
            command = acmd.DeclareSupport(side=e.side)  # type: ignore[arg-type]  # a forged side is refused by decide
        case aev.HouseCardChosen(card=str() as card):
            command = acmd.ChooseHouseCard(card=card)
        case aev.AbilityResolved():
            command = acmd.ChooseAbility(choice=e.choice)
            house = e.chooser or house  # Bronn: the opponent answered (MOD-VASSAL-29)
        case aev.BladeUsed():
            command = acmd.UseBlade(use=True)
        case aev.BladeDeclined():
            command = acmd.UseBlade(use=False)
        case aev.CasualtiesChosen():
            command = acmd.ChooseCasualties(units=acmd.UnitCounts(**e.units))
        case aev.RetreatChosen():
            command = acmd.ChooseRetreat(area=e.area)
        case aev.RetreatLossesChosen():
            command = acmd.ChooseRetreatLosses(units=acmd.UnitCounts(**e.units))
        case tev.TidesCardRedrawn():
            command = acmd.UseBlade(use=True)
        case tev.TidesRedrawDeclined():
            command = acmd.UseBlade(use=False)
        case tev.TidesSkullsResolved(prevented_by=None):
            command = acmd.ChooseCasualties(units=acmd.UnitCounts(**e.units))
        case aev.PortShipsReplaced():
            command = acmd.ReplacePortShips(count=e.count)
        case wev.BidSubmitted(amount=int() as amount):
            command = wcmd.Bid(amount=amount)
        case wev.WesterosChoiceMade():
            command = wcmd.WesterosChoice(choice=e.choice)
        case wev.UnitsSelected():
            command = wcmd.SelectUnits(units={a: acmd.UnitCounts(**u) for a, u in e.units.items()})
        case wev.ArmiesReconciled():
            command = wcmd.ReconcileArmies(units={a: acmd.UnitCounts(**u) for a, u in e.units.items()})
        case wev.HouseMustered():
            return [(house, wcmd.Muster(recruits=m)) for m in _musters(e.house, e.areas, recorded, i + 1)]
        case _:
            return []
    return [(house, command)]


def _musters(house: str, areas: list[str], recorded: Sequence[Recorded], j: int) -> list[dict[str, list[acmd.Recruit]]]:
    """BG-MUSTER-02..04: the purchases that may lie behind the ``unit_upgraded`` / ``units_placed``
    events after a mustering. They come area by area in ``areas``' order (each area's upgrades,
    then its placements by destination), so each way of cutting them into one non-empty run per
    area is a candidate (a Ship at sea may belong to either of two neighbouring areas)."""
    if not areas:
        return [{}]
    placed: list[aev.UnitUpgraded | aev.UnitsPlaced] = []
    while j < len(recorded):
        e = recorded[j].event
        if not isinstance(e, aev.UnitUpgraded | aev.UnitsPlaced) or e.house != house:
            break
        placed.append(e)
        j += 1
    out = []
    for cuts in islice(combinations(range(1, len(placed)), len(areas) - 1), MAX_MUSTER_CANDIDATES):
        bounds = [0, *cuts, len(placed)]
        recruits: dict[str, list[acmd.Recruit]] = {}
        for area, lo, hi in zip(areas, bounds, bounds[1:]):
            recruits[area] = []
            for e in placed[lo:hi]:
                if isinstance(e, aev.UnitUpgraded):
                    recruits[area].append(acmd.Recruit(unit=e.to_unit, upgrade=True))  # type: ignore[arg-type]  # decide checks it
                    continue
                where = None if e.area == area else e.area
                for unit, n in sorted(e.units.items()):
                    recruits[area].extend(acmd.Recruit(unit=unit, area=where) for _ in range(n))  # type: ignore[arg-type]
        out.append(recruits)
    return out


def judge_command(e: jev.JudgePowerSet | jev.JudgeUnitRestored | jev.JudgeRolledBack | jev.SeatReplaced) -> object:
    """The judge's command behind a judge's event (its reason and target read back from it)."""
    match e:
        case jev.JudgePowerSet():
            return jcmd.SetPower(house=e.house, power=e.power, reason=e.reason)
        case jev.JudgeUnitRestored():
            return jcmd.RestoreUnit(house=e.house, area=e.area, unit=e.unit, reason=e.reason)  # type: ignore[arg-type]  # decide checks the unit
        case jev.JudgeRolledBack():
            return jcmd.RollBack(version=e.version, reason=e.reason, undone_seat=e.undone_seat)
        case jev.SeatReplaced():
            return jcmd.ReplacePlayer(seat_id=e.seat_id, name=e.name, reason=e.reason)


def _rollback_fits(state: BoardState, recorded: Sequence[Recorded], i: int) -> bool:
    """What the service checked against the stream before a rollback (``Game.prepare_judge``),
    checked again: its target ends a batch, and an undo's target is just before the undone
    seat's last command. Other judge's events need nothing from the past."""
    e = recorded[i].event
    if not isinstance(e, jev.JudgeRolledBack):
        return True
    before = recorded[:i]
    if e.version not in batch_ends(before):
        return False
    if e.undone_seat is not None:
        start = last_command_start(state, before, e.undone_seat)
        return start is not None and start - 1 == e.version
    return True


def _undo_request_fits(state: BoardState, recorded: Sequence[Recorded], i: int, e: jev.UndoRequested) -> bool:
    """What the service found in the stream for a seat's undo request, checked again: its target is
    the end of a batch, just before the first event of the seat's last command."""
    before = recorded[:i]
    start = last_command_start(state, before, e.seat_id)
    return e.version in batch_ends(before) and start is not None and start - 1 == e.version


def batch_ends(recorded: Sequence[Recorded]) -> set[int]:
    """The sequence numbers that end a batch (one command's events share one timestamp): the
    versions a judge may roll back to."""
    return {r.seq for r, nxt in zip(recorded, [*recorded[1:], None]) if nxt is None or nxt.ts != r.ts}


def last_command_start(state: BoardState, recorded: Sequence[Recorded], seat_id: str) -> int | None:
    """The sequence number of the first event of ``seat_id``'s last command since the start (the
    batch a player's command opened: :func:`player_commands`), or None. Events that a rollback
    undid are skipped: the search goes on from the rollback's target."""
    seat = state.seat(seat_id)
    if seat is None or seat.house is None:
        return None
    i = len(recorded) - 1
    while i >= 0:
        r = recorded[i]
        if r.seq <= state.started_version:
            return None
        if isinstance(r.event, jev.JudgeRolledBack):
            i = r.event.version - 1  # the events a rollback undid are no longer the game's history
            continue
        if not (i and recorded[i - 1].ts == r.ts) and any(h == seat.house for h, _ in player_commands(recorded, i)):
            return r.seq  # the first event of a batch that the seat's command opened
        i -= 1
    return None
