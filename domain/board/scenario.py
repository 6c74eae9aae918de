"""Scenario fixtures: a game that starts from a described position.

An organizer (or a test, or an integrator reproducing a bug report) describes units per area,
orders on the board, Power tokens, tracks, Dominance tokens' used sides, House cards in hand and
discarded, the round and the wildling threat; the game is created with ``GameCreated`` followed by
``ScenarioLoaded``. Its start point (``start_at``) is the Planning phase, the start of the Action
phase, the Messenger Raven decision, the Westeros phase at a chosen deck (with the Westeros and
wildling deck orders given), a mustering, a combat after support was declared, or a retreat to
choose: the start opens it through the rules themselves (:mod:`.fixture_start`). The houses of the
seats may be part of the fixture (``seat_houses``, no random deal), and printed garrisons may stay
(``garrisons: printed``). The position is validated like any other input
(:func:`validate_scenario`, then the start point rehearsed once): every fact must be one the rules
could produce, or the creation is refused (``invalid_scenario``) with the rule it breaks.
The schema is in :mod:`.scenario_schema`; examples in docs/fixtures.md.

With Mother of Dragons (:func:`check_mod_players`) a position is on the 7-house board (the Eyrie,
The Bite), with House Arryn and its cards and the 7-house tracks; it names the players' houses
(``seat_houses``, required) and every other house is a vassal, laid out as at the setup
(``mother_of_dragons.lay_out_started``) before the position replaces the board. A vassal has no
Power and no House cards of its own (MOD-SETUP-15, MOD-VASSAL-14/26). ``start_at: planning`` opens
the Planning phase on the commanders' choice (MOD-VASSAL-02); the others offered
(:data:`MOD_START_POINTS`: all but ``retreat``) take the round's commanders from the fixture (``commanders``,
:func:`check_mod_commanders`) and orders on the board: a player's 18 tokens, sea tokens included
(MOD-SEA-05), a vassal's up to two tokens of its Vassal Order set (:func:`check_vassal_orders`).
"""

from __future__ import annotations

from collections import Counter

from ..core.errors import RuleViolation
from . import board_data
from .mother_of_dragons import check_given_deal, is_mother_of_dragons, lay_out_started, vassal_order_sets
from .orders import (
    VASSAL_FACES,
    VASSAL_ORDERS_PER_VASSAL,
    VASSAL_RAID_SUPPORT,
    VASSAL_SUPPORT,
    VASSAL_TOKENS,
    is_special,
    order_type,
    owned_tokens,
)
from .scenario_schema import AreaSetup, CombatSetup, HouseSetup, Scenario, TracksSetup, WesterosSetup
from .state import BoardState, PlacedOrder, Tracks
from .supply import supply_value
from .tracks import tracks_of

__all__ = [
    "AreaSetup",
    "CombatSetup",
    "HouseSetup",
    "Scenario",
    "TracksSetup",
    "WesterosSetup",
    "apply_scenario",
    "check_mod_commanders",
    "check_mod_players",
    "check_vassal_orders",
    "validate_scenario",
]

#: Start points after the orders are revealed: orders may stand on the board.
WITH_ORDERS = ("action", "raven", "combat", "retreat")
#: Start points inside the Action phase: routed units may stand on the board (BG-COMBAT-22).
IN_ACTION = ("action", "combat", "retreat")
#: The start points offered with Mother of Dragons (the others are refused, docs/mother-of-dragons.md):
#: after ``planning`` they open through the base game's paths (:mod:`.fixture_start`), the vassals'
#: decisions going to their commanders' seats.
MOD_START_POINTS = ("planning", "action", "raven", "westeros", "muster", "combat")
#: Start points after the raids (BG-ACT-01): a vassal's Raid/Support token shows its Support face.
AFTER_RAIDS = ("combat", "retreat")


def _fail(detail: str, rule: str | None = None) -> RuleViolation:
    return RuleViolation(detail, rule=rule, code="invalid_scenario")


