"""Offline audit of a replay export: the tamper-evident chain, the seed, the shuffles, the fold.

A tournament organizer runs ``scripts/verify_replay.py export.json``. It checks that

1. every event links to the one before it (sequence numbers and the sha256 hash chain);
2. the revealed seed matches the commitment published in ``GameCreated`` (sha256);
3. every random outcome recorded in the events is what that seed produces (the house deal and the
   shuffled decks of ``GameStarted``, every Winter Is Coming reshuffle, every Tides of Battle deck
   and each card drawn from it, BG-TIDES-02), so nobody could have chosen them;
4. the events fold into a state by the rules: each is replayed through ``evolve``, and each
   player's command events (orders, the Raven, bids, Westeros choices, reconciles) are re-checked
   by ``decide`` against the state before them.

The audit never reads a clock: each re-decided command runs at the time its event was recorded
(the envelope's ``ts``), as it did when the game was played.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..core.context import Context, parse_rfc3339
from ..core.envelope import Envelope, verify_chain
from ..core.game import AuditReport as GameAuditReport
from ..core.rng import commit_seed, derive_rng
from ..core.upcast import EventCodec
from . import commands as cmd
from . import decider
from . import events as ev
from .action import events as aev
from .action import tides
from .action import tides_events as tev
from .action.commands import UnitCounts
from .board_data import tides_deck
from .state import BoardState
from .westeros import commands as wcmd
from .westeros import events as wev
from .westeros.deck import shuffle_purpose

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""The time given to ``decide`` for an event whose recorded ``ts`` cannot be read (a finding)."""

_codec = EventCodec(ev.BoardEvent, ev.SCHEMA_VERSION)
"""Exported events are read like stored ones: fields a newer writer added are dropped, not fatal."""


class AuditReport(GameAuditReport):
    """The verdict (``domain.core.game.AuditReport``) and the state the events fold into."""

    final_state: BoardState | None = None


def _expected_start(state: BoardState, ctx: Context) -> ev.Event:
    return decider.decide(state, cmd.StartGame(), cmd.Actor(kind="organizer"), ctx)[0]


def _reshuffle_ok(state: BoardState, event: wev.WesterosDeckShuffled, seed: str) -> bool:
    """BG-WCARD-04: the revealed card plus the rest of its deck, shuffled by the seed's stream."""
    card = state.westeros.revealed.get(event.deck) if state.westeros else None
    if card is None or event.cards is None:
        return False
    whole = [card] + list(state.westeros_decks[event.deck])
    rng = derive_rng(seed, f"{state.game_id}/{shuffle_purpose(state.round, event.deck, event.attempt)}")
    return rng.shuffled(whole) == event.cards


def _tides_problem(state: BoardState, event: ev.Event, seed: str) -> str | None:
    """BG-TIDES-02: a Tides deck is the seed's shuffle of the 24 cards, numbered in sequence within
    the Action phase, and only a combat between two houses with the variant on shuffles one
    (BG-TIDES-05); every card drawn is the top of that deck. None when the event is right."""
    act = state.action
    c = act.combat if act else None
    if isinstance(event, tev.TidesDeckShuffled):
        if act is None or c is None or not tides.in_play(state, c) or c.tides is not None:
            return "a Tides of Battle deck was shuffled outside a combat that uses it"
        if event.number != act.tides_shuffles + 1:
            return f"the Tides of Battle shuffle is numbered {event.number}, not {act.tides_shuffles + 1}"
        rng = derive_rng(seed, f"{state.game_id}/{tides.shuffle_purpose(state.round, event.number)}")
        if event.cards != rng.shuffled(tides_deck()):
            return "the Tides of Battle deck is not what the seed produces"
    if isinstance(event, tev.TidesCardDrawn | tev.TidesCardRedrawn):
        deck = c.tides.deck if c is not None and c.tides is not None else []
        if not deck or event.card != deck[0]:
            return "a Tides of Battle card drawn is not the top of the recorded deck"
    if isinstance(event, aev.CombatDecided) and c is not None and tides.in_play(state, c):
        if c.tides is None or not c.tides.revealed or len(c.tides.drawn) != 2:
            return "a combat between two houses was decided without both Tides of Battle cards revealed"
    return None


