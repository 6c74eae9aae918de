"""The one place hidden information of the board game is filtered, per reader.

Hidden in this game (BG-PLAN-03, BG-WILD-04, BG-PLAN-07, BG-COK-03, BG-WCARD-04):

* sealed orders, until the reveal: seen only by the house that placed them (a vassal's: by its
  commander, MOD-VASSAL-08);
* sealed bids (Clash of Kings, wildlings), until the reveal: seen only by the bidder;
* the salt of each sealed input (orders, bids, House cards), hidden with its content; the
  commitment over both is public at once (commit–reveal, :mod:`.sealed_inputs`);
* the order of the Westeros and wildling decks, also after Winter Is Coming reshuffles one, and as a
  scenario fixture gives it (``scenario_loaded``): seen by nobody (a revealed Westeros card and a
  drawn wildling card are public);
* the wildling card the Messenger Raven holder looked at: seen by that house only;
* House cards in hand (BG-MISC-02): seen by their house only (a vassal's 3 drawn cards and its
  chosen card, MOD-VASSAL-14: by its commander only; the Vassal House deck's shuffled order: by nobody;
  the shuffled hand Jaqen H'ghar's random card is drawn from: by nobody, the drawn card being public
  as it is revealed at once);
* Tides of Battle (BG-TIDES-02/03): the order of each combat's shuffled deck, seen by nobody; a
  drawn Tides card (and one discarded with the Blade), seen by its house only until both are
  revealed (``TidesCardsRevealed``).

A *reader* is a house (a seated player) or ``None`` (a spectator, or the organizer who does not
play). Once the game has ended everything is public. House cards in hand are hidden (BG-MISC-02):
others see how many cards a house holds; its discard pile is public.
Every view and every streamed or exported event passes through :func:`redact_event` or
:func:`view_for`; nothing else in the service reads hidden fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

import msgspec

from ..core.context import parse_rfc3339, rfc3339
from . import events as ev
from . import mod_events as mev
from .action import events as aev
from .action import tides_events as tev
from .action.view import ActionView, action_view
from .control import controller
from .planning import houses_still_to_submit
from .state import BoardState, Pause, Tracks
from .victory import victory_points
from .westeros import events as wev
from .westeros.view import HAND_CHOICES, WesterosView, westeros_view

Reader = str | None


def redact_event(event: ev.Event, reader: Reader, *, game_over: bool = False) -> ev.Event:
    """The event as ``reader`` may see it."""
    if game_over:
        return event
    match event:
        case ev.GameStarted():
            return msgspec.structs.replace(event, wildling_deck=None, westeros_decks=None)
        case ev.ScenarioLoaded() if event.scenario.westeros is not None and (
            event.scenario.westeros.decks or event.scenario.westeros.wildling_deck is not None
        ):  # a fixture's deck orders (BG-SETUP-03/04), hidden like the deal's
            hidden = msgspec.structs.replace(event.scenario.westeros, decks={}, wildling_deck=None)
            return msgspec.structs.replace(event, scenario=msgspec.structs.replace(event.scenario, westeros=hidden))
        # A sealed input's content and salt are hidden; its commitment is public (domain/board/sealed_inputs.py).
        case ev.OrdersSubmitted() if reader is None or reader != (event.commander or event.house):
            return msgspec.structs.replace(event, orders=None, salt=None)
        # Mother of Dragons (MOD-VASSAL-14): the vassal deck's order; the drawn cards, commander only.
        case mev.VassalHouseCardsDrawn():
            mine = reader is not None and reader == event.commander
            return msgspec.structs.replace(event, deck=None, cards=event.cards if mine else None)
        case aev.HouseCardReplacedAtRandom():  # Jaqen H'ghar: the card is revealed, the hand is not
            return msgspec.structs.replace(event, hand=None)
        case ev.RavenWildlingPeeked() if event.house != reader:
            return msgspec.structs.replace(event, card=None)
        # Action phase (BG-COMBAT-09, BG-MISC-02): a sealed House card until both are revealed;
        # Patchface's look at the opponent's hand, seen by Patchface's owner only.
        case aev.HouseCardChosen() if reader is None or reader != (event.commander or event.house):
            return msgspec.structs.replace(event, card=None, salt=None)
        case aev.AbilityChoicePending() if event.card == "patchface" and event.house != reader:
            return msgspec.structs.replace(event, choices=[])
        # Tides of Battle (BG-TIDES-02/03): each combat's deck order; a drawn card until the reveal.
        case tev.TidesDeckShuffled():
            return msgspec.structs.replace(event, cards=None)
        case tev.TidesCardDrawn() if event.house != reader:
            return msgspec.structs.replace(event, card=None)
        case tev.TidesCardRedrawn() if event.house != reader:
            return msgspec.structs.replace(event, discarded=None, card=None)
        # Westeros phase (BG-COK-03, BG-WILD-01, BG-WCARD-04, BG-MISC-02): sealed bids until the
        # reveal; a reshuffled deck's order; a hand shown by a Massing on the Milkwater choice.
        case wev.BidSubmitted() if event.house != reader:
            return msgspec.structs.replace(event, amount=None, salt=None)
        case wev.WesterosDeckShuffled():
            return msgspec.structs.replace(event, cards=None)
        case wev.WesterosChoicePending() if event.kind in HAND_CHOICES and event.house != reader:
            return msgspec.structs.replace(event, options=[], default=None)
    return event


class AreaView(msgspec.Struct, omit_defaults=True):
    controller: str | None = None
    house: str | None = None
    units: dict[str, int] = {}
    power_token: str | None = None
    garrison: int = 0
    neutral: int = 0
    blocked: bool = False
    order: str | None = None
    """A revealed order, or your own sealed one; ``"sealed"`` for another house's face-down order."""