def check_mod_players(state: BoardState, sc: Scenario) -> None:
    """A Mother of Dragons position (MOD-SETUP-01): ``seat_houses`` names a different one of the seven
    houses for each seat (the houses not named are vassals), and the start point is one offered
    with the expansion (:data:`MOD_START_POINTS`: not ``retreat``, whose vassal House card the fixture
    could not know: it is drawn from the seed, MOD-VASSAL-14)."""
    if sc.seat_houses is None:
        raise _fail(
            "a Mother of Dragons position names the players' houses (seat_houses, seat1 first); "
            "every other house is a vassal",
            "MOD-SETUP-01",
        )
    check_given_deal(state.player_count, list(sc.seat_houses), code="invalid_scenario")
    if sc.start_at not in MOD_START_POINTS:
        raise _fail(
            f"start_at: {sc.start_at} is not offered with Mother of Dragons yet: only "
            f"{' / '.join(MOD_START_POINTS)} (docs/mother-of-dragons.md)"
        )


def check_mod_commanders(state: BoardState, sc: Scenario) -> None:
    """The round's commanders given by the fixture (``state``: laid out for its players). With
    ``start_at: planning`` none: they are chosen when the Planning phase opens (MOD-VASSAL-02). At any
    later start point every vassal has exactly one commander, a player house (MOD-VASSAL-03/07), and
    the choice is one the sets could produce: one set per vassal dealt from the top of the Iron Throne
    track (MOD-VASSAL-02), a set passed only to the next player down (MOD-VASSAL-04), one vassal per
    set (MOD-VASSAL-06), the last player taking what is left (MOD-VASSAL-05). So the first ``k``
    players in Iron Throne order command at most the sets dealt to them, for every ``k``: on the
    fixture's track, which is the track of the round's Planning phase (the Action phase moves no
    influence track); not checked for a Westeros phase opening after deck I, whose cards resolved
    before (a Clash of Kings) may have moved it since."""
    vassals = list(state.vassals)
    if not vassals:
        if sc.commanders is not None:
            raise _fail("commanders are given only with Mother of Dragons vassals", "MOD-VASSAL-01")
        return
    if sc.start_at == "planning":
        if sc.commanders is not None:
            raise _fail(
                "with start_at: planning the commanders are chosen when the game opens: give no commanders",
                "MOD-VASSAL-02",
            )
        return
    given = dict(sc.commanders or {})
    if sorted(given) != sorted(vassals):
        raise _fail(
            f"commanders must give each vassal ({', '.join(vassals)}) its commander this round, once",
            "MOD-VASSAL-07",
        )
    players = [h for h in state.houses_in_play if h not in state.vassals]
    wrong = sorted(v for v, c in given.items() if c not in players)
    if wrong:
        raise _fail(
            f"a vassal's commander is a player house ({', '.join(players)}): not for {', '.join(wrong)}",
            "MOD-VASSAL-03",
        )
    if sc.start_at in ("westeros", "muster") and sc.westeros is not None and sc.westeros.start_deck != "deck_i":
        return  # a Clash of Kings already resolved may have moved the track the sets were dealt on
    throne = list(sc.tracks.iron_throne) if sc.tracks else list(tracks_of(state).iron_throne)
    in_order = [h for h in throne if h in players]
    dealt = vassal_order_sets(throne, vassals)
    held = commanded = 0
    for house in in_order[:-1]:
        held += dealt.get(house, 0)
        commanded += sum(1 for c in given.values() if c == house)
        if commanded > held:
            raise _fail(
                f"{house} and the players above it on the Iron Throne track held {held} Vassal Order "
                f"set(s) but command {commanded} vassals: a set passes only down the track",
                "MOD-VASSAL-04",
            )


def _house_cards(state: BoardState) -> dict[str, list[str]]:
    """Each house's own House cards (BG-SETUP-14; with Mother of Dragons Arryn's, MOD-DATA-01, and none
    for a vassal, MOD-VASSAL-14)."""
    cards = {h: [c.id for c in cs] for h, cs in board_data.cards().house_cards.items()}
    if not is_mother_of_dragons(state):
        return cards
    cards["arryn"] = [c.id for c in board_data.mother_of_dragons().arryn_house_cards]
    return {h: ([] if h in state.vassals else cs) for h, cs in cards.items()}


def _unit_limits(state: BoardState, house: str) -> dict[str, int]:
    """BG-COMP-03: the units a house owns (a Mother of Dragons house's from the expansion's facts)."""
    if is_mother_of_dragons(state):
        return board_data.mother_of_dragons().houses[house].unit_limits
    return board_data.setup().houses[house].unit_limits


