"""Wildling attacks (BG-WILD-01..06) and the nine wildling cards' effects (BG-WILD-05).

An attack runs in stages (``WildlingAttack.stage``):

``bidding``  every taking-part house bids Power in secret; the system reveals them together; the
             Night's Watch (the sum) wins if it reaches the wildling strength; the bids go to the Pool;
             only then is the top wildling card drawn (BG-WILD-04).
``target``   the highest bidder (Night's Watch victory) or the lowest bidder (wildling victory); a tie
             is broken by the Iron Throne holder (BG-WILD-02), unless the card does nothing.
``effect``   the card acts on each house of the queue in turn: the highest bidder alone for the
             reward; the lowest bidder first, then everyone else in turn order for the penalties
             (BG-WILD-03). Effects that need a choice open a decision.
``nested``   Preemptive Raid's Night's Watch text: a second attack of strength 6 without the highest
             bidder runs to its end inside this one.
``end``      the card goes to the bottom of the deck and the threat token is reset to 0 (Night's
             Watch victory) or moved back two positions (wildling victory), within 0..12 (BG-WILD-06).

The nested attack of Preemptive Raid does not move the threat token itself: the attack it belongs to
was a Night's Watch victory, which resets the token to 0 once both are over.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation, WrongPhase
from .. import board_data, power
from ..action import events as aev
from ..board_data import every_house_card
from ..control import total, units_of
from ..emitter import Emitter
from ..state import BoardState
from ..supply import available_units
from ..tracks import track_order, tracks_of
from . import bidding, mustering, reconcile
from . import events as wev
from .evolve import westeros_of
from .state import WildlingAttack
from .steps import open_step
from .units import destroy, forced_selection, replace

MAX_THREAT = 12
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


def begin_attack(em: Emitter, strength: int, houses: list[str], reason: str, adjust_threat: bool = True) -> None:
    """BG-WILD-01 step 1: the attack starts with its sealed bids."""
    em.emit(wev.WildlingAttackBegan(strength=strength, houses=houses, reason=reason, adjust_threat=adjust_threat))
    em.emit(wev.BiddingBegan(kind="wildlings", houses=houses))
    bidding.auto_bid_nothing(em)
    open_step(em, "bid")


def reveal(em: Emitter) -> None:
    """BG-WILD-01 steps 1-5 after every bid is in: reveal, compare, Power to the Pool, draw the card."""
    bids = bidding.reveal(em)
    a = westeros_of(em.state).attacks[-1]
    total_bid = sum(bids.values())
    em.emit(wev.WildlingAttackDecided(total=total_bid, strength=a.strength, nights_watch_won=total_bid >= a.strength))
    em.emit(wev.WildlingCardDrawn(card=em.state.wildling_deck[0]))
    em.emit(wev.WildlingAttackStageBegan(stage="target"))


def candidates(state: BoardState, a: WildlingAttack) -> list[str]:
    """Houses tied for highest (Night's Watch victory) or lowest (wildling victory) bid, turn order."""
    assert a.bidding is not None, "an attack's target is chosen after its bids are revealed"
    bids = a.bidding.sealed
    mine = {h: bids.get(h, 0) for h in a.houses}
    target = max(mine.values()) if a.nights_watch_won else min(mine.values())
    return [h for h in state.turn_order() if h in mine and mine[h] == target]


def role_of(a: WildlingAttack, house: str) -> str:
    if a.nights_watch_won:
        return "nights_watch"
    return "lowest_bidder" if house == a.target else "everyone_else"


def run(em: Emitter) -> None:
    """One step of the innermost attack (the caller loops while nothing waits on a player)."""
    s = em.state
    a = westeros_of(s).attacks[-1]
    if a.stage == "target":
        if a.card == "silence_at_the_wall":  # nothing happens, win or lose: no tie to break
            em.emit(wev.WildlingAttackStageBegan(stage="end"))
            return
        tied = candidates(s, a)
        if len(tied) == 1:
            choose_target(em, tied[0], None)
            return
        em.emit(
            wev.WesterosChoicePending(
                house=tracks_of(s).iron_throne[0],
                kind="wildling_tie",
                options=tied,
                default=tied[0],
                context="highest" if a.nights_watch_won else "lowest",
            )
        )
        open_step(em, "westeros_choice")
        return
    if a.stage == "effect":
        if not a.queue:
            em.emit(wev.WildlingAttackStageBegan(stage="end"))
            return
        house = a.queue[0]
        if a.started:
            em.emit(wev.WildlingEffectDone(house=house))
            return
        role = role_of(a, house)
        em.emit(wev.WildlingEffectStarted(house=house, role=role))
        assert a.card is not None, "the wildling card is drawn before the effect stage"
        card_effect(em, a.card, house, role)
        return
    if a.stage == "nested":
        em.emit(wev.WildlingAttackStageBegan(stage="end"))
        return
    if a.stage == "end":
        end_attack(em)
        return
    raise AssertionError(f"wildling attack stuck at stage {a.stage}")


def choose_target(em: Emitter, house: str, chooser: str | None) -> None:
    s = em.state
    a = westeros_of(s).attacks[-1]
    role = "highest" if a.nights_watch_won else "lowest"
    em.emit(wev.WildlingBidderChosen(role=role, house=house, chooser=chooser))
    if a.nights_watch_won:
        queue = [house]
    else:
        queue = [house] + [h for h in s.turn_order() if h in a.houses and h != house]
    em.emit(wev.WildlingAttackStageBegan(stage="effect"))
    em.emit(wev.WildlingEffectQueued(houses=queue))


def end_attack(em: Emitter) -> None:
    """BG-WILD-01 steps 6-7 (BG-WILD-06 bounds)."""
    s = em.state
    a = westeros_of(s).attacks[-1]
    if a.adjust_threat:
        before = s.wildling_threat
        after = 0 if a.nights_watch_won else max(0, before - 4)
        if after != before:
            em.emit(wev.WildlingThreatChanged(threat=after, previous=before, reason="BG-WILD-01"))
    em.emit(wev.WildlingAttackEnded(card=a.card, nights_watch_won=bool(a.nights_watch_won)))


# --- the cards ---------------------------------------------------------------------------------------


def _choice(
    em: Emitter,
    house: str,
    kind: str,
    options: list[str],
    may_skip: bool = False,
    default: str | None = None,
    context: str | None = None,
) -> None:
    em.emit(
        wev.WesterosChoicePending(
            house=house, kind=kind, options=options, may_skip=may_skip, default=default, context=context
        )
    )
    open_step(em, "westeros_choice")


def select_units(
    em: Emitter,
    house: str,
    kind: str,
    count: int,
    units: dict[str, dict[str, int]],
    *,
    minimum: int | None = None,
    same_area: bool = False,
    then_replace: int = 0,
    reason: str,
) -> None:
    """Ask ``house`` to pick ``count`` of ``units`` (``minimum``..``count`` when given); a pick with
    only one possible answer is made at once."""
    if count <= 0:
        return
    lo = count if minimum is None else minimum
    if lo == count:
        forced = forced_selection(units, count, same_area)
        if forced is not None:
            em.emit(wev.UnitsSelected(house=house, kind=kind, units=forced))
            apply_selection(em, house, kind, forced, then_replace, reason)
            return
    em.emit(
        wev.UnitSelectionPending(
            house=house,
            kind=kind,
            min=lo,
            max=count,
            units=units,
            same_area=same_area,
            then_replace=then_replace,
            reason=reason,
        )
    )
    open_step(em, "select_units")


def move_to_top(em: Emitter, house: str, track: str, reason: str) -> None:
    order = track_order(em.state, track)
    new = [house] + [h for h in order if h != house]
    if new != order:
        em.emit(aev.InfluenceTrackChanged(track=track, order=new, reason=reason))


def move_to_bottom(em: Emitter, house: str, track: str, reason: str) -> None:
    order = track_order(em.state, track)
    new = [h for h in order if h != house] + [house]
    if new != order:
        em.emit(aev.InfluenceTrackChanged(track=track, order=new, reason=reason))


def move_down(em: Emitter, house: str, track: str, steps: int, reason: str) -> None:
    order = list(track_order(em.state, track))
    i = order.index(house)
    order.pop(i)
    order.insert(min(len(order), i + steps), house)
    if order != track_order(em.state, track):
        em.emit(aev.InfluenceTrackChanged(track=track, order=order, reason=reason))


def highest_tracks(state: BoardState, house: str) -> list[str]:
    """Preemptive Raid: the track(s) where ``house`` stands highest."""
    pos = {t: track_order(state, t).index(house) for t in TRACKS}
    best = min(pos.values())
    return [t for t in TRACKS if pos[t] == best]


def milkwater_default(state: BoardState, house: str) -> str:
    cards = every_house_card()
    return min(state.houses[house].hand, key=lambda c: (cards[c].strength, c))


def card_effect(em: Emitter, card: str, house: str, role: str) -> None:
    """BG-WILD-05: one house's part of the card (reward or penalty)."""
    s = em.state
    hs = s.houses[house]
    nw, lowest = role == "nights_watch", role == "lowest_bidder"
    if card == "a_king_beyond_the_wall":
        if nw:
            options = [t for t in TRACKS if track_order(s, t)[0] != house]
            if options:
                _choice(em, house, "a_king_beyond_the_wall_top", options, may_skip=True)
        elif lowest:
            for t in TRACKS:
                move_to_bottom(em, house, t, card)
        else:
            _choice(em, house, "a_king_beyond_the_wall_bottom", ["fiefdoms", "kings_court"], default="fiefdoms")
    elif card == "mammoth_riders":
        if nw:
            if hs.discards:
                _choice(em, house, "mammoth_riders_card", sorted(hs.discards), may_skip=True)
        else:
            mine = units_of(s, house)
            select_units(em, house, "destroy", min(3 if lowest else 2, total(mine)), mine, reason=card)
    elif card == "massing_on_the_milkwater":
        if nw:
            if hs.discards:
                em.emit(aev.HouseCardsReturned(house=house, cards=list(hs.discards), reason=card))
        elif len(hs.hand) > 1:
            if lowest:
                cards = every_house_card()
                top = max(cards[c].strength for c in hs.hand)
                out = sorted(c for c in hs.hand if cards[c].strength == top)
                if len(out) < len(hs.hand):  # all equal: none is discarded (S&R)
                    em.emit(aev.HouseCardsDiscarded(house=house, cards=out, reason=card))
            else:
                _choice(
                    em, house, "massing_on_the_milkwater_discard", sorted(hs.hand), default=milkwater_default(s, house)
                )
    elif card == "crow_killers":
        knights = units_of(s, house, "knight")
        footmen_free = available_units(s, house, "footman")
        if nw:
            n = min(2, total(units_of(s, house, "footman")), available_units(s, house, "knight"))
            if n:
                select_units(
                    em, house, "crow_killers_upgrade", n, units_of(s, house, "footman"), minimum=0, reason=card
                )
        else:
            k = total(knights) if lowest else min(2, total(knights))
            if k == 0:
                return
            if k <= footmen_free:
                if lowest:
                    replace(em, house, knights, "knight", "footman", card)
                else:
                    select_units(em, house, "crow_killers_replace", k, knights, reason=card)
            else:
                select_units(
                    em,
                    house,
                    "crow_killers_destroy",
                    k - footmen_free,
                    knights,
                    then_replace=-1 if lowest else footmen_free,
                    reason=card,
                )
    elif card == "the_horde_descends":
        if nw:
            mustering.begin(em, reason=card, houses=[house], max_areas=1)
        elif lowest:
            facts = board_data.areas_for(s.settings.expansion)
            castles = {
                a: us for a, us in units_of(s, house).items() if facts[a].castle != "none" and sum(us.values()) >= 2
            }
            if total(castles) >= 2:
                select_units(em, house, "horde_castle", 2, castles, same_area=True, reason=card)
            else:
                mine = units_of(s, house)
                select_units(em, house, "destroy", min(2, total(mine)), mine, reason=card)
        else:
            mine = units_of(s, house)
            select_units(em, house, "destroy", min(1, total(mine)), mine, reason=card)
    elif card == "preemptive_raid":
        if nw:
            a = westeros_of(s).attacks[-1]
            em.emit(wev.WildlingAttackStageBegan(stage="nested"))
            begin_attack(em, 6, [h for h in a.houses if h != house], reason=card, adjust_threat=False)
        elif lowest:
            _choice(em, house, "preemptive_raid", ["destroy_units", "reduce_influence"], default="destroy_units")
    elif card == "rattleshirts_raiders":
        reconcile.move(em, house, 1 if nw else (-2 if lowest else -1), card)
    elif card == "skinchanger_scout":
        if nw:
            attack_bids = westeros_of(s).attacks[-1].bidding
            assert attack_bids is not None, "the card acts after the attack's bids are revealed"
            bid = attack_bids.sealed.get(house, 0)
            power.gain(em, house, bid, card)
        else:
            power.lose(em, house, hs.power if lowest else 2, card)
    # silence_at_the_wall: nothing happens.


def preemptive_raid_choice(em: Emitter, house: str, choice: str) -> None:
    s = em.state
    if choice == "destroy_units":
        mine = units_of(s, house)
        select_units(em, house, "destroy", min(2, total(mine)), mine, reason="preemptive_raid")
        return
    tracks = highest_tracks(s, house)
    if len(tracks) == 1:
        move_down(em, house, tracks[0], 2, "preemptive_raid")
    else:
        _choice(em, tracks_of(s).iron_throne[0], "preemptive_raid_track", tracks, default=tracks[0], context=house)


def apply_selection(
    em: Emitter, house: str, kind: str, units: dict[str, dict[str, int]], then_replace: int, reason: str
) -> None:
    """Carry out a unit pick (validated by the caller or forced)."""
    if kind in ("destroy", "horde_castle"):
        destroy(em, house, units, reason)
    elif kind == "crow_killers_destroy":
        destroy(em, house, units, reason)
        knights = units_of(em.state, house, "knight")
        if then_replace == -1:
            replace(em, house, knights, "knight", "footman", reason)
        elif then_replace > 0:
            select_units(em, house, "crow_killers_replace", min(then_replace, total(knights)), knights, reason=reason)
    elif kind == "crow_killers_replace":
        replace(em, house, units, "knight", "footman", reason)
    elif kind == "crow_killers_upgrade":
        replace(em, house, units, "footman", "knight", reason)
    else:
        raise AssertionError(kind)


def answer_selection(em: Emitter, house: str, units: dict[str, dict[str, int]], by_default: bool = False) -> None:
    s = em.state
    sel = s.westeros.selection if s.westeros else None
    if sel is None:
        raise WrongPhase(
            "the unit pick decision is no longer open (or was never opened): the engine resolved it itself "
            "when only one answer was legal, a deadline applied its default, or the game moved on; read the "
            "pending decisions again",
            rule="BG-WILD-05",
            code="decision_closed",
        )
    if sel.house != house:
        raise NotYourTurn(f"{sel.house} picks the units", rule="BG-WILD-05")
    units = {a: {u: n for u, n in us.items() if n} for a, us in sorted(units.items())}
    units = {a: us for a, us in units.items() if us}
    n = total(units)
    if not sel.min <= n <= sel.max:
        raise RuleViolation(f"pick {sel.min}..{sel.max} unit(s), not {n}", rule="BG-WILD-05", code="wrong_count")
    for area, us in units.items():
        for u, k in us.items():
            if k > sel.units.get(area, {}).get(u, 0):
                raise RuleViolation(f"'{area}' has no {k} {u}(s) you may pick", rule="BG-WILD-05", code="no_such_units")
    if sel.same_area and len(units) > 1:
        raise RuleViolation("the units must all stand in one area", rule="BG-WILD-05", code="one_area")
    em.emit(wev.UnitsSelected(house=house, kind=sel.kind, units=units, by_default=by_default))
    apply_selection(em, house, sel.kind, units, sel.then_replace, sel.reason)