class HouseView(msgspec.Struct, omit_defaults=True):
    house: str
    seat_id: str | None
    power: int
    supply: int
    victory_points: int
    hand: list[str] | None
    """Your own hand; null for other houses (BG-MISC-02)."""
    hand_size: int
    discards: list[str]
    orders_submitted: bool
    removed: list[str] = []
    """House cards removed from the game for good (Robert Arryn, Mother of Dragons); public; left out
    while empty."""


class SeatView(msgspec.Struct):
    seat_id: str
    name: str
    house: str | None


class ClockView(msgspec.Struct):
    """A house's time bank (docs/clocks.md); public."""

    house: str
    bank_ms: int
    """Milliseconds in the bank when its clock last started or stopped. While it runs, what is left
    now is ``bank_ms - (now - running_since)``, i.e. until ``runs_out_at``."""
    running_since: str | None
    """RFC 3339: when its clock started (moved by pauses); null while the game waits on no decision of it."""
    runs_out_at: str | None
    """RFC 3339: when the bank runs out if the house does not answer (null unless running and not paused)."""
    out_of_time: bool
    """The bank ran out: the house's decisions get their defaults at once."""


class BoardView(msgspec.Struct):
    game_id: str
    version: int
    reader: str | None
    """The house this view is for, or null for the public (spectator) view."""
    player_count: int
    phase: str
    step: str
    round: int
    deadline: str | None
    seats: list[SeatView]
    houses: list[HouseView]
    areas: dict[str, AreaView]
    tracks: Tracks | None
    kings_court_stars: list[int]
    raven_used: bool
    blade_used: bool
    wildling_threat: int
    wildling_deck_size: int
    seed_commitment: str
    raven_peek: str | None = None
    """The wildling card you looked at with the Raven this round (holder only)."""
    action: ActionView | None = None
    """The Action phase as ``reader`` may see it (domain/board/action/view.py)."""
    westeros: WesterosView | None = None
    """The Westeros phase as ``reader`` may see it (domain/board/westeros/view.py)."""
    forbidden_orders: list[str] = []
    """Order types (or ``march_plus_1_special``) no house may place this round (BG-WCARD-10..16)."""
    winner: str | None = None
    """The winner once the game has ended (BG-VIC-*)."""
    clocks: list[ClockView] = []
    """Each house's time bank, with ``settings.time_bank_s`` (docs/clocks.md); empty otherwise."""
    paused: Pause | None = None
    """Set while a judge has paused the clocks: when, by whom, why. No deadline runs meanwhile."""
    vassals: list[str] = []
    """Mother of Dragons: the houses no player chose (MOD-VASSAL-01); empty in the base game."""
    vassal_order_sets: dict[str, int] = {}
    """Mother of Dragons: player house -> sets of Vassal Order tokens it holds and has not used yet
    to pick a vassal (MOD-SETUP-11, MOD-VASSAL-02..06)."""
    house_choice_order: list[str] = []
    """Mother of Dragons: the seats in the order they choose their houses (MOD-SETUP-01)."""
    commanders: dict[str, str] = {}
    """Mother of Dragons: vassal -> the player house commanding it this round (MOD-VASSAL-03)."""