def validate_scenario(state: BoardState, sc: Scenario) -> None:
    """Refuse a position the rules could never produce. ``state`` is the freshly created game (with
    Mother of Dragons, laid out for the fixture's players, :func:`check_mod_players`)."""
    facts = board_data.areas_for(state.settings.expansion)
    houses = set(state.houses_in_play)
    cards = _house_cards(state)
    units_on_board: dict[str, Counter[str]] = {h: Counter() for h in houses}
    tokens_on_board: Counter[str] = Counter()
    orders_by_house: dict[str, list[str]] = {h: [] for h in houses}
    printed = sc.garrisons == "printed"
    for area_id, a in sc.areas.items():
        if area_id not in facts:
            raise _fail(f"'{area_id}' is not an area of the board", "BG-MAP-01")
        area = facts[area_id]
        if state.areas[area_id].blocked and (a.units.as_dict() or a.power_token or a.neutral):
            raise _fail(f"'{area_id}' is impassable with {state.player_count} players", "BG-SETUP-06")
        units = a.units.as_dict()
        for who in (a.house, a.power_token):
            if who is not None and who not in houses:
                raise _fail(f"'{who}' is not a house in this game", "BG-SETUP-01")
        if units:
            if a.house is None:
                raise _fail(f"units in '{area_id}' need a house", "BG-COMP-05")
            land_units = {u for u in units if u != "ship"}
            if area.kind == "land" and "ship" in units:
                raise _fail(f"ships cannot stand in the land area '{area_id}'", "BG-COMP-05")
            if area.kind != "land" and land_units:
                raise _fail(f"land units cannot stand in '{area_id}'", "BG-COMP-05")
            if area.kind == "port" and units.get("ship", 0) > 3:
                raise _fail(f"at most 3 ships fit in '{area_id}'", "BG-MAP-07")
            units_on_board[a.house].update(units)
        if a.power_token is not None:
            if area.kind != "land":
                raise _fail(f"Power tokens are never placed in '{area_id}'", "BG-MAP-04")
            if units and a.house != a.power_token:
                raise _fail(f"'{area_id}' holds {a.house}'s units and {a.power_token}'s Power token", "BG-MAP-03")
            tokens_on_board[a.power_token] += 1
        routed = a.routed.as_dict()
        if routed:
            if sc.start_at not in IN_ACTION:
                raise _fail(f"routed units in '{area_id}' need start_at: {' / '.join(IN_ACTION)}", "BG-COMBAT-22")
            if any(n > units.get(u, 0) for u, n in routed.items()):
                raise _fail(f"'{area_id}' has more routed units than units", "BG-COMBAT-22")
        kept = state.areas[area_id].garrison if printed and a.garrison is None else 0  # a printed garrison kept
        holder = a.house if units else a.power_token
        if kept and holder is not None and holder != area.home_of:
            raise _fail(
                f"the printed garrison of '{area_id}' stays only while its home house holds it: "
                "give its garrison (0) or its home house",
                "BG-COMBAT-17",
            )
        if a.neutral and units:
            raise _fail(f"'{area_id}' cannot hold units and a neutral force", "BG-MAP-08")
        if a.order is not None:
            if sc.start_at not in WITH_ORDERS:
                raise _fail(f"orders on the board need start_at: {' / '.join(WITH_ORDERS)}", "BG-PLAN-06")
            if a.house in state.vassals:
                pass  # a vassal's set: check_vassal_orders (MOD-VASSAL-11)
            elif a.order not in owned_tokens(state.settings.expansion):
                raise _fail(f"'{a.order}' is not an order token of this game", "BG-ORDER-01")
            if not units:
                raise _fail(f"an order in '{area_id}' needs units there", "BG-PLAN-02")
            assert a.house is not None, "units need a house (checked above)"
            orders_by_house[a.house].append(a.order)
    for area_id, a in sc.areas.items():  # ports belong to whoever controls their land area
        port = facts[area_id].port_of
        if port is not None and a.units.as_dict():
            land = sc.areas.get(port.land)
            owner = (land.house if land and land.units.as_dict() else None) or (land.power_token if land else None)
            if owner is None and facts[port.land].home_of in houses:
                owner = facts[port.land].home_of
            if owner != a.house:
                raise _fail(f"{a.house}'s ships in '{area_id}' need {a.house} to control '{port.land}'", "BG-MAP-07")
    for h, counts in units_on_board.items():
        limits = _unit_limits(state, h)
        for u, n in counts.items():
            if n > limits[u]:
                raise _fail(f"{h} has {n} {u}s but only {limits[u]} exist", "BG-COMP-03")
    if sc.tracks is not None:
        for name in ("iron_throne", "fiefdoms", "kings_court"):
            if sorted(getattr(sc.tracks, name)) != sorted(houses):
                raise _fail(f"the {name} track must list each house in play once", "BG-COK-04")
    for h, hs in sc.houses.items():
        if h not in houses:
            raise _fail(f"'{h}' is not a house in this game", "BG-SETUP-01")
        if h in state.vassals and hs.power:
            raise _fail(f"the vassal {h} has no Power", "MOD-VASSAL-26")
        if h in state.vassals and (hs.hand or hs.discards):
            raise _fail(f"the vassal {h} has no House cards of its own", "MOD-VASSAL-14")
        power = hs.power if hs.power is not None else state.houses[h].power
        if power + tokens_on_board[h] > board_data.setup().power_tokens_per_house:
            raise _fail(f"{h} would have more than 20 Power tokens", "BG-POWER-01")
        hand, discards = hs.hand, hs.discards
        for pile in (hand or [], discards or []):
            for c in pile:
                if c not in cards[h]:
                    raise _fail(f"'{c}' is not one of {h}'s House cards", "BG-SETUP-14")
        if len(set(hand or []) | set(discards or [])) != len(hand or []) + len(discards or []):
            raise _fail(f"{h}'s House cards are listed twice", "BG-SETUP-14")
    stars = state.kings_court_stars
    court = list(sc.tracks.kings_court) if sc.tracks else list(tracks_of(state).kings_court)
    owned = owned_tokens(state.settings.expansion)
    for h, placed in orders_by_house.items():
        if h in state.vassals:
            check_vassal_orders(h, placed, sc.start_at)
            continue
        used = Counter(placed)
        for token, n in used.items():
            if n > owned[token]:
                raise _fail(f"{h} owns {owned[token]} '{token}' token(s), not {n}", "BG-ORDER-01")
        specials = sum(n for t, n in used.items() if is_special(t))
        if specials > stars[court.index(h)]:
            raise _fail(f"{h} may have at most {stars[court.index(h)]} special orders", "BG-PLAN-04")
    check_mod_commanders(state, sc)
    _validate_start(state, sc, orders_by_house)