def _recorded_time(env: Envelope, problems: list[str]) -> datetime:
    """When the event was recorded (its envelope's ``ts``, RFC 3339)."""
    try:
        return parse_rfc3339(env.ts)
    except ValueError:
        problems.append(f"event {env.seq}: its timestamp {env.ts!r} is not RFC 3339")
        return _EPOCH


def _recheck(state: BoardState, event: ev.Event, problems: list[str], seq: int, now: datetime) -> None:
    """Re-decide a player's command from the event it produced and compare. ``now`` is the time the
    event was recorded."""
    ctx = Context(now=now, seed="", game_id=state.game_id)
    seat = None
    command: object
    match event:
        case ev.OrdersSubmitted(by_default=False):
            seat = state.seat_of_house(event.house)
            command = cmd.AssignOrders(orders=event.orders or {})
        case ev.RavenOrderReplaced():
            seat = state.seat_of_house(event.house)
            command = cmd.RavenReplaceOrder(area=event.area, new_order=event.new_order)
        case ev.RavenPassed(by_default=False):
            seat = state.seat_of_house(event.house)
            command = cmd.RavenPass()
        case wev.BidSubmitted(by_default=False) if event.amount is not None:
            seat = state.seat_of_house(event.house)
            command = wcmd.Bid(amount=event.amount)
        case wev.WesterosChoiceMade(by_default=False):
            seat = state.seat_of_house(event.house)
            command = wcmd.WesterosChoice(choice=event.choice)
        case wev.ArmiesReconciled(by_default=False):
            seat = state.seat_of_house(event.house)
            command = wcmd.ReconcileArmies(units={a: UnitCounts(**u) for a, u in event.units.items()})
        case _:
            return
    try:
        decider.decide(state, command, cmd.Actor(kind="seat", seat_id=seat.seat_id if seat else None), ctx)
    except Exception as e:  # noqa: BLE001 - any refusal is a finding
        problems.append(f"event {seq} ({event.__struct_config__.tag}) breaks a rule: {e}")


def audit(envelopes: list[Envelope], seed: str | None = None) -> AuditReport:
    problems: list[str] = []
    chain_ok = True
    try:
        verify_chain(envelopes)
    except ValueError as e:
        chain_ok = False
        problems.append(str(e))
    state: BoardState | None = None
    seed_ok = shuffles_ok = None
    for env in envelopes:
        event = _codec.decode(env.event, env.schema)
        now = _recorded_time(env, problems)
        if state is not None:
            _recheck(state, event, problems, env.seq, now)
        if isinstance(event, ev.GameStarted) and state is not None and seed is not None:
            expected = _expected_start(state, Context(now=now, seed=seed, game_id=state.game_id))
            shuffles_ok = expected == event
            if not shuffles_ok:
                problems.append("the house deal or the deck order is not what the seed produces")
        if isinstance(event, tev.TIDES_EVENTS | aev.CombatDecided) and state is not None and seed is not None:
            if (problem := _tides_problem(state, event, seed)) is not None:
                shuffles_ok = False
                problems.append(f"event {env.seq}: {problem}")
        if isinstance(event, wev.WesterosDeckShuffled) and state is not None and seed is not None:
            if not _reshuffle_ok(state, event, seed):
                shuffles_ok = False
                problems.append(f"event {env.seq}: the Winter Is Coming reshuffle is not what the seed produces")
        state = decider.fold([event], state)
    if state is not None and seed is not None:
        seed_ok = commit_seed(seed) == state.seed_commitment
        if not seed_ok:
            problems.append("the revealed seed does not match the commitment in GameCreated")
    return AuditReport(
        version=state.version if state else 0,
        chain_ok=chain_ok,
        seed_ok=seed_ok,
        shuffles_ok=shuffles_ok,
        rules_ok=not any("breaks a rule" in p for p in problems),
        problems=problems,
        final_state=state,
    )