@dataclass(frozen=True, slots=True)
class SharedParts:
    """The parts of a view that do not depend on the reader, computed once per state: who controls
    each area, which houses still have orders to submit, each house's victory points. They hold
    nothing hidden; :func:`view_for` alone decides what a reader sees."""

    ctrl: dict[str, str | None]
    still: set[str]
    victory_points: dict[str, int]


def shared_parts(state: BoardState) -> SharedParts:
    ctrl = {aid: controller(state, aid) for aid in state.areas}  # once, not per area and house
    still = set(houses_still_to_submit(state)) if state.step == "assign_orders" else set(state.houses_in_play)
    vps = {h: victory_points(state, h, ctrl) for h in state.houses_in_play if h in state.houses}
    return SharedParts(ctrl=ctrl, still=still, victory_points=vps)


def views_for(state: BoardState, readers: Sequence[Reader]) -> dict[Reader, BoardView]:
    """Every reader's :func:`view_for`, the reader-independent parts computed once."""
    shared = shared_parts(state)
    return {r: view_for(state, r, shared) for r in readers}


def view_for(state: BoardState, reader: Reader, shared: SharedParts | None = None) -> BoardView:
    """The whole game as ``reader`` may see it (``shared``: :func:`shared_parts` of this very state,
    when several readers' views are built at once)."""
    parts = shared or shared_parts(state)
    ctrl, still = parts.ctrl, parts.still
    over = state.phase == "ended"
    areas: dict[str, AreaView] = {}
    for aid, a in state.areas.items():
        order = state.orders[aid].order if aid in state.orders else None
        if order is None and state.step == "assign_orders" and a.house in state.planning.sealed:
            sealed = state.planning.sealed[a.house].get(aid)
            if sealed is not None:
                mine = reader is not None and reader == state.commanders.get(a.house, a.house)
                order = sealed if (over or mine) else "sealed"
        areas[aid] = AreaView(
            controller=ctrl[aid],
            house=a.house,
            units={k: v for k, v in a.units.items() if v},
            power_token=a.power_token,
            garrison=a.garrison,
            neutral=a.neutral,
            blocked=a.blocked,
            order=order,
        )
    houses = []
    for h in state.houses_in_play:
        if h not in state.houses:  # Mother of Dragons: laid out once every seat has chosen
            continue
        hs = state.houses[h]
        seat = state.seat_of_house(h)
        houses.append(
            HouseView(
                house=h,
                seat_id=seat.seat_id if seat else None,
                power=hs.power,
                supply=hs.supply,
                victory_points=parts.victory_points[h],
                hand=list(hs.hand) if (over or state.family(h) == reader) else None,
                hand_size=len(hs.hand),
                discards=list(hs.discards),
                orders_submitted=state.step == "assign_orders" and h not in still,
                removed=list(hs.removed),
            )
        )
    seen_by = state.planning.raven_peek_house
    peek = state.planning.raven_peek if (over or (reader is not None and reader == seen_by)) else None
    return BoardView(
        game_id=state.game_id,
        version=state.version,
        reader=reader,
        player_count=state.player_count,
        phase=state.phase,
        step=state.step,
        round=state.round,
        deadline=state.deadline,
        seats=[SeatView(seat_id=s.seat_id, name=s.name, house=s.house) for s in state.seats],
        houses=houses,
        areas=areas,
        tracks=state.tracks,
        kings_court_stars=list(state.kings_court_stars),
        raven_used=state.raven_used,
        blade_used=state.blade_used,
        wildling_threat=state.wildling_threat,
        wildling_deck_size=len(state.wildling_deck),
        seed_commitment=state.seed_commitment,
        raven_peek=peek,
        action=action_view(state, reader, over),
        westeros=westeros_view(state, reader, over),
        forbidden_orders=list(state.forbidden_order_types),
        winner=state.winner,
        clocks=_clocks(state),
        paused=state.paused,
        vassals=list(state.vassals),
        vassal_order_sets=dict(state.vassal_order_sets),
        house_choice_order=list(state.house_choice_order),
        commanders=dict(state.commanders),
    )


def _clocks(state: BoardState) -> list[ClockView]:
    out = []
    for house, c in state.clocks.items():
        running = c.since is not None and state.paused is None
        ends = rfc3339(parse_rfc3339(c.since) + timedelta(milliseconds=c.bank_ms)) if running and c.since else None
        out.append(
            ClockView(
                house=house, bank_ms=c.bank_ms, running_since=c.since, runs_out_at=ends, out_of_time=c.out_of_time
            )
        )
    return out