def check_vassal_orders(vassal: str, placed: list[str], start_at: str) -> None:
    """MOD-VASSAL-08/11: a vassal's orders on the board come from its set of 4 Vassal Order tokens,
    each token once, at most two a round (``placed``: the fixture's orders in its areas). Once the raids
    are over (``combat``, ``retreat``) the Raid/Support token still on the board shows its Support +1
    face (MOD-VASSAL-11: a commander that did not raid with it)."""
    faces = {VASSAL_SUPPORT: VASSAL_RAID_SUPPORT} if start_at in AFTER_RAIDS else {}
    tokens = []
    for order in placed:
        if order not in VASSAL_TOKENS and order not in faces:
            shown = [*VASSAL_TOKENS, *(f for f in VASSAL_FACES if f in faces)]
            raise _fail(f"'{order}' is not one of {vassal}'s Vassal Order tokens: {', '.join(shown)}", "MOD-VASSAL-11")
        tokens.append(faces.get(order, order))
    if len(set(tokens)) != len(tokens):
        raise _fail(f"{vassal}'s set holds one token of each kind", "MOD-VASSAL-11")
    if len(tokens) > VASSAL_ORDERS_PER_VASSAL:
        raise _fail(
            f"a vassal takes at most {VASSAL_ORDERS_PER_VASSAL} orders a round, {vassal} has {len(tokens)}",
            "MOD-VASSAL-08",
        )


def _validate_start(state: BoardState, sc: Scenario, orders_by_house: dict[str, list[str]]) -> None:
    """The fixture's seat houses, deck orders and start point (the facts a start point needs; the
    pending decision itself is reached through the rules, :mod:`domain.board.fixture_start`)."""
    houses = set(state.houses_in_play)
    if is_mother_of_dragons(state):
        pass  # the players' houses: check_mod_players (MOD-SETUP-01)
    elif sc.seat_houses is not None and sorted(sc.seat_houses) != sorted(houses):
        raise _fail("seat_houses must list each house in play once, seat1 first", "BG-SETUP-02")
    _validate_decks(sc.westeros)
    if sc.start_at in ("westeros", "muster"):
        if sc.round < 2:
            raise _fail("there is no Westeros phase in round 1", "BG-ROUND-02")
    elif sc.westeros is not None and sc.westeros.start_deck != "deck_i":
        raise _fail("westeros.start_deck needs start_at: westeros or muster", "BG-WEST-01")
    if sc.start_at == "raven" and sc.raven_used:
        raise _fail("the Messenger Raven was already used this round", "BG-PLAN-08")
    if sc.start_at in ("combat", "retreat"):
        if sc.combat is None:
            raise _fail(f"start_at: {sc.start_at} needs the combat to describe (combat)", "BG-COMBAT-01")
        if any(order_type(o) == "raid" for placed in orders_by_house.values() for o in placed):
            raise _fail("raids are all resolved before any march: no Raid order may stand", "BG-ACT-01")
        c = sc.combat
        for area_id in (c.from_area, c.to_area):
            if area_id not in board_data.areas_for(state.settings.expansion):
                raise _fail(f"'{area_id}' is not an area of the board", "BG-MAP-01")
        late = c.cards or c.abilities or c.use_blade is not None or c.casualties is not None
        if sc.start_at == "combat" and late:
            raise _fail("cards, abilities, blade and casualties come after the House card choice", "BG-COMBAT-02")
    elif sc.combat is not None:
        raise _fail("combat needs start_at: combat or retreat", "BG-COMBAT-01")


def _validate_decks(w: WesterosSetup | None) -> None:
    """BG-SETUP-03/04: a given deck holds exactly its printed cards, in any order."""
    if w is None:
        return
    printed = board_data.cards()
    for deck, order in w.decks.items():
        cards = Counter(c.id for c in printed.westeros_decks[deck] for _ in range(c.count))
        if Counter(order) != cards:
            raise _fail(f"the order of {deck} must list each of its 10 cards (copies included) once", "BG-SETUP-04")
    if w.wildling_deck is not None and sorted(w.wildling_deck) != sorted(c.id for c in printed.wildling_cards):
        raise _fail("the wildling deck must list each of its 9 cards once", "BG-SETUP-03")


def apply_scenario(state: BoardState, sc: Scenario) -> None:
    """Lay the described position over a freshly set-up board (used by ``evolve``). With Mother of
    Dragons the setup of the fixture's players is laid out first (the vassals, their hands and Power,
    the Vassal Order sets), then the position replaces the board."""
    if is_mother_of_dragons(state) and not state.houses:
        lay_out_started(state, set(sc.seat_houses or []))
    printed = sc.garrisons == "printed"
    for area in state.areas.values():
        area.house, area.units, area.power_token, area.neutral = None, {}, None, 0
        area.garrison = area.garrison if printed else 0
    state.orders = {}
    state.scenario_routed = {a: r for a, s in sc.areas.items() if (r := s.routed.as_dict())}
    for area_id, a in sc.areas.items():
        target = state.areas[area_id]
        units = a.units.as_dict()
        target.house = a.house if units else None
        target.units = units
        target.power_token = a.power_token
        if a.garrison is not None or not printed:
            target.garrison = a.garrison or 0
        target.neutral = a.neutral
        if a.order is not None:
            assert a.house is not None, "an order stands with its house's units (validate_scenario)"
            state.orders[area_id] = PlacedOrder(house=a.house, order=a.order)
    if sc.tracks is not None:
        state.tracks = Tracks(
            iron_throne=list(sc.tracks.iron_throne),
            fiefdoms=list(sc.tracks.fiefdoms),
            kings_court=list(sc.tracks.kings_court),
        )
    for h in state.houses_in_play:
        hs = sc.houses.get(h, HouseSetup())
        house = state.houses[h]
        if hs.power is not None:
            house.power = hs.power
        house.supply = hs.supply if hs.supply is not None else supply_value(state, h)
        if hs.hand is not None:
            house.hand = list(hs.hand)
        if hs.discards is not None:
            house.discards = list(hs.discards)
    if sc.commanders is not None:  # MOD-VASSAL-03..07: the round's choice is made, every set used
        state.commanders = dict(sc.commanders)
        state.vassal_order_sets = {}
    state.raven_used = sc.raven_used
    state.blade_used = sc.blade_used
    state.round = sc.round
    state.wildling_threat = sc.wildling_threat
